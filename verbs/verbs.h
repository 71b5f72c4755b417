/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What libibverbs tells about devices and ports that netlink does not (link
 * layer, MTUs, width and speed). Live queries are recorded and replayed like
 * netlink replies (host/source.h), as key=value files under verbs/.
 */
#ifndef RDMADIAG_VERBS_H
#define RDMADIAG_VERBS_H

#include <stdbool.h>
#include <stdint.h>

struct vb_port {
	unsigned state;		/* enum ibv_port_state */
	unsigned phys_state;
	unsigned max_mtu;	/* bytes, 256..4096; 0 unknown */
	unsigned active_mtu;
	unsigned active_width;	/* IB code: 1 1X, 2 4X, 4 8X, 8 12X, 16 2X */
	unsigned active_speed;	/* IB code: 1 SDR .. 128 NDR */
	unsigned link_layer;	/* 1 InfiniBand, 2 Ethernet */
	unsigned gid_tbl_len;
	unsigned lid, sm_lid, lmc;
	unsigned port_cap_flags;
	unsigned max_msg_sz;
};

struct vb_device {
	char fw_ver[64];
	unsigned vendor_id, vendor_part_id, hw_ver;
	unsigned phys_port_cnt;
	unsigned max_qp, max_cq, max_mr, max_pd, max_qp_wr;
	uint64_t node_guid, sys_image_guid;	/* host byte order */
};

/* One used GID slot as ibv_query_gid_table() gives it. */
struct vb_gid {
	unsigned index;
	unsigned type;		/* enum ibv_gid_type: 0 IB, 1 RoCE v1, 2 RoCE v2 */
	char text[40];		/* as sysfs gids/N shows it: "fe80:0000:...:3456" */
	char ndev[64];		/* "" when none */
};

/* The used GID slots of DEV/PORT in one query, instead of a sysfs read per
 * slot (rxe has 1024). *out is malloc'ed. Returns the count or -errno:
 * -ENODEV when libibverbs lacks the device or a replayed fixture has no
 * such record (older recordings hold the sysfs files instead). */
int vb_gid_table(const char *dev, unsigned port, struct vb_gid **out);
/* Whether a vb_gid_table() now is cheap: replaying, or libibverbs already
 * loaded its providers for this command (ibv_get_device_list costs more than
 * the sysfs walk it would save, so a command that needs no other verbs
 * query, like gid show, keeps to sysfs). */
bool vb_gid_table_cheap(void);

/* Names of the devices libibverbs sees; returns the count or -errno. */
int vb_device_names(char names[][64], int max);
/* 0, -ENODEV if libibverbs does not know dev, or -errno. */
int vb_query_device(const char *dev, struct vb_device *out);
int vb_query_port(const char *dev, unsigned port, struct vb_port *out);
void vb_close(void);
/* ibv_get_device_list() loads every provider installed (17 in rdma-core
 * 44) unless the providers already registered match every device; loading
 * the one a device needs first spares the others. provider is the
 * libibverbs.d name ("rxe", "mlx5"); false when it is not installed (the
 * full load then decides, as before). */
bool vb_preload_provider(const char *provider);
/* The provider of the kernel driver module ("rdma_rxe" -> "rxe"), NULL if unknown. */
const char *vb_provider_of_module(const char *module);
/* vb_preload_provider() of the provider that driver module needs; false
 * when the module is unknown or its provider is not installed. */
bool vb_preload_module_provider(const char *module);
/* Loads libibverbs now (it is opened on first use, verbs/dl.c); false when missing. */
bool vb_library_load(void);

/* Decoding of the IB codes */
const char *vb_width_str(unsigned width);	/* "4X" */
unsigned vb_width_lanes(unsigned width);	/* 4 */
const char *vb_speed_str(unsigned speed);	/* "EDR" */
double vb_speed_lane_gbps(unsigned speed);	/* 25.0: data rate per lane */
const char *vb_link_layer_token(unsigned ll);	/* "infiniband" / "ethernet" */
unsigned vb_mtu_bytes(unsigned ibv_mtu_enum);	/* IBV_MTU_1024 -> 1024 */

#endif
