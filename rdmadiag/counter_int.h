/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside `rdmadiag counter` (counter.c's table), shared by its parts and by
 * nothing else:
 *   counter.c         show and map, and the table of the actions
 *   counter_print.c   counter sets printed: text, JSON, Prometheus
 *   counter_watch.c   watch
 *   counter_check.c   check
 * The samples they read and compare are counter_sample.h's; the per-QP
 * counters are counter_qp.h's.
 */
#ifndef RDMADIAG_COUNTER_INT_H
#define RDMADIAG_COUNTER_INT_H

#include "counter_sample.h"
#include "prom.h"
#include "output.h"

enum {
	F_IFNAME, F_DEV, F_PORT, F_NETDEV, F_LIFESPAN, F_GROUP, F_ERROR,
	F_SEQ, F_TIME, F_CLOCK, F_INTERVAL, F_ROWS, F_COUNTER, F_SOURCE, F_DELTA, F_RATE, F_VALUE,
};

/* ---- counter_print.c ---- */
extern const struct field ctr_fields[];
enum ctr_group counter_group(const struct stat_counter *c);
/* Opens a port's object: its name, and in JSON its device and port apart
 * (what show and watch rows start with). */
void counter_port_begin(const struct port_ctr *p);
/* A port of counter show, in text or JSON. */
void counter_print_port(const struct port_ctr *p);
/* The ports of a sample as series labelled device/port/netdev. */
void counter_prom_ports(const struct sample *s, enum out_format f);

/* ---- counter_watch.c, counter_check.c: the actions ---- */
int counter_watch_args(struct cmd_ctx *ctx);
int counter_watch(struct cmd_ctx *ctx);
extern const struct cmd_opt counter_watch_opts[];
int counter_check_args(struct cmd_ctx *ctx);
int counter_check_no_netlink(struct cmd_ctx *ctx, int rc);
int counter_check(struct cmd_ctx *ctx);
extern const struct cmd_opt counter_check_opts[];
/* The definition of the i-th rule, NULL past the last (struct action's checks). */
const struct check_def *counter_check_def(size_t i);

#endif
