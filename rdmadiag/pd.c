// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag pd: protection domains, from the kernel's resource tracking (res_object.h). */
#include "objects.h"
#include "res_object.h"

enum { F_ID_PDN, F_LOCAL_DMA_LKEY, F_UNSAFE_RKEY };

static const struct field pd_fields[] = {
	[F_ID_PDN] = { "pdn", NULL, FT_U64, 0, NULL },
	[F_LOCAL_DMA_LKEY] = { "local_dma_lkey", NULL, FT_HEX, 0, NULL },
	[F_UNSAFE_RKEY] = { "unsafe_global_rkey", NULL, FT_HEX, 0, NULL },
};

static void out_pd(const struct rd_res *r)
{
	RES_HEX_IF(r, RF_LOCAL_DMA_LKEY, &pd_fields[F_LOCAL_DMA_LKEY], r->local_dma_lkey);
	RES_HEX_IF(r, RF_UNSAFE_RKEY, &pd_fields[F_UNSAFE_RKEY], r->unsafe_rkey);
	RES_U32_IF(r, RF_USECNT, &res_field_users, r->usecnt);
	RES_U32_IF(r, RF_CTXN, &res_field_ctxn, r->ctxn);
}

static const struct rfilter_key pd_keys[] = {
	{ .name = "pdn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "ctxn", .field = RF_CTXN, .kind = RFK_NUM },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

static const struct res_desc pd_desc = { RD_RES_PD, "pds", "pdn", &pd_fields[F_ID_PDN], pd_keys, out_pd };

static int pd_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &pd_desc);
}

static const struct action pd_actions[] = {
	{ .name = "show", .synopsis = RES_SYN, .summary = "list protection domains: users, owner",
	  .check_args = res_args, .run = pd_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT,
	  .filters = pd_keys },
	{ 0 },
};

const struct object obj_pd = { .name = "pd", .summary = "protection domains (kernel resource tracking)",
	.actions = pd_actions };
