// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA resources over netlink, decoded one entry at a time; see res.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../host/source.h"
#include "res.h"

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

/* Where each attribute goes: a table, so that a dump entry is decoded in one
 * pass over its attributes (only those read here are looked at, and each is
 * validated before use), and a GET reply from its attribute table alike. */
enum res_val { V_U8, V_U32, V_U64, V_STR, V_ADDR };

#define K(kind) (1u << (kind))
#define K_ALL (K(RD_RES_KINDS) - 1)

static const struct res_attr {
	uint16_t attr;
	uint8_t flag;		/* RF_*; V_STR has none */
	uint8_t val;		/* enum res_val */
	uint16_t offset;	/* in struct rd_res */
	uint8_t kinds;		/* K() of the kinds that read it */
} res_attrs[] = {
	{ RDMA_NLDEV_ATTR_PORT_INDEX, RF_PORT, V_U32, offsetof(struct rd_res, port), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_PID, RF_PID, V_U32, offsetof(struct rd_res, pid), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_KERN_NAME, 0, V_STR, offsetof(struct rd_res, kern_name), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_PDN, RF_PDN, V_U32, offsetof(struct rd_res, pdn), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_CQN, RF_CQN, V_U32, offsetof(struct rd_res, cqn), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_CTXN, RF_CTXN, V_U32, offsetof(struct rd_res, ctxn), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_TYPE, RF_TYPE, V_U8, offsetof(struct rd_res, type), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_STATE, RF_STATE, V_U8, offsetof(struct rd_res, state), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_USECNT, RF_USECNT, V_U64, offsetof(struct rd_res, usecnt), K_ALL },
	{ RDMA_NLDEV_ATTR_RES_RQPN, RF_RQPN, V_U32, offsetof(struct rd_res, rqpn), K(RD_RES_QP) },
	{ RDMA_NLDEV_ATTR_RES_SQ_PSN, RF_SQ_PSN, V_U32, offsetof(struct rd_res, sq_psn), K(RD_RES_QP) },
	{ RDMA_NLDEV_ATTR_RES_RQ_PSN, RF_RQ_PSN, V_U32, offsetof(struct rd_res, rq_psn), K(RD_RES_QP) },
	{ RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, RF_PATH_MIG, V_U8, offsetof(struct rd_res, path_mig), K(RD_RES_QP) },
	{ RDMA_NLDEV_ATTR_RES_CQE, RF_CQE, V_U32, offsetof(struct rd_res, cqe), K(RD_RES_CQ) },
	{ RDMA_NLDEV_ATTR_RES_POLL_CTX, RF_POLL_CTX, V_U8, offsetof(struct rd_res, poll_ctx), K(RD_RES_CQ) },
	{ RDMA_NLDEV_ATTR_DEV_DIM, RF_DIM, V_U8, offsetof(struct rd_res, dim), K(RD_RES_CQ) },
	{ RDMA_NLDEV_ATTR_RES_LKEY, RF_LKEY, V_U32, offsetof(struct rd_res, lkey), K(RD_RES_MR) },
	{ RDMA_NLDEV_ATTR_RES_RKEY, RF_RKEY, V_U32, offsetof(struct rd_res, rkey), K(RD_RES_MR) },
	{ RDMA_NLDEV_ATTR_RES_IOVA, RF_IOVA, V_U64, offsetof(struct rd_res, iova), K(RD_RES_MR) },
	{ RDMA_NLDEV_ATTR_RES_MRLEN, RF_MRLEN, V_U64, offsetof(struct rd_res, mrlen), K(RD_RES_MR) },
	{ RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, RF_LOCAL_DMA_LKEY, V_U32, offsetof(struct rd_res, local_dma_lkey),
	  K(RD_RES_PD) },
	{ RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY, RF_UNSAFE_RKEY, V_U32, offsetof(struct rd_res, unsafe_rkey),
	  K(RD_RES_PD) },
	{ RDMA_NLDEV_ATTR_RES_LQPN, RF_LQPN, V_U32, offsetof(struct rd_res, lqpn), K(RD_RES_CM_ID) },
	{ RDMA_NLDEV_ATTR_RES_PS, RF_PS, V_U32, offsetof(struct rd_res, ps), K(RD_RES_CM_ID) },
	{ RDMA_NLDEV_ATTR_RES_SRC_ADDR, RF_SRC_ADDR, V_ADDR, offsetof(struct rd_res, src), K(RD_RES_CM_ID) },
	{ RDMA_NLDEV_ATTR_RES_DST_ADDR, RF_DST_ADDR, V_ADDR, offsetof(struct rd_res, dst), K(RD_RES_CM_ID) },
};

#define NRES_ATTRS (sizeof(res_attrs) / sizeof(res_attrs[0]))

/* Per kind, the row of each attribute type it reads (NULL: skipped), so that
 * a dump entry costs one look-up per attribute; filled on first use. */
static const struct res_attr *reads[RD_RES_KINDS][NL_TB_SIZE];
static bool reads_indexed;

static void index_rows(void)
{
	if (reads_indexed)
		return;
	for (unsigned i = 0; i < NRES_ATTRS; i++)
		for (unsigned k = 0; k < RD_RES_KINDS; k++)
			if (res_attrs[i].kinds & K(k))
				reads[k][res_attrs[i].attr] = &res_attrs[i];
	reads_indexed = true;
}

/* A validated attribute into r. Tests, not a switch: most values are u32
 * and u8, and a jump table costs more than two compares here. */
static inline void store(const struct nlattr *a, enum res_val val, size_t offset, int flag, struct rd_res *r)
{
	char *dst = (char *)r + offset;
	const void *src = nl_attr_data(a);
	size_t len = (size_t)(a->nla_len - MNL_ATTR_HDRLEN);

	if (val == V_U32) {
		memcpy(dst, src, 4);
	} else if (val == V_U8) {
		memcpy(dst, src, 1);
	} else if (val == V_U64) {
		memcpy(dst, src, 8);
	} else if (val == V_STR) {
		memcpy(dst, &src, sizeof(src));	/* the pointer */
		return;
	} else {
		memset(dst, 0, sizeof(struct sockaddr_storage));
		memcpy(dst, src, len < sizeof(struct sockaddr_storage) ? len : sizeof(struct sockaddr_storage));
	}
	r->has |= 1u << flag;
}

/* A GET reply: the entry's attributes are the message's table. */
static void decode_entry(enum rd_res_kind kind, const nl_tb tb, struct rd_res *r)
{
	uint16_t id_attr = kinds[kind].id_attr;

	if (tb[id_attr])
		store(tb[id_attr], V_U32, offsetof(struct rd_res, id), RF_ID, r);
	for (unsigned i = 0; i < NRES_ATTRS; i++) {
		const struct res_attr *d = &res_attrs[i];

		if ((d->kinds & K(kind)) && tb[d->attr])
			store(tb[d->attr], d->val, d->offset, d->flag, r);
	}
}

/* The policy's check of the value types here, inline; a failure (rare) is
 * checked again by nl_attr_valid(), which warns as the table parsers do. */
static bool res_attr_valid(const struct nlattr *a, enum res_val val)
{
	static const uint8_t fixed_len[] = { [V_U8] = 1, [V_U32] = 4, [V_U64] = 8, [V_STR] = 0, [V_ADDR] = 0 };
	uint16_t len = (uint16_t)(a->nla_len - MNL_ATTR_HDRLEN);
	bool ok;

	if (fixed_len[val])
		ok = len == fixed_len[val];
	else if (val == V_STR)
		ok = len > 0 && ((const char *)nl_attr_data(a))[len - 1] == '\0';
	else
		ok = false;	/* an address: the policy's own check */
	return ok || nl_attr_valid(a);
}

/* A dump entry: one pass over its attributes; later ones win, as in a table. */
static void decode_nested(enum rd_res_kind kind, const struct nlattr *entry, struct rd_res *r)
{
	const struct res_attr *const *read = reads[kind];
	uint16_t id_attr = kinds[kind].id_attr;
	const struct nlattr *a;

	nl_attr_for_each_nested(a, entry) {
		uint16_t type = nl_attr_type(a);
		const struct res_attr *d = type < NL_TB_SIZE ? read[type] : NULL;

		if ((!d && type != id_attr) || !res_attr_valid(a, d ? d->val : V_U32))
			continue;
		if (type == id_attr)
			store(a, V_U32, offsetof(struct rd_res, id), RF_ID, r);
		if (d)
			store(a, d->val, d->offset, d->flag, r);
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

/* The entry (a nest in a dump, else the message itself) to the callback. */
static void emit(struct res_walk *w, const struct nlattr *entry, const nl_tb tb)
{
	struct rd_res r;

	memset(&r, 0, offsetof(struct rd_res, src));	/* the addresses are set only when present */
	r.kind = w->kind;
	r.dev_index = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	r.dev_name = nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME);
	if (!r.dev_name)
		r.dev_name = "?";
	if (entry)
		decode_nested(w->kind, entry, &r);
	else
		decode_entry(w->kind, tb, &r);
	if (!rd_res_has(&r, RF_ID))
		return;	/* every kernel sends the id; an entry without one is malformed */
	if (w->one_id && r.id != w->id)
		return;
	if (!w->stop)
		w->stop = w->cb(&r, w->data);
	/* a streamed dump is read to its end even when the caller is done */
}

static int res_msg(const nl_tb tb, void *data)
{
	struct res_walk *w = data;
	const struct res_kind_desc *d = &kinds[w->kind];
	const struct nlattr *entry;

	/* A non-dump GET answers with the entry's attributes at the top level. */
	if (!tb[d->nest]) {
		emit(w, NULL, tb);
		return MNL_CB_OK;
	}
	nl_attr_for_each_nested(entry, tb[d->nest]) {
		if (nl_attr_type(entry) == d->entry)
			emit(w, entry, tb);
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
	index_rows();
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
	rd_res_count_cb cb;
	void *data;
};

static int sum_msg(const nl_tb tb, void *data)
{
	struct sum_walk *w = data;
	const struct nlattr *entry;
	uint32_t idx = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	const char *name = nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME);

	if (!tb[RDMA_NLDEV_ATTR_RES_SUMMARY])
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

int rd_res_summary(rd_res_count_cb cb, void *data)
{
	struct sum_walk w = { cb, data };
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

/* A table and its length (the terminator included). */
#define NAMES(tbl) tbl, sizeof(tbl) / sizeof(tbl[0])

static inline const struct names *lookup(const struct names *n, size_t count, long v)
{
	/* Most tables list values from 0 in order: a QP list asks four per QP. */
	if (v >= 0 && (size_t)v < count && n[v].value == v && n[v].token)
		return &n[v];
	for (; n->token; n++)
		if (n->value == v)
			return n;
	return NULL;
}

static const char *token_of(const struct names *n, size_t count, long v)
{
	const struct names *e = lookup(n, count, v);

	return e ? e->token : "unknown";
}

static const char *name_of(const struct names *n, size_t count, long v)
{
	const struct names *e = lookup(n, count, v);

	return e ? e->name : "UNKNOWN";
}

static int parse_of(const struct names *n, const char *s)
{
	for (; n->token; n++)
		if (!strcasecmp(s, n->token) || !strcasecmp(s, n->name))
			return n->value;
	return -1;
}

const char *rd_qp_type_token(uint8_t t) { return token_of(NAMES(qp_types), t); }
const char *rd_qp_type_name(uint8_t t) { return name_of(NAMES(qp_types), t); }
int rd_qp_type_parse(const char *s) { return parse_of(qp_types, s); }
const char *rd_qp_state_token(uint8_t s) { return token_of(NAMES(qp_states), s); }
const char *rd_qp_state_name(uint8_t s) { return name_of(NAMES(qp_states), s); }
const char *rd_path_mig_token(uint8_t s) { return token_of(NAMES(path_migs), s); }
const char *rd_path_mig_name(uint8_t s) { return name_of(NAMES(path_migs), s); }
const char *rd_cm_state_token(uint8_t s) { return token_of(NAMES(cm_states), s); }
const char *rd_cm_state_name(uint8_t s) { return name_of(NAMES(cm_states), s); }
int rd_cm_state_parse(const char *s) { return parse_of(cm_states, s); }
const char *rd_port_space_token(uint32_t ps) { return token_of(NAMES(port_spaces), ps); }
const char *rd_port_space_name(uint32_t ps) { return name_of(NAMES(port_spaces), ps); }
int rd_port_space_parse(const char *s) { return parse_of(port_spaces, s); }
const char *rd_poll_ctx_token(uint8_t p) { return token_of(NAMES(poll_ctxs), p); }
const char *rd_srq_type_token(uint8_t t) { return token_of(NAMES(srq_types), t); }
const char *rd_srq_type_name(uint8_t t) { return name_of(NAMES(srq_types), t); }
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
