// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA resources over netlink, decoded one entry at a time; see res.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "res.h"
#include "source.h"

/* Per kind: the request, the nest of the dump, its entries, the id attribute. */
static const struct res_kind_desc {
	uint16_t cmd, nest, entry, id_attr;
} kinds[RD_RES_KINDS] = {
	[RD_RES_QP] = { RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY,
			RDMA_NLDEV_ATTR_RES_LQPN },
	[RD_RES_CQ] = { RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY,
			RDMA_NLDEV_ATTR_RES_CQN },
	[RD_RES_MR] = { RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY,
			RDMA_NLDEV_ATTR_RES_MRN },
	[RD_RES_PD] = { RDMA_NLDEV_CMD_RES_PD_GET, RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY,
			RDMA_NLDEV_ATTR_RES_PDN },
	[RD_RES_CM_ID] = { RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_NLDEV_ATTR_RES_CM_ID,
			   RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, RDMA_NLDEV_ATTR_RES_CM_IDN },
	[RD_RES_SRQ] = { RDMA_NLDEV_CMD_RES_SRQ_GET, RDMA_NLDEV_ATTR_RES_SRQ, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY,
			 RDMA_NLDEV_ATTR_RES_SRQN },
};

/* ---- decoding one entry ---- */

#define GET_U32(field, attr, flag)                                  \
	do {                                                        \
		if (tb[attr]) {                                     \
			r->field = mnl_attr_get_u32(tb[attr]);      \
			r->has |= 1u << (flag);                     \
		}                                                   \
	} while (0)
#define GET_U8(field, attr, flag)                                   \
	do {                                                        \
		if (tb[attr]) {                                     \
			r->field = mnl_attr_get_u8(tb[attr]);       \
			r->has |= 1u << (flag);                     \
		}                                                   \
	} while (0)
#define GET_U64(field, attr, flag)                                  \
	do {                                                        \
		if (tb[attr]) {                                     \
			r->field = mnl_attr_get_u64(tb[attr]);      \
			r->has |= 1u << (flag);                     \
		}                                                   \
	} while (0)

static void get_addr(const nl_tb tb, int attr, struct sockaddr_storage *ss, uint32_t *has, int flag)
{
	size_t len;

	if (!tb[attr])
		return;
	len = mnl_attr_get_payload_len(tb[attr]);
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, mnl_attr_get_payload(tb[attr]), len < sizeof(*ss) ? len : sizeof(*ss));
	*has |= 1u << flag;
}

static void decode_entry(enum rd_res_kind kind, const nl_tb tb, struct rd_res *r)
{
	GET_U32(id, kinds[kind].id_attr, RF_ID);
	GET_U32(port, RDMA_NLDEV_ATTR_PORT_INDEX, RF_PORT);
	GET_U32(pid, RDMA_NLDEV_ATTR_RES_PID, RF_PID);
	r->kern_name = nl_str(tb, RDMA_NLDEV_ATTR_RES_KERN_NAME);
	GET_U32(pdn, RDMA_NLDEV_ATTR_RES_PDN, RF_PDN);
	GET_U32(cqn, RDMA_NLDEV_ATTR_RES_CQN, RF_CQN);
	GET_U32(ctxn, RDMA_NLDEV_ATTR_RES_CTXN, RF_CTXN);
	GET_U8(type, RDMA_NLDEV_ATTR_RES_TYPE, RF_TYPE);
	GET_U8(state, RDMA_NLDEV_ATTR_RES_STATE, RF_STATE);
	GET_U64(usecnt, RDMA_NLDEV_ATTR_RES_USECNT, RF_USECNT);
	switch (kind) {
	case RD_RES_QP:
		GET_U32(rqpn, RDMA_NLDEV_ATTR_RES_RQPN, RF_RQPN);
		GET_U32(sq_psn, RDMA_NLDEV_ATTR_RES_SQ_PSN, RF_SQ_PSN);
		GET_U32(rq_psn, RDMA_NLDEV_ATTR_RES_RQ_PSN, RF_RQ_PSN);
		GET_U8(path_mig, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, RF_PATH_MIG);
		break;
	case RD_RES_CQ:
		GET_U32(cqe, RDMA_NLDEV_ATTR_RES_CQE, RF_CQE);
		GET_U8(poll_ctx, RDMA_NLDEV_ATTR_RES_POLL_CTX, RF_POLL_CTX);
		GET_U8(dim, RDMA_NLDEV_ATTR_DEV_DIM, RF_DIM);
		break;
	case RD_RES_MR:
		GET_U32(lkey, RDMA_NLDEV_ATTR_RES_LKEY, RF_LKEY);
		GET_U32(rkey, RDMA_NLDEV_ATTR_RES_RKEY, RF_RKEY);
		GET_U64(iova, RDMA_NLDEV_ATTR_RES_IOVA, RF_IOVA);
		GET_U64(mrlen, RDMA_NLDEV_ATTR_RES_MRLEN, RF_MRLEN);
		break;
	case RD_RES_PD:
		GET_U32(local_dma_lkey, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, RF_LOCAL_DMA_LKEY);
		GET_U32(unsafe_rkey, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY, RF_UNSAFE_RKEY);
		break;
	case RD_RES_CM_ID:
		GET_U32(lqpn, RDMA_NLDEV_ATTR_RES_LQPN, RF_LQPN);
		GET_U32(ps, RDMA_NLDEV_ATTR_RES_PS, RF_PS);
		get_addr(tb, RDMA_NLDEV_ATTR_RES_SRC_ADDR, &r->src, &r->has, RF_SRC_ADDR);
		get_addr(tb, RDMA_NLDEV_ATTR_RES_DST_ADDR, &r->dst, &r->has, RF_DST_ADDR);
		break;
	default:
		break;
	}
}

bool rd_res_num(const struct rd_res *r, enum rd_res_field f, uint64_t *out)
{
	if (!rd_res_has(r, f))
		return false;
	switch (f) {
	case RF_ID: *out = r->id; break;
	case RF_PORT: *out = r->port; break;
	case RF_RQPN: *out = r->rqpn; break;
	case RF_SQ_PSN: *out = r->sq_psn; break;
	case RF_RQ_PSN: *out = r->rq_psn; break;
	case RF_PATH_MIG: *out = r->path_mig; break;
	case RF_TYPE: *out = r->type; break;
	case RF_STATE: *out = r->state; break;
	case RF_PID: *out = r->pid; break;
	case RF_PDN: *out = r->pdn; break;
	case RF_CQN: *out = r->cqn; break;
	case RF_CTXN: *out = r->ctxn; break;
	case RF_CQE: *out = r->cqe; break;
	case RF_USECNT: *out = r->usecnt; break;
	case RF_LQPN: *out = r->lqpn; break;
	case RF_PS: *out = r->ps; break;
	default: return false;
	}
	return true;
}

/* ---- walking replies ---- */

struct res_walk {
	enum rd_res_kind kind;
	bool one_id;		/* only object `id` (dump fallback filters here) */
	uint32_t id;
	rd_res_cb cb;
	void *data;
	int stop;
};

static int emit(struct res_walk *w, const nl_tb tb, const nl_tb msg_tb)
{
	struct rd_res r;

	memset(&r, 0, offsetof(struct rd_res, src));	/* the addresses are set only when present */
	r.kind = w->kind;
	r.dev_index = nl_u32(msg_tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	r.dev_name = nl_str(msg_tb, RDMA_NLDEV_ATTR_DEV_NAME);
	if (!r.dev_name)
		r.dev_name = "?";
	decode_entry(w->kind, tb, &r);
	if (!rd_res_has(&r, RF_ID))
		return 0;	/* every kernel sends the id; an entry without one is malformed */
	if (w->one_id && r.id != w->id)
		return 0;
	if (!w->stop)
		w->stop = w->cb(&r, w->data);
	return 0;	/* a streamed dump is read to its end even when the caller is done */
}

static int res_msg(const nl_tb tb, void *data)
{
	struct res_walk *w = data;
	const struct res_kind_desc *d = &kinds[w->kind];
	const struct nlattr *entry;

	/* A non-dump GET answers with the entry's attributes at the top level. */
	if (!tb[d->nest]) {
		emit(w, tb, tb);
		return MNL_CB_OK;
	}
	mnl_attr_for_each_nested(entry, tb[d->nest]) {
		nl_tb etb;

		if (mnl_attr_get_type(entry) != d->entry || nl_parse_nested(entry, etb))
			continue;
		emit(w, etb, tb);
	}
	return MNL_CB_OK;
}

static int res_dump(struct res_walk *w, uint32_t dev_index)
{
	struct nl_req r;

	nl_req_init(&r, kinds[w->kind].cmd, true);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	return nl_run(&r, res_msg, w);
}

int rd_res_each(enum rd_res_kind kind, uint32_t dev_index, bool one_id, uint32_t id, rd_res_cb cb, void *data)
{
	struct res_walk w = { .kind = kind, .one_id = one_id, .id = id, .cb = cb, .data = data };
	struct nl_req r;
	int err;

	if (kind >= RD_RES_KINDS)
		return -EINVAL;
	if (!one_id)
		return res_dump(&w, dev_index);
	nl_req_init(&r, kinds[kind].cmd, false);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	nl_req_u32(&r, kinds[kind].id_attr, id);
	err = nl_run(&r, res_msg, &w);
	if (err == -ENOENT && !source_replaying())
		return 0;	/* the kernel has no such object */
	/* Older kernels refuse a GET by id; a fixture may hold only the dump. */
	if (err == -EOPNOTSUPP || err == -EINVAL || err == -ENOENT)
		return res_dump(&w, dev_index);
	return err;
}

/* ---- summary ---- */

struct sum_walk {
	uint32_t dev_index;	/* 0: every device */
	rd_res_count_cb cb;
	void *data;
};

static int sum_msg(const nl_tb tb, void *data)
{
	struct sum_walk *w = data;
	const struct nlattr *entry;
	uint32_t idx = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	const char *name = nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME);

	if (!tb[RDMA_NLDEV_ATTR_RES_SUMMARY] || (w->dev_index && idx != w->dev_index))
		return MNL_CB_OK;
	mnl_attr_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_SUMMARY]) {
		nl_tb etb;
		const char *what;

		if (nl_parse_nested(entry, etb))
			continue;
		what = nl_str(etb, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME);
		if (!what || !etb[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR])
			continue;
		if (w->cb(idx, name ? name : "?", what, nl_u64(etb, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, 0),
			  w->data))
			return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

int rd_res_summary(uint32_t dev_index, rd_res_count_cb cb, void *data)
{
	struct sum_walk w = { dev_index, cb, data };
	struct nl_req r;

	nl_req_init(&r, RDMA_NLDEV_CMD_RES_GET, true);
	return nl_run(&r, sum_msg, &w);
}

/* ---- tokens ---- */

struct names {
	int value;
	const char *token, *name;
};

static const struct names qp_types[] = {
	{ 0, "smi", "SMI" }, { 1, "gsi", "GSI" }, { 2, "rc", "RC" }, { 3, "uc", "UC" }, { 4, "ud", "UD" },
	{ 5, "raw_ipv6", "RAW_IPV6" }, { 6, "raw_ethertype", "RAW_ETHERTYPE" }, { 8, "raw_packet", "RAW_PACKET" },
	{ 9, "xrc_ini", "XRC_INI" }, { 10, "xrc_tgt", "XRC_TGT" }, { 0xff, "driver", "DRIVER" }, { -1, NULL, NULL },
};
static const struct names qp_states[] = {
	{ 0, "reset", "RESET" }, { 1, "init", "INIT" }, { 2, "rtr", "RTR" }, { 3, "rts", "RTS" },
	{ 4, "sqd", "SQD" }, { 5, "sqe", "SQE" }, { 6, "err", "ERR" }, { -1, NULL, NULL },
};
static const struct names path_migs[] = {
	{ 0, "migrated", "MIGRATED" }, { 1, "rearm", "REARM" }, { 2, "armed", "ARMED" }, { -1, NULL, NULL },
};
static const struct names cm_states[] = {
	{ 0, "idle", "IDLE" }, { 1, "addr_query", "ADDR_QUERY" }, { 2, "addr_resolved", "ADDR_RESOLVED" },
	{ 3, "route_query", "ROUTE_QUERY" }, { 4, "route_resolved", "ROUTE_RESOLVED" },
	{ 5, "connect", "CONNECT" }, { 6, "disconnect", "DISCONNECT" }, { 7, "addr_bound", "ADDR_BOUND" },
	{ 8, "listen", "LISTEN" }, { 9, "device_removal", "DEVICE_REMOVAL" }, { 10, "destroying", "DESTROYING" },
	{ -1, NULL, NULL },
};
static const struct names port_spaces[] = {
	{ 0x0002, "ipoib", "IPOIB" }, { 0x0106, "tcp", "TCP" }, { 0x0111, "udp", "UDP" }, { 0x013f, "ib", "IB" },
	{ -1, NULL, NULL },
};
static const struct names poll_ctxs[] = {
	{ 0, "softirq", "SOFTIRQ" }, { 1, "workqueue", "WORKQUEUE" }, { 2, "unbound_workqueue", "UNBOUND_WORKQUEUE" },
	{ 3, "direct", "DIRECT" }, { -1, NULL, NULL },
};
static const struct names srq_types[] = {
	{ 0, "basic", "BASIC" }, { 1, "xrc", "XRC" }, { 2, "tm", "TM" }, { -1, NULL, NULL },
};

static const struct names *lookup(const struct names *n, long v)
{
	for (; n->token; n++)
		if (n->value == v)
			return n;
	return NULL;
}

static const char *token_of(const struct names *n, long v)
{
	const struct names *e = lookup(n, v);

	return e ? e->token : "unknown";
}

static const char *name_of(const struct names *n, long v)
{
	const struct names *e = lookup(n, v);

	return e ? e->name : "UNKNOWN";
}

static int parse_of(const struct names *n, const char *s)
{
	for (; n->token; n++)
		if (!strcasecmp(s, n->token) || !strcasecmp(s, n->name))
			return n->value;
	return -1;
}

const char *rd_qp_type_token(uint8_t t) { return token_of(qp_types, t); }
const char *rd_qp_type_name(uint8_t t) { return name_of(qp_types, t); }
int rd_qp_type_parse(const char *s) { return parse_of(qp_types, s); }
const char *rd_qp_state_token(uint8_t s) { return token_of(qp_states, s); }
const char *rd_qp_state_name(uint8_t s) { return name_of(qp_states, s); }
const char *rd_path_mig_token(uint8_t s) { return token_of(path_migs, s); }
const char *rd_path_mig_name(uint8_t s) { return name_of(path_migs, s); }
const char *rd_cm_state_token(uint8_t s) { return token_of(cm_states, s); }
const char *rd_cm_state_name(uint8_t s) { return name_of(cm_states, s); }
int rd_cm_state_parse(const char *s) { return parse_of(cm_states, s); }
const char *rd_port_space_token(uint32_t ps) { return token_of(port_spaces, ps); }
const char *rd_port_space_name(uint32_t ps) { return name_of(port_spaces, ps); }
int rd_port_space_parse(const char *s) { return parse_of(port_spaces, s); }
const char *rd_poll_ctx_token(uint8_t p) { return token_of(poll_ctxs, p); }
const char *rd_srq_type_token(uint8_t t) { return token_of(srq_types, t); }
const char *rd_srq_type_name(uint8_t t) { return name_of(srq_types, t); }
int rd_srq_type_parse(const char *s) { return parse_of(srq_types, s); }

int rd_qp_state_parse(const char *s)
{
	if (!strcasecmp(s, "error"))	/* what people type for ERR */
		return 6;
	return parse_of(qp_states, s);
}

void rd_sockaddr_format(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)ss;

		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, ntohs(in->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, ntohs(in6->sin6_port));
	} else if (ss->ss_family == AF_IB) {
		snprintf(buf, len, "ib");
	} else {
		buf[0] = '\0';
	}
}
