// SPDX-License-Identifier: GPL-2.0-or-later
/* libibverbs queries with record/replay; see verbs.h. */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/source.h"
#include "verbs.h"

#define VB_MAX_OPEN 16

static struct {
	struct ibv_device **list;
	int n;
	bool loaded;
	/* Contexts stay open until vb_close: link check asks each device
	 * several times (ports, GID tables), and an open costs a uverbs
	 * context allocation in the kernel each time. */
	int nopen;
	struct ibv_context *open[VB_MAX_OPEN];
} vb;

static int load_list(void)
{
	if (vb.loaded)
		return vb.list ? 0 : -ENOSYS;
	vb.loaded = true;
	vb.list = ibv_get_device_list(&vb.n);
	return vb.list ? 0 : -(errno ? errno : ENOSYS);
}

void vb_close(void)
{
	for (int i = 0; i < vb.nopen; i++)
		ibv_close_device(vb.open[i]);
	vb.nopen = 0;
	if (vb.list)
		ibv_free_device_list(vb.list);
	vb.list = NULL;
	vb.loaded = false;
}

/* The context of dev, cached for the first VB_MAX_OPEN devices; NULL with
 * errno set. Hand it back with release_dev(). */
static struct ibv_context *open_dev(const char *dev)
{
	struct ibv_context *ctx;

	for (int i = 0; i < vb.nopen; i++)
		if (!strcmp(ibv_get_device_name(vb.open[i]->device), dev))
			return vb.open[i];
	if (load_list())
		return NULL;
	for (int i = 0; i < vb.n; i++) {
		if (strcmp(ibv_get_device_name(vb.list[i]), dev))
			continue;
		ctx = ibv_open_device(vb.list[i]);
		if (ctx && vb.nopen < VB_MAX_OPEN)
			vb.open[vb.nopen++] = ctx;
		return ctx;
	}
	errno = ENODEV;
	return NULL;
}

static void release_dev(struct ibv_context *ctx)
{
	for (int i = 0; i < vb.nopen; i++)
		if (vb.open[i] == ctx)
			return;
	ibv_close_device(ctx);
}

const char *vb_provider_of_module(const char *module)
{
	static const char *const map[][2] = {
		{ "mlx5_ib", "mlx5" }, { "mlx4_ib", "mlx4" }, { "iw_cxgb4", "cxgb4" }, { "ib_mthca", "mthca" },
		{ "bnxt_re", "bnxt_re" }, { "ocrdma", "ocrdma" }, { "irdma", "irdma" }, { "vmw_pvrdma", "vmw_pvrdma" },
		{ "qedr", "qedr" }, { "hns_roce_hw_v2", "hns" }, { "rdma_rxe", "rxe" }, { "hfi1", "hfi1verbs" },
		{ "ib_qib", "ipathverbs" }, { "efa", "efa" }, { "siw", "siw" }, { "erdma", "erdma" },
		{ "mana_ib", "mana" },
	};

	for (size_t i = 0; module && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], module))
			return map[i][1];
	return NULL;
}

bool vb_preload_module_provider(const char *module)
{
	const char *provider = vb_provider_of_module(module);

	return provider && vb_preload_provider(provider);
}

/* ---- key=value records ---- */

struct kv {
	const char *key;
	size_t off;	/* offset of an unsigned in the struct */
};

#define KVP(field) { #field, offsetof(struct vb_port, field) }
static const struct kv port_keys[] = {
	KVP(state), KVP(phys_state), KVP(max_mtu), KVP(active_mtu), KVP(active_width),
	KVP(active_speed), KVP(link_layer), KVP(gid_tbl_len), KVP(lid), KVP(sm_lid), KVP(lmc),
	KVP(port_cap_flags), KVP(max_msg_sz), { NULL, 0 },
};
#define KVD(field) { #field, offsetof(struct vb_device, field) }
static const struct kv dev_keys[] = {
	KVD(vendor_id), KVD(vendor_part_id), KVD(hw_ver), KVD(phys_port_cnt), KVD(max_qp),
	KVD(max_cq), KVD(max_mr), KVD(max_pd), KVD(max_qp_wr), { NULL, 0 },
};

static void save_kv(const char *rel, const struct kv *keys, const void *obj, const char *extra)
{
	char buf[2048];
	int n = 0;

	for (const struct kv *k = keys; k->key && n < (int)sizeof(buf); k++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s=%u\n", k->key,
			      *(const unsigned *)((const char *)obj + k->off));
	if (extra && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - n, "%s", extra);
	if (n > (int)sizeof(buf))
		n = sizeof(buf);
	source_save(rel, buf, n, false);
}

/* Calls line_cb for every "key=value" the file holds. */
static int load_kv(const char *rel, const struct kv *keys, void *obj,
		   void (*other)(const char *key, const char *val, void *obj))
{
	char line[512];
	FILE *fp = source_open(rel);

	if (!fp)
		return -ENODEV;
	while (fgets(line, sizeof(line), fp)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		line[strlen(line)] = '\0';
		eq[1 + strcspn(eq + 1, "\n")] = '\0';
		bool known = false;

		for (const struct kv *k = keys; k->key; k++) {
			if (!strcmp(k->key, line)) {
				*(unsigned *)((char *)obj + k->off) = (unsigned)strtoul(eq + 1, NULL, 0);
				known = true;
			}
		}
		if (!known && other)
			other(line, eq + 1, obj);
	}
	fclose(fp);
	return 0;
}

/* ---- devices ---- */

int vb_device_names(char names[][64], int max)
{
	int n = 0;

	if (source_replaying()) {
		char line[128];
		FILE *fp = source_open("verbs/devices");

		if (!fp)
			return 0;
		while (n < max && fgets(line, sizeof(line), fp)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0])
				snprintf(names[n++], 64, "%s", line);
		}
		fclose(fp);
		return n;
	}
	if (load_list())
		return 0;	/* no provider at all: libibverbs sees no device */
	for (int i = 0; i < vb.n && n < max; i++)
		snprintf(names[n++], 64, "%s", ibv_get_device_name(vb.list[i]));
	if (source_recording()) {
		source_save("verbs/devices", "", 0, false);
		for (int i = 0; i < n; i++) {
			source_save("verbs/devices", names[i], strlen(names[i]), true);
			source_save("verbs/devices", "\n", 1, true);
		}
	}
	return n;
}

static void dev_other(const char *key, const char *val, void *obj)
{
	struct vb_device *d = obj;

	if (!strcmp(key, "fw_ver"))
		snprintf(d->fw_ver, sizeof(d->fw_ver), "%s", val);
	else if (!strcmp(key, "node_guid"))
		d->node_guid = strtoull(val, NULL, 0);
	else if (!strcmp(key, "sys_image_guid"))
		d->sys_image_guid = strtoull(val, NULL, 0);
}

int vb_query_device(const char *dev, struct vb_device *out)
{
	char rel[PATH_MAX], extra[256];
	struct ibv_device_attr a;
	struct ibv_context *ctx;

	memset(out, 0, sizeof(*out));
	snprintf(rel, sizeof(rel), "verbs/%s.device", dev);
	if (source_replaying())
		return load_kv(rel, dev_keys, out, dev_other);
	ctx = open_dev(dev);
	if (!ctx)
		return -errno;
	int r = ibv_query_device(ctx, &a);

	release_dev(ctx);
	if (r)
		return -r;
	snprintf(out->fw_ver, sizeof(out->fw_ver), "%s", a.fw_ver);
	out->vendor_id = a.vendor_id;
	out->vendor_part_id = a.vendor_part_id;
	out->hw_ver = a.hw_ver;
	out->phys_port_cnt = a.phys_port_cnt;
	out->max_qp = a.max_qp;
	out->max_cq = a.max_cq;
	out->max_mr = a.max_mr;
	out->max_pd = a.max_pd;
	out->max_qp_wr = a.max_qp_wr;
	/* verbs hands GUIDs in network byte order */
	out->node_guid = be64toh(a.node_guid);
	out->sys_image_guid = be64toh(a.sys_image_guid);
	if (source_recording()) {
		snprintf(extra, sizeof(extra), "fw_ver=%s\nnode_guid=0x%llx\nsys_image_guid=0x%llx\n",
			 out->fw_ver, (unsigned long long)out->node_guid,
			 (unsigned long long)out->sys_image_guid);
		save_kv(rel, dev_keys, out, extra);
	}
	return 0;
}

int vb_query_port(const char *dev, unsigned port, struct vb_port *out)
{
	char rel[PATH_MAX];
	struct ibv_port_attr a;
	struct ibv_context *ctx;

	memset(out, 0, sizeof(*out));
	if (port == 0 || port > 255)
		return -EINVAL;
	snprintf(rel, sizeof(rel), "verbs/%s.port%u", dev, port);
	if (source_replaying())
		return load_kv(rel, port_keys, out, NULL);
	ctx = open_dev(dev);
	if (!ctx)
		return -errno;
	int r = ibv_query_port(ctx, (uint8_t)port, &a);

	release_dev(ctx);
	if (r)
		return -r;
	out->state = a.state;
	out->phys_state = a.phys_state;
	out->max_mtu = vb_mtu_bytes(a.max_mtu);
	out->active_mtu = vb_mtu_bytes(a.active_mtu);
	out->active_width = a.active_width;
	out->active_speed = a.active_speed;
	out->link_layer = a.link_layer;
	out->gid_tbl_len = a.gid_tbl_len;
	out->lid = a.lid;
	out->sm_lid = a.sm_lid;
	out->lmc = a.lmc;
	out->port_cap_flags = a.port_cap_flags;
	out->max_msg_sz = a.max_msg_sz;
	if (source_recording())
		save_kv(rel, port_keys, out, NULL);
	return 0;
}

/* ---- GID table ---- */

static void gid_text(const union ibv_gid *g, char *buf, size_t len)
{
	const uint8_t *b = g->raw;

	snprintf(buf, len, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

/* Every port's entries at once; grows the buffer while the kernel finds it short. */
static ssize_t query_gid_entries(struct ibv_context *ctx, struct ibv_gid_entry **out)
{
	for (size_t cap = 1024; cap <= 65536; cap *= 4) {
		struct ibv_gid_entry *e = calloc(cap, sizeof(*e));
		ssize_t n;

		if (!e)
			return -ENOMEM;
		n = ibv_query_gid_table(ctx, e, cap, 0);
		if (n >= 0) {
			*out = e;
			return n;
		}
		free(e);
		if (n != -EINVAL && n != -ENOSPC)
			return n;
	}
	return -ENOSPC;
}

static void save_gids(const char *rel, const struct vb_gid *g, int n)
{
	source_save(rel, "", 0, false);
	for (int i = 0; i < n; i++) {
		char line[160];
		int len = snprintf(line, sizeof(line), "%u %s %u %s\n", g[i].index, g[i].text, g[i].type,
				   g[i].ndev[0] ? g[i].ndev : "-");

		source_save(rel, line, (size_t)len, true);
	}
}

/* "INDEX GID TYPE NDEV" lines, NDEV "-" for none */
static int load_gids(const char *rel, struct vb_gid **out)
{
	char line[256];
	FILE *fp = source_open(rel);
	struct vb_gid *g = NULL;
	int n = 0, cap = 0;

	if (!fp)
		return -ENODEV;
	while (fgets(line, sizeof(line), fp)) {
		struct vb_gid e = { 0 };

		if (sscanf(line, "%u %39s %u %63s", &e.index, e.text, &e.type, e.ndev) != 4)
			continue;
		if (!strcmp(e.ndev, "-"))
			e.ndev[0] = '\0';
		if (n == cap) {
			struct vb_gid *ng = realloc(g, (cap = cap ? 2 * cap : 16) * sizeof(*g));

			if (!ng) {
				n = -ENOMEM;
				break;
			}
			g = ng;
		}
		g[n++] = e;
	}
	fclose(fp);
	if (n < 0)
		free(g);
	else
		*out = g;
	return n;
}

bool vb_gid_table_cheap(void)
{
	return source_replaying() || (vb.loaded && vb.list);
}

int vb_gid_table(const char *dev, unsigned port, struct vb_gid **out)
{
	char rel[PATH_MAX];
	struct ibv_gid_entry *e = NULL;
	struct ibv_context *ctx;
	struct vb_gid *g;
	ssize_t total;
	int n = 0;

	*out = NULL;
	snprintf(rel, sizeof(rel), "verbs/%s.port%u.gids", dev, port);
	if (source_replaying())
		return load_gids(rel, out);
	ctx = open_dev(dev);
	if (!ctx)
		return -errno;
	total = query_gid_entries(ctx, &e);
	release_dev(ctx);
	if (total < 0)
		return (int)total;
	g = calloc(total ? (size_t)total : 1, sizeof(*g));
	if (!g) {
		free(e);
		return -ENOMEM;
	}
	for (ssize_t i = 0; i < total; i++) {
		if (e[i].port_num != port)
			continue;
		g[n].index = e[i].gid_index;
		g[n].type = e[i].gid_type;
		gid_text(&e[i].gid, g[n].text, sizeof(g[n].text));
		if (e[i].ndev_ifindex && !if_indextoname(e[i].ndev_ifindex, g[n].ndev))
			g[n].ndev[0] = '\0';
		n++;
	}
	free(e);
	if (source_recording())
		save_gids(rel, g, n);
	*out = g;
	return n;
}

/* ---- decoding ---- */

unsigned vb_mtu_bytes(unsigned m)
{
	return m >= 1 && m <= 5 ? 128u << m : 0;
}

const char *vb_width_str(unsigned w)
{
	switch (w) {
	case 1: return "1X";
	case 2: return "4X";
	case 4: return "8X";
	case 8: return "12X";
	case 16: return "2X";
	default: return NULL;
	}
}

unsigned vb_width_lanes(unsigned w)
{
	switch (w) {
	case 1: return 1;
	case 2: return 4;
	case 4: return 8;
	case 8: return 12;
	case 16: return 2;
	default: return 0;
	}
}

const char *vb_speed_str(unsigned s)
{
	switch (s) {
	case 1: return "SDR";
	case 2: return "DDR";
	case 4: return "QDR";
	case 8: return "FDR10";
	case 16: return "FDR";
	case 32: return "EDR";
	case 64: return "HDR";
	case 128: return "NDR";
	case 256: return "XDR";
	default: return NULL;
	}
}

/* Per-lane rate as the kernel's sysfs "rate" file counts it. */
double vb_speed_lane_gbps(unsigned s)
{
	switch (s) {
	case 1: return 2.5;
	case 2: return 5;
	case 4: return 10;
	case 8: return 10;
	case 16: return 14;
	case 32: return 25;
	case 64: return 50;
	case 128: return 100;
	case 256: return 200;
	default: return 0;
	}
}

const char *vb_link_layer_token(unsigned ll)
{
	switch (ll) {
	case 2: return "ethernet";
	default: return "infiniband";	/* 0 "unspecified" is InfiniBand, as in ibv_devinfo */
	}
}
