// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag mr: memory regions, from the kernel's resource tracking (res_object.h). */
#include "objects.h"
#include "res_object.h"

enum { F_ID_MRN, F_RKEY, F_LKEY, F_IOVA, F_MRLEN };

static const struct field mr_fields[] = {
	[F_ID_MRN] = { "mrn", NULL, FT_U64, 0, NULL },
	[F_RKEY] = { "rkey", NULL, FT_HEX, 0, NULL },
	[F_LKEY] = { "lkey", NULL, FT_HEX, 0, NULL },
	[F_IOVA] = { "iova", NULL, FT_HEX, 0, NULL },
	[F_MRLEN] = { "mrlen_bytes", NULL, FT_U64, 0, NULL },
};

/* The kernel sends keys only to CAP_NET_ADMIN; absent keys stay absent. */
static void out_mr(const struct rd_res *r)
{
	RES_HEX_IF(r, RF_RKEY, &mr_fields[F_RKEY], r->rkey);
	RES_HEX_IF(r, RF_LKEY, &mr_fields[F_LKEY], r->lkey);
	RES_HEX_IF(r, RF_IOVA, &mr_fields[F_IOVA], r->iova);
	RES_U32_IF(r, RF_MRLEN, &mr_fields[F_MRLEN], r->mrlen);
	RES_U32_IF(r, RF_PDN, &res_field_pdn, r->pdn);
}

static const struct rfilter_key mr_keys[] = {
	{ .name = "mrn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "pdn", .field = RF_PDN, .kind = RFK_NUM },
	RFILTER_KEY_PID,
	RFILTER_KEY_COMM,
	{ NULL },
};

static const struct res_desc mr_desc = { RD_RES_MR, "mrs", "mrn", &mr_fields[F_ID_MRN], mr_keys, out_mr };

static int mr_show(struct cmd_ctx *ctx)
{
	return res_object_show(ctx, &mr_desc);
}

static const struct action mr_actions[] = {
	{ .name = "show", .synopsis = RES_SYN, .summary = "list memory regions: keys (root only), length, PD, owner",
	  .check_args = res_args, .run = mr_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT,
	  .filters = mr_keys },
	{ 0 },
};

const struct object obj_mr = { .name = "mr", .summary = "memory regions (kernel resource tracking)",
	.actions = mr_actions };
