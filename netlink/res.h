/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA resources (QP, CQ, MR, PD, CM_ID, SRQ) as the kernel's restrack
 * reports them over netlink (RDMA_NLDEV_CMD_RES_*_GET).
 *
 * A dump is asked once per device and parsed as it streams: every reply
 * message carries a nested table (RES_QP) of entries (RES_QP_ENTRY); each
 * entry is decoded into one struct rd_res on the stack and handed to the
 * callback, so memory does not grow with the number of objects.
 */
#ifndef RDMADIAG_RES_H
#define RDMADIAG_RES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "nl.h"

enum rd_res_kind { RD_RES_QP, RD_RES_CQ, RD_RES_MR, RD_RES_PD, RD_RES_CM_ID, RD_RES_SRQ, RD_RES_KINDS };

/* Optional values: bit set in rd_res.has when the kernel sent it. */
enum rd_res_field {
	RF_ID,		/* lqpn / cqn / mrn / pdn / cm_idn / srqn */
	RF_PORT,
	RF_RQPN,
	RF_SQ_PSN,
	RF_RQ_PSN,
	RF_PATH_MIG,
	RF_TYPE,
	RF_STATE,
	RF_PID,
	RF_PDN,
	RF_CQN,
	RF_CTXN,
	RF_CQE,
	RF_USECNT,
	RF_POLL_CTX,
	RF_DIM,
	RF_LKEY,
	RF_RKEY,
	RF_IOVA,
	RF_MRLEN,
	RF_LOCAL_DMA_LKEY,
	RF_UNSAFE_RKEY,
	RF_LQPN,	/* the QP of a cm_id */
	RF_PS,
	RF_SRC_ADDR,
	RF_DST_ADDR,
	RF_COUNT
};

struct rd_res {
	enum rd_res_kind kind;
	uint32_t has;			/* 1u << RF_* */
	uint32_t dev_index;
	const char *dev_name;		/* valid during the callback only */
	const char *kern_name;		/* owner when a kernel module, else NULL */
	uint32_t id, port, rqpn, sq_psn, rq_psn, pid, pdn, cqn, ctxn, cqe, lkey, rkey;
	uint32_t local_dma_lkey, unsafe_rkey, lqpn, ps;
	uint8_t path_mig, type, state, poll_ctx, dim;
	uint64_t usecnt, iova, mrlen;
	struct sockaddr_storage src, dst;
};

static inline bool rd_res_has(const struct rd_res *r, enum rd_res_field f)
{
	return r->has & (1u << f);
}

/* Numeric value of a field for filters; false when the object lacks it. */
bool rd_res_num(const struct rd_res *r, enum rd_res_field f, uint64_t *out);

typedef int (*rd_res_cb)(const struct rd_res *r, void *data);

/* Every object of one kind on one device: one dump. With `one_id` set, asks
 * the kernel for object `id` alone (non-dump GET); a kernel that cannot
 * answer that makes it fall back to a dump filtered here. Returns 0 or -errno;
 * an object that does not exist is not an error (nothing is reported).
 * cb returns non-zero to stop. */
int rd_res_each(enum rd_res_kind kind, uint32_t dev_index, bool one_id, uint32_t id, rd_res_cb cb, void *data);

/* RES_GET: per device counts by resource name ("qp", "cq", ...), of every
 * device (the caller picks one by dev_index: indexes start at 0, so no index
 * can stand for "every device"). */
typedef int (*rd_res_count_cb)(uint32_t dev_index, const char *dev_name, const char *name, uint64_t curr,
			       void *data);
int rd_res_summary(rd_res_count_cb cb, void *data);

/* Tokens (JSON, filters) and names (text) of the kernel's enums.
 * The *_parse functions accept either, case-insensitively; -1 if unknown. */
const char *rd_qp_type_token(uint8_t t);	/* "rc" */
const char *rd_qp_type_name(uint8_t t);		/* "RC" */
int rd_qp_type_parse(const char *s);
const char *rd_qp_state_token(uint8_t s);	/* "rts" */
const char *rd_qp_state_name(uint8_t s);	/* "RTS" */
int rd_qp_state_parse(const char *s);
const char *rd_path_mig_token(uint8_t s);	/* "migrated" */
const char *rd_path_mig_name(uint8_t s);	/* "MIGRATED" */
const char *rd_cm_state_token(uint8_t s);	/* "established" */
const char *rd_cm_state_name(uint8_t s);	/* "ESTABLISHED" */
int rd_cm_state_parse(const char *s);
const char *rd_port_space_token(uint32_t ps);	/* "tcp" */
const char *rd_port_space_name(uint32_t ps);	/* "TCP" */
int rd_port_space_parse(const char *s);
const char *rd_poll_ctx_token(uint8_t p);	/* "direct", "softirq", ... */
const char *rd_srq_type_token(uint8_t t);	/* "basic", "xrc", "tm" */
const char *rd_srq_type_name(uint8_t t);
int rd_srq_type_parse(const char *s);

/* "192.0.2.1:4791" or "[fe80::1]:4791"; "" for AF_UNSPEC. */
void rd_sockaddr_format(const struct sockaddr_storage *ss, char *buf, size_t len);

#endif
