// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag system: one answer for one host.
 *
 * `system check` runs the layers of the seed in order, each through the
 * engine of its own command (not a subprocess):
 *   device       link check
 *   topology     link check's GPUDirect checks (hosts with a GPU only)
 *   resource     qp watch's judgement from one short sample (qp.h)
 *   counter      counter check over a short interval
 *   connection   path test peer ADDR, stages up to rc_connect, ud, mtu
 *   performance  path test peer ADDR, latency, bandwidth, counters
 * and then prints one line per layer, the findings that want action (warn
 * and fail) and the first failing layer as the one to fix first. The
 * commands' verdicts are collected with a check observer (check.h); with -j
 * every command's report sits under its own key, as that command prints it.
 * --format prometheus/openmetrics gives every check of every layer as
 * rdmadiag_check_verdict (with layer and peer labels) and a verdict series
 * per layer (prom_report()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netlink/pcitopo.h"
#include "../netlink/source.h"
#include "check.h"
#include "check_select.h"
#include "common.h"
#include "link_check.h"
#include "objects.h"
#include "output.h"
#include "prom.h"
#include "qp.h"
#include "snapshot.h"

/* L_TOPOLOGY runs second but comes last here: skip_rest() names the others by index */
enum layer_kind { L_DEVICE, L_RESOURCE, L_COUNTER, L_CONNECTION, L_PERFORMANCE, L_TOPOLOGY };

static const struct {
	const char *token;
	const char *command;
} layer_info[] = {
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

#define MAX_PEERS 16
#define MAX_LAYERS (4 + 2 * MAX_PEERS)
#define MAX_FINDINGS 50		/* per layer in the summary; the sub-report has all */
#define MAX_IDS 96		/* check ids of the device, resource and counter layers */
#define ID_LIST_MAX 2048	/* a --skip list handed to a layer's command */

struct layer {
	enum layer_kind kind;
	const char *peer;		/* connection and performance layers */
	bool ran;
	int rc;				/* exit code of the command's engine */
	struct check_summary sum;
	char note[160];			/* said instead of the counts */
	int nfind, more;
	struct check_result *find;	/* MAX_FINDINGS, allocated on the first */
};

struct system_args {
	const char *dev_word;		/* DEV[/PORT] as typed, NULL: all */
	const char *peers[MAX_PEERS];
	int npeers;
	bool quick, strict;
	double interval;
	const char *interval_str;
	const char *only, *skip;	/* --only/--skip ID,... as given, NULL: not given */
};

struct system_run {
	const struct system_args *args;
	const struct cmd_ctx *ctx;	/* system check's own options */
	struct layer layer[MAX_LAYERS];
	int nlayers;
	struct layer *cur;		/* the layer the observer feeds */
	bool split_path;		/* path stages: connection, or the next layer */
	bool gpu_host;			/* a GPU on the PCI bus: the topology layer runs */
	bool prom;			/* --format prometheus or openmetrics */
	enum out_format format;
	FILE *devnull;			/* text and metrics: where the commands' own lines go */
	struct check_result *qp_results;	/* resource layer, emitted after the sample */
	int nqp_results, qp_capacity;
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
		prom_check_add_in(r, layer_info[l->kind].token, l->peer);
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

static void sub_opt(struct cmd_ctx *c, const char *name, const char *value)
{
	int i = opt_index(c->action, name);

	if (i >= 0) {
		c->opt[i].set = true;
		c->opt[i].str = value;
	}
}

/* An option of this action handed on as it was given (same name, same kind). */
static void sub_opt_same(struct cmd_ctx *c, const struct cmd_ctx *from, const char *name)
{
	const struct opt_value *v = ctx_opt(from, name);
	int i = opt_index(c->action, name);

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
		out_text("== %s layer: %s%s%s ==\n", layer_info[l->kind].token, layer_info[l->kind].command,
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
	check_measured(&r, "%s could not run here (exit %d)", layer_info[l->kind].command, l->rc);
	check_expected(&r, "the layer checked");
	check_verdict(&r, v, "the reason is printed above; run 'rdmadiag %s' alone to see it",
		      layer_info[l->kind].command);
	s->cur = l;
	observe(&r, s);	/* counted, and a finding, as the layer's own */
}

static int run_engine(struct system_run *s, struct layer *l, struct cmd_ctx *c)
{
	s->cur = l;
	check_set_observer(observe, s);
	l->rc = c->action->run(c);
	check_set_observer(NULL, NULL);
	l->ran = true;
	return l->rc;
}

/* ---- --only/--skip: each layer's command gets what concerns it ---- */

static const char *const resource_ids[] = { "qp.broken", "qp.stuck", NULL };
static const char *link_ids[MAX_IDS + 1];
static const char *const *counter_ids;
/* What --only/--skip accept: the ids of link check, the resource layer and
 * counter check, taken from their tables at start-up. */
static const char *system_ids[MAX_IDS + 1];

static const char *const *skip_choices(const struct object *o, const char *action)
{
	const struct action *a = action_of(o, action);
	int i = a ? opt_index(a, "--skip") : -1;

	return i >= 0 ? a->opts[i].choices : NULL;
}

__attribute__((constructor)) static void fill_system_ids(void)
{
	const char *const *parts[2] = { resource_ids, NULL };
	int n = 0;

	/* lc_checks, not link check's own choices: those are filled by a
	 * constructor too, and the order of constructors is not defined */
	for (int i = 0; lc_checks[i].id && n < MAX_IDS; i++)
		link_ids[n] = system_ids[n] = lc_checks[i].id, n++;
	counter_ids = parts[1] = skip_choices(&obj_counter, "check");
	for (int p = 0; p < 2; p++)
		for (const char *const *id = parts[p]; id && *id && n < MAX_IDS; id++)
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
			 s->args->only ? "--only" : "--skip", s->args->only ? "s" : "");
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
	for (const struct lc_check *c = lc_checks; c->id; c++)
		if (!strcmp(c->id, id))
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
		sub_opt(&c, "--skip", skip);
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
	sub_opt(&c, "--skip", skip);
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
	sub_opt(&c, "--interval", s->args->interval_str);
	if (skip[0])
		sub_opt(&c, "--skip", skip);
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
		sub_opt(&c, "--tests", "lat,ud,mtu,counters");	/* everything but bandwidth */
	if (s->args->dev_word)
		sub_opt(&c, "--dev", s->args->dev_word);
	sub_opt_same(&c, s->ctx, "--port");
	sub_opt_same(&c, s->ctx, "--iters");
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

/* ---- the report ---- */

static enum verdict layer_verdict(const struct layer *l)
{
	if (l->sum.fail)
		return V_FAIL;
	if (l->sum.warn)
		return V_WARN;
	return l->sum.pass ? V_PASS : V_SKIP;
}

static void layer_command(const struct layer *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", layer_info[l->kind].command, l->peer ? " " : "", l->peer ? l->peer : "");
}

struct first_fail {
	const struct layer *l;
	const struct check_result *r;	/* its first failing finding */
};

static struct first_fail first_failing(const struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];

		if (layer_verdict(l) != V_FAIL)
			continue;
		for (int j = 0; j < l->nfind; j++)
			if (l->find[j].verdict == V_FAIL)
				return (struct first_fail){ l, &l->find[j] };
		return (struct first_fail){ l, NULL };
	}
	return (struct first_fail){ NULL, NULL };
}

enum { LF_LAYER, LF_COMMAND, LF_PEER, LF_VERDICT, LF_NOTE, LF_MORE, LF_CHECK, LF_SUBJECT, LF_INTERRUPTED };
static const struct field layer_fields[] = {
	[LF_LAYER] = { "layer", NULL, FT_TOKEN, 0, NULL },
	[LF_COMMAND] = { "command", NULL, FT_STR, 0, NULL },
	[LF_PEER] = { "peer", NULL, FT_STR, 0, NULL },
	[LF_VERDICT] = { "verdict", NULL, FT_TOKEN, 0, NULL },
	[LF_NOTE] = { "note", NULL, FT_STR, 0, NULL },
	[LF_MORE] = { "more_findings", NULL, FT_U64, 0, NULL },
	[LF_CHECK] = { "check", NULL, FT_STR, 0, NULL },
	[LF_SUBJECT] = { "subject", NULL, FT_STR, 0, NULL },
	[LF_INTERRUPTED] = { "interrupted", NULL, FT_BOOL, 0, NULL },
};

static void text_layer_line(const struct layer *l)
{
	enum verdict v = layer_verdict(l);
	const char *tok = verdict_token(v);
	char cmd[96];

	layer_command(l, cmd, sizeof(cmd));
	out_text("%-12s %s%-4s%s  %-28s", layer_info[l->kind].token, out_color(tok), verdict_label(v),
		 out_color_reset(), cmd);
	if (!l->ran)
		out_text(" %s\n", l->note);
	else
		out_text(" %d pass, %d warn, %d fail, %d skip%s%s\n", l->sum.pass, l->sum.warn, l->sum.fail,
			 l->sum.skip, l->note[0] ? "; " : "", l->note);
}

static void json_layer(const struct layer *l)
{
	out_obj_begin(NULL);
	out_token(&layer_fields[LF_LAYER], layer_info[l->kind].token);
	out_str(&layer_fields[LF_COMMAND], layer_info[l->kind].command);
	if (l->peer)
		out_str(&layer_fields[LF_PEER], l->peer);
	out_token(&layer_fields[LF_VERDICT], verdict_token(layer_verdict(l)));
	if (l->note[0])
		out_str(&layer_fields[LF_NOTE], l->note);
	check_print_summary(&l->sum);
	out_list_begin("findings");
	for (int i = 0; i < l->nfind; i++)
		check_emit(&l->find[i], NULL);
	out_list_end();
	if (l->more)
		out_u64(&layer_fields[LF_MORE], l->more);
	out_obj_end();
}

static void text_findings(const struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];
		char cmd[96];

		if (!l->nfind)
			continue;
		layer_command(l, cmd, sizeof(cmd));
		out_text("\n%s layer (%s):\n", layer_info[l->kind].token, cmd);
		for (int j = 0; j < l->nfind; j++)
			check_emit(&l->find[j], NULL);
		if (l->more)
			out_text("      ... and %d more (rdmadiag -j system check, or run the command alone)\n", l->more);
	}
}

static void print_fix_first(const struct system_run *s)
{
	struct first_fail f = first_failing(s);
	char cmd[96];

	if (!f.l) {
		if (!out_is_json())
			out_text("\n%s\n", s->nlayers ? "no layer fails" : "nothing checked");
		return;
	}
	layer_command(f.l, cmd, sizeof(cmd));
	if (out_is_json()) {
		out_obj_begin("fix_first");
		out_token(&layer_fields[LF_LAYER], layer_info[f.l->kind].token);
		out_str(&layer_fields[LF_COMMAND], layer_info[f.l->kind].command);
		if (f.l->peer)
			out_str(&layer_fields[LF_PEER], f.l->peer);
		if (f.r) {
			out_str(&layer_fields[LF_CHECK], f.r->id);
			out_str(&layer_fields[LF_SUBJECT], f.r->subject);
		}
		out_obj_end();
		return;
	}
	out_text("\nfix first: the %s layer (%s)", layer_info[f.l->kind].token, cmd);
	if (f.r)
		out_text(": %s on %s", f.r->id, f.r->subject);
	out_text("\n");
}

static void print_report(const struct system_run *s)
{
	if (out_is_json()) {
		out_list_begin("layers");
		for (int i = 0; i < s->nlayers; i++)
			json_layer(&s->layer[i]);
		out_list_end();
	} else {
		for (int i = 0; i < s->nlayers; i++)
			text_layer_line(&s->layer[i]);
		text_findings(s);
	}
	if (out_is_json() && interrupt_noted())
		out_bool(&layer_fields[LF_INTERRUPTED], true);
	else if (interrupt_noted())
		out_text("\ninterrupted: the layers after the one running then were not run\n");
	print_fix_first(s);
}

/* --format prometheus/openmetrics: a verdict series per layer, then every
 * check the layers ran (observe() collected them). */
static void prom_report(const struct system_run *s)
{
	static const enum verdict all[] = { V_PASS, V_WARN, V_FAIL, V_SKIP };
	const char *name = "rdmadiag_system_layer_verdict";

	prom_family(stdout, s->format, name, "gauge",
		    "1 for the verdict of a layer of system check (pass, warn, fail, skip), 0 for the others");
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];

		for (int v = 0; v < 4; v++) {
			struct prom_label lb[] = {
				{ "layer", layer_info[l->kind].token }, { "command", layer_info[l->kind].command },
				{ "peer", l->peer }, { "verdict", verdict_token(all[v]) },
			};

			prom_gauge(stdout, name, lb, 4, layer_verdict(l) == all[v]);
		}
	}
	prom_checks_print(s->format, "system check");
	prom_end(stdout, s->format);
}

/* 0, or 1 when a layer fails (or warns, with --strict); exit codes as link check. */
static int system_exit_code(const struct system_run *s)
{
	struct check_summary all = { 0 };

	for (int i = 0; i < s->nlayers; i++)
		check_tally(&all, layer_verdict(&s->layer[i]));
	return check_exit_code(&all, s->args->strict);
}

/* ---- the command line ---- */

static int parse_peer(struct system_args *a, char **argv, int argc, int i)
{
	if (i + 1 >= argc) {
		usage_error("'peer' needs an ADDR (the IP address of a host running 'rdmadiag path serve')");
		return -1;
	}
	if (!is_ip_address(argv[i + 1])) {
		usage_error("'%s' is not an IP address (peer ADDR wants the peer's IP on the RDMA network)",
			    argv[i + 1]);
		return -1;
	}
	if (a->npeers >= MAX_PEERS) {
		usage_error("at most %d peers in one system check", MAX_PEERS);
		return -1;
	}
	a->peers[a->npeers++] = argv[i + 1];
	return 0;
}

static int parse_args(const struct cmd_ctx *ctx, struct system_args *a)
{
	struct dev_port sel;
	int i = 0;

	a->quick = ctx_opt(ctx, "--quick")->set;
	a->strict = ctx_opt(ctx, "--strict")->set;
	a->only = ctx_opt_str(ctx, "--only", NULL);
	a->skip = ctx_opt_str(ctx, "--skip", NULL);
	if (check_only_skip_conflict(a->only, a->skip, system_ids))
		return -1;
	a->interval = ctx_opt_dbl(ctx, "--interval", 1.0);
	a->interval_str = ctx_opt_str(ctx, "--interval", "1");
	if (a->interval < INTERVAL_MIN_S) {	/* the dispatcher's bound (OPT_SECONDS): never met */
		usage_error("--interval: '%s' is too short (at least 0.01 s)", a->interval_str);
		return -1;
	}
	if (ctx->argc > 0 && strcmp(ctx->argv[0], "peer")) {
		/* DEV is optional, so a bare address would be taken for a device */
		if (is_ip_address(ctx->argv[0])) {
			usage_error("system check: a peer address needs the keyword 'peer' before it: rdmadiag "
				    "system check peer %s", ctx->argv[0]);
			return -1;
		}
		if (parse_dev_port(ctx->argv[0], &sel))
			return -1;
		a->dev_word = ctx->argv[0];
		i = 1;
	}
	for (; i < ctx->argc; i += 2) {
		if (strcmp(ctx->argv[i], "peer")) {
			usage_error("unexpected '%s': system check takes [DEV[/PORT]] then 'peer ADDR' words",
				    ctx->argv[i]);
			return -1;
		}
		if (parse_peer(a, ctx->argv, ctx->argc, i))
			return -1;
	}
	if (a->npeers && source_replaying()) {
		usage_error("peers cannot be tested from a replay (it holds no peer); leave out the 'peer ADDR' words");
		return -1;
	}
	return 0;
}

static void free_run(struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++)
		free(s->layer[i].find);
	free(s->qp_results);
	if (s->devnull)
		fclose(s->devnull);
}

/* The layers not reached (the device layer found no RDMA to check, or
 * Ctrl-C): listed, not run, with the reason. Layers come in a fixed order:
 * device, resource, counter, then connection and performance per peer. */
static void skip_rest(struct system_run *s, const char *why)
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

/* The layers in order; Ctrl-C stops between them (each command also cuts
 * its own waits short). EXIT_OK, or EXIT_USAGE/EXIT_HOST as the device or
 * resource layer found. */
static int run_layers(struct system_run *s)
{
	int rc = run_device_layer(s);

	if (rc == EXIT_HOST || rc == EXIT_USAGE) {
		if (!interrupt_noted())
			skip_rest(s, "the device layer cannot check this host");
		return rc;
	}
	if (interrupt_noted())
		return EXIT_OK;
	if (no_rdma_device(&s->layer[0])) {
		skip_rest(s, "this host has no RDMA device");
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

static int system_check(struct cmd_ctx *ctx)
{
	static struct system_run s;	/* large: every layer's findings */
	struct system_args a = { 0 };
	enum out_format fmt;
	int rc = out_format_get(ctx, &fmt);

	if (rc)
		return rc;
	if (parse_args(ctx, &a))
		return EXIT_USAGE;
	/* report merge names the node by it, as for link check and path test */
	out_set_host(local_host_name());
	memset(&s, 0, sizeof(s));
	s.args = &a;
	s.ctx = ctx;
	s.gpu_host = pt_host_has_gpu();
	s.format = fmt;
	s.prom = out_format_is_prom(fmt);
	if (!out_is_json() && (!g_opts.details || s.prom)) {
		s.devnull = fopen("/dev/null", "w");
		if (!s.devnull) {
			report_error("cannot open /dev/null", "a broken /dev", "fix the container or chroot's /dev");
			return EXIT_RUNTIME;
		}
	}
	interrupt_catch();	/* until a layer's command puts its own handler in place */
	rc = run_layers(&s);
	if (interrupt_noted())
		skip_rest(&s, "interrupted");
	if (rc != EXIT_USAGE && s.prom)
		prom_report(&s);
	else if (rc != EXIT_USAGE)
		print_report(&s);
	if (rc == EXIT_OK)
		rc = system_exit_code(&s);
	/* as path test with peers left: an interrupted check is not a clean one */
	if (rc == EXIT_OK && interrupt_noted())
		rc = EXIT_PROBLEM;
	free_run(&s);
	return rc;
}

static const struct cmd_opt check_opts[] = {
	{ "--quick", OPT_FLAG, NULL, "skip the bandwidth stages of the peer tests", NULL, 0, 0, COMPLETE_NONE },
	{ "--strict", OPT_FLAG, NULL, "warnings fail too (exit 1)", NULL, 0, 0, COMPLETE_NONE },
	/* handed to each layer's command as the ids of its own checks */
	{ "--only", OPT_LIST, "ID,...", "run only these checks of the device, resource and counter layers",
	  system_ids, 0, 0, COMPLETE_CHECK_ID },
	{ "--skip", OPT_LIST, "ID,...", "leave these checks of the device, resource and counter layers out",
	  system_ids, 0, 0, COMPLETE_CHECK_ID },
	{ "--interval", OPT_SECONDS, "S", "seconds between the two QP and counter samples (default 1)", NULL, 0, 60,
	  COMPLETE_NONE },
	/* handed to path test as they are: same names, kinds and bounds */
	{ "--port", OPT_UINT, "N", "TCP port of the peers' path serve (default 4792)", NULL, 1, 65535, COMPLETE_NONE },
	{ "--iters", OPT_UINT, "N", "messages per peer test (path test --iters)", NULL, 1, 100000000, COMPLETE_NONE },
	OUT_FORMAT_OPT,
	{ 0 },
};

static const struct cmd_word check_words[] = {
	{ "peer", COMPLETE_HOST, NULL, NULL, WORD_REPEAT },
	{ NULL },
};

static const struct action system_actions[] = {
	{ "check", "[DEV[/PORT]] [peer ADDR]...",
	  "every layer in order: device, resource (QPs), counters, then connection and performance to each peer",
	  system_check, 0, check_opts, COMPLETE_DEV_PORT, check_words },
	SYSTEM_SNAPSHOT_ACTION,
	{ 0 },
};

const struct object obj_system = { "system", "one verdict for the host: all layers in order, first to fix named",
				   system_actions };
