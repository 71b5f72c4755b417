// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag cq: completion queues, from the kernel's resource tracking (res_object.h). */
#include "objects.h"
#include "res_object.h"

enum { F_ID_CQN, F_CQE, F_POLL_CTX, F_DIM };

static const struct field cq_fields[] = {
	[F_ID_CQN] = { "cqn", NULL, FT_U64, 0, NULL },
	[F_CQE] = { "cqe", NULL, FT_U64, 0, NULL },
	[F_POLL_CTX] = { "poll_ctx", NULL, FT_TOKEN, 0, NULL },
	[F_DIM] = { "adaptive_moderation", NULL, FT_BOOL, 0, NULL },
};

static void out_cq(const struct rd_res *r)
{
	RES_U32_IF(r, RF_CQE, &cq_fields[F_CQE], r->cqe);
	RES_U32_IF(r, RF_USECNT, &res_field_users, r->usecnt);
	if (rd_res_has(r, RF_POLL_CTX))
		out_token(&cq_fields[F_POLL_CTX], rd_poll_ctx_token(r->poll_ctx));
	if (rd_res_has(r, RF_DIM))
		out_bool(&cq_fields[F_DIM], r->dim);
	RES_U32_IF(r, RF_CTXN, &res_field_ctxn, r->ctxn);
}

static const struct rfilter_key cq_keys[] = {
	{ .name = "cqn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "ctxn", .field = RF_CTXN, .kind = RFK_NUM },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

static const struct res_desc cq_desc = { RD_RES_CQ, "cqs", "cqn", &cq_fields[F_ID_CQN], cq_keys, out_cq };

static int cq_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &cq_desc);
}

static const struct action cq_actions[] = {
	{ .name = "show", .synopsis = RES_SYN, .summary = "list completion queues: size, users, poll context, owner",
	  .check_args = res_args, .run = cq_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT,
	  .filters = cq_keys },
	{ 0 },
};

const struct object obj_cq = { .name = "cq", .summary = "completion queues (kernel resource tracking)",
	.actions = cq_actions };
