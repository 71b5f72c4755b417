// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag link: ports of RDMA devices. Netlink gives state, LIDs and the
 * netdev; it has no link layer, MTU or rate, so those come from libibverbs,
 * and the netdev's MTU and operstate from sysfs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../host/netdev.h"
#include "../netlink/rdma.h"
#include "../verbs/verbs.h"
#include "common.h"
#include "link.h"
#include "link_check.h"
#include "lower_err.h"
#include "objects.h"
#include "output.h"

enum {
	F_IFNAME, F_DEV, F_PORT, F_STATE, F_PHYS, F_LINK_LAYER, F_ACTIVE_MTU, F_MAX_MTU, F_RATE, F_WIDTH,
	F_SPEED, F_NETDEV, F_NETDEV_INDEX, F_NETDEV_MTU, F_NETDEV_STATE, F_LID, F_SM_LID, F_LMC,
	F_SUBNET_PREFIX, F_GID_TBL_LEN, F_MAX_MSG,
};

static const struct field link_fields[] = {
	[F_IFNAME] = { "ifname", NULL, FT_STR, FF_HEAD, NULL },
	[F_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[F_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[F_STATE] = { "state", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	[F_PHYS] = { "physical_state", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	[F_LINK_LAYER] = { "link_layer", NULL, FT_TOKEN, 0, NULL },
	[F_ACTIVE_MTU] = { "active_mtu", NULL, FT_U64, 0, NULL },
	[F_MAX_MTU] = { "max_mtu", NULL, FT_U64, 0, NULL },
	[F_RATE] = { "rate_gbps", NULL, FT_DOUBLE, 0, "Gb/s" },
	[F_WIDTH] = { "width", NULL, FT_STR, 0, NULL },
	[F_SPEED] = { "speed", NULL, FT_STR, 0, NULL },
	[F_NETDEV] = { "netdev", NULL, FT_STR, 0, NULL },
	[F_NETDEV_INDEX] = { "netdev_index", NULL, FT_U64, FF_DETAIL, NULL },
	[F_NETDEV_MTU] = { "netdev_mtu", NULL, FT_U64, 0, NULL },
	[F_NETDEV_STATE] = { "netdev_operstate", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	[F_LID] = { "lid", NULL, FT_U64, 0, NULL },
	[F_SM_LID] = { "sm_lid", NULL, FT_U64, 0, NULL },
	[F_LMC] = { "lmc", NULL, FT_U64, 0, NULL },
	[F_SUBNET_PREFIX] = { "subnet_prefix", NULL, FT_GUID, FF_DETAIL, NULL },
	[F_GID_TBL_LEN] = { "gid_tbl_len", NULL, FT_U64, FF_DETAIL, NULL },
	[F_MAX_MSG] = { "max_msg_bytes", NULL, FT_U64, FF_DETAIL, NULL },
};

static void print_rate(const struct link_port *lp)
{
	const char *w = vb_width_str(lp->vb.active_width);
	const char *s = vb_speed_str(lp->vb.active_speed);

	if (lp->rate_gbps > 0)
		out_double(&link_fields[F_RATE], lp->rate_gbps, lp->rate_gbps == (long)lp->rate_gbps ? 0 : 1);
	out_str(&link_fields[F_WIDTH], w);
	out_str(&link_fields[F_SPEED], s);
}

static void print_ib(const struct rd_port *p)
{
	if (p->has_lid)
		out_u64(&link_fields[F_LID], p->lid);
	if (p->has_sm_lid)
		out_u64(&link_fields[F_SM_LID], p->sm_lid);
	out_u64(&link_fields[F_LMC], p->lmc);
	if (p->has_subnet_prefix)
		out_guid(&link_fields[F_SUBNET_PREFIX], p->subnet_prefix);
}

static void print_netdev(const struct link_port *lp)
{
	out_str(&link_fields[F_NETDEV], lp->nl.ndev_name);
	out_u64(&link_fields[F_NETDEV_INDEX], lp->nl.ndev_index);
	if (!lp->nd.found)
		return;	/* in another network namespace, or gone */
	out_u64(&link_fields[F_NETDEV_MTU], lp->nd.mtu);
	out_enum(&link_fields[F_NETDEV_STATE], lp->nd.operstate, lp->nd.operstate);
}

static int print_port(const struct rd_port *p, void *data)
{
	struct link_port lp;
	char ifname[RD_NAME_LEN + 8];
	int *count = data;

	(*count)++;
	link_port_fill(p, &lp);
	snprintf(ifname, sizeof(ifname), "%s/%u", p->dev_name, p->port);
	out_obj_begin(NULL);
	out_str(&link_fields[F_IFNAME], ifname);
	if (out_is_json()) {
		out_str(&link_fields[F_DEV], p->dev_name);
		out_u64(&link_fields[F_PORT], p->port);
	}
	out_enum(&link_fields[F_STATE], rd_port_state_token(p->state), rd_port_state_name(p->state));
	out_enum(&link_fields[F_PHYS], rd_phys_state_token(p->phys_state), rd_phys_state_name(p->phys_state));
	if (lp.has_verbs) {
		out_token(&link_fields[F_LINK_LAYER], vb_link_layer_token(lp.vb.link_layer));
		if (lp.vb.active_mtu)
			out_u64(&link_fields[F_ACTIVE_MTU], lp.vb.active_mtu);
		if (lp.vb.max_mtu)
			out_u64(&link_fields[F_MAX_MTU], lp.vb.max_mtu);
		print_rate(&lp);
	}
	if (p->ndev_name[0])
		print_netdev(&lp);
	if (lp.is_ib)
		print_ib(p);
	if (lp.has_verbs) {
		out_u64(&link_fields[F_GID_TBL_LEN], lp.vb.gid_tbl_len);
		out_u64(&link_fields[F_MAX_MSG], lp.vb.max_msg_sz);
	}
	out_obj_end();
	return 0;
}

static int link_show(struct cmd_ctx *ctx)
{
	const struct dev_port sel = ctx->sel;
	int count = 0, err;

	out_list_begin("links");
	/* every port is queried through libibverbs (link_port_fill) */
	err = link_each_preloaded(ctx->argc ? sel.dev : NULL, sel.port, print_port, &count);
	out_list_end();
	if (err)
		return report_dev_error(ctx->argc ? sel.dev : NULL, err);
	if (count == 0 && sel.port)
		return report_no_port(sel.dev, sel.port);
	if (count == 0 && !ctx->argc)
		return report_no_devices();
	return EXIT_OK;
}

static const struct action link_actions[] = {
	{ .name = "show", .synopsis = "[DEV[/PORT]]",
	  .summary = "port state, link layer, MTU, rate, netdev, LID/SM LID", .check_args = args_dev_port,
	  .run = link_show, .flags = NEEDS_NETLINK, .positional = COMPLETE_DEV_PORT },
	{ .name = "check", .synopsis = "[DEV[/PORT]]",
	  .summary = "health checks of kernel, devices, ports, netdevs, GIDs, PCIe, CPU; names the fix",
	  .check_args = link_check_args, .no_netlink = link_check_no_netlink, .run = link_check,
	  .flags = NEEDS_NETLINK, .opts = link_check_opts, .checks = lc_check_def,
	  .positional = COMPLETE_DEV_PORT },
	{ .name = "list", .synopsis = "[DEV[/PORT]]", .summary = "same as show",
	  .check_args = args_dev_port, .run = link_show,
	  .flags = NEEDS_NETLINK | HIDDEN, .positional = COMPLETE_DEV_PORT },
	{ 0 },
};

const struct object obj_link = { .name = "link", .summary = "RDMA ports and their network devices",
	.actions = link_actions };
