/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-QP statistic counters (the kernel's rdma_counter): a port's QPs can be
 * bound to counters of their own, automatically by QP type or owner pid
 * ("auto" mode) or by hand ("manual": bind/unbind). Only drivers with the
 * counter ops (mlx5_ib) have them; others answer EOPNOTSUPP or ENOMEM.
 *
 *   STAT_GET  dump, STAT_RES = RES_QP     every counter of a port: id, mode,
 *             QP type / pid when auto, bound LQPNs, hw counters
 *   STAT_GET  STAT_MODE + STAT_RES        the port's mode and auto mask
 *   STAT_SET  STAT_MODE auto + mask       auto mode on (mask) or off (0)
 *   STAT_SET  STAT_MODE manual + LQPN     bind a QP (to COUNTER_ID, or a new one)
 *   STAT_DEL  COUNTER_ID + LQPN           unbind a QP
 * SET and DEL need CAP_NET_ADMIN (EPERM otherwise).
 */
#ifndef RDMADIAG_STAT_QP_H
#define RDMADIAG_STAT_QP_H

#include <stdbool.h>
#include <stdint.h>

#include "stat.h"

/* The kernel sends one u32 per bound QP; more than this is a broken reply. */
#define STAT_QP_MAX_LQPNS 65536

struct stat_qp_counter {
	uint32_t dev_index;
	const char *dev_name;		/* valid during the callback only */
	uint32_t port, id;
	uint32_t mode;			/* RDMA_COUNTER_MODE_* */
	bool has_type, has_pid;
	uint8_t qp_type;		/* auto by type: the type of its QPs */
	uint32_t pid;			/* auto by pid: the owner */
	const char *kern_name;		/* owner when a kernel module */
	uint32_t *lqpn;			/* bound QPs */
	int nlqpn;
	struct stat_set set;		/* its hw counters */
};

typedef int (*stat_qp_cb)(const struct stat_qp_counter *c, void *data);

/* Every counter of one port (port 0: of every port) of a device; cb
 * returns non-zero to stop. Returns 0 or -errno. */
int stat_qp_counters(uint32_t dev_index, uint32_t port, stat_qp_cb cb, void *data);

struct stat_qp_mode {
	uint32_t mode;		/* RDMA_COUNTER_MODE_* */
	uint32_t mask;		/* RDMA_COUNTER_MASK_* when auto */
};
int stat_qp_mode_get(uint32_t dev_index, uint32_t port, struct stat_qp_mode *m);
/* Auto mode with these criteria; mask 0 turns it off. */
int stat_qp_mode_set(uint32_t dev_index, uint32_t port, uint32_t mask);
/* Binds lqpn to counter *id (when has_id) or to a new counter; *id gets the
 * counter the kernel used. */
int stat_qp_bind(uint32_t dev_index, uint32_t port, uint32_t lqpn, bool has_id, uint32_t *id);
int stat_qp_unbind(uint32_t dev_index, uint32_t port, uint32_t id, uint32_t lqpn);

/* "none", "auto", "manual" */
const char *stat_qp_mode_token(uint32_t mode);

#endif
