// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every parsed action goes through, from the dispatcher (cmd.c) or from
 * system check's layers: its words and options (check_args), then what its
 * row needs (NEEDS_NETLINK: RDMA netlink open), then its handler. Apart from
 * cmd.c because nl_require()'s messages (lower_err.c) go through cmd.c.
 */
#include "lower_err.h"
#include "rdmadiag.h"

int cmd_run(struct cmd_ctx *ctx)
{
	const struct action *a = ctx->action;
	int rc = a->check_args ? a->check_args(ctx) : ARGS_VALID;

	/* a usage error (or --list) first: it needs no RDMA */
	if (rc != ARGS_VALID)
		return rc;
	if (a->flags & NEEDS_NETLINK) {
		rc = nl_require();
		if (rc)
			return a->no_netlink ? a->no_netlink(ctx, rc) : rc;
	}
	return a->run(ctx);
}
