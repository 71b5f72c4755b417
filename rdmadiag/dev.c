// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag dev: RDMA devices (netlink RDMA_NLDEV_CMD_GET, verbs for details). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../netlink/rdma.h"
#include "../verbs/verbs.h"
#include "common.h"
#include "devwatch.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"

enum {
	F_INDEX, F_NAME, F_NODE_TYPE, F_FW, F_NODE_GUID, F_SYS_GUID, F_DRIVER, F_UVERBS, F_PORTS,
	F_VENDOR_ID, F_VENDOR_PART, F_HW_VER, F_MAX_QP, F_MAX_CQ, F_MAX_MR, F_MAX_PD, F_MAX_QP_WR,
};

static const struct field dev_fields[] = {
	[F_INDEX] = { "dev_index", NULL, FT_U64, FF_HEAD, NULL },
	[F_NAME] = { "dev", NULL, FT_STR, FF_HEAD, NULL },
	[F_NODE_TYPE] = { "node_type", NULL, FT_TOKEN, 0, NULL },
	[F_FW] = { "fw", NULL, FT_STR, 0, NULL },
	[F_NODE_GUID] = { "node_guid", NULL, FT_GUID, 0, NULL },
	[F_SYS_GUID] = { "sys_image_guid", NULL, FT_GUID, 0, NULL },
	[F_DRIVER] = { "driver", NULL, FT_STR, 0, NULL },
	[F_UVERBS] = { "uverbs", NULL, FT_STR, FF_DETAIL, NULL },
	[F_PORTS] = { "ports", NULL, FT_U64, 0, NULL },
	[F_VENDOR_ID] = { "vendor_id", NULL, FT_HEX, FF_DETAIL, NULL },
	[F_VENDOR_PART] = { "vendor_part_id", NULL, FT_U64, FF_DETAIL, NULL },
	[F_HW_VER] = { "hw_ver", NULL, FT_HEX, FF_DETAIL, NULL },
	[F_MAX_QP] = { "max_qp", NULL, FT_U64, FF_DETAIL, NULL },
	[F_MAX_CQ] = { "max_cq", NULL, FT_U64, FF_DETAIL, NULL },
	[F_MAX_MR] = { "max_mr", NULL, FT_U64, FF_DETAIL, NULL },
	[F_MAX_PD] = { "max_pd", NULL, FT_U64, FF_DETAIL, NULL },
	[F_MAX_QP_WR] = { "max_qp_wr", NULL, FT_U64, FF_DETAIL, NULL },
};

/* Verbs details only with -d: opening every device costs a few ms each. */
static void print_verbs_details(const struct rd_dev *d)
{
	struct vb_device v;

	if (!g_opts.details || vb_query_device(d->name, &v))
		return;
	out_hex(&dev_fields[F_VENDOR_ID], v.vendor_id);
	out_u64(&dev_fields[F_VENDOR_PART], v.vendor_part_id);
	out_hex(&dev_fields[F_HW_VER], v.hw_ver);
	out_u64(&dev_fields[F_MAX_QP], v.max_qp);
	out_u64(&dev_fields[F_MAX_CQ], v.max_cq);
	out_u64(&dev_fields[F_MAX_MR], v.max_mr);
	out_u64(&dev_fields[F_MAX_PD], v.max_pd);
	out_u64(&dev_fields[F_MAX_QP_WR], v.max_qp_wr);
}

static int print_dev(const struct rd_dev *d, void *data)
{
	char driver[64], chardev[64];
	int *count = data;

	(*count)++;
	out_obj_begin(NULL);
	out_u64(&dev_fields[F_INDEX], d->index);
	out_str(&dev_fields[F_NAME], d->name);
	out_token(&dev_fields[F_NODE_TYPE], rd_node_type_token(d->node_type));
	if (d->fw[0])
		out_str(&dev_fields[F_FW], d->fw);
	if (d->has_node_guid)
		out_guid(&dev_fields[F_NODE_GUID], d->node_guid);
	if (d->has_sys_guid)
		out_guid(&dev_fields[F_SYS_GUID], d->sys_image_guid);
	if (rd_dev_uverbs(d->index, driver, sizeof(driver), chardev, sizeof(chardev)) == 0) {
		if (driver[0])
			out_str(&dev_fields[F_DRIVER], driver);
		if (chardev[0])
			out_str(&dev_fields[F_UVERBS], chardev);
	}
	out_u64(&dev_fields[F_PORTS], d->nports);
	print_verbs_details(d);
	out_obj_end();
	return 0;
}

/* [DEV]: at most one word, into ctx->sel; "dev show" or "dev monitor" (for
 * "dev list" too) names the command in the message. */
static int one_dev_word(struct cmd_ctx *ctx, const char *cmd)
{
	if (ctx->argc > 1) {
		usage_error("%s takes at most one device name, got '%s'", cmd, ctx->argv[1]);
		return EXIT_USAGE;
	}
	if (ctx->argc == 1 && parse_dev_port(ctx->argv[0], &ctx->sel))
		return EXIT_USAGE;
	return ARGS_VALID;
}

static int dev_show_args(struct cmd_ctx *ctx)
{
	int rc = one_dev_word(ctx, "dev show");

	if (rc == ARGS_VALID && ctx->argc == 1 && ctx->sel.port) {
		usage_error("dev show takes a device, not a port ('%s'); try: rdmadiag link show %s", ctx->argv[0],
			    ctx->argv[0]);
		return EXIT_USAGE;
	}
	return rc;
}

static int dev_show(struct cmd_ctx *ctx)
{
	const char *dev = ctx->argc ? ctx->sel.dev : NULL;
	int count = 0, err;

	out_list_begin("devices");
	err = rd_dev_each(dev, print_dev, &count);
	out_list_end();
	if (err)
		return report_dev_error(dev, err);
	if (count == 0)
		return report_no_devices();
	return EXIT_OK;
}

static int dev_monitor_args(struct cmd_ctx *ctx)
{
	return one_dev_word(ctx, "dev monitor");
}

/* A host without RDMA is told once (NEEDS_NETLINK), with the exit code of
 * every other command, not by the monitor socket, then the list read, then
 * its error. */
static int dev_monitor(struct cmd_ctx *ctx)
{
	return devwatch_follow(ctx->argc ? ctx->sel.dev : NULL, ctx_opt_dbl(ctx, O_INTERVAL, 1.0),
			       ctx_opt_uint(ctx, O_COUNT, 0));
}

static const struct cmd_opt dev_monitor_opts[] = {
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between reads of the device list, also when the kernel sends events (default 1)",
	  .max = 3600 },
	{ .id = O_COUNT, .kind = OPT_UINT, .metavar = "N", .help = "stop after N rounds", .min = 1,
	  .max = 1000000 },
	{ 0 },
};

static const struct action dev_actions[] = {
	{ .name = "show", .synopsis = "[DEV]",
	  .summary = "list RDMA devices: node type, firmware, GUIDs, driver, ports", .check_args = dev_show_args,
	  .run = dev_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV },
	{ .name = "list", .synopsis = "[DEV]", .summary = "same as show", .check_args = dev_show_args, .run = dev_show,
	  .flags = NEEDS_NETLINK | HIDDEN, .positional = COMPLETE_DEV },
	{ .name = "monitor", .synopsis = "[DEV]",
	  .summary = "report devices added, removed, renamed and netdevs attached or detached, as they happen",
	  .check_args = dev_monitor_args, .run = dev_monitor, .flags = NEEDS_NETLINK | OUTPUT_STREAM,
	  .opts = dev_monitor_opts, .positional = COMPLETE_DEV },
	{ 0 },
};

const struct object obj_dev = { .name = "dev", .summary = "RDMA devices", .actions = dev_actions };
