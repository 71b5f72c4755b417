// SPDX-License-Identifier: GPL-2.0-or-later
/* Devices and ports from RDMA netlink; see rdma.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* Devices are collected first and handed out after the dump ended, so that a
 * callback may issue its own netlink requests (ports, chardev) on the one
 * socket. A host has a handful of devices; QPs, which are many, stream. */
struct dev_walk {
	const char *name;
	struct rd_dev *devs;
	size_t n, cap;
	int err;
};

static int dev_msg(const nl_tb tb, void *data)
{
	struct dev_walk *w = data;
	struct rd_dev d = { 0 };

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return MNL_CB_OK;	/* mandatory; a reply without them is skipped */
	d.index = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	copy_str(d.name, sizeof(d.name), nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME));
	if (w->name && strcmp(w->name, d.name))
		return MNL_CB_OK;
	d.node_type = nl_u8(tb, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 0);
	copy_str(d.fw, sizeof(d.fw), nl_str(tb, RDMA_NLDEV_ATTR_FW_VERSION));
	d.has_node_guid = tb[RDMA_NLDEV_ATTR_NODE_GUID] != NULL;
	d.node_guid = nl_u64(tb, RDMA_NLDEV_ATTR_NODE_GUID, 0);
	d.has_sys_guid = tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] != NULL;
	d.sys_image_guid = nl_u64(tb, RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, 0);
	d.cap_flags = nl_u64(tb, RDMA_NLDEV_ATTR_CAP_FLAGS, 0);
	d.nports = nl_u32(tb, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 8;
		struct rd_dev *n = cap < RD_MAX_DEVICES ? realloc(w->devs, cap * sizeof(*n)) : NULL;

		if (!n) {
			w->err = -E2BIG;
			return MNL_CB_OK;	/* drain the dump; report after */
		}
		w->devs = n;
		w->cap = cap;
	}
	w->devs[w->n++] = d;
	return MNL_CB_OK;
}

int rd_dev_each(const char *name, rd_dev_cb cb, void *data)
{
	struct dev_walk w = { .name = name };
	struct nl_req r;
	int err;

	nl_req_init(&r, RDMA_NLDEV_CMD_GET, true);
	err = nl_run(&r, dev_msg, &w);
	if (!err)
		err = w.err;
	if (!err && name && w.n == 0)
		err = -ENODEV;
	for (size_t i = 0; !err && i < w.n; i++)
		if (cb(&w.devs[i], data))
			break;
	free(w.devs);
	return err;
}

struct port_walk {
	rd_port_cb cb;
	void *data;
	uint32_t port;
};

static int port_msg(const nl_tb tb, void *data)
{
	struct port_walk *w = data;
	struct rd_port p = { 0 };

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return MNL_CB_OK;
	p.dev_index = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	copy_str(p.dev_name, sizeof(p.dev_name), nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME));
	p.port = nl_u32(tb, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	if (w->port && p.port != w->port)
		return MNL_CB_OK;
	p.state = nl_u8(tb, RDMA_NLDEV_ATTR_PORT_STATE, 0);
	p.phys_state = nl_u8(tb, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 0);
	p.has_lid = tb[RDMA_NLDEV_ATTR_LID] != NULL;
	p.lid = nl_u32(tb, RDMA_NLDEV_ATTR_LID, 0);
	p.has_sm_lid = tb[RDMA_NLDEV_ATTR_SM_LID] != NULL;
	p.sm_lid = nl_u32(tb, RDMA_NLDEV_ATTR_SM_LID, 0);
	p.lmc = nl_u8(tb, RDMA_NLDEV_ATTR_LMC, 0);
	p.has_subnet_prefix = tb[RDMA_NLDEV_ATTR_SUBNET_PREFIX] != NULL;
	p.subnet_prefix = nl_u64(tb, RDMA_NLDEV_ATTR_SUBNET_PREFIX, 0);
	p.cap_flags = nl_u64(tb, RDMA_NLDEV_ATTR_CAP_FLAGS, 0);
	p.ndev_index = nl_u32(tb, RDMA_NLDEV_ATTR_NDEV_INDEX, 0);
	copy_str(p.ndev_name, sizeof(p.ndev_name), nl_str(tb, RDMA_NLDEV_ATTR_NDEV_NAME));
	return w->cb(&p, w->data) ? MNL_CB_STOP : MNL_CB_OK;
}

int rd_port_each(uint32_t dev_index, uint32_t port, rd_port_cb cb, void *data)
{
	struct port_walk w = { .cb = cb, .data = data, .port = port };
	struct nl_req r;

	/* PORT_GET dumps all ports of the device named by DEV_INDEX. */
	nl_req_init(&r, RDMA_NLDEV_CMD_PORT_GET, true);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	return nl_run(&r, port_msg, &w);
}

struct chardev_info {
	char *driver, *chardev;
	size_t dlen, clen;
};

static int chardev_msg(const nl_tb tb, void *data)
{
	struct chardev_info *c = data;

	if (tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID])
		copy_str(c->driver, c->dlen, rd_driver_module(nl_uint(tb, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, 0)));
	copy_str(c->chardev, c->clen, nl_str(tb, RDMA_NLDEV_ATTR_CHARDEV_NAME));
	return MNL_CB_OK;
}

int rd_dev_uverbs(uint32_t dev_index, char *driver, size_t dlen, char *chardev, size_t clen)
{
	struct chardev_info c = { driver, chardev, dlen, clen };
	struct nl_req r;

	driver[0] = chardev[0] = '\0';
	nl_req_init(&r, RDMA_NLDEV_CMD_GET_CHARDEV, false);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	nl_req_str(&r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs");
	return nl_run(&r, chardev_msg, &c);
}

/* ---- tokens ---- */

const char *rd_node_type_token(uint8_t t)
{
	static const char *const names[] = { "unknown", "ca", "switch", "router", "rnic",
					     "usnic", "usnic_udp", "unspecified" };

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "unknown";
}

static const char *const port_states[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };
static const char *const port_state_tokens[] = { "nop", "down", "init", "armed", "active", "active_defer" };
static const char *const phys_states[] = { "UNKNOWN", "SLEEP", "POLLING", "DISABLED",
					   "PORT_CONFIGURATION_TRAINING", "LINK_UP",
					   "LINK_ERROR_RECOVERY", "PHY_TEST" };
static const char *const phys_tokens[] = { "unknown", "sleep", "polling", "disabled",
					   "port_configuration_training", "link_up",
					   "link_error_recovery", "phy_test" };

#define TOKEN(arr, i) ((i) < sizeof(arr) / sizeof(arr[0]) ? arr[i] : arr[0])

const char *rd_port_state_token(uint8_t s) { return TOKEN(port_state_tokens, s); }
const char *rd_port_state_name(uint8_t s) { return TOKEN(port_states, s); }
const char *rd_phys_state_token(uint8_t s) { return TOKEN(phys_tokens, s); }
const char *rd_phys_state_name(uint8_t s) { return TOKEN(phys_states, s); }

/* enum rdma_driver_id to the kernel module that registers such devices. */
const char *rd_driver_module(uint64_t id)
{
	static const char *const mods[] = {
		NULL, "mlx5_ib", "mlx4_ib", "iw_cxgb3", "iw_cxgb4", "ib_mthca", "bnxt_re",
		"ocrdma", "iw_nes", "irdma", "vmw_pvrdma", "qedr", "hns_roce_hw_v2",
		"usnic_verbs", "rdma_rxe", "hfi1", "ib_qib", "efa", "siw", "erdma", "mana_ib",
	};

	return id < sizeof(mods) / sizeof(mods[0]) ? mods[id] : NULL;
}

