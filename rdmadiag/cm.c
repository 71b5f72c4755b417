// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag cm: RDMA CM ids, from the kernel's resource tracking (res_object.h). */
#include "objects.h"
#include "res_object.h"

enum { F_ID_CM, F_LQPN, F_QP_TYPE, F_CM_STATE, F_PS, F_SRC, F_DST };

static const struct field cm_fields[] = {
	[F_ID_CM] = { "cm_idn", NULL, FT_U64, 0, NULL },
	[F_LQPN] = { "lqpn", NULL, FT_U64, 0, NULL },
	[F_QP_TYPE] = { "qp_type", NULL, FT_TOKEN, 0, NULL },
	[F_CM_STATE] = { "state", NULL, FT_TOKEN, 0, NULL },
	[F_PS] = { "ps", NULL, FT_TOKEN, 0, NULL },
	[F_SRC] = { "src_addr", NULL, FT_STR, 0, NULL },
	[F_DST] = { "dst_addr", NULL, FT_STR, 0, NULL },
};

static void out_addr(int fidx, const struct sockaddr_storage *ss)
{
	char buf[80];

	rd_sockaddr_format(ss, buf, sizeof(buf));
	if (buf[0])
		out_str(&cm_fields[fidx], buf);
}

static void out_cm(const struct rd_res *r)
{
	RES_U32_IF(r, RF_LQPN, &cm_fields[F_LQPN], r->lqpn);
	if (rd_res_has(r, RF_TYPE))
		out_enum(&cm_fields[F_QP_TYPE], rd_qp_type_token(r->type), rd_qp_type_name(r->type));
	if (rd_res_has(r, RF_STATE))
		out_enum(&cm_fields[F_CM_STATE], rd_cm_state_token(r->state), rd_cm_state_name(r->state));
	if (rd_res_has(r, RF_PS))
		out_enum(&cm_fields[F_PS], rd_port_space_token(r->ps), rd_port_space_name(r->ps));
	if (rd_res_has(r, RF_SRC_ADDR))
		out_addr(F_SRC, &r->src);
	if (rd_res_has(r, RF_DST_ADDR))
		out_addr(F_DST, &r->dst);
}

static int parse_cm_state(const char *s) { return rd_cm_state_parse(s); }
static int parse_ps(const char *s) { return rd_port_space_parse(s); }

static const struct rfilter_key cm_keys[] = {
	{ .name = "cm-idn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "lqpn", .field = RF_LQPN, .kind = RFK_NUM, .complete = COMPLETE_QPN },
	{ .name = "state", .field = RF_STATE, .kind = RFK_ENUM, .parse = parse_cm_state, .values = "idle addr_query "
	  "addr_resolved route_query route_resolved connect disconnect addr_bound listen device_removal destroying" },
	{ .name = "ps", .field = RF_PS, .kind = RFK_ENUM, .parse = parse_ps, .values = "tcp udp ipoib ib" },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

static const struct res_desc cm_desc = { RD_RES_CM_ID, "cm_ids", "cm-idn", &cm_fields[F_ID_CM], cm_keys, out_cm };

static int cm_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &cm_desc);
}

static const struct action cm_actions[] = {
	{ .name = "show", .synopsis = RES_SYN, .summary = "list RDMA CM ids: addresses, state, port space, QP, owner",
	  .check_args = res_args, .run = cm_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT,
	  .filters = cm_keys },
	{ 0 },
};

const struct object obj_cm = { .name = "cm", .summary = "RDMA CM ids: connections and listeners",
	.actions = cm_actions };
