// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What rdmadiag knows about a port (link.h): netlink's view with what
 * libibverbs and sysfs add, and the walk over the ports of the devices that
 * link show, link check and gid show share.
 */
#include <stdio.h>
#include <string.h>

#include "../host/netdev.h"
#include "../host/source.h"
#include "../netlink/rdma.h"
#include "../verbs/verbs.h"
#include "link.h"

void link_port_fill(const struct rd_port *p, struct link_port *lp)
{
	memset(lp, 0, sizeof(*lp));
	lp->nl = *p;
	lp->has_verbs = vb_query_port(p->dev_name, p->port, &lp->vb) == 0;
	if (p->ndev_name[0])
		netdev_read(p->ndev_name, &lp->nd);
	lp->is_ib = lp->has_verbs ? lp->vb.link_layer != 2 : !p->ndev_name[0];
	if (lp->has_verbs)
		lp->rate_gbps = vb_width_lanes(lp->vb.active_width) * vb_speed_lane_gbps(lp->vb.active_speed);
}

#define LINK_MAX_DEVS 256

struct dev_list {
	unsigned n;
	uint32_t index[LINK_MAX_DEVS];
};

static int add_dev(const struct rd_dev *d, void *data)
{
	struct dev_list *l = data;

	if (l->n < LINK_MAX_DEVS)
		l->index[l->n++] = d->index;
	return 0;
}

/* libibverbs' device list loads every installed provider (17) unless those
 * already registered match every device: live, the provider of each device's
 * driver is loaded first (as link check does). Replayed, the verbs answers
 * are recorded and nothing is loaded. */
static void preload_providers(const struct dev_list *l)
{
	char driver[64], chardev[64];

	if (source_replaying())
		return;
	for (unsigned i = 0; i < l->n; i++)
		if (rd_dev_uverbs(l->index[i], driver, sizeof(driver), chardev, sizeof(chardev)) == 0)
			vb_preload_module_provider(driver);
}

/* Devices first, then their ports: a netlink request must not be issued from
 * inside the callback of another one (they share the socket and the buffer,
 * and the rest of the outer dump would be read as the inner reply). */
static int walk_ports(const char *dev, unsigned port, bool preload, rd_port_cb cb, void *data)
{
	static struct dev_list l;
	int err;

	l.n = 0;
	err = rd_dev_each(dev, add_dev, &l);
	if (!err && preload)
		preload_providers(&l);
	for (unsigned i = 0; !err && i < l.n; i++)
		err = rd_port_each(l.index[i], port, cb, data);
	return err;
}

int link_each(const char *dev, unsigned port, rd_port_cb cb, void *data)
{
	return walk_ports(dev, port, false, cb, data);
}

int link_each_preloaded(const char *dev, unsigned port, rd_port_cb cb, void *data)
{
	return walk_ports(dev, port, true, cb, data);
}
