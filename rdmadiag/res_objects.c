// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (Not res.c: netlink/res.o would clash with it in the static library.)
 *
 * rdmadiag res, cq, mr, pd, cm, srq: the kernel's resource tracking beyond QPs
 * (qp.c). One dump per device per object kind (RDMA_NLDEV_CMD_RES_*_GET),
 * decoded entry by entry; `res show` prints the per-device counts (RES_GET).
 * The objects share one show handler, driven by a description per kind.
 */
#include <stdio.h>
#include <string.h>

#include "../netlink/rdma.h"
#include "../netlink/res.h"
#include "common.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"
#include "resource.h"

enum {
	F_ID_CQN, F_ID_MRN, F_ID_PDN, F_ID_CM, F_ID_SRQN, F_CQE, F_USECNT, F_POLL_CTX, F_DIM, F_CTXN,
	F_RKEY, F_LKEY, F_IOVA, F_MRLEN, F_PDN, F_CQN, F_LOCAL_DMA_LKEY, F_UNSAFE_RKEY, F_LQPN, F_QP_TYPE,
	F_CM_STATE, F_PS, F_SRC, F_DST, F_SRQ_TYPE,
};

static const struct field res_fields[] = {
	[F_ID_CQN] = { "cqn", NULL, FT_U64, 0, NULL },
	[F_ID_MRN] = { "mrn", NULL, FT_U64, 0, NULL },
	[F_ID_PDN] = { "pdn", NULL, FT_U64, 0, NULL },
	[F_ID_CM] = { "cm_idn", NULL, FT_U64, 0, NULL },
	[F_ID_SRQN] = { "srqn", NULL, FT_U64, 0, NULL },
	[F_CQE] = { "cqe", NULL, FT_U64, 0, NULL },
	[F_USECNT] = { "users", NULL, FT_U64, 0, NULL },
	[F_POLL_CTX] = { "poll_ctx", NULL, FT_TOKEN, 0, NULL },
	[F_DIM] = { "adaptive_moderation", NULL, FT_BOOL, 0, NULL },
	[F_CTXN] = { "ctxn", NULL, FT_U64, 0, NULL },
	[F_RKEY] = { "rkey", NULL, FT_HEX, 0, NULL },
	[F_LKEY] = { "lkey", NULL, FT_HEX, 0, NULL },
	[F_IOVA] = { "iova", NULL, FT_HEX, 0, NULL },
	[F_MRLEN] = { "mrlen_bytes", NULL, FT_U64, 0, NULL },
	[F_PDN] = { "pdn", NULL, FT_U64, 0, NULL },
	[F_CQN] = { "cqn", NULL, FT_U64, 0, NULL },
	[F_LOCAL_DMA_LKEY] = { "local_dma_lkey", NULL, FT_HEX, 0, NULL },
	[F_UNSAFE_RKEY] = { "unsafe_global_rkey", NULL, FT_HEX, 0, NULL },
	[F_LQPN] = { "lqpn", NULL, FT_U64, 0, NULL },
	[F_QP_TYPE] = { "qp_type", NULL, FT_TOKEN, 0, NULL },
	[F_CM_STATE] = { "state", NULL, FT_TOKEN, 0, NULL },
	[F_PS] = { "ps", NULL, FT_TOKEN, 0, NULL },
	[F_SRC] = { "src_addr", NULL, FT_STR, 0, NULL },
	[F_DST] = { "dst_addr", NULL, FT_STR, 0, NULL },
	[F_SRQ_TYPE] = { "type", NULL, FT_TOKEN, 0, NULL },
};

#define U32_IF(r, flag, fidx, v)                         \
	do {                                             \
		if (rd_res_has(r, flag))                 \
			out_u64(&res_fields[fidx], v);   \
	} while (0)
#define HEX_IF(r, flag, fidx, v)                         \
	do {                                             \
		if (rd_res_has(r, flag))                 \
			out_hex(&res_fields[fidx], v);   \
	} while (0)

static void out_cq(const struct rd_res *r)
{
	U32_IF(r, RF_CQE, F_CQE, r->cqe);
	U32_IF(r, RF_USECNT, F_USECNT, r->usecnt);
	if (rd_res_has(r, RF_POLL_CTX))
		out_token(&res_fields[F_POLL_CTX], rd_poll_ctx_token(r->poll_ctx));
	if (rd_res_has(r, RF_DIM))
		out_bool(&res_fields[F_DIM], r->dim);
	U32_IF(r, RF_CTXN, F_CTXN, r->ctxn);
}

/* The kernel sends keys only to CAP_NET_ADMIN; absent keys stay absent. */
static void out_mr(const struct rd_res *r)
{
	HEX_IF(r, RF_RKEY, F_RKEY, r->rkey);
	HEX_IF(r, RF_LKEY, F_LKEY, r->lkey);
	HEX_IF(r, RF_IOVA, F_IOVA, r->iova);
	U32_IF(r, RF_MRLEN, F_MRLEN, r->mrlen);
	U32_IF(r, RF_PDN, F_PDN, r->pdn);
}

static void out_pd(const struct rd_res *r)
{
	HEX_IF(r, RF_LOCAL_DMA_LKEY, F_LOCAL_DMA_LKEY, r->local_dma_lkey);
	HEX_IF(r, RF_UNSAFE_RKEY, F_UNSAFE_RKEY, r->unsafe_rkey);
	U32_IF(r, RF_USECNT, F_USECNT, r->usecnt);
	U32_IF(r, RF_CTXN, F_CTXN, r->ctxn);
}

static void out_addr(int fidx, const struct sockaddr_storage *ss)
{
	char buf[80];

	rd_sockaddr_format(ss, buf, sizeof(buf));
	if (buf[0])
		out_str(&res_fields[fidx], buf);
}

static void out_cm(const struct rd_res *r)
{
	U32_IF(r, RF_LQPN, F_LQPN, r->lqpn);
	if (rd_res_has(r, RF_TYPE))
		out_enum(&res_fields[F_QP_TYPE], rd_qp_type_token(r->type), rd_qp_type_name(r->type));
	if (rd_res_has(r, RF_STATE))
		out_enum(&res_fields[F_CM_STATE], rd_cm_state_token(r->state), rd_cm_state_name(r->state));
	if (rd_res_has(r, RF_PS))
		out_enum(&res_fields[F_PS], rd_port_space_token(r->ps), rd_port_space_name(r->ps));
	if (rd_res_has(r, RF_SRC_ADDR))
		out_addr(F_SRC, &r->src);
	if (rd_res_has(r, RF_DST_ADDR))
		out_addr(F_DST, &r->dst);
}

static void out_srq(const struct rd_res *r)
{
	if (rd_res_has(r, RF_TYPE))
		out_enum(&res_fields[F_SRQ_TYPE], rd_srq_type_token(r->type), rd_srq_type_name(r->type));
	U32_IF(r, RF_PDN, F_PDN, r->pdn);
	U32_IF(r, RF_CQN, F_CQN, r->cqn);
}

static int parse_cm_state(const char *s) { return rd_cm_state_parse(s); }
static int parse_ps(const char *s) { return rd_port_space_parse(s); }
static int parse_srq_type(const char *s) { return rd_srq_type_parse(s); }

static const struct rfilter_key cq_keys[] = {
	{ "cqn", RF_ID, RFK_NUM, NULL, NULL }, { "ctxn", RF_CTXN, RFK_NUM, NULL, NULL },
	RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};
static const struct rfilter_key mr_keys[] = {
	{ "mrn", RF_ID, RFK_NUM, NULL, NULL }, { "pdn", RF_PDN, RFK_NUM, NULL, NULL },
	RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};
static const struct rfilter_key pd_keys[] = {
	{ "pdn", RF_ID, RFK_NUM, NULL, NULL }, { "ctxn", RF_CTXN, RFK_NUM, NULL, NULL },
	RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};
static const struct rfilter_key cm_keys[] = {
	{ "cm-idn", RF_ID, RFK_NUM, NULL, NULL },
	{ "lqpn", RF_LQPN, RFK_NUM, NULL, NULL, COMPLETE_QPN },
	{ "state", RF_STATE, RFK_ENUM, parse_cm_state,
	  "idle addr_query addr_resolved route_query route_resolved connect disconnect addr_bound listen "
	  "device_removal destroying" },
	{ "ps", RF_PS, RFK_ENUM, parse_ps, "tcp udp ipoib ib" },
	RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};
static const struct rfilter_key srq_keys[] = {
	{ "srqn", RF_ID, RFK_NUM, NULL, NULL }, { "type", RF_TYPE, RFK_ENUM, parse_srq_type, "basic xrc tm" },
	{ "pdn", RF_PDN, RFK_NUM, NULL, NULL }, RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};


/* What differs between the kinds that share res_show(). */
struct res_desc {
	const char *object;
	enum rd_res_kind kind;
	const char *list_key;		/* JSON list */
	const char *id_key;		/* filter keyword of the id */
	int id_field;
	const struct rfilter_key *keys;
	void (*body)(const struct rd_res *r);
};

static const struct res_desc descs[] = {
	{ "cq", RD_RES_CQ, "cqs", "cqn", F_ID_CQN, cq_keys, out_cq },
	{ "mr", RD_RES_MR, "mrs", "mrn", F_ID_MRN, mr_keys, out_mr },
	{ "pd", RD_RES_PD, "pds", "pdn", F_ID_PDN, pd_keys, out_pd },
	{ "cm", RD_RES_CM_ID, "cm_ids", "cm-idn", F_ID_CM, cm_keys, out_cm },
	{ "srq", RD_RES_SRQ, "srqs", "srqn", F_ID_SRQN, srq_keys, out_srq },
};

static int print_res(const struct rd_res *r, void *data)
{
	const struct res_desc *d = data;

	out_obj_begin(NULL);
	res_out_link(r, true);
	out_u64(&res_fields[d->id_field], r->id);
	d->body(r);
	res_out_owner(r);
	out_obj_end();
	return 0;
}

static int res_show(struct cmd_ctx *ctx)
{
	const struct res_desc *d = NULL;
	struct res_query q;
	int rc;

	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++)
		if (!strcmp(descs[i].object, ctx->object->name))
			d = &descs[i];
	if (!d)
		return EXIT_RUNTIME;
	if (res_query_parse(ctx, d->keys, &q))
		return EXIT_USAGE;
	rc = nl_require();
	if (rc)
		return rc;
	out_list_begin(d->list_key);
	rc = res_walk(&q, d->kind, d->id_key, print_res, (void *)d, NULL);
	out_list_end();
	return rc;
}

/* ---- res show: counts ---- */

static const struct field sum_fields[] = {
	{ "ifname", NULL, FT_STR, FF_HEAD, NULL },
	{ "dev", NULL, FT_STR, 0, NULL },
};

/* Device indexes start at 0 (the kernel's first device is index 0), so
 * "none yet" and "every device" are flags, never index 0. */
struct summary {
	uint32_t dev_index;	/* device being printed, when open */
	uint32_t only;		/* the device asked for, when one_dev */
	bool open, one_dev, found;
};

static int print_count(uint32_t dev_index, const char *dev_name, const char *name, uint64_t curr, void *data)
{
	struct summary *s = data;
	struct field f = { name, NULL, FT_U64, 0, NULL };

	if (s->one_dev && dev_index != s->only)
		return 0;
	if (!s->open || dev_index != s->dev_index) {
		if (s->open)
			out_obj_end();
		s->dev_index = dev_index;
		s->open = s->found = true;
		out_obj_begin(NULL);
		out_str(&sum_fields[out_is_json() ? 1 : 0], dev_name);
	}
	out_u64(&f, curr);
	return 0;
}

static int find_index(const struct rd_dev *d, void *data)
{
	*(uint32_t *)data = d->index;
	return 1;
}

static int summary_show(struct cmd_ctx *ctx)
{
	struct summary s = { 0 };
	struct dev_port sel;
	int rc, err;

	if (ctx->argc > 1) {
		usage_error("res show takes at most one device name, got '%s'", ctx->argv[1]);
		return EXIT_USAGE;
	}
	if (ctx->argc == 1 && parse_dev_port(ctx->argv[0], &sel))
		return EXIT_USAGE;
	if (ctx->argc == 1 && sel.port) {
		usage_error("res show takes a device name, not DEV/PORT: '%s'", ctx->argv[0]);
		return EXIT_USAGE;
	}
	rc = nl_require();
	if (rc)
		return rc;
	/* the list first: an unknown device leaves it empty, as in link show */
	out_list_begin("devices");
	if (ctx->argc == 1) {
		err = rd_dev_each(sel.dev, find_index, &s.only);
		if (err) {
			out_list_end();
			return report_dev_error(sel.dev, err);
		}
		s.one_dev = true;
	}
	/* every device: print_count picks the one asked for (its index may be 0) */
	err = rd_res_summary(print_count, &s);
	if (s.open)
		out_obj_end();
	out_list_end();
	if (err) {
		report_nl_error("reading the RDMA resource summary from the kernel failed", err);
		return EXIT_RUNTIME;
	}
	if (!s.found && !ctx->argc)
		return report_no_devices();
	return EXIT_OK;
}

#define RES_SYN "[DEV[/PORT]] [FILTER VALUE]..."

static const struct action res_actions[] = {
	{ "show", "[DEV]", "count resources per device: pd, cq, qp, cm_id, mr, ctx, srq", summary_show, NEEDS_NETLINK,
	  NULL, COMPLETE_DEV, NULL },
	{ 0 },
};
static const struct action cq_actions[] = {
	{ "show", RES_SYN, "list completion queues: size, users, poll context, owner", res_show, NEEDS_NETLINK,
	  NULL, COMPLETE_DEV_PORT, NULL, cq_keys },
	{ 0 },
};
static const struct action mr_actions[] = {
	{ "show", RES_SYN, "list memory regions: keys (root only), length, PD, owner", res_show, NEEDS_NETLINK,
	  NULL, COMPLETE_DEV_PORT, NULL, mr_keys },
	{ 0 },
};
static const struct action pd_actions[] = {
	{ "show", RES_SYN, "list protection domains: users, owner", res_show, NEEDS_NETLINK, NULL,
	  COMPLETE_DEV_PORT, NULL, pd_keys },
	{ 0 },
};
static const struct action cm_actions[] = {
	{ "show", RES_SYN, "list RDMA CM ids: addresses, state, port space, QP, owner", res_show, NEEDS_NETLINK,
	  NULL, COMPLETE_DEV_PORT, NULL, cm_keys },
	{ 0 },
};
static const struct action srq_actions[] = {
	{ "show", RES_SYN, "list shared receive queues: type, PD, CQ, owner", res_show, NEEDS_NETLINK, NULL,
	  COMPLETE_DEV_PORT, NULL, srq_keys },
	{ 0 },
};

const struct object obj_res = { "res", "resource counts per RDMA device", res_actions };
const struct object obj_cq = { "cq", "completion queues (kernel resource tracking)", cq_actions };
const struct object obj_mr = { "mr", "memory regions (kernel resource tracking)", mr_actions };
const struct object obj_pd = { "pd", "protection domains (kernel resource tracking)", pd_actions };
const struct object obj_cm = { "cm", "RDMA CM ids: connections and listeners", cm_actions };
const struct object obj_srq = { "srq", "shared receive queues (kernel resource tracking)", srq_actions };
