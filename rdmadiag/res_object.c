// SPDX-License-Identifier: GPL-2.0-or-later
/* The show handler that cq, mr, pd, cm and srq share; see res_object.h. */
#include "res_object.h"

const struct field res_field_users = { "users", NULL, FT_U64, 0, NULL };
const struct field res_field_ctxn = { "ctxn", NULL, FT_U64, 0, NULL };
const struct field res_field_pdn = { "pdn", NULL, FT_U64, 0, NULL };

static int print_res(const struct rd_res *r, void *data)
{
	const struct res_desc *d = data;

	out_obj_begin(NULL);
	res_out_link(r, true);
	out_u64(d->id_field, r->id);
	d->body(r);
	res_out_owner(r);
	out_obj_end();
	return 0;
}

int res_object_show(struct cmd_ctx *ctx, const struct res_desc *d)
{
	struct res_query q = *res_checked();	/* the row's filters: d->keys */
	int rc;

	(void)ctx;
	out_list_begin(d->list_key);
	rc = res_walk(&q, d->kind, d->id_key, print_res, (void *)d, NULL);
	out_list_end();
	return rc;
}
