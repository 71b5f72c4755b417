// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layers of `rdmadiag system check` (system.c), run in order, each
 * through the engine of its own command, with the verdicts they give
 * collected by a check observer; see system_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_select.h"
#include "common.h"
#include "link_check.h"
#include "objects.h"
#include "prom.h"
#include "qp.h"
#include "system_int.h"

const struct layer_info system_layer_info[] = {

	[L_DEVICE] = { "device", "link check" },
	[L_RESOURCE] = { "resource", "qp watch" },
	[L_COUNTER] = { "counter", "counter check" },
	[L_CONNECTION] = { "connection", "path test" },
	[L_PERFORMANCE] = { "performance", "path test" },
	[L_TOPOLOGY] = { "topology", "link check" },
};

/* Stages of path test that measure rather than connect. */
static const char *const performance_stages[] = {
	"path.rc_latency", "path.write_bw", "path.read_bw", "path.send_bw", "path.counters", NULL,
};

/* ---- collecting verdicts ---- */

static bool is_performance_stage(const char *id)
{
	for (int i = 0; performance_stages[i]; i++)
		if (!strcmp(performance_stages[i], id))
			return true;
	return false;
}

static void add_finding(struct layer *l, const struct check_result *r)
{
	if (!l->find)
		l->find = calloc(MAX_FINDINGS, sizeof(*l->find));
	if (!l->find || l->nfind >= MAX_FINDINGS) {
		l->more++;
		return;
	}
	l->find[l->nfind++] = *r;
}

static void observe(const struct check_result *r, void *data)
{
	struct system_run *s = data;
	struct layer *l = s->cur;

	if (s->split_path && is_performance_stage(r->id))
		l++;
	check_tally(&l->sum, r->verdict);
	if (r->verdict == V_WARN || r->verdict == V_FAIL)
		add_finding(l, r);
	if (s->prom)
		prom_check_add_in(r, system_layer_info[l->kind].token, l->peer);
}

static struct layer *add_layer(struct system_run *s, enum layer_kind kind, const char *peer)
{
	struct layer *l = &s->layer[s->nlayers++];

	l->kind = kind;
	l->peer = peer;
	return l;
}

/* ---- running a command's engine ---- */

static const struct action *action_of(const struct object *o, const char *name)
{
	for (const struct action *a = o->actions; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* The context the dispatcher would have built for `OBJECT ACTION WORDS...`. */
static void sub_ctx(struct cmd_ctx *c, const struct object *o, const char *action, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	c->object = o;
	c->action = action_of(o, action);
	c->argc = argc;
	c->argv = argv;
}

/* Sets an option of the layer's command as the parser would have: a wrong
 * id is caught as opt_slot() says (every layer's command declares those it
 * is handed; a strict build aborts on one it does not). */
static void sub_opt(struct cmd_ctx *c, enum opt_id id, const char *value)
{
	int i = opt_slot(c->action, id);

	if (i >= 0) {
		c->opt[i].set = true;
		c->opt[i].str = value;
	}
}

/* An option of this action handed on as it was given (same name, same kind). */
static void sub_opt_same(struct cmd_ctx *c, const struct cmd_ctx *from, enum opt_id id)
{
	const struct opt_value *v = ctx_opt(from, id);
	int i = opt_slot(c->action, id);

	if (i >= 0 && v->set)
		c->opt[i] = *v;
}

/* A command's report: under its key in JSON; in text shown with -d after a
 * heading, otherwise written nowhere (the layer lines say it shorter). */
static void sub_begin(struct system_run *s, const char *key, const struct layer *l)
{
	if (out_is_json()) {
		out_obj_begin(key);
		return;
	}
	if (g_opts.details && !s->prom) {
		out_text("== %s layer: %s%s%s ==\n", system_layer_info[l->kind].token, system_layer_info[l->kind].command,
			 l->peer ? " peer " : "", l->peer ? l->peer : "");
		return;
	}
	out_redirect(s->devnull);
}

static void sub_end(bool prom)
{
	if (out_is_json()) {
		out_obj_end();
		return;
	}
	out_newline();	/* a line the command left open ends where it was written */
	if (g_opts.details && !prom)
		out_text("\n");
	out_redirect(stdout);
}

static bool note_interrupted(struct layer *l);

/* A layer whose command could not run at all says so as a finding; one cut
 * short by Ctrl-C says that instead. */
static void note_unchecked(struct system_run *s, struct layer *l, enum verdict v)
{
	struct check_result r;

	if (note_interrupted(l) || l->sum.fail || l->rc < EXIT_USAGE)
		return;
	check_init(&r, "system.unchecked", "host");
	check_measured(&r, "%s could not run here (exit %d)", system_layer_info[l->kind].command, l->rc);
	check_expected(&r, "the layer checked");
	check_verdict(&r, v, "the reason is printed above; run 'rdmadiag %s' alone to see it",
		      system_layer_info[l->kind].command);
	s->cur = l;
	observe(&r, s);	/* counted, and a finding, as the layer's own */
}

static int run_engine(struct system_run *s, struct layer *l, struct cmd_ctx *c)
{
	s->cur = l;
	check_set_observer(observe, s);
	l->rc = cmd_run(c);	/* as the dispatcher runs it: words, netlink, handler */
	check_set_observer(NULL, NULL);
	l->ran = true;
	return l->rc;
}

/* ---- --only/--skip: each layer's command gets what concerns it ---- */

static const char *const resource_ids[] = { "qp.broken", "qp.stuck", NULL };
static const char *link_ids[MAX_IDS + 1];
static const char *counter_ids[MAX_IDS + 1];
const char *system_ids[MAX_IDS + 1];

/* The ids of the checks of o's action (its table's: the choices of its
 * --only/--skip are filled by a constructor too, and the order of
 * constructors is not defined), ending with NULL. */
static void check_ids_of(const struct object *o, const char *action, const char **ids)
{
	const struct action *a = action_of(o, action);
	const struct check_def *d;
	int n = 0;

	for (size_t i = 0; a && a->checks && (d = a->checks(i)) && n < MAX_IDS; i++)
		ids[n++] = d->id;
	ids[n] = NULL;
}

__attribute__((constructor)) static void fill_system_ids(void)
{
	const char *const *parts[3] = { link_ids, resource_ids, counter_ids };
	int n = 0;

	check_ids_of(&obj_link, "check", link_ids);
	check_ids_of(&obj_counter, "check", counter_ids);
	for (int p = 0; p < 3; p++)
		for (const char *const *id = parts[p]; *id && n < MAX_IDS; id++)
			system_ids[n++] = *id;
}

static bool id_selected(const struct system_args *a, const char *id)
{
	return check_id_selected(a->only, a->skip, id);
}

/* The --skip for a layer's command: those of its ids that are not selected
 * (one option for every layer, whatever options the layer's command has). Returns
 * how many of its ids are selected; 0: the layer has nothing to run and says
 * so in its note. */
static int layer_selection(const struct system_run *s, struct layer *l, const char *const *ids, char *skip)
{
	size_t n = 0;
	int selected = 0;

	skip[0] = '\0';
	for (; ids && *ids; ids++) {
		if (id_selected(s->args, *ids))
			selected++;
		else if (n + strlen(*ids) + 2 < ID_LIST_MAX)
			n += (size_t)sprintf(skip + n, "%s%s", n ? "," : "", *ids);
	}
	if (!selected)
		snprintf(l->note, sizeof(l->note), "not run: %s leave%s none of its checks",
			 opt_names[s->args->only ? O_ONLY : O_SKIP], s->args->only ? "s" : "");
	return selected;
}

/* ---- Ctrl-C ---- */

/* A layer cut short by Ctrl-C says so; what it found before stays. */
static bool note_interrupted(struct layer *l)
{
	char was[sizeof(l->note)];

	if (!interrupt_noted())
		return false;
	snprintf(was, sizeof(was), "%s", l->note);
	snprintf(l->note, sizeof(l->note), "interrupted%s%s", was[0] ? "; " : "", was);
	return true;
}

static int dev_words(const struct system_args *a, char **words)
{
	words[0] = (char *)a->dev_word;
	return a->dev_word ? 1 : 0;
}

/* The checks of the topology layer: link check's rows for GPU hosts. */
static bool is_topology_check(const char *id)
{
	for (const struct lc_check *c = lc_checks; c->def.id; c++)
		if (!strcmp(c->def.id, id))
			return c->scope == LC_GPU || c->scope == LC_GPU_HOST;
	return false;
}

/* link check's ids of one layer: the device layer's or the topology layer's. */
static void layer_link_ids(bool topology, const char **ids)
{
	int n = 0;

	for (int i = 0; link_ids[i]; i++)
		if (is_topology_check(link_ids[i]) == topology)
			ids[n++] = link_ids[i];
	ids[n] = NULL;
}

/* Adds to skip what the other layer checks (a list as layer_selection makes). */
static void skip_also(char *skip, const char *const *ids)
{
	size_t n = strlen(skip);

	for (; *ids; ids++)
		if (!list_has(skip, *ids) && n + strlen(*ids) + 2 < ID_LIST_MAX)
			n += (size_t)sprintf(skip + n, "%s%s", n ? "," : "", *ids);
}

static int run_device_layer(struct system_run *s)
{
	struct layer *l = add_layer(s, L_DEVICE, NULL);
	char *words[1], skip[ID_LIST_MAX];
	const char *device_ids[MAX_IDS + 1], *topology_ids[MAX_IDS + 1];
	struct cmd_ctx c;

	layer_link_ids(false, device_ids);
	layer_link_ids(true, topology_ids);
	if (!layer_selection(s, l, s->gpu_host ? device_ids : link_ids, skip))
		return EXIT_OK;
	if (s->gpu_host)
		skip_also(skip, topology_ids);
	sub_ctx(&c, &obj_link, "check", dev_words(s->args, words), words);
	if (skip[0])
		sub_opt(&c, O_SKIP, skip);
	sub_begin(s, "link_check", l);
	run_engine(s, l, &c);
	sub_end(s->prom);
	note_unchecked(s, l, V_FAIL);
	return l->rc;
}

/* GPUDirect RDMA: the GPU checks of link check, on hosts with a GPU. */
static int run_topology_layer(struct system_run *s)
{
	struct layer *l = add_layer(s, L_TOPOLOGY, NULL);
	const char *device_ids[MAX_IDS + 1], *topology_ids[MAX_IDS + 1];
	char *words[1], skip[ID_LIST_MAX];
	struct cmd_ctx c;

	layer_link_ids(false, device_ids);
	layer_link_ids(true, topology_ids);
	if (!layer_selection(s, l, topology_ids, skip))
		return EXIT_OK;
	skip_also(skip, device_ids);
	sub_ctx(&c, &obj_link, "check", dev_words(s->args, words), words);
	sub_opt(&c, O_SKIP, skip);
	sub_begin(s, "topology_check", l);
	run_engine(s, l, &c);
	sub_end(s->prom);
	note_unchecked(s, l, V_WARN);
	return l->rc;
}

static int run_counter_layer(struct system_run *s)
{
	struct layer *l = add_layer(s, L_COUNTER, NULL);
	char *words[1], skip[ID_LIST_MAX];
	struct cmd_ctx c;

	if (!layer_selection(s, l, counter_ids, skip))
		return EXIT_OK;
	sub_ctx(&c, &obj_counter, "check", dev_words(s->args, words), words);
	sub_opt(&c, O_INTERVAL, s->args->interval_str);
	if (skip[0])
		sub_opt(&c, O_SKIP, skip);
	sub_begin(s, "counter_check", l);
	run_engine(s, l, &c);
	sub_end(s->prom);
	note_unchecked(s, l, V_WARN);
	return l->rc;
}

/* ---- resource layer: qp watch's judgement ---- */

static const char broken_hint[] =
	"the QP left RTS: an error (ERR/SQE) ends its work requests with a failed completion, SQD means it was "
	"drained; see its owner (pid/comm), that application's log, and 'rdmadiag counter check' for "
	"retransmissions or timeouts";
static const char stuck_hint[] =
	"the connection never completed (the QP did not reach RTS): the peer did not answer or the application "
	"stopped half way; test the peer with 'rdmadiag path test peer ADDR' and check firewalls for UDP 4791";

static void on_qp_flag(const struct rd_res *r, const char *flag, const char *reason, void *data)
{
	struct system_run *s = data;
	bool broken = !strcmp(flag, "broken");
	struct check_result *cr, *grown;
	const char *comm = res_comm(r);
	char subject[96];

	if (!id_selected(s->args, broken ? "qp.broken" : "qp.stuck"))
		return;	/* left out by --only/--skip */
	if (s->nqp_results == s->qp_capacity) {
		int cap = s->qp_capacity ? 2 * s->qp_capacity : 16;

		grown = realloc(s->qp_results, cap * sizeof(*grown));
		if (!grown)
			return;	/* the flag event is printed; only its finding is lost */
		s->qp_results = grown;
		s->qp_capacity = cap;
	}
	cr = &s->qp_results[s->nqp_results++];
	if (rd_res_has(r, RF_PORT))
		snprintf(subject, sizeof(subject), "%s/%u qp %u", r->dev_name, r->port, r->id);
	else
		snprintf(subject, sizeof(subject), "%s qp %u", r->dev_name, r->id);
	check_init(cr, broken ? "qp.broken" : "qp.stuck", subject);
	check_measured(cr, "%s (%s QP of %s)", reason, rd_qp_type_name(r->type), comm ? comm : "an owner now gone");
	check_expected(cr, broken ? "RTS, or destroyed" : "RTS within %.1f s", s->args->interval);
	check_verdict(cr, V_FAIL, "%s", broken ? broken_hint : stuck_hint);
}

/* A pass line for each judgement nothing was flagged by. */
static void emit_qp_clean(struct system_run *s, const char *id, const char *what, unsigned nqps)
{
	struct check_result r;

	if (!id_selected(s->args, id))
		return;
	for (int i = 0; i < s->nqp_results; i++)
		if (!strcmp(s->qp_results[i].id, id))
			return;
	check_init(&r, id, s->args->dev_word ? s->args->dev_word : "host");
	check_measured(&r, "%u QP%s sampled %g s apart, none %s", nqps, nqps == 1 ? "" : "s", s->args->interval,
		       what);
	check_verdict(&r, V_PASS, NULL);
	check_emit(&r, NULL);
}

static const struct field qp_layer_fields[] = {
	{ "qps", NULL, FT_U64, 0, NULL },
	{ "interval_s", NULL, FT_DOUBLE, 0, NULL },
};

static int run_resource_layer(struct system_run *s)
{
	struct layer *l = add_layer(s, L_RESOURCE, NULL);
	char *words[1], unused[ID_LIST_MAX];
	struct res_query q;
	struct cmd_ctx c;
	unsigned nqps = 0;

	if (!layer_selection(s, l, resource_ids, unused))
		return EXIT_OK;	/* its ids are judged here: nothing to hand on */
	sub_ctx(&c, &obj_qp, "watch", dev_words(s->args, words), words);
	if (qp_query_parse(&c, &q))
		return EXIT_USAGE;
	sub_begin(s, "qp_watch", l);
	out_list_begin("events");
	s->cur = l;
	l->rc = qp_sample_judge(&q, s->args->interval, on_qp_flag, s, &nqps);
	l->ran = true;
	out_list_end();
	out_u64(&qp_layer_fields[0], nqps);
	out_double(&qp_layer_fields[1], s->args->interval, 3);
	check_set_observer(observe, s);
	/* checks and summary together, or neither when the QPs could not be read */
	if (!l->rc) {
		out_list_begin("checks");
		for (int i = 0; i < s->nqp_results; i++)
			check_emit(&s->qp_results[i], NULL);
		emit_qp_clean(s, "qp.broken", "in SQD, SQE or ERR", nqps);
		emit_qp_clean(s, "qp.stuck", "stuck in INIT or RTR", nqps);
		out_list_end();
	}
	check_set_observer(NULL, NULL);
	if (!l->rc)
		check_print_summary(&l->sum);
	sub_end(s->prom);
	if (!l->rc)
		snprintf(l->note, sizeof(l->note), "%u QP%s sampled %g s apart", nqps, nqps == 1 ? "" : "s", s->args->interval);
	note_unchecked(s, l, V_WARN);
	return l->rc;
}

/* ---- connection and performance layers: path test per peer ---- */

static const struct field peer_field = { "peer", NULL, FT_STR, FF_HEAD, NULL };

static void run_peer(struct system_run *s, const char *peer)
{
	struct layer *l = add_layer(s, L_CONNECTION, peer);
	char *words[2] = { "peer", (char *)peer };
	struct cmd_ctx c;

	add_layer(s, L_PERFORMANCE, peer);
	sub_ctx(&c, &obj_path, "test", 2, words);
	if (s->args->quick)
		sub_opt(&c, O_TESTS, "lat,ud,mtu,counters");	/* everything but bandwidth */
	if (s->args->dev_word)
		sub_opt(&c, O_DEV, s->args->dev_word);
	sub_opt_same(&c, s->ctx, O_PORT);
	sub_opt_same(&c, s->ctx, O_ITERS);
	sub_begin(s, NULL, l);
	if (out_is_json())
		out_str(&peer_field, peer);
	s->split_path = true;
	run_engine(s, l, &c);
	s->split_path = false;
	sub_end(s->prom);
	note_unchecked(s, l, V_FAIL);
	l[1].ran = true;
	l[1].rc = l->rc;
	if (s->args->quick)
		snprintf(l[1].note, sizeof(l[1].note), "--quick: no bandwidth stages");
}

static void run_peers(struct system_run *s)
{
	if (!s->args->npeers)
		return;
	if (out_is_json())
		out_list_begin("path_test");
	for (int i = 0; i < s->args->npeers && !interrupt_noted(); i++)
		run_peer(s, s->args->peers[i]);
	if (out_is_json())
		out_list_end();
}

void system_skip_rest(struct system_run *s, const char *why)
{
	int total = 3 + 2 * s->args->npeers, done = 0;

	for (int i = 0; i < s->nlayers; i++)
		done += s->layer[i].kind != L_TOPOLOGY;	/* the fixed order below has no topology layer */
	for (int i = done; i < total; i++) {
		enum layer_kind kind = i < 3 ? (enum layer_kind)i : (i - 3) % 2 ? L_PERFORMANCE : L_CONNECTION;
		struct layer *l = add_layer(s, kind, i < 3 ? NULL : s->args->peers[(i - 3) / 2]);

		snprintf(l->note, sizeof(l->note), "not run: %s", why);
	}
}

/* The device layer failed kernel.rdma: netlink answers but the host has no
 * RDMA device, so no later layer has anything to look at. */
static bool no_rdma_device(const struct layer *l)
{
	for (int i = 0; i < l->nfind; i++)
		if (!strcmp(l->find[i].id, "kernel.rdma") && l->find[i].verdict == V_FAIL)
			return true;
	return false;
}

int system_run_layers(struct system_run *s)
{
	int rc = run_device_layer(s);

	if (rc == EXIT_HOST || rc == EXIT_USAGE) {
		if (!interrupt_noted())
			system_skip_rest(s, "the device layer cannot check this host");
		return rc;
	}
	if (interrupt_noted())
		return EXIT_OK;
	if (no_rdma_device(&s->layer[0])) {
		system_skip_rest(s, "this host has no RDMA device");
		return EXIT_OK;
	}
	if (s->gpu_host)
		run_topology_layer(s);
	if (interrupt_noted())
		return EXIT_OK;
	rc = run_resource_layer(s);
	if (rc == EXIT_USAGE)
		return rc;
	if (!interrupt_noted())
		run_counter_layer(s);
	run_peers(s);
	return EXIT_OK;
}
