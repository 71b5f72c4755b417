// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag res: how many resources of each kind the kernel tracks per RDMA
 * device (RDMA_NLDEV_CMD_RES_GET). The objects themselves have files of
 * their own: qp.c, and cq.c, mr.c, pd.c, cm.c, srq.c (res_object.h).
 */
#include <stdio.h>
#include <string.h>

#include "../netlink/rdma.h"
#include "../netlink/res.h"
#include "common.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"

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

static int summary_args(struct cmd_ctx *ctx)
{
	if (ctx->argc > 1) {
		usage_error("res show takes at most one device name, got '%s'", ctx->argv[1]);
		return EXIT_USAGE;
	}
	if (ctx->argc == 1 && parse_dev_port(ctx->argv[0], &ctx->sel))
		return EXIT_USAGE;
	if (ctx->argc == 1 && ctx->sel.port) {
		usage_error("res show takes a device name, not DEV/PORT: '%s'", ctx->argv[0]);
		return EXIT_USAGE;
	}
	return ARGS_VALID;
}

static int summary_show(struct cmd_ctx *ctx)
{
	struct summary s = { 0 };
	const struct dev_port sel = ctx->sel;
	int err;

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

static const struct action res_actions[] = {
	{ .name = "show", .synopsis = "[DEV]", .summary = "count resources per device: pd, cq, qp, cm_id, mr, ctx, srq",
	  .check_args = summary_args, .run = summary_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV },
	{ 0 },
};

const struct object obj_res = { .name = "res", .summary = "resource counts per RDMA device", .actions = res_actions };
