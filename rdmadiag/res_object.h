/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What cq, mr, pd, cm and srq share, each an object of the kernel's resource
 * tracking beyond QPs (qp.c) with a file of its own: one dump per device per
 * object kind (RDMA_NLDEV_CMD_RES_*_GET), decoded entry by entry, and one
 * show handler for them all, driven by a description per kind. `res show`
 * (res.c) prints the per-device counts.
 */
#ifndef RDMADIAG_RES_OBJECT_H
#define RDMADIAG_RES_OBJECT_H

#include "../netlink/res.h"
#include "output.h"
#include "rdmadiag.h"
#include "resource.h"

/* What differs between the kinds that share res_object_show(). */
struct res_desc {
	enum rd_res_kind kind;
	const char *list_key;		/* JSON list */
	const char *id_key;		/* filter keyword of the id */
	const struct field *id_field;
	const struct rfilter_key *keys;
	void (*body)(const struct rd_res *r);
};

/* `OBJECT show [DEV[/PORT]] [FILTER VALUE]...` for the kind d describes. */
int res_object_show(struct cmd_ctx *ctx, const struct res_desc *d);

#define RES_SYN "[DEV[/PORT]] [FILTER VALUE]..."

/* Fields of more than one kind. */
extern const struct field res_field_users, res_field_ctxn, res_field_pdn;

/* A value the kernel may leave out: printed when it sent it. */
#define RES_U32_IF(r, flag, f, v)                \
	do {                                     \
		if (rd_res_has(r, flag))         \
			out_u64(f, v);           \
	} while (0)
#define RES_HEX_IF(r, flag, f, v)                \
	do {                                     \
		if (rd_res_has(r, flag))         \
			out_hex(f, v);           \
	} while (0)

#endif
