/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-QP counters (counter_qp.c): the handlers behind `counter show qp`,
 * `counter mode [set]`, `counter bind` and `counter unbind`; the actions
 * themselves are in counter.c's table.
 */
#ifndef RDMADIAG_COUNTER_QP_H
#define RDMADIAG_COUNTER_QP_H

#include "../netlink/stat.h"
#include "rdmadiag.h"

/* `counter show qp ...`: ctx->argv[0] is "qp". */
int counter_qp_show(struct cmd_ctx *ctx);
int counter_qp_mode(struct cmd_ctx *ctx);
int counter_qp_bind(struct cmd_ctx *ctx);
int counter_qp_unbind(struct cmd_ctx *ctx);

/* counter.c: the vendor-neutral groups of a counter set, as `counter show`
 * prints them under a port. */
void counter_print_groups(const struct stat_set *set);

extern const char *const counter_auto_values[];	/* for completion */

#endif
