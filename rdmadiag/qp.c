// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag qp: queue pairs from the kernel's resource tracking
 * (RDMA_NLDEV_CMD_RES_QP_GET), and `qp watch`, which polls them and reports
 * only what changes. The kernel sends no QP state events, so watch dumps
 * each device once per round and diffs against a hash table keyed by
 * (device, lqpn). The device list is kept by devwatch.c: compared every
 * round, with monitor events printed as they arrive on kernels that send them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../host/source.h"
#include "../netlink/res.h"
#include "common.h"
#include "devwatch.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"
#include "qp.h"

enum {
	F_LQPN, F_TYPE, F_STATE, F_RQPN, F_SQ_PSN, F_RQ_PSN, F_PATH_MIG, F_PDN,
	F_EVENT, F_TIME, F_OLD_STATE, F_SECONDS, F_FLAG, F_REASON,
};

static const struct field qp_fields[] = {
	[F_LQPN] = { "lqpn", NULL, FT_U64, 0, NULL },
	[F_TYPE] = { "qp_type", NULL, FT_TOKEN, 0, NULL },
	[F_STATE] = { "state", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	[F_RQPN] = { "rqpn", NULL, FT_U64, 0, NULL },
	[F_SQ_PSN] = { "sq_psn", NULL, FT_U64, 0, NULL },
	[F_RQ_PSN] = { "rq_psn", NULL, FT_U64, 0, NULL },
	[F_PATH_MIG] = { "path_mig_state", NULL, FT_TOKEN, 0, NULL },
	[F_PDN] = { "pdn", NULL, FT_U64, 0, NULL },
	[F_EVENT] = { "event", NULL, FT_TOKEN, FF_HEAD, NULL },
	[F_TIME] = { "elapsed_s", NULL, FT_DOUBLE, 0, NULL },
	[F_OLD_STATE] = { "old_state", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	[F_SECONDS] = { "seconds_in_old_state", NULL, FT_DOUBLE, 0, "s" },
	[F_FLAG] = { "flag", NULL, FT_TOKEN, 0, NULL },	/* "broken", "stuck" */
	[F_REASON] = { "reason", NULL, FT_STR, 0, NULL },
};

static int parse_qp_type(const char *s) { return rd_qp_type_parse(s); }
static int parse_qp_state(const char *s) { return rd_qp_state_parse(s); }

static const struct rfilter_key qp_keys[] = {
	{ .name = "lqpn", .field = RF_ID, .kind = RFK_NUM, .complete = COMPLETE_QPN },
	{ .name = "rqpn", .field = RF_RQPN, .kind = RFK_NUM, .complete = COMPLETE_RQPN },
	{ .name = "type", .field = RF_TYPE, .kind = RFK_ENUM, .parse = parse_qp_type,
	  .values = "rc uc ud gsi smi raw_packet xrc_ini xrc_tgt driver" },
	{ .name = "state", .field = RF_STATE, .kind = RFK_ENUM, .parse = parse_qp_state,
	  .values = "reset init rtr rts sqd sqe err" },
	{ .name = "pdn", .field = RF_PDN, .kind = RFK_NUM },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

/* The QP's own values, after the link head, as cells of row. */
static void row_qp_body(struct out_row *row, const struct rd_res *r, struct res_row_text *t)
{
	row_u64(row, &qp_fields[F_LQPN], r->id);
	if (rd_res_has(r, RF_TYPE))
		row_enum(row, &qp_fields[F_TYPE], rd_qp_type_token(r->type), rd_qp_type_name(r->type));
	if (rd_res_has(r, RF_STATE))
		row_enum(row, &qp_fields[F_STATE], rd_qp_state_token(r->state), rd_qp_state_name(r->state));
	if (rd_res_has(r, RF_RQPN))
		row_u64(row, &qp_fields[F_RQPN], r->rqpn);
	if (rd_res_has(r, RF_SQ_PSN))
		row_u64(row, &qp_fields[F_SQ_PSN], r->sq_psn);
	if (rd_res_has(r, RF_RQ_PSN))
		row_u64(row, &qp_fields[F_RQ_PSN], r->rq_psn);
	if (rd_res_has(r, RF_PATH_MIG))
		row_enum(row, &qp_fields[F_PATH_MIG], rd_path_mig_token(r->path_mig), rd_path_mig_name(r->path_mig));
	if (rd_res_has(r, RF_PDN))
		row_u64(row, &qp_fields[F_PDN], r->pdn);
	res_row_owner(row, r, t);
}

/* A QP after the event head of watch, or as a line of show: one row. */
static void out_qp(const struct rd_res *r, bool link_as_head)
{
	struct out_row row;	/* not zeroed: only row.n is read before a cell is set */
	struct res_row_text t;

	row.n = 0;
	res_row_link(&row, r, link_as_head, &t);
	row_qp_body(&row, r, &t);
	out_row(&row);
}

static int print_qp(const struct rd_res *r, void *data)
{
	unsigned *count = data;

	(*count)++;
	out_obj_begin(NULL);
	out_qp(r, true);
	out_obj_end();
	return 0;
}

static int qp_show(struct cmd_ctx *ctx)
{
	struct res_query q = *res_checked();
	unsigned count = 0;
	int rc;

	(void)ctx;
	out_list_begin("qps");
	rc = res_walk(&q, RD_RES_QP, "lqpn", print_qp, &count, NULL);
	out_list_end();
	return rc;
}

/* ---- watch ---- */

#define MAX_WATCH_DEVS 64

struct qp_track {
	uint32_t dev_index, lqpn, port, pid;
	uint8_t state, type;
	bool has_pid, has_port;
	bool used, seen, flagged_stuck;
	bool in_view;			/* on DEV/PORT and through the filters; else followed silently */
	double since;			/* when it entered `state` (or was first seen) */
	struct qp_track *next;		/* hash chain */
};

struct watch {
	const struct res_query *q;	/* what the user watches */
	/* What is polled: the selected devices, all ports, only the QP number
	 * filters. A QP that leaves q's view (a QP in RESET has no port and is
	 * on every port's list until it moves to INIT on another; a state
	 * filter) is still on the device: it "left", it is not destroyed. */
	struct res_query walk;
	struct qp_track **bucket;
	unsigned nbuckets, nqps, nview;
	double now, last_change, stuck;
	double t0;
	unsigned round;
	bool flagged;			/* any QP flagged: exit 1 */
	bool flags_only;		/* print flag events only (system check) */
	qp_flag_fn on_flag;		/* sees every flag; NULL for none */
	void *flag_data;
	/* Names of the devices seen, for QPs reported after they are gone. */
	int ndevs;
	uint32_t dev_index[MAX_WATCH_DEVS];
	char dev_name[MAX_WATCH_DEVS][64];
};

static volatile sig_atomic_t stop_requested;

static void on_sigint(int sig)
{
	stop_requested = 1;
	interrupt_note(sig);
}

static double now_sec(void)
{
	return devwatch_clock();	/* a snapshot replays the recorded times */
}

static unsigned qp_hash(const struct watch *w, uint32_t dev, uint32_t lqpn)
{
	return (lqpn * 2654435761u ^ dev * 40503u) & (w->nbuckets - 1);
}

static struct qp_track *track_find(struct watch *w, uint32_t dev, uint32_t lqpn)
{
	for (struct qp_track *t = w->bucket[qp_hash(w, dev, lqpn)]; t; t = t->next)
		if (t->dev_index == dev && t->lqpn == lqpn)
			return t;
	return NULL;
}

/* Doubles the table when it is 3/4 full, so chains stay short at any count. */
static void track_grow(struct watch *w)
{
	unsigned old_n = w->nbuckets;
	struct qp_track **old = w->bucket;
	struct qp_track **nb;

	if (w->nqps * 4 < w->nbuckets * 3)
		return;
	nb = calloc(old_n * 2, sizeof(*nb));
	if (!nb)
		return;	/* keep the old table: slower, still correct */
	w->bucket = nb;
	w->nbuckets = old_n * 2;
	for (unsigned i = 0; i < old_n; i++) {
		for (struct qp_track *t = old[i], *next; t; t = next) {
			unsigned h = qp_hash(w, t->dev_index, t->lqpn);

			next = t->next;
			t->next = nb[h];
			nb[h] = t;
		}
	}
	free(old);
}

static struct qp_track *track_add(struct watch *w, const struct rd_res *r)
{
	struct qp_track *t = calloc(1, sizeof(*t));
	unsigned h;

	if (!t)
		return NULL;
	t->dev_index = r->dev_index;
	t->lqpn = r->id;
	t->state = r->state;
	t->type = r->type;
	t->port = r->port;
	t->has_port = rd_res_has(r, RF_PORT);
	t->pid = r->pid;
	t->has_pid = rd_res_has(r, RF_PID);
	t->since = w->now;
	t->in_view = res_query_match(w->q, r);
	w->nview += t->in_view;
	h = qp_hash(w, t->dev_index, t->lqpn);
	t->next = w->bucket[h];
	w->bucket[h] = t;
	w->nqps++;
	track_grow(w);
	return t;
}

/* One event line: head (event name), time, QP, then what is special to it. */
static void event_begin(struct watch *w, const char *event)
{
	out_obj_begin(NULL);
	out_token(&qp_fields[F_EVENT], event);
	out_double(&qp_fields[F_TIME], w->now - w->t0, 3);
}

static void event_end(void)
{
	out_obj_end();
	out_flush();
}

static void emit_qp_event(struct watch *w, const char *event, const struct rd_res *r)
{
	if (w->flags_only)
		return;
	event_begin(w, event);
	out_qp(r, false);
	event_end();
}

static void emit_transition(struct watch *w, const struct rd_res *r, uint8_t old, double secs)
{
	if (w->flags_only)
		return;
	event_begin(w, "state");
	res_out_link(r, false);
	out_u64(&qp_fields[F_LQPN], r->id);
	out_enum(&qp_fields[F_OLD_STATE], rd_qp_state_token(old), rd_qp_state_name(old));
	out_enum(&qp_fields[F_STATE], rd_qp_state_token(r->state), rd_qp_state_name(r->state));
	out_double(&qp_fields[F_SECONDS], secs, 1);
	if (rd_res_has(r, RF_TYPE))
		out_enum(&qp_fields[F_TYPE], rd_qp_type_token(r->type), rd_qp_type_name(r->type));
	res_out_owner(r);
	event_end();
}

static void emit_flag(struct watch *w, const struct rd_res *r, const char *flag, const char *reason)
{
	w->flagged = true;
	if (w->on_flag)
		w->on_flag(r, flag, reason, w->flag_data);
	event_begin(w, "flag");
	res_out_link(r, false);
	out_u64(&qp_fields[F_LQPN], r->id);
	if (rd_res_has(r, RF_TYPE))
		out_enum(&qp_fields[F_TYPE], rd_qp_type_token(r->type), rd_qp_type_name(r->type));
	out_enum(&qp_fields[F_STATE], rd_qp_state_token(r->state), rd_qp_state_name(r->state));
	out_token(&qp_fields[F_FLAG], flag);
	out_str(&qp_fields[F_REASON], reason);
	res_out_owner(r);
	event_end();
}

static bool is_broken_state(uint8_t s)
{
	return s == 4 || s == 5 || s == 6;	/* SQD, SQE, ERR */
}

static bool is_stuck_state(uint8_t s)
{
	return s == 1 || s == 2;	/* INIT, RTR: the connection never completed */
}

static void check_flags(struct watch *w, struct qp_track *t, const struct rd_res *r, bool entered)
{
	char reason[160];

	if (entered && is_broken_state(r->state)) {
		snprintf(reason, sizeof(reason), "QP entered %s", rd_qp_state_name(r->state));
		emit_flag(w, r, "broken", reason);
	}
	if (!t->flagged_stuck && is_stuck_state(r->state) && w->now - t->since >= w->stuck) {
		t->flagged_stuck = true;
		snprintf(reason, sizeof(reason), "QP in %s for %.1f s (more than --stuck %.1f s)",
			 rd_qp_state_name(r->state), w->now - t->since, w->stuck);
		emit_flag(w, r, "stuck", reason);
	}
}

static void remember_dev(struct watch *w, const struct rd_res *r)
{
	for (int i = 0; i < w->ndevs; i++)
		if (w->dev_index[i] == r->dev_index) {
			if (strcmp(w->dev_name[i], r->dev_name))	/* renamed */
				snprintf(w->dev_name[i], sizeof(w->dev_name[0]), "%s", r->dev_name);
			return;
		}
	if (w->ndevs < MAX_WATCH_DEVS) {
		w->dev_index[w->ndevs] = r->dev_index;
		snprintf(w->dev_name[w->ndevs++], sizeof(w->dev_name[0]), "%s", r->dev_name);
	}
}

static const char *dev_name_of(const struct watch *w, uint32_t index)
{
	for (int i = 0; i < w->ndevs; i++)
		if (w->dev_index[i] == index)
			return w->dev_name[i];
	return "?";
}

/* A QP entered or left the view without being created or destroyed. */
static void view_change(struct watch *w, struct qp_track *t, const struct rd_res *r)
{
	t->in_view = !t->in_view;
	if (t->in_view)
		w->nview++;
	else
		w->nview--;
	emit_qp_event(w, t->in_view ? "entered" : "left", r);
	w->last_change = w->now;
}

static void track_update(struct watch *w, struct qp_track *t, const struct rd_res *r)
{
	t->port = r->port;
	t->has_port = rd_res_has(r, RF_PORT);
	if (t->state != r->state) {
		t->state = r->state;
		t->since = w->now;
		t->flagged_stuck = false;
	}
}

static int watch_qp(const struct rd_res *r, void *data)
{
	struct watch *w = data;
	struct qp_track *t = track_find(w, r->dev_index, r->id);

	remember_dev(w, r);
	if (!t) {
		t = track_add(w, r);
		if (!t)
			return 0;
		t->seen = true;
		if (!t->in_view)
			return 0;
		emit_qp_event(w, w->round == 0 ? "present" : "created", r);
		if (w->round)
			w->last_change = w->now;
		check_flags(w, t, r, true);
		return 0;
	}
	t->seen = true;
	if (t->in_view != res_query_match(w->q, r)) {
		bool changed = t->state != r->state;

		track_update(w, t, r);
		view_change(w, t, r);
		if (t->in_view)
			check_flags(w, t, r, changed);
		return 0;
	}
	if (!t->in_view) {
		track_update(w, t, r);
		return 0;
	}
	if (t->state != r->state) {
		emit_transition(w, r, t->state, w->now - t->since);
		track_update(w, t, r);
		w->last_change = w->now;
		check_flags(w, t, r, true);
		return 0;
	}
	track_update(w, t, r);
	check_flags(w, t, r, false);
	return 0;
}

/* The QP is gone: report it from what was kept of it. */
static void emit_destroyed(struct watch *w, const struct qp_track *t)
{
	struct rd_res r = { .kind = RD_RES_QP, .dev_index = t->dev_index, .id = t->lqpn, .port = t->port,
			    .pid = t->pid, .type = t->type, .state = t->state };

	if (w->flags_only)
		return;
	r.dev_name = dev_name_of(w, t->dev_index);
	r.has = 1u << RF_ID | 1u << RF_TYPE | (t->has_port ? 1u << RF_PORT : 0) | (t->has_pid ? 1u << RF_PID : 0);
	event_begin(w, "destroyed");
	res_out_link(&r, false);
	out_u64(&qp_fields[F_LQPN], t->lqpn);
	out_enum(&qp_fields[F_TYPE], rd_qp_type_token(t->type), rd_qp_type_name(t->type));
	out_enum(&qp_fields[F_OLD_STATE], rd_qp_state_token(t->state), rd_qp_state_name(t->state));
	if (t->has_pid)
		out_u64(&(const struct field){ "pid", NULL, FT_U64, 0, NULL }, t->pid);
	event_end();
}

/* QPs not seen in this round are gone. */
static void sweep(struct watch *w)
{
	for (unsigned i = 0; i < w->nbuckets; i++) {
		struct qp_track **pp = &w->bucket[i];

		while (*pp) {
			struct qp_track *t = *pp;

			if (t->seen) {
				t->seen = false;
				pp = &t->next;
				continue;
			}
			if (t->in_view) {
				emit_destroyed(w, t);
				w->last_change = w->now;
				w->nview--;
			}
			*pp = t->next;
			free(t);
			w->nqps--;
		}
	}
}

static void watch_free(struct watch *w)
{
	for (unsigned i = 0; i < w->nbuckets; i++)
		for (struct qp_track *t = w->bucket[i], *next; t; t = next) {
			next = t->next;
			free(t);
		}
	free(w->bucket);
}

/* Sleeps up to `secs`, waking early on SIGINT. */
static void nap(double secs)
{
	mon_sleep(secs, &stop_requested);
}

/* One dump per known device. A dump that fails because its device just
 * went away is a removal, not an error. */
static int walk_devs(struct watch *w, struct devwatch *dw)
{
	int rc = devwatch_refresh(dw);

	for (int i = 0; !rc && i < dw->n; i++) {
		uint32_t index = dw->dev[i].index;
		int err = res_walk_dev(&w->walk, RD_RES_QP, "lqpn", index, watch_qp, w);

		/* a recording without this dump is a replay gap, not a device gone
		 * (and the device list read to tell would hide the gap) */
		if (err && !nl_reply_not_recorded() && devwatch_gone(dw, index)) {
			i = -1;		/* the list changed: start over, QPs already seen stay seen */
			continue;
		}
		if (err) {
			report_nl_error("reading RDMA resources from the kernel failed", err);
			rc = EXIT_RUNTIME;
		}
	}
	return rc;
}

/* dw NULL: list the devices as every resource command does. */
static int watch_round(struct watch *w, struct devwatch *dw)
{
	w->now = now_sec();
	unsigned dev_changes = dw ? dw->changes : 0;
	int rc = dw ? walk_devs(w, dw) : res_walk(w->q, RD_RES_QP, "lqpn", watch_qp, w, NULL);

	if (rc)
		return rc;
	sweep(w);
	if (dw && dw->changes != dev_changes)
		w->last_change = w->now;
	w->round++;
	return EXIT_OK;
}

/* w->walk: w->q without its port and the filters a QP can leave (all but
 * its number). */
static void watch_walk_query(struct watch *w)
{
	w->walk = *w->q;
	w->walk.sel.port = 0;
	w->walk.needs_comm = false;
	w->walk.nterms = 0;
	for (int i = 0; i < w->q->nterms; i++)
		if (!strcmp(w->q->term[i].key->name, "lqpn"))
			w->walk.term[w->walk.nterms++] = w->q->term[i];
}

static int watch_alloc(struct watch *w)
{
	watch_walk_query(w);
	w->nbuckets = 1024;
	w->bucket = calloc(w->nbuckets, sizeof(*w->bucket));
	if (w->bucket)
		return EXIT_OK;
	report_error("out of memory", NULL, NULL);
	return EXIT_RUNTIME;
}

int qp_query_parse(const struct cmd_ctx *ctx, struct res_query *q)
{
	return res_query_parse(ctx, qp_keys, q);
}

int qp_sample_judge(const struct res_query *q, double interval, qp_flag_fn fn, void *data, unsigned *nqps)
{
	struct watch w = { .q = q, .stuck = interval, .flags_only = true, .on_flag = fn, .flag_data = data };
	int rc = watch_alloc(&w);

	*nqps = 0;
	if (rc)
		return rc;
	w.t0 = w.last_change = now_sec();
	rc = watch_round(&w, NULL);
	if (!rc) {
		stop_signals_catch(on_sigint);	/* Ctrl-C ends the sample early; system check stops */
		nap(interval);
		rc = watch_round(&w, NULL);
	}
	*nqps = w.nview;
	watch_free(&w);
	return rc;
}

static int qp_watch(struct cmd_ctx *ctx)
{
	struct res_query q;
	struct watch w = { .q = &q };
	struct devwatch dw;
	const struct opt_value *count = ctx_opt(ctx, O_COUNT);
	const struct opt_value *stable = ctx_opt(ctx, O_UNTIL_STABLE);
	double interval = ctx_opt_dbl(ctx, O_INTERVAL, 1.0);
	int rc;

	q = *res_checked();
	w.stuck = ctx_opt_dbl(ctx, O_STUCK, 5.0);
	rc = res_query_check_port(&q);
	if (rc)
		return rc;
	rc = watch_alloc(&w);
	if (rc)
		return rc;
	stop_signals_catch(on_sigint);
	w.t0 = w.last_change = now_sec();
	rc = devwatch_start(&dw, q.has_dev ? q.sel.dev : NULL, false, w.t0, now_sec);
	if (!rc && dw.n == 0)
		rc = report_no_devices();
	while (!rc && !stop_requested) {
		unsigned dev_changes;

		rc = watch_round(&w, &dw);
		if (rc)
			break;
		if (count->set && w.round >= count->num)
			break;
		if (stable->set && w.now - w.last_change >= stable->dbl)
			break;
		dev_changes = dw.changes;
		devwatch_wait(&dw, interval, &stop_requested);
		if (dw.changes != dev_changes)
			w.last_change = now_sec();
	}
	devwatch_stop(&dw);
	watch_free(&w);
	if (rc)
		return rc;
	return w.flagged ? EXIT_PROBLEM : EXIT_OK;
}

static const struct cmd_opt qp_watch_opts[] = {
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between polls (default 1; fractions allowed)", .max = 3600 },
	{ .id = O_COUNT, .kind = OPT_UINT, .metavar = "N", .help = "stop after N polls", .min = 1, .max = 1000000 },
	{ .id = O_STUCK, .kind = OPT_DECIMAL, .metavar = "S",
	  .help = "flag a QP in INIT or RTR longer than S seconds (default 5)", .max = 86400 },
	{ .id = O_UNTIL_STABLE, .kind = OPT_DECIMAL, .metavar = "S",
	  .help = "stop once nothing changed for S seconds", .max = 86400 },
	{ 0 },
};

static const struct action qp_actions[] = {
	{ .name = "show", .synopsis = "[DEV[/PORT]] [FILTER VALUE]...",
	  .summary = "list queue pairs: type, state, PSNs, owner", .check_args = res_args, .run = qp_show,
	  .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT, .filters = qp_keys },
	{ .name = "list", .synopsis = "[DEV[/PORT]] [FILTER VALUE]...", .summary = "same as show",
	  .check_args = res_args, .run = qp_show, .flags = NEEDS_NETLINK | HIDDEN, .positional = COMPLETE_DEV_PORT,
	  .filters = qp_keys },
	{ .name = "watch", .synopsis = "[DEV[/PORT]] [FILTER VALUE]...",
	  .summary = "poll queue pairs and report creation, state changes, destruction; flag stuck and broken ones",
	  .check_args = res_args, .run = qp_watch, .flags = NEEDS_NETLINK | OUTPUT_STREAM, .opts = qp_watch_opts,
	  .positional = COMPLETE_DEV_PORT, .filters = qp_keys },
	{ 0 },
};

const struct object obj_qp = { .name = "qp",
	.summary = "queue pairs (kernel resource tracking) and their state changes", .actions = qp_actions };
