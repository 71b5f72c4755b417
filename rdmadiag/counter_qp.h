/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-QP counters (counter_qp.c): the handlers behind `counter show qp`,
 * `counter mode [set]`, `counter bind` and `counter unbind`; the actions
 * themselves are in counter.c's table.
 */
#ifndef RDMADIAG_COUNTER_QP_H
#define RDMADIAG_COUNTER_QP_H

#include "../netlink/stat.h"
#include "prom.h"
#include "rdmadiag.h"
#include "resource.h"

/* `counter show qp ...`: ctx->argv[0] is "qp"; fmt from --format. */
/* Each action's check_args (struct action) with its run: counter show qp
 * (the check_args of counter show hands "qp ..." to counter_qp_show_args),
 * counter mode, counter bind and unbind (one check_args). */
int counter_qp_show_args(struct cmd_ctx *ctx);
int counter_qp_show(struct cmd_ctx *ctx, enum out_format fmt);
int counter_qp_mode_args(struct cmd_ctx *ctx);
int counter_qp_mode(struct cmd_ctx *ctx);
int counter_qp_bind_args(struct cmd_ctx *ctx);
int counter_qp_bind(struct cmd_ctx *ctx);
int counter_qp_unbind(struct cmd_ctx *ctx);

/* counter_print.c: the vendor-neutral groups of a counter set, as `counter show`
 * prints them under a port. */
void counter_print_groups(const struct stat_set *set);

/* counter_print.c: counter sets as Prometheus/OpenMetrics families named
 * PREFIX_KIND (vendor-neutral kinds, ctr_kind_metric()) and PREFIX_driver_stat
 * (the driver's names, with stat/source/group labels added to the series' own).
 * promtool's lint wants no type word in a name: no "counter" in either. */
#define PROM_SERIES_LABELS 8
struct prom_series {
	struct prom_label l[PROM_SERIES_LABELS];
	int nl;
	const struct stat_set *set;
};
void counter_prom_print(const char *prefix, const char *raw_help, const struct prom_series *s, int n,
			enum out_format f);

/* The words after `counter show qp` and `counter mode set`, and the filters
 * of bind and unbind, for the action table in counter.c. */
extern const struct cmd_form counter_qp_show_form;
extern const struct cmd_form counter_mode_set_form;
extern const struct rfilter_key counter_qp_bind_keys[];

#endif
