/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA devices and ports as the kernel describes them over netlink, decoded
 * into plain structs. Objects iterate with callbacks, so nothing is buffered
 * beyond the message being parsed.
 */
#ifndef RDMADIAG_RDMA_H
#define RDMADIAG_RDMA_H

#include <stdbool.h>
#include <stdint.h>

#include "nl.h"

#define RD_NAME_LEN 64
/* More devices than this is a broken reply, not a host. */
#define RD_MAX_DEVICES 65536

struct rd_dev {
	uint32_t index;
	char name[RD_NAME_LEN];
	uint8_t node_type;		/* RDMA_NODE_* of the kernel: 1 ca, 4 rnic, ... */
	char fw[64];
	uint64_t node_guid;		/* host byte order */
	uint64_t sys_image_guid;
	uint64_t cap_flags;
	uint32_t nports;		/* highest port index */
	bool has_node_guid, has_sys_guid;
};

struct rd_port {
	uint32_t dev_index;
	char dev_name[RD_NAME_LEN];
	uint32_t port;
	uint8_t state;			/* enum ib_port_state: 1 DOWN .. 4 ACTIVE */
	uint8_t phys_state;		/* 1 SLEEP .. 5 LINK_UP, 7 PHY_TEST */
	uint32_t lid, sm_lid;
	uint8_t lmc;
	uint64_t subnet_prefix;
	uint64_t cap_flags;
	bool has_lid, has_sm_lid, has_subnet_prefix;
	uint32_t ndev_index;		/* 0 when none */
	char ndev_name[RD_NAME_LEN];	/* "" when none */
};

typedef int (*rd_dev_cb)(const struct rd_dev *dev, void *data);
typedef int (*rd_port_cb)(const struct rd_port *port, void *data);

/* Dumps every device (name NULL) or the one named. Returns 0, or -errno;
 * -ENODEV when name is given and no device has it. cb returns non-zero to stop. */
int rd_dev_each(const char *name, rd_dev_cb cb, void *data);
/* Ports of one device, or only port `port` when non-zero. Streams: cb must not
 * issue netlink requests itself. */
int rd_port_each(uint32_t dev_index, uint32_t port, rd_port_cb cb, void *data);

/* Kernel module of a device's RDMA driver ("rdma_rxe", "mlx5_ib"), from the
 * uverbs driver id (RDMA_NLDEV_CMD_GET_CHARDEV); also gives the uverbs node
 * name ("uverbs0"). Returns 0 or -errno. */
int rd_dev_uverbs(uint32_t dev_index, char *driver, size_t dlen, char *chardev, size_t clen);

/* Stable tokens */
const char *rd_node_type_token(uint8_t t);	/* "ca", "rnic", ... */
const char *rd_port_state_token(uint8_t s);	/* "active" */
const char *rd_port_state_name(uint8_t s);	/* "ACTIVE" as in ibv_devinfo/rdma */
const char *rd_phys_state_token(uint8_t s);	/* "link_up" */
const char *rd_phys_state_name(uint8_t s);	/* "LINK_UP" */
const char *rd_driver_module(uint64_t driver_id);

#endif
