// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-QP counters: what the kernel's rdma_counter binds to queue pairs.
 *   counter show qp [DEV[/PORT]] [lqpn N] [pid N] [counter ID]
 *   counter mode [DEV[/PORT]]                  auto (by type, pid), manual, none
 *   counter mode set DEV/PORT auto type|pid|type,pid|off
 *   counter bind DEV/PORT lqpn N [counter ID]
 *   counter unbind DEV/PORT counter ID [lqpn N]
 * The counters of a per-QP counter are shown in the same vendor-neutral
 * groups as the port's (counter_map.c). Only drivers with counter ops (mlx5)
 * have them; on others the kernel refuses, and we say so plainly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netlink/nl.h"
#include "../netlink/res.h"
#include "../netlink/stat_qp.h"
#include "common.h"
#include "counter_qp.h"
#include "counter_sample.h"
#include "lower_err.h"
#include "output.h"
#include "resource.h"

enum {
	F_IFNAME, F_DEV, F_PORT, F_ID, F_MODE, F_TYPE, F_LQPNS, F_ITEM, F_AUTO, F_CHANGE, F_LQPN, F_SUPPORT,
};

static const struct field qpc_fields[] = {
	[F_IFNAME] = { "ifname", NULL, FT_STR, FF_HEAD, NULL },
	[F_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[F_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[F_ID] = { "counter_id", NULL, FT_U64, 0, NULL },
	[F_MODE] = { "mode", NULL, FT_TOKEN, 0, NULL },
	[F_TYPE] = { "qp_type", NULL, FT_TOKEN, 0, NULL },
	[F_LQPNS] = { "lqpns", NULL, FT_STR, 0, NULL },
	[F_ITEM] = { NULL, NULL, FT_U64, 0, NULL },
	[F_AUTO] = { "auto", NULL, FT_STR, 0, NULL },
	[F_CHANGE] = { "change", NULL, FT_TOKEN, 0, NULL },
	[F_LQPN] = { "lqpn", NULL, FT_U64, 0, NULL },
	[F_SUPPORT] = { "per_qp_counters", NULL, FT_TOKEN, 0, NULL },
};

/* Auto-mode criteria, as iproute2 names them. */
static const struct {
	const char *name;
	uint32_t mask;
} criteria[] = {
	{ "type", RDMA_COUNTER_MASK_QP_TYPE },
	{ "pid", RDMA_COUNTER_MASK_PID },
};
#define NCRITERIA (sizeof(criteria) / sizeof(criteria[0]))

static const struct rfilter_key show_keys[] = {
	{ .name = "lqpn", .field = RF_LQPN, .kind = RFK_NUM, .complete = COMPLETE_QPN },
	{ .name = "pid", .field = RF_PID, .kind = RFK_NUM },
	{ .name = "counter", .field = RF_ID, .kind = RFK_NUM },
	{ NULL },
};

const struct rfilter_key counter_qp_bind_keys[] = {
	{ .name = "lqpn", .field = RF_LQPN, .kind = RFK_NUM, .complete = COMPLETE_QPN },
	{ .name = "counter", .field = RF_ID, .kind = RFK_NUM },
	{ NULL },
};

/* counter show qp [DEV[/PORT]] [lqpn N] [pid N] [counter ID] */
const struct cmd_form counter_qp_show_form = { .positional = COMPLETE_DEV_PORT, .filters = show_keys };

/* counter mode set DEV/PORT auto type|pid|type,pid|off: what parse_auto() takes */
static const struct cmd_word mode_set_words[] = {
	{ .name = "auto", .values = "type pid type,pid off" },
	{ NULL },
};
const struct cmd_form counter_mode_set_form = { .positional = COMPLETE_DEV_PORT, .words = mode_set_words,
	.flags = ARG_FIRST };

static void ifname(const char *dev, uint32_t port, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u", dev, port);
}

static void out_port_head(const char *dev, uint32_t port)
{
	char name[RD_NAME_LEN + 8];

	ifname(dev, port, name, sizeof(name));
	out_str(&qpc_fields[F_IFNAME], name);
	if (out_is_json()) {
		out_str(&qpc_fields[F_DEV], dev);
		out_u64(&qpc_fields[F_PORT], port);
	}
}

/* "type,pid" from a mask; "" when none. */
static void mask_names(uint32_t mask, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < NCRITERIA; i++)
		if (mask & criteria[i].mask)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", criteria[i].name);
}

/* ---- errors ---- */

/* The kernel module behind a device, for messages; "" when unknown. */
static void driver_of(uint32_t dev_index, char *driver, size_t len)
{
	char chardev[64];

	if (rd_dev_uverbs(dev_index, driver, len, chardev, sizeof(chardev)))
		driver[0] = '\0';
}

/* Drivers without the counter ops: the kernel refuses to bind with ENOMEM
 * (it cannot allocate a counter) rather than EOPNOTSUPP. */
static bool driver_lacks_counters(const char *driver)
{
	static const char *const none[] = { "rdma_rxe", "siw", NULL };

	for (int i = 0; none[i]; i++)
		if (!strcmp(driver, none[i]))
			return true;
	return false;
}

static int report_unsupported(const char *name, const char *driver)
{
	char what[256];

	snprintf(what, sizeof(what), "%s: this device/driver does not support per-QP counters%s%s%s", name,
		 driver[0] ? " (" : "", !strcmp(driver, "rdma_rxe") ? "rxe" : driver, driver[0] ? ")" : "");
	report_error(what, "its driver cannot bind counters to QPs (the kernel's counter_bind_qp op; mlx5_ib has it, "
			   "Soft-RoCE and most others do not)",
		     "use a device that does (mlx5); the port's counters still work: rdmadiag counter show DEV/PORT");
	return EXIT_HOST;
}

/* A failed per-QP counter request: says what, why and what next; returns the exit code. */
static int report_qpc_error(const char *doing, const char *dev, uint32_t dev_index, uint32_t port, int err,
			    bool binding)
{
	char name[RD_NAME_LEN + 8], what[320], driver[64] = "";

	ifname(dev, port, name, sizeof(name));
	if (err == -EOPNOTSUPP || (binding && err == -ENOMEM)) {
		driver_of(dev_index, driver, sizeof(driver));
		if (err == -EOPNOTSUPP || driver_lacks_counters(driver))
			return report_unsupported(name, driver);
	}
	if (err == -EPERM || err == -EACCES) {
		snprintf(what, sizeof(what), "%s on %s: permission denied", doing, name);
		report_error(what, "changing per-QP counters (mode set, bind, unbind) needs CAP_NET_ADMIN",
			     "run it as root, e.g. sudo rdmadiag counter ...; reading them (counter show qp, counter "
			     "mode) does not need it");
		return EXIT_HOST;
	}
	snprintf(what, sizeof(what), "%s on %s failed", doing, name);
	report_nl_error(what, err);
	return EXIT_RUNTIME;
}

/* ---- ports ---- */

/* Mutating commands act on one port: DEV/PORT, or DEV with a single port. */
static int one_port(const struct dev_port *sel, struct port_ctr *out)
{
	struct sample s;
	int rc = sample_ports(sel->dev, sel->port, &s);

	if (rc)
		return rc;
	if (s.n != 1) {
		usage_error("%s has %d ports: name one, as in %s/1", sel->dev, s.n, sel->dev);
		sample_free(&s);
		return EXIT_USAGE;
	}
	*out = s.p[0];
	memset(&out->set, 0, sizeof(out->set));
	sample_free(&s);
	return 0;
}

/* Known from the driver alone (the kernel takes auto mode on rxe, then
 * binds nothing); false when unknown. */
static bool port_lacks_counters(const struct port_ctr *p)
{
	char driver[64];

	driver_of(p->dev_index, driver, sizeof(driver));
	return driver_lacks_counters(driver);
}

static int report_unsupported_port(const struct port_ctr *p)
{
	char name[RD_NAME_LEN + 8], driver[64];

	ifname(p->dev, p->port, name, sizeof(name));
	driver_of(p->dev_index, driver, sizeof(driver));
	return report_unsupported(name, driver);
}

/* ---- show qp ---- */

/* A per-QP counter kept for the Prometheus output, which prints family by
 * family and so needs every counter first; the callback's strings die with it. */
struct qpc_copy {
	char dev[RD_NAME_LEN], netdev[RD_NAME_LEN];
	char port[12], id[12], pid[12], owner[RD_NAME_LEN];
	uint32_t mode;
	const char *qp_type;	/* static token, NULL when not by type */
	int nlqpn;
	struct stat_set set;
};

struct show_walk {
	const struct res_query *q;
	int shown;
	int seen;		/* counters on the port, before filters */
	bool prom;		/* keep copies instead of printing */
	const char *netdev;	/* of the port being walked */
	struct qpc_copy *copy;
	int ncopy, cap;
	int err;		/* -ENOMEM while copying */
};

static bool lqpn_match(const struct rfilter_term *t, const struct stat_qp_counter *c)
{
	for (int i = 0; i < c->nlqpn; i++)
		if (rfilter_term_has(t, c->lqpn[i]))
			return true;
	return false;
}

static bool counter_match(const struct res_query *q, const struct stat_qp_counter *c)
{
	for (int i = 0; i < q->nterms; i++) {
		const struct rfilter_term *t = &q->term[i];

		if (!strcmp(t->key->name, "lqpn") && !lqpn_match(t, c))
			return false;
		if (!strcmp(t->key->name, "pid") && (!c->has_pid || !rfilter_term_has(t, c->pid)))
			return false;
		if (!strcmp(t->key->name, "counter") && !rfilter_term_has(t, c->id))
			return false;
	}
	return true;
}

static void out_lqpns(const struct stat_qp_counter *c)
{
	if (out_is_json()) {
		out_list_begin(qpc_fields[F_LQPNS].key);
		for (int i = 0; i < c->nlqpn; i++)
			out_u64(&qpc_fields[F_ITEM], c->lqpn[i]);
		out_list_end();
		return;
	}
	if (!c->nlqpn) {
		out_str(&qpc_fields[F_LQPNS], "none");
		return;
	}
	size_t len = (size_t)c->nlqpn * 11 + 1;
	char *buf = malloc(len);

	if (!buf)
		return;
	buf[0] = '\0';
	for (int i = 0, n = 0; i < c->nlqpn; i++)
		n += snprintf(buf + n, len - n, "%s%u", i ? "," : "", c->lqpn[i]);
	out_str(&qpc_fields[F_LQPNS], buf);
	free(buf);
}

/* The owner of a counter in auto-by-pid mode, as `qp show` prints owners. */
static void out_owner(const struct stat_qp_counter *c)
{
	struct rd_res r = { .kern_name = c->kern_name, .pid = c->pid };

	if (!c->has_pid && !c->kern_name)
		return;
	if (c->has_pid)
		r.has |= 1u << RF_PID;
	res_out_owner(&r);
}

static int keep_counter(struct show_walk *w, const struct stat_qp_counter *c)
{
	struct qpc_copy *k;

	if (w->ncopy == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		struct qpc_copy *more = realloc(w->copy, cap * sizeof(*more));

		if (!more)
			return w->err = -ENOMEM;
		w->copy = more, w->cap = cap;
	}
	k = &w->copy[w->ncopy];
	memset(k, 0, sizeof(*k));
	snprintf(k->dev, sizeof(k->dev), "%s", c->dev_name ? c->dev_name : "");
	snprintf(k->netdev, sizeof(k->netdev), "%s", w->netdev ? w->netdev : "");
	snprintf(k->port, sizeof(k->port), "%u", c->port);
	snprintf(k->id, sizeof(k->id), "%u", c->id);
	if (c->has_pid)
		snprintf(k->pid, sizeof(k->pid), "%u", c->pid);
	if (c->kern_name)
		snprintf(k->owner, sizeof(k->owner), "%s", c->kern_name);
	k->mode = c->mode;
	k->qp_type = c->has_type ? rd_qp_type_token(c->qp_type) : NULL;
	k->nlqpn = c->nlqpn;
	if (c->set.n) {
		k->set.c = malloc(c->set.n * sizeof(*k->set.c));
		if (!k->set.c)
			return w->err = -ENOMEM;
		memcpy(k->set.c, c->set.c, c->set.n * sizeof(*k->set.c));
		k->set.n = k->set.cap = c->set.n;
	}
	w->ncopy++;
	return 0;
}

static int print_counter(const struct stat_qp_counter *c, void *data)
{
	struct show_walk *w = data;

	w->seen++;
	if (!counter_match(w->q, c))
		return 0;
	w->shown++;
	if (w->prom)
		return keep_counter(w, c);
	out_obj_begin(NULL);
	out_port_head(c->dev_name, c->port);
	out_u64(&qpc_fields[F_ID], c->id);
	out_token(&qpc_fields[F_MODE], stat_qp_mode_token(c->mode));
	if (c->has_type)
		out_enum(&qpc_fields[F_TYPE], rd_qp_type_token(c->qp_type), rd_qp_type_name(c->qp_type));
	out_owner(c);
	out_lqpns(c);
	counter_print_groups(&c->set);
	out_obj_end();
	return 0;
}

/* `counter N` naming one counter that is not there is a mistake worth saying. */
static int check_named_counter(const struct res_query *q, const struct show_walk *w, const char *where)
{
	uint32_t id;
	char what[160];

	if (w->shown || !res_query_single_id(q, "counter", &id) || q->nterms != 1)
		return EXIT_OK;
	snprintf(what, sizeof(what), "no per-QP counter %u on %s", id, where);
	report_error(what, w->seen ? "the id is wrong, or the counter was freed when its last QP went away"
				   : "no QP is bound to a counter there (statistic mode none, or no QPs)",
		     "list them with: rdmadiag counter show qp; see the mode with: rdmadiag counter mode");
	return EXIT_USAGE;
}

/* Labels of a kept counter: the port's, then what identifies the counter.
 * Bound QP numbers stay out: they would make a series per QP. */
static void qpc_series(const struct qpc_copy *k, struct prom_series *ps)
{
	const struct prom_label l[] = {
		{ "device", k->dev },
		{ "port", k->port },
		{ "netdev", k->netdev },
		{ "counter_id", k->id },
		{ "mode", stat_qp_mode_token(k->mode) },
		{ "qp_type", k->qp_type },
		{ "pid", k->pid[0] ? k->pid : NULL },
		{ "owner", k->owner[0] ? k->owner : NULL },
	};

	_Static_assert(sizeof(l) / sizeof(l[0]) <= PROM_SERIES_LABELS, "too many labels");
	memcpy(ps->l, l, sizeof(l));
	ps->nl = sizeof(l) / sizeof(l[0]);
	ps->set = &k->set;
}

static void prom_qp_counters(const struct show_walk *w, enum out_format f)
{
	const char *bound = "rdmadiag_qp_bound_qps";
	struct prom_series *ps = calloc(w->ncopy ? w->ncopy : 1, sizeof(*ps));

	if (!ps) {
		report_error("printing the per-QP counters", "out of memory", "free memory and run it again");
		return;
	}
	for (int i = 0; i < w->ncopy; i++)
		qpc_series(&w->copy[i], &ps[i]);
	if (w->ncopy)
		prom_family(stdout, f, bound, "gauge", "queue pairs bound to the per-QP counter");
	for (int i = 0; i < w->ncopy; i++)
		prom_gauge(stdout, bound, ps[i].l, ps[i].nl, w->copy[i].nlqpn);
	counter_prom_print("rdmadiag_qp",
			   "a hardware counter of a per-QP counter, under the driver's own name (see rdmadiag-counter(8))", ps,
			   w->ncopy, f);
	prom_end(stdout, f);
	free(ps);
}

static void show_walk_free(struct show_walk *w)
{
	for (int i = 0; i < w->ncopy; i++)
		stat_set_free(&w->copy[i].set);
	free(w->copy);
}

/* The words after "qp": [DEV[/PORT]] [FILTER VALUE]... */
int counter_qp_show_args(struct cmd_ctx *ctx)
{
	struct cmd_ctx sub = *ctx;

	sub.argc--, sub.argv++;	/* "qp" */
	return res_args_with(&sub, show_keys);
}

int counter_qp_show(struct cmd_ctx *ctx, enum out_format fmt)
{
	struct res_query q = *res_checked();
	struct sample s;
	struct show_walk w = { .q = &q, .prom = out_format_is_prom(fmt) };
	int rc = sample_ports(q.has_dev ? q.sel.dev : NULL, q.sel.port, &s);
	if (rc)
		return rc;
	if (!w.prom)
		out_list_begin("counters");
	for (int i = 0; i < s.n && !rc; i++) {
		int err;

		/* A named port that cannot have them is an answer; others are skipped. */
		if (port_lacks_counters(&s.p[i])) {
			if (q.has_dev || s.n == 1)
				rc = report_unsupported_port(&s.p[i]);
			continue;
		}
		w.netdev = s.p[i].netdev;
		err = stat_qp_counters(s.p[i].dev_index, s.p[i].port, print_counter, &w);
		if (!err)
			err = w.err;
		if (err)
			rc = report_qpc_error("reading per-QP counters", s.p[i].dev, s.p[i].dev_index, s.p[i].port,
					      err, false);
	}
	if (!rc)
		rc = check_named_counter(&q, &w, q.has_dev ? ctx->argv[1] : "any port");	/* after "qp" */
	if (!w.prom)
		out_list_end();
	else if (!rc)
		prom_qp_counters(&w, fmt);
	show_walk_free(&w);
	sample_free(&s);
	return rc;
}

/* ---- mode ---- */

/* unsupported: the driver is known to bind nothing, whatever the mode says. */
static void out_mode(const struct port_ctr *p, const struct stat_qp_mode *m, bool unsupported)
{
	char names[32];

	out_obj_begin(NULL);
	out_port_head(p->dev, p->port);
	out_token(&qpc_fields[F_MODE], stat_qp_mode_token(m->mode));
	if (m->mode == RDMA_COUNTER_MODE_AUTO) {
		mask_names(m->mask, names, sizeof(names));
		if (out_is_json()) {
			out_list_begin(qpc_fields[F_AUTO].key);
			for (size_t i = 0; i < NCRITERIA; i++)
				if (m->mask & criteria[i].mask)
					out_str(&(struct field){ NULL, NULL, FT_TOKEN, 0, NULL }, criteria[i].name);
			out_list_end();
		} else {
			out_str(&qpc_fields[F_AUTO], names);
		}
	}
	if (unsupported)
		out_token(&qpc_fields[F_SUPPORT], "unsupported");
	out_obj_end();
}

static int parse_auto(const struct cmd_ctx *ctx, uint32_t *mask);

static bool is_mode_set(const struct cmd_ctx *ctx)
{
	return ctx->argc && !strcmp(ctx->argv[0], "set");
}

/* "set DEV/PORT auto ...": DEV/PORT into ctx->sel, the criteria into *mask. */
static int mode_set_args(struct cmd_ctx *ctx, uint32_t *mask)
{
	if (ctx->argc < 4 || ctx->argc > 5 || strcmp(ctx->argv[2], "auto")) {
		usage_error("usage: counter mode set DEV/PORT auto type|pid|type,pid|off (as in: counter mode set "
			    "mlx5_0/1 auto type)");
		return EXIT_USAGE;
	}
	if (parse_dev_port(ctx->argv[1], &ctx->sel) || parse_auto(ctx, mask))
		return EXIT_USAGE;
	return ARGS_VALID;
}

static uint32_t set_mask;	/* counter mode set's criteria, as counter_qp_mode_args parsed them */

int counter_qp_mode_args(struct cmd_ctx *ctx)
{
	if (is_mode_set(ctx))
		return mode_set_args(ctx, &set_mask);
	return args_dev_port(ctx);
}

static int mode_set(struct cmd_ctx *ctx)
{
	struct port_ctr p;
	struct stat_qp_mode m = { RDMA_COUNTER_MODE_AUTO, set_mask };
	int rc, err;

	rc = one_port(&ctx->sel, &p);	/* DEV/PORT: counter_qp_mode_args */
	if (rc)
		return rc;
	/* rxe accepts auto mode but never binds a QP: refuse a setting that does nothing. */
	if (m.mask && port_lacks_counters(&p))
		return report_unsupported_port(&p);
	err = stat_qp_mode_set(p.dev_index, p.port, m.mask);
	if (err)
		return report_qpc_error(m.mask ? "turning on auto per-QP counters" : "turning off auto per-QP counters",
					p.dev, p.dev_index, p.port, err, false);
	/* Read back what the kernel now says rather than echo the request. */
	err = stat_qp_mode_get(p.dev_index, p.port, &m);
	if (err)
		return report_qpc_error("reading the statistic mode", p.dev, p.dev_index, p.port, err, false);
	out_list_begin("modes");
	out_mode(&p, &m, !m.mask && port_lacks_counters(&p));
	out_list_end();
	return EXIT_OK;
}

/* "type", "pid", "type,pid" (then an optional "on", as iproute2 takes it) or "off". */
static int parse_auto(const struct cmd_ctx *ctx, uint32_t *mask)
{
	const char *v = ctx->argv[3];
	char buf[64];

	*mask = 0;
	if (!strcmp(v, "off")) {
		if (ctx->argc == 5) {
			usage_error("'auto off' takes nothing after it, got '%s'", ctx->argv[4]);
			return -1;
		}
		return 0;
	}
	if (ctx->argc == 5 && strcmp(ctx->argv[4], "on")) {
		usage_error("expected 'on' or nothing after 'auto %s', got '%s'", v, ctx->argv[4]);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < NCRITERIA && strcmp(w, criteria[i].name); i++)
			;
		if (i == NCRITERIA) {
			usage_error("unknown auto criterion '%s': expected type, pid, type,pid or off", w);
			return -1;
		}
		*mask |= criteria[i].mask;
	}
	if (!*mask) {
		usage_error("auto needs a criterion: type, pid, type,pid or off");
		return -1;
	}
	return 0;
}

int counter_qp_mode(struct cmd_ctx *ctx)
{
	struct sample s;
	int rc;

	if (is_mode_set(ctx))
		return mode_set(ctx);
	rc = sample_ports(ctx->argc ? ctx->sel.dev : NULL, ctx->sel.port, &s);
	if (rc)
		return rc;
	out_list_begin("modes");
	for (int i = 0; i < s.n && !rc; i++) {
		struct stat_qp_mode m;
		int err = stat_qp_mode_get(s.p[i].dev_index, s.p[i].port, &m);

		if (err)
			rc = report_qpc_error("reading the statistic mode", s.p[i].dev, s.p[i].dev_index, s.p[i].port,
					      err, false);
		else
			out_mode(&s.p[i], &m, port_lacks_counters(&s.p[i]));
	}
	out_list_end();
	sample_free(&s);
	return rc;
}

/* ---- bind / unbind ---- */

/* "DEV/PORT KEY VALUE...": one port and single values (no lists or ranges). */
int counter_qp_bind_args(struct cmd_ctx *ctx)
{
	const struct res_query *q = res_checked();
	int rc = res_args_with(ctx, counter_qp_bind_keys);

	if (rc != ARGS_VALID)
		return rc;
	if (!q->has_dev) {
		usage_error("%s %s needs DEV/PORT first, as in: rdmadiag counter %s mlx5_0/1 ...", ctx->object->name,
			    ctx->action->name, ctx->action->name);
		return EXIT_USAGE;
	}
	for (int i = 0; i < q->nterms; i++) {
		uint32_t v;

		if (!res_query_single_id(q, q->term[i].key->name, &v)) {
			usage_error("%s takes one number here, not a list or range", q->term[i].key->name);
			return EXIT_USAGE;
		}
	}
	return ARGS_VALID;
}

/* The words counter_qp_bind_args checked, and their port. */
static int bind_port(struct res_query *q, struct port_ctr *p)
{
	*q = *res_checked();
	return one_port(&q->sel, p);
}

struct find_counter {
	uint32_t id;
	bool found;
	uint32_t *lqpn;		/* its QPs, when found */
	int nlqpn;
};

static int find_counter_cb(const struct stat_qp_counter *c, void *data)
{
	struct find_counter *f = data;

	if (c->id != f->id)
		return 0;
	f->found = true;
	if (c->nlqpn) {
		f->lqpn = malloc(c->nlqpn * sizeof(*f->lqpn));
		if (f->lqpn) {
			memcpy(f->lqpn, c->lqpn, c->nlqpn * sizeof(*f->lqpn));
			f->nlqpn = c->nlqpn;
		}
	}
	return 1;
}

/* Looks the counter up first, so that a wrong id gets its own message
 * instead of the kernel's ENOENT (which also means "no such QP"). */
static int find_counter(const struct port_ctr *p, struct find_counter *f)
{
	char what[160], name[RD_NAME_LEN + 8];
	int err = stat_qp_counters(p->dev_index, p->port, find_counter_cb, f);

	if (err)
		return report_qpc_error("reading per-QP counters", p->dev, p->dev_index, p->port, err, false);
	if (f->found)
		return 0;
	ifname(p->dev, p->port, name, sizeof(name));
	snprintf(what, sizeof(what), "no per-QP counter %u on %s", f->id, name);
	report_error(what, "the id is wrong, or the counter was freed when its last QP was unbound or destroyed",
		     "list them with: rdmadiag counter show qp DEV/PORT");
	return EXIT_USAGE;
}

/* Text: "mlx5_0/1: lqpn 181 bound to counter 4"; JSON: change, lqpn, counter_id. */
static void out_change(const struct port_ctr *p, bool bound, uint32_t id, uint32_t lqpn)
{
	struct field counter = qpc_fields[F_ID];

	counter.label = bound ? "bound to counter" : "unbound from counter";
	out_obj_begin(NULL);
	out_port_head(p->dev, p->port);
	if (out_is_json())
		out_token(&qpc_fields[F_CHANGE], bound ? "bound" : "unbound");
	out_u64(&qpc_fields[F_LQPN], lqpn);
	out_u64(&counter, id);
	out_obj_end();
}

static int report_no_qp(const struct port_ctr *p, uint32_t lqpn)
{
	char what[160], name[RD_NAME_LEN + 8];

	ifname(p->dev, p->port, name, sizeof(name));
	snprintf(what, sizeof(what), "cannot bind lqpn %u on %s: no such QP", lqpn, name);
	report_error(what, "the QP number is wrong, the QP is gone, or it is on another device or port",
		     "list the QPs with: rdmadiag qp show DEV/PORT");
	return EXIT_USAGE;
}

int counter_qp_bind(struct cmd_ctx *ctx)
{
	struct res_query q;
	struct port_ctr p;
	uint32_t lqpn, id = 0;
	bool has_id;
	int rc = bind_port(&q, &p), err;

	(void)ctx;	/* its words: counter_qp_bind_args */
	if (rc)
		return rc;
	if (!res_query_single_id(&q, "lqpn", &lqpn)) {
		usage_error("counter bind needs lqpn N (the QP to bind), as in: counter bind mlx5_0/1 lqpn 178");
		return EXIT_USAGE;
	}
	has_id = res_query_single_id(&q, "counter", &id);
	if (has_id) {
		struct find_counter f = { .id = id };

		rc = find_counter(&p, &f);
		free(f.lqpn);
		if (rc)
			return rc;
	}
	err = stat_qp_bind(p.dev_index, p.port, lqpn, has_id, &id);
	if (err == -ENOENT && nl_reply_not_recorded()) {
		char what[160];

		snprintf(what, sizeof(what), "cannot bind lqpn %u on %s/%u", lqpn, p.dev, p.port);
		return report_replay_gap(what);
	}
	if (err == -ENOENT)
		return report_no_qp(&p, lqpn);
	if (err)
		return report_qpc_error("binding a QP to a counter", p.dev, p.dev_index, p.port, err, true);
	out_list_begin("changes");
	out_change(&p, true, id, lqpn);
	out_list_end();
	return EXIT_OK;
}

static bool has_lqpn(const struct find_counter *f, uint32_t lqpn)
{
	for (int i = 0; i < f->nlqpn; i++)
		if (f->lqpn[i] == lqpn)
			return true;
	return false;
}

static int report_not_bound(const struct port_ctr *p, uint32_t id, uint32_t lqpn)
{
	char what[160], name[RD_NAME_LEN + 8];

	ifname(p->dev, p->port, name, sizeof(name));
	snprintf(what, sizeof(what), "lqpn %u is not bound to counter %u on %s", lqpn, id, name);
	report_error(what, "the QP uses another counter, or none", "see which: rdmadiag counter show qp DEV/PORT lqpn N");
	return EXIT_USAGE;
}

int counter_qp_unbind(struct cmd_ctx *ctx)
{
	struct res_query q;
	struct port_ctr p;
	struct find_counter f = { 0 };
	uint32_t lqpn;
	int rc = bind_port(&q, &p);

	(void)ctx;	/* its words: counter_qp_bind_args */
	if (rc)
		return rc;
	if (!res_query_single_id(&q, "counter", &f.id)) {
		usage_error("counter unbind needs counter ID, as in: counter unbind mlx5_0/1 counter 4 [lqpn 178]");
		return EXIT_USAGE;
	}
	rc = find_counter(&p, &f);
	if (rc) {
		free(f.lqpn);
		return rc;
	}
	/* Without lqpn: every QP of the counter (the kernel frees it after the last). */
	if (res_query_single_id(&q, "lqpn", &lqpn)) {
		if (!has_lqpn(&f, lqpn)) {
			free(f.lqpn);
			return report_not_bound(&p, f.id, lqpn);
		}
		free(f.lqpn);
		f.lqpn = malloc(sizeof(*f.lqpn));
		if (!f.lqpn)
			return EXIT_RUNTIME;
		f.lqpn[0] = lqpn;
		f.nlqpn = 1;
	}
	out_list_begin("changes");
	for (int i = 0; i < f.nlqpn && !rc; i++) {
		int err = stat_qp_unbind(p.dev_index, p.port, f.id, f.lqpn[i]);

		if (err)
			rc = report_qpc_error("unbinding a QP from its counter", p.dev, p.dev_index, p.port, err, false);
		else
			out_change(&p, false, f.id, f.lqpn[i]);
	}
	out_list_end();
	free(f.lqpn);
	return rc;
}
