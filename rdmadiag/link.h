/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What link_port.c knows about a port, shared by link show, link check and gid show. */
#ifndef RDMADIAG_LINK_H
#define RDMADIAG_LINK_H

#include "../host/netdev.h"
#include "../netlink/rdma.h"
#include "../verbs/verbs.h"

struct link_port {
	struct rd_port nl;		/* from netlink */
	bool has_verbs;
	struct vb_port vb;		/* from libibverbs */
	struct netdev_info nd;		/* the port's netdev, from sysfs */
	bool is_ib;			/* InfiniBand link layer */
	double rate_gbps;		/* 0 when unknown */
};

void link_port_fill(const struct rd_port *p, struct link_port *lp);
/* Calls cb for every port of dev (NULL: every device), or only `port`. */
int link_each(const char *dev, unsigned port, rd_port_cb cb, void *data);
/* link_each(), with the provider of each device's driver loaded first (link show). */
int link_each_preloaded(const char *dev, unsigned port, rd_port_cb cb, void *data);

#endif
