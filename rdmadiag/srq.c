// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag srq: shared receive queues, from the kernel's resource tracking (res_object.h). */
#include "objects.h"
#include "res_object.h"

enum { F_ID_SRQN, F_SRQ_TYPE, F_CQN };

static const struct field srq_fields[] = {
	[F_ID_SRQN] = { "srqn", NULL, FT_U64, 0, NULL },
	[F_SRQ_TYPE] = { "type", NULL, FT_TOKEN, 0, NULL },
	[F_CQN] = { "cqn", NULL, FT_U64, 0, NULL },
};

static void out_srq(const struct rd_res *r)
{
	if (rd_res_has(r, RF_TYPE))
		out_enum(&srq_fields[F_SRQ_TYPE], rd_srq_type_token(r->type), rd_srq_type_name(r->type));
	RES_U32_IF(r, RF_PDN, &res_field_pdn, r->pdn);
	RES_U32_IF(r, RF_CQN, &srq_fields[F_CQN], r->cqn);
}

static int parse_srq_type(const char *s) { return rd_srq_type_parse(s); }

static const struct rfilter_key srq_keys[] = {
	{ .name = "srqn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "type", .field = RF_TYPE, .kind = RFK_ENUM, .parse = parse_srq_type, .values = "basic xrc tm" },
	{ .name = "pdn", .field = RF_PDN, .kind = RFK_NUM },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

static const struct res_desc srq_desc = { RD_RES_SRQ, "srqs", "srqn", &srq_fields[F_ID_SRQN], srq_keys, out_srq };

static int srq_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &srq_desc);
}

static const struct action srq_actions[] = {
	{ .name = "show", .synopsis = RES_SYN, .summary = "list shared receive queues: type, PD, CQ, owner",
	  .check_args = res_args, .run = srq_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT,
	  .filters = srq_keys },
	{ 0 },
};

const struct object obj_srq = { .name = "srq", .summary = "shared receive queues (kernel resource tracking)",
	.actions = srq_actions };
