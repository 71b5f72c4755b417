// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag counter: port counters that explain loss and congestion.
 *   show   grouped by meaning (counter_map.c), raw with -d; text, JSON,
 *          Prometheus or OpenMetrics
 *   watch  deltas and rates per interval (JSON lines with -j; counter_watch.c)
 *   check  two samples turned into verdicts (check.h; counter_check.c)
 *   map    the vendor-neutral map itself
 * and the per-QP counters' actions (counter_qp.c). See counter_int.h.
 */
#include <string.h>

#include "counter_int.h"
#include "counter_map.h"
#include "counter_qp.h"
#include "objects.h"
#include "output.h"
#include "prom.h"
#include "resource.h"

/* "qp" switches show to the per-QP counters, whose filters follow it. */
static const struct cmd_word show_words[] = {
	{ .name = "qp", .form = &counter_qp_show_form },
	{ NULL },
};

static enum out_format show_fmt;	/* --format, read by counter_show_args */

static bool show_qp(const struct cmd_ctx *ctx)
{
	return ctx->argc && !strcmp(ctx->argv[0], "qp");
}

static int counter_show_args(struct cmd_ctx *ctx)
{
	int rc = out_format_get(ctx, &show_fmt);

	if (rc)
		return rc;
	if (show_qp(ctx))
		return counter_qp_show_args(ctx);
	for (const struct rfilter_key *k = counter_qp_show_form.filters; ctx->argc && k->name; k++) {
		if (!strcmp(ctx->argv[0], k->name)) {
			usage_error("'%s' filters the per-QP counters: rdmadiag counter show qp [DEV[/PORT]] %s N", k->name,
				    k->name);
			return EXIT_USAGE;
		}
	}
	return args_dev_port(ctx);
}

static int counter_show(struct cmd_ctx *ctx)
{
	struct sample s;
	enum out_format fmt = show_fmt;
	int rc;

	if (show_qp(ctx))
		return counter_qp_show(ctx, fmt);
	rc = sample_take_first(ctx, &s);
	if (rc)
		return rc;
	if (out_format_is_prom(fmt)) {
		counter_prom_ports(&s, fmt);
		prom_end(stdout, fmt);
	} else {
		out_list_begin("ports");
		for (int i = 0; i < s.n; i++)
			counter_print_port(&s.p[i]);
		out_list_end();
	}
	rc = sample_port_errors(&s);
	sample_free(&s);
	return rc;
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

/* counter mode [DEV[/PORT]] | set DEV/PORT auto ... */
static const struct cmd_word mode_words[] = {
	{ .name = "set", .form = &counter_mode_set_form },
	{ NULL },
};

static const struct action counter_actions[] = {
	{ .name = "show", .synopsis = "[qp] [DEV[/PORT]]", .summary = "port counters grouped by meaning (traffic, "
	  "retransmission, RNR, congestion, ...); with qp the per-QP counters", .check_args = counter_show_args,
	  .run = counter_show, .flags = NEEDS_NETLINK, .opts = show_opts, .positional = COMPLETE_DEV_PORT,
	  .words = show_words },
	{ .name = "watch", .synopsis = "[DEV[/PORT]]",
	  .summary = "per-interval deltas and rates of the counters that changed", .check_args = counter_watch_args,
	  .run = counter_watch, .flags = NEEDS_NETLINK, .opts = counter_watch_opts, .positional = COMPLETE_DEV_PORT },
	{ .name = "check", .synopsis = "[DEV[/PORT]]",
	  .summary = "sample twice and say what rising counters mean (loss, congestion, RNR, flaps)",
	  .check_args = counter_check_args, .no_netlink = counter_check_no_netlink, .run = counter_check,
	  .flags = NEEDS_NETLINK, .opts = counter_check_opts, .positional = COMPLETE_DEV_PORT,
	  .checks = counter_check_def },
	{ .name = "map", .synopsis = "",
	  .summary = "the vendor-neutral map: driver counter names, their kind and group", .run = counter_map },
	{ .name = "mode", .synopsis = "[DEV[/PORT]] | set DEV/PORT auto type|pid|type,pid|off",
	  .summary = "statistic mode of per-QP counters (auto by type or pid, manual, none), or set it",
	  .check_args = counter_qp_mode_args, .run = counter_qp_mode, .flags = NEEDS_NETLINK,
	  .positional = COMPLETE_DEV_PORT, .words = mode_words },
	{ .name = "bind", .synopsis = "DEV/PORT lqpn N [counter ID]",
	  .summary = "bind a QP to a per-QP counter (a new one without counter ID)",
	  .check_args = counter_qp_bind_args, .run = counter_qp_bind, .flags = NEEDS_NETLINK | ARG_FIRST,
	  .positional = COMPLETE_DEV_PORT, .filters = counter_qp_bind_keys },
	{ .name = "unbind", .synopsis = "DEV/PORT counter ID [lqpn N]",
	  .summary = "unbind a QP (or every QP) from a per-QP counter",
	  .check_args = counter_qp_bind_args, .run = counter_qp_unbind, .flags = NEEDS_NETLINK | ARG_FIRST,
	  .positional = COMPLETE_DEV_PORT, .filters = counter_qp_bind_keys },
	{ .name = "list", .synopsis = "[DEV[/PORT]]", .summary = "same as show", .check_args = counter_show_args,
	  .run = counter_show, .flags = NEEDS_NETLINK | HIDDEN, .opts = show_opts, .positional = COMPLETE_DEV_PORT },
	{ 0 },
};

const struct object obj_counter = { .name = "counter",
	.summary = "port counters: loss, congestion, RNR, link flaps; Prometheus", .actions = counter_actions };
