// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag counter: port counters that explain loss and congestion.
 *   show   grouped by meaning (counter_map.c), raw with -d; text, JSON,
 *          Prometheus or OpenMetrics
 *   watch  deltas and rates per interval (JSON lines with -j)
 *   check  two samples turned into verdicts (check.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "check_select.h"
#include "common.h"
#include "counter_map.h"
#include "counter_qp.h"
#include "counter_sample.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"
#include "prom.h"
#include "resource.h"

enum {
	F_IFNAME, F_DEV, F_PORT, F_NETDEV, F_LIFESPAN, F_GROUP, F_ERROR,
	F_SEQ, F_TIME, F_CLOCK, F_INTERVAL, F_ROWS, F_COUNTER, F_SOURCE, F_DELTA, F_RATE, F_VALUE,
};

static const struct field ctr_fields[] = {
	[F_IFNAME] = { "ifname", NULL, FT_STR, FF_HEAD, NULL },
	[F_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[F_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[F_NETDEV] = { "netdev", NULL, FT_STR, 0, NULL },
	[F_LIFESPAN] = { "lifespan_ms", NULL, FT_U64, FF_DETAIL, "ms" },
	[F_GROUP] = { "group", NULL, FT_TOKEN, FF_HEAD, NULL },
	[F_ERROR] = { "error", NULL, FT_STR, 0, NULL },
	[F_SEQ] = { "seq", NULL, FT_U64, 0, NULL },
	[F_TIME] = { "timestamp", NULL, FT_DOUBLE, 0, NULL },
	[F_CLOCK] = { "clock", NULL, FT_STR, FF_HEAD, NULL },
	[F_INTERVAL] = { "interval_s", NULL, FT_DOUBLE, 0, "s" },
	[F_ROWS] = { "changed", NULL, FT_U64, 0, NULL },
	[F_COUNTER] = { "counter", NULL, FT_STR, 0, NULL },
	[F_SOURCE] = { "source", NULL, FT_TOKEN, FF_DETAIL, NULL },
	[F_DELTA] = { "delta", NULL, FT_U64, 0, NULL },
	[F_RATE] = { "rate_per_s", NULL, FT_DOUBLE, 0, "/s" },
	[F_VALUE] = { "value", NULL, FT_U64, FF_DETAIL, NULL },
};

/* One field per kind, keyed by its vendor-neutral name. */
static struct field kind_field(enum ctr_kind k)
{
	return (struct field){ ctr_kinds[k].key, NULL, FT_U64, 0, NULL };
}

static enum ctr_group counter_group(const struct stat_counter *c)
{
	unsigned scale;

	return ctr_kinds[ctr_kind_of(c, &scale)].group;
}

static void port_name(const struct port_ctr *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u", p->dev, p->port);
}

static void report_port_error(const struct port_ctr *p)
{
	char what[160], name[RD_NAME_LEN + 8];

	port_name(p, name, sizeof(name));
	snprintf(what, sizeof(what), "cannot read the counters of %s: %s", name, strerror(-p->err));
	if (p->not_recorded) {
		report_replay_gap(what);
		return;
	}
	report_error(what, "the driver offers neither netlink statistics nor sysfs hw_counters/counters for it",
		     "check 'rdma statistic show link' and /sys/class/infiniband/DEV/ports/N/; some drivers have no counters");
}

/* ---- show: text and JSON ---- */

/* The raw counters of one group: {"name": value}, the same name from two
 * sources kept apart as "name@source". */
static void print_raw(const struct stat_set *set, enum ctr_group g)
{
	out_obj_begin("counters");
	for (int i = 0; i < set->n; i++) {
		const struct stat_counter *c = &set->c[i];
		char key[STAT_NAME_LEN + 16];

		if (counter_group(c) != g)
			continue;
		snprintf(key, sizeof(key), "%s", c->name);
		for (int j = 0; j < i; j++)
			if (!strcmp(set->c[j].name, c->name))
				snprintf(key, sizeof(key), "%s@%s", c->name, stat_source_token(c->src));
		struct field f = { key, NULL, FT_U64, 0, NULL };

		out_u64(&f, c->value);
	}
	out_obj_end();
}

static bool group_has_counters(const struct stat_set *set, enum ctr_group g)
{
	for (int i = 0; i < set->n; i++)
		if (counter_group(&set->c[i]) == g)
			return true;
	return false;
}

static void print_group(const struct stat_set *set, enum ctr_group g)
{
	out_obj_begin(ctr_group_key(g));
	if (!out_is_json())
		out_token(&ctr_fields[F_GROUP], ctr_group_key(g));
	for (int k = 1; k < K_COUNT; k++) {
		bool present;
		uint64_t v;

		if (ctr_kinds[k].group != g)
			continue;
		v = ctr_kind_sum(set, k, &present);
		if (!present)
			continue;
		struct field f = kind_field(k);

		out_u64(&f, v);
	}
	/* Text shows the driver's own names only with -d; JSON always has them. */
	if (out_is_json() || g_opts.details)
		print_raw(set, g);
	out_obj_end();
}

void counter_print_groups(const struct stat_set *set)
{
	for (int g = 0; g < G_COUNT; g++) {
		if (g == G_OTHER && !out_is_json() && !g_opts.details)
			continue;
		if (group_has_counters(set, g))
			print_group(set, g);
	}
}

/* Opens a port's object: its name, and in JSON its device and port apart
 * (what show and watch rows start with). */
static void port_obj_begin(const struct port_ctr *p)
{
	char name[RD_NAME_LEN + 8];

	port_name(p, name, sizeof(name));
	out_obj_begin(NULL);
	out_str(&ctr_fields[F_IFNAME], name);
	if (out_is_json()) {
		out_str(&ctr_fields[F_DEV], p->dev);
		out_u64(&ctr_fields[F_PORT], p->port);
	}
}

static void print_port(const struct port_ctr *p)
{
	port_obj_begin(p);
	if (p->netdev[0])
		out_str(&ctr_fields[F_NETDEV], p->netdev);
	if (p->set.lifespan_ms)
		out_u64(&ctr_fields[F_LIFESPAN], p->set.lifespan_ms);
	/* a recording without the counters says nothing about the port: the
	 * replay-gap message (errors) says what is missing, not this key */
	if (p->err && !p->set.n && !p->not_recorded)
		out_str(&ctr_fields[F_ERROR], strerror(-p->err));
	counter_print_groups(&p->set);
	out_obj_end();
}

/* ---- show: Prometheus ---- */

/* Every series of one family must be adjacent: print kind by kind over all
 * the sets (a port's, or a per-QP counter's), then the raw counters. */
static void prom_kinds(const char *prefix, const struct prom_series *s, int n, enum out_format f)
{
	for (int k = 1; k < K_COUNT; k++) {
		char name[96];
		bool family = false;

		snprintf(name, sizeof(name), "%s_%s", prefix, ctr_kind_metric(k));
		for (int i = 0; i < n; i++) {
			bool present;
			uint64_t v = ctr_kind_sum(s[i].set, k, &present);

			if (!present)
				continue;
			if (!family)
				prom_family(stdout, f, name, "counter", ctr_kinds[k].help);
			family = true;
			prom_counter(stdout, name, s[i].l, s[i].nl, v);
		}
	}
}

static void prom_raw(const char *prefix, const char *help, const struct prom_series *s, int n, enum out_format f)
{
	char name[96];
	bool family = false;

	snprintf(name, sizeof(name), "%s_driver_stat", prefix);
	for (int i = 0; i < n; i++) {
		const struct stat_set *set = s[i].set;

		for (int j = 0; j < set->n; j++) {
			enum ctr_group g = counter_group(&set->c[j]);
			struct prom_label l[PROM_SERIES_LABELS + 3];

			if (g == G_OTHER && !g_opts.details)
				continue;
			if (!family)
				prom_family(stdout, f, name, "counter", help);
			family = true;
			memcpy(l, s[i].l, sizeof(s[i].l[0]) * s[i].nl);
			l[s[i].nl] = (struct prom_label){ "stat", set->c[j].name };
			l[s[i].nl + 1] = (struct prom_label){ "source", stat_source_token(set->c[j].src) };
			l[s[i].nl + 2] = (struct prom_label){ "group", ctr_group_key(g) };
			prom_counter(stdout, name, l, s[i].nl + 3, set->c[j].value);
		}
	}
}

void counter_prom_print(const char *prefix, const char *raw_help, const struct prom_series *s, int n,
			enum out_format f)
{
	prom_kinds(prefix, s, n, f);
	prom_raw(prefix, raw_help, s, n, f);
}

/* The ports of a sample as series labelled device/port/netdev. */
static void prom_ports(const struct sample *s, enum out_format f)
{
	struct prom_series *series = calloc(s->n ? s->n : 1, sizeof(*series));
	char (*port)[16] = calloc(s->n ? s->n : 1, sizeof(*port));

	if (!series || !port) {
		report_error("printing the counters", "out of memory", "free memory and run it again");
		free(series);
		free(port);
		return;
	}
	for (int i = 0; i < s->n; i++) {
		snprintf(port[i], sizeof(port[i]), "%u", s->p[i].port);
		series[i].l[0] = (struct prom_label){ "device", s->p[i].dev };
		series[i].l[1] = (struct prom_label){ "port", port[i] };
		series[i].l[2] = (struct prom_label){ "netdev", s->p[i].netdev };
		series[i].nl = 3;
		series[i].set = &s->p[i].set;
	}
	counter_prom_print("rdmadiag_port",
			   "a port counter under the driver's own name (see rdmadiag-counter(8) for the map)", series,
			   s->n, f);
	free(series);
	free(port);
}

static int take_first_sample(struct cmd_ctx *ctx, struct sample *s)
{
	struct dev_port sel;
	int rc = ctx_dev_port(ctx, &sel);

	if (rc)
		return rc;
	rc = nl_require();
	if (rc) {
		s->no_netlink = true;
		return rc;
	}
	rc = sample_ports(ctx->argc ? sel.dev : NULL, sel.port, s);
	if (rc)
		return rc;
	sample_read(s, NULL);
	return 0;
}

/* Exit code when some port had no counters at all. */
static int port_errors(const struct sample *s)
{
	int rc = EXIT_OK;

	for (int i = 0; i < s->n; i++) {
		if (s->p[i].err && !s->p[i].set.n) {
			report_port_error(&s->p[i]);
			rc = EXIT_HOST;
		}
	}
	return rc;
}

/* "qp" switches show to the per-QP counters, whose filters follow it. */
static const struct cmd_word show_words[] = {
	{ "qp", COMPLETE_NONE, NULL, &counter_qp_show_form, 0 },
	{ NULL },
};

static int counter_show(struct cmd_ctx *ctx)
{
	struct sample s;
	enum out_format fmt;
	int rc = out_format_get(ctx, &fmt);

	if (rc)
		return rc;
	if (ctx->argc && !strcmp(ctx->argv[0], "qp")) {
		return counter_qp_show(ctx, fmt);
	}
	for (const struct rfilter_key *k = counter_qp_show_form.filters; ctx->argc && k->name; k++) {
		if (!strcmp(ctx->argv[0], k->name)) {
			usage_error("'%s' filters the per-QP counters: rdmadiag counter show qp [DEV[/PORT]] %s N", k->name,
				    k->name);
			return EXIT_USAGE;
		}
	}
	rc = take_first_sample(ctx, &s);
	if (rc)
		return rc;
	if (out_format_is_prom(fmt)) {
		prom_ports(&s, fmt);
		prom_end(stdout, fmt);
	} else {
		out_list_begin("ports");
		for (int i = 0; i < s.n; i++)
			print_port(&s.p[i]);
		out_list_end();
	}
	rc = port_errors(&s);
	sample_free(&s);
	return rc;
}

/* ---- deltas ---- */

/* Old value of the same counter of the same port, by name and source. */
static const struct stat_counter *find_old(const struct sample *old, const struct port_ctr *p,
					   const struct stat_counter *c)
{
	for (int i = 0; i < old->n; i++)
		if (old->p[i].dev_index == p->dev_index && old->p[i].port == p->port)
			return stat_find(&old->p[i].set, c->name, c->src);
	return NULL;
}

/* A counter that went backwards was reset (driver reload): count from zero. */
static uint64_t delta_of(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

static uint64_t kind_delta(const struct sample *old, const struct port_ctr *p, enum ctr_kind k, bool *present)
{
	uint64_t d = 0;
	unsigned scale;

	*present = false;
	for (int i = 0; i < p->set.n; i++) {
		const struct stat_counter *c = &p->set.c[i], *o;

		if (ctr_kind_of(c, &scale) != k)
			continue;
		*present = true;
		o = find_old(old, p, c);
		d += delta_of(c->value, o ? o->value : c->value) * scale;
	}
	return d;
}

/* ---- watch ---- */

struct watch_opts {
	double interval;
	unsigned long long count;	/* 0: until interrupted */
	bool all;			/* rows that did not change too */
};

static void print_row(const struct port_ctr *p, const char *group, const char *counter, const char *source,
		      uint64_t delta, double secs, uint64_t value)
{
	port_obj_begin(p);
	if (out_is_json()) {
		if (p->netdev[0])
			out_str(&ctr_fields[F_NETDEV], p->netdev);
		out_token(&ctr_fields[F_GROUP], group);
	}
	out_str(&ctr_fields[F_COUNTER], counter);
	if (source)
		out_token(&ctr_fields[F_SOURCE], source);
	out_u64(&ctr_fields[F_DELTA], delta);
	out_double(&ctr_fields[F_RATE], secs > 0 ? delta / secs : 0, 1);
	out_u64(&ctr_fields[F_VALUE], value);
	out_obj_end();
}

/* Rows of one port: vendor-neutral kinds, or with -d every raw counter. */
static int port_rows(const struct sample *old, const struct port_ctr *p, double secs, bool all)
{
	int rows = 0;

	if (g_opts.details) {
		for (int i = 0; i < p->set.n; i++) {
			const struct stat_counter *c = &p->set.c[i], *o = find_old(old, p, c);
			uint64_t d = delta_of(c->value, o ? o->value : c->value);

			if (!d && !all)
				continue;
			print_row(p, ctr_group_key(counter_group(c)), c->name, stat_source_token(c->src), d, secs,
				  c->value);
			rows++;
		}
		return rows;
	}
	for (int k = 1; k < K_COUNT; k++) {
		bool present;
		uint64_t d = kind_delta(old, p, k, &present);

		if (!present || (!d && !all))
			continue;
		print_row(p, ctr_group_key(ctr_kinds[k].group), ctr_kinds[k].key, NULL, d, secs,
			  ctr_kind_sum(&p->set, k, &present));
		rows++;
	}
	return rows;
}

/* Rows whose counters changed, whether or not --all shows the others. */
static int count_rows(const struct sample *old, const struct sample *now)
{
	int rows = 0;

	for (int i = 0; i < now->n; i++) {
		const struct port_ctr *p = &now->p[i];

		if (g_opts.details) {
			for (int j = 0; j < p->set.n; j++) {
				const struct stat_counter *o = find_old(old, p, &p->set.c[j]);

				rows += delta_of(p->set.c[j].value, o ? o->value : p->set.c[j].value) != 0;
			}
			continue;
		}
		for (int k = 1; k < K_COUNT; k++) {
			bool present;
			uint64_t d = kind_delta(old, p, k, &present);

			rows += present && d;
		}
	}
	return rows;
}

static void print_interval(unsigned long long seq, const struct sample *old, const struct sample *now, bool all)
{
	double secs = now->mono - old->mono;
	time_t t = (time_t)now->wall;
	char clock[16];

	strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&t));
	out_obj_begin(NULL);
	if (out_is_json()) {
		out_u64(&ctr_fields[F_SEQ], seq);
		out_double(&ctr_fields[F_TIME], now->wall, 3);
	} else {
		out_str(&ctr_fields[F_CLOCK], clock);
	}
	out_double(&ctr_fields[F_INTERVAL], secs, 3);
	out_u64(&ctr_fields[F_ROWS], count_rows(old, now));
	out_list_begin("rows");
	for (int i = 0; i < now->n; i++)
		port_rows(old, &now->p[i], secs, all);
	out_list_end();
	out_obj_end();
}

/* The hw_counters cache: reading faster than its lifespan returns old values. */
static double respect_lifespan(double interval, const struct sample *s)
{
	double life = sample_lifespan(s);

	if (interval >= life)
		return interval;
	fprintf(stderr, "rdmadiag: note: interval raised from %g s to %g s, the counters' cache lifespan "
			"(hw_counters/lifespan)\n", interval, life);
	return life;
}

static int read_interval_opt(struct cmd_ctx *ctx, double dflt, double *out)
{
	const struct opt_value *v = ctx_opt(ctx, "--interval");

	*out = dflt;
	/* the dispatcher checked it (OPT_SECONDS); system check hands its own on as text */
	if (v->set && parse_seconds("--interval", v->str, INTERVAL_MIN_S, 3600, out))
		return EXIT_USAGE;
	return 0;
}

static int counter_watch(struct cmd_ctx *ctx)
{
	struct watch_opts w = { .all = ctx_opt(ctx, "--all")->set };
	struct sample old, now;
	int rc;

	if (read_interval_opt(ctx, 1, &w.interval))
		return EXIT_USAGE;
	w.count = ctx_opt_uint(ctx, "--count", 0);
	rc = take_first_sample(ctx, &old);
	if (rc)
		return rc;
	rc = port_errors(&old);
	if (rc) {
		sample_free(&old);
		return rc;
	}
	w.interval = respect_lifespan(w.interval, &old);
	if (out_is_json())
		out_set_stream(true);
	install_stop_handler();
	double start = old.mono;

	for (unsigned long long seq = 1; !w.count || seq <= w.count; seq++) {
		/* Sleep to the next tick counted from the first sample, so slow reads
		 * do not make the intervals drift. */
		double wait = start + seq * w.interval - mono_now();

		/* Far behind (slow reads, a stopped terminal): start the ticks anew
		 * rather than take samples closer than the cache lifespan. */
		if (wait < w.interval / 2) {
			start += w.interval - wait;
			wait = w.interval;
		}
		if (sleep_seconds(wait))
			break;
		memset(&now, 0, sizeof(now));
		sample_read(&now, &old);
		print_interval(seq, &old, &now, w.all);
		out_flush();	/* each interval reaches a pipe or log now, not when a buffer fills */
		sample_free(&old);
		old = now;
	}
	sample_free(&old);
	return EXIT_OK;
}

/* ---- check ---- */

struct check_rule {
	const char *id;
	enum ctr_kind kinds[5];		/* K_NONE ends */
	enum verdict when_rising;
	const char *what;		/* "retransmissions" for the measured text */
	const char *title;		/* one line for --list */
	const char *hint;
};

static const char loss_hint[] =
	"loss on the path; check PFC/ECN: RoCE needs a lossless class (PFC on the RDMA priority end to end) "
	"or ECN marking on every switch; look for drops with 'ethtool -S' on both hosts and on the switch "
	"ports, and for a tc qdisc (netem) on the netdev";

static const struct check_rule rules[] = {
	{ "counter.retrans", { K_RETRANS, K_RETRY_EXCEEDED }, V_FAIL, "retransmissions",
	  "retransmissions or exceeded retries rose: packets are lost on the path", loss_hint },
	{ "counter.seq_err", { K_SEQ_ERR, K_DUPLICATE }, V_FAIL, "sequence errors",
	  "sequence errors or duplicate requests rose: packets are lost or reordered", loss_hint },
	{ "counter.timeout", { K_ACK_TIMEOUT }, V_FAIL, "ACK timeouts",
	  "ACK timeouts rose: packets or ACKs are lost, or the peer stopped answering",
	  "packets or their ACKs are lost, or the peer stopped answering; check PFC/ECN and the peer's state" },
	{ "counter.rnr", { K_RNR, K_RNR_EXCEEDED, K_OUT_OF_BUFFER }, V_WARN, "RNR NAKs or drops for lack of receive buffers",
	  "RNR NAKs or out-of-buffer drops rose: a receiver posts too few receive buffers",
	  "the receiver is not posting receive buffers fast enough: the application must post more receives "
	  "(or use an SRQ); raising min_rnr_timer/rnr_retry only hides it" },
	{ "counter.cnp", { K_CNP_SENT, K_CNP_HANDLED, K_ECN_MARKED }, V_WARN, "congestion notifications",
	  "congestion notifications (CNP, ECN marks) rose: the fabric is congested",
	  "congestion is being handled: switches mark ECN and DCQCN slows the senders; if throughput is low, "
	  "look at incast patterns and the switches' ECN thresholds and buffers" },
	{ "counter.link_downed", { K_LINK_DOWNED }, V_FAIL, "link down events",
	  "the link went down: a flapping cable, transceiver or switch port",
	  "the link is flapping: check the cable, transceiver and switch port (switch logs, 'ethtool' link state)" },
	{ "counter.symbol_err", { K_SYMBOL_ERR, K_LINK_RECOVERY, K_RX_ERRORS }, V_WARN, "physical errors",
	  "physical errors (symbol errors, link recoveries, receive errors) rose",
	  "physical layer errors: reseat or replace the cable or transceiver, check the switch port" },
	{ "counter.pause", { K_PAUSE_RX, K_PAUSE_TX, K_PFC_RX, K_PFC_TX }, V_WARN, "pause/PFC frames",
	  "pause or PFC frames rose: a congested or slow receiver pushes back",
	  "the fabric is pushing back with pause frames: a congested or slow receiver; sustained pauses can "
	  "spread (head-of-line blocking, PFC storms)" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* --only/--skip accept these: a static list, not one filled from rules[] at
 * start-up, since system check reads it from its own constructor; a host test
 * holds it equal to --list. */
static const char *const check_ids[] = {
	"counter.retrans", "counter.seq_err", "counter.timeout", "counter.rnr", "counter.cnp",
	"counter.link_downed", "counter.symbol_err", "counter.pause", NULL,
};

static void check_rule(const struct check_rule *rule, const struct sample *old, const struct port_ctr *p,
		       double secs, bool idle, struct check_summary *sum, enum out_format fmt)
{
	struct check_result r;
	char name[RD_NAME_LEN + 8];
	uint64_t delta = 0, total = 0;
	int nkinds = 0;
	bool many = rule->kinds[1] != K_NONE;	/* the total sums kinds: name them */
	char kinds[256] = "";
	size_t klen = 0;

	port_name(p, name, sizeof(name));
	check_init(&r, rule->id, name);
	for (int i = 0; rule->kinds[i] != K_NONE && i < 5; i++) {
		bool present;
		uint64_t v;

		delta += kind_delta(old, p, rule->kinds[i], &present);
		v = ctr_kind_sum(&p->set, rule->kinds[i], &present);
		if (!present)
			continue;
		total += v;
		/* each kind summed, by counter show's name for it, so that the
		 * total reads against counter show (sequence_errors 47 and
		 * duplicate_requests 11 make 58) */
		if (klen < sizeof(kinds))
			klen += (size_t)snprintf(kinds + klen, sizeof(kinds) - klen, "%s%s %llu", nkinds ? ", " : "",
						 ctr_kinds[rule->kinds[i]].key, (unsigned long long)v);
		nkinds++;
	}
	if (!nkinds) {
		check_measured(&r, "the driver has no counter for %s", rule->what);
		check_verdict(&r, V_SKIP, NULL);
	} else {
		check_measured(&r, "%s +%llu in %.1f s (%.1f/s), %llu since reset%s%s%s%s", rule->what,
			       (unsigned long long)delta, secs, secs > 0 ? delta / secs : 0, (unsigned long long)total,
			       many ? " (" : "", many ? kinds : "", many ? ")" : "",
			       idle && !delta ? "; the port was idle" : "");
		check_expected(&r, "no increase");
		if (delta)
			check_verdict(&r, rule->when_rising, "%s", rule->hint);
		else
			check_verdict(&r, V_PASS, NULL);
	}
	if (out_format_is_prom(fmt))
		prom_check_add(&r, sum);
	else
		check_emit(&r, sum);
}

static bool port_idle(const struct sample *old, const struct port_ctr *p)
{
	static const enum ctr_kind traffic[] = { K_TX_PACKETS, K_RX_PACKETS, K_TX_BYTES, K_RX_BYTES };
	bool present;

	for (size_t i = 0; i < sizeof(traffic) / sizeof(traffic[0]); i++)
		if (kind_delta(old, p, traffic[i], &present))
			return false;
	return true;
}

/* --list: every rule, one line each; the devices are not read. */
static int list_rules(void)
{
	check_list_begin();
	for (size_t i = 0; i < NRULES; i++)
		check_list_row(&(struct check_desc){ rules[i].id, "port", "any", rules[i].title });
	return check_list_end();
}

/* A host without RDMA netlink, or without a device: kernel.rdma fails, as in
 * link check, so that the document has its checks and summary. Exit 3 for
 * no netlink, 1 (a failed check) for no device, as link check. */
static int check_no_rdma(const struct sample *s, int rc, enum out_format fmt)
{
	struct check_summary sum = { 0 };
	struct check_result r;

	out_list_begin("checks");
	check_kernel_rdma_failed(&r, s->no_devices);
	if (out_format_is_prom(fmt))
		prom_check_add(&r, &sum);
	else
		check_emit(&r, &sum);
	out_list_end();
	if (out_format_is_prom(fmt))
		prom_checks_flush(fmt, "counter check");
	else
		check_print_summary(&sum);
	return s->no_devices ? check_exit_code(&sum, false) : rc;
}

static int counter_check(struct cmd_ctx *ctx)
{
	struct check_summary sum = { 0 };
	struct sample old = { 0 }, now = { 0 };
	enum out_format fmt;
	double interval;
	int rc = out_format_get(ctx, &fmt);

	if (rc)
		return rc;
	if (ctx_opt(ctx, "--list")->set)
		return list_rules();
	if (read_interval_opt(ctx, 2, &interval) ||
	    check_only_skip_conflict(ctx_opt_str(ctx, "--only", NULL), ctx_opt_str(ctx, "--skip", NULL), check_ids))
		return EXIT_USAGE;
	/* report merge names the node by it, as for link check */
	out_set_host(local_host_name());
	rc = take_first_sample(ctx, &old);
	if (old.no_devices || old.no_netlink)
		return check_no_rdma(&old, rc, fmt);
	if (rc)
		return rc;
	rc = port_errors(&old);
	interval = respect_lifespan(interval, &old);
	install_stop_handler();
	if (!rc && sleep_after_sample(&old, interval)) {
		sample_free(&old);
		report_error("counter check interrupted before its second sample", NULL, NULL);
		return EXIT_RUNTIME;
	}
	sample_read(&now, &old);
	/* checks and summary always come together, as in link check: a port
	 * whose counters cannot be read checked nothing (an empty list, a zero
	 * summary, the error), which report merge counts as nothing checked */
	out_list_begin("checks");
	for (int i = 0; !rc && i < now.n; i++) {
		bool idle = port_idle(&old, &now.p[i]);

		for (size_t j = 0; j < NRULES; j++)
			if (check_selected(ctx, rules[j].id))
				check_rule(&rules[j], &old, &now.p[i], now.mono - old.mono, idle, &sum, fmt);
	}
	out_list_end();
	if (out_format_is_prom(fmt))
		prom_checks_flush(fmt, "counter check");
	else
		check_print_summary(&sum);
	sample_free(&old);
	sample_free(&now);
	return rc ? rc : check_exit_code(&sum, ctx_opt(ctx, "--strict")->set);
}

/* ---- map ---- */

static const struct field map_fields[] = {
	{ "hw_counter", NULL, FT_STR, FF_HEAD, NULL },
	{ "source", NULL, FT_TOKEN, 0, NULL },
	{ "kind", NULL, FT_TOKEN, 0, NULL },
	{ "group", NULL, FT_TOKEN, 0, NULL },
	{ "scale", NULL, FT_U64, 0, NULL },
	{ "drivers", NULL, FT_STR, 0, NULL },
};

static const char *map_sources(unsigned mask)
{
	if (mask == SRC_HW)
		return "hw_counters";
	if (mask == SRC_IB)
		return "counters";
	if (mask == SRC_ETH)
		return "ethtool";
	return "hw_counters,counters";
}

/* The map itself, as rdmadiag-counter(8) documents it. */
static int counter_map(struct cmd_ctx *ctx)
{
	(void)ctx;	/* no words: the dispatcher refuses any */
	out_list_begin("map");
	for (const struct ctr_map_entry *e = ctr_map; e->pattern; e++) {
		out_obj_begin(NULL);
		out_str(&map_fields[0], e->pattern);
		out_token(&map_fields[1], map_sources(e->sources));
		out_token(&map_fields[2], ctr_kinds[e->kind].key);
		out_token(&map_fields[3], ctr_group_key(ctr_kinds[e->kind].group));
		if (e->scale != 1)
			out_u64(&map_fields[4], e->scale);
		out_str(&map_fields[5], e->drivers);
		out_obj_end();
	}
	out_list_end();
	return EXIT_OK;
}

/* ---- table ---- */

static const struct cmd_opt show_opts[] = {
	OUT_FORMAT_OPT,
	{ 0 },
};

static const struct cmd_opt watch_opts[] = {
	{ "--interval", OPT_SECONDS, "S", "seconds between samples (default 1; at least the counters' cache lifespan)",
	  NULL, 0, 3600, COMPLETE_NONE },
	{ "--count", OPT_UINT, "N", "stop after N intervals (default: until interrupted)", NULL, 1, 1000000000,
	  COMPLETE_NONE },
	{ "--all", OPT_FLAG, NULL, "also rows that did not change", NULL, 0, 0, COMPLETE_NONE },
	{ 0 },
};

static const struct cmd_opt check_opts[] = {
	{ "--list", OPT_FLAG, NULL, "print the checks with one-line descriptions and exit", NULL, 0, 0, COMPLETE_NONE },
	{ "--only", OPT_LIST, "ID,...", "run only these checks", check_ids, 0, 0, COMPLETE_CHECK_ID },
	{ "--skip", OPT_LIST, "ID,...", "leave these checks out", check_ids, 0, 0, COMPLETE_CHECK_ID },
	{ "--interval", OPT_SECONDS, "S", "seconds between the two samples (default 2)", NULL, 0, 3600, COMPLETE_NONE },
	{ "--strict", OPT_FLAG, NULL, "warnings also give exit code 1", NULL, 0, 0, COMPLETE_NONE },
	OUT_FORMAT_OPT,
	{ 0 },
};

/* counter mode [DEV[/PORT]] | set DEV/PORT auto ... */
static const struct cmd_word mode_words[] = {
	{ "set", COMPLETE_NONE, NULL, &counter_mode_set_form, 0 },
	{ NULL },
};

static const struct action counter_actions[] = {
	{ "show", "[qp] [DEV[/PORT]]", "port counters grouped by meaning (traffic, retransmission, RNR, congestion, ...); "
	  "with qp the per-QP counters",
	  counter_show, NEEDS_NETLINK, show_opts, COMPLETE_DEV_PORT, show_words },
	{ "watch", "[DEV[/PORT]]", "per-interval deltas and rates of the counters that changed", counter_watch,
	  NEEDS_NETLINK, watch_opts, COMPLETE_DEV_PORT, NULL },
	{ "check", "[DEV[/PORT]]", "sample twice and say what rising counters mean (loss, congestion, RNR, flaps)",
	  counter_check, NEEDS_NETLINK, check_opts, COMPLETE_DEV_PORT, NULL },
	{ "map", "", "the vendor-neutral map: driver counter names, their kind and group", counter_map, 0, NULL,
	  COMPLETE_NONE, NULL },
	{ "mode", "[DEV[/PORT]] | set DEV/PORT auto type|pid|type,pid|off",
	  "statistic mode of per-QP counters (auto by type or pid, manual, none), or set it", counter_qp_mode,
	  NEEDS_NETLINK, NULL, COMPLETE_DEV_PORT, mode_words },
	{ "bind", "DEV/PORT lqpn N [counter ID]", "bind a QP to a per-QP counter (a new one without counter ID)",
	  counter_qp_bind, NEEDS_NETLINK | ARG_FIRST, NULL, COMPLETE_DEV_PORT, NULL,
	  counter_qp_bind_keys },
	{ "unbind", "DEV/PORT counter ID [lqpn N]", "unbind a QP (or every QP) from a per-QP counter",
	  counter_qp_unbind, NEEDS_NETLINK | ARG_FIRST, NULL, COMPLETE_DEV_PORT, NULL,
	  counter_qp_bind_keys },
	{ "list", "[DEV[/PORT]]", "same as show", counter_show, NEEDS_NETLINK | HIDDEN, show_opts, COMPLETE_DEV_PORT,
	  NULL },
	{ 0 },
};

const struct object obj_counter = { "counter", "port counters: loss, congestion, RNR, link flaps; Prometheus",
				    counter_actions };
