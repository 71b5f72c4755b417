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
	{ "srqn", RF_ID, RFK_NUM, NULL, NULL }, { "type", RF_TYPE, RFK_ENUM, parse_srq_type, "basic xrc tm" },
	{ "pdn", RF_PDN, RFK_NUM, NULL, NULL }, RFILTER_KEY_PID, RFILTER_KEY_COMM, { NULL },
};

static const struct res_desc srq_desc = { RD_RES_SRQ, "srqs", "srqn", &srq_fields[F_ID_SRQN], srq_keys, out_srq };

static int srq_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &srq_desc);
}

static const struct action srq_actions[] = {
	{ "show", RES_SYN, "list shared receive queues: type, PD, CQ, owner", srq_show, NEEDS_NETLINK, NULL,
	  COMPLETE_DEV_PORT, NULL, srq_keys },
	{ 0 },
};

const struct object obj_srq = { "srq", "shared receive queues (kernel resource tracking)", srq_actions };
