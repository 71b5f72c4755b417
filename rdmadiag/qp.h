/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What qp.c offers other objects: `qp watch`'s judgement of queue pairs
 * (broken: entered SQD, SQE or ERR; stuck: in INIT or RTR longer than the
 * --stuck threshold) from one short sample, for `system check`.
 */
#ifndef RDMADIAG_QP_H
#define RDMADIAG_QP_H

#include "resource.h"

/* Called for every QP qp watch would flag; flag is "broken" or "stuck". */
typedef void (*qp_flag_fn)(const struct rd_res *r, const char *flag, const char *reason, void *data);

/* Parses "[DEV[/PORT]] [KEY VALUE]..." with qp's filter keys; -1 after a usage error. */
int qp_query_parse(const struct cmd_ctx *ctx, struct res_query *q);

/* Two dumps `interval` seconds apart judged as `qp watch --stuck INTERVAL`
 * judges them. Only the flag events are printed, in qp watch's form, into
 * the current JSON list; fn sees each of them. *nqps gets the number of
 * QPs seen. Returns an exit code; errors are reported. */
int qp_sample_judge(const struct res_query *q, double interval, qp_flag_fn fn, void *data, unsigned *nqps);

#endif
