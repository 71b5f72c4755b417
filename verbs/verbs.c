// SPDX-License-Identifier: GPL-2.0-or-later
/* libibverbs queries with record/replay; see verbs.h. */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netlink/source.h"
#include "verbs.h"

static struct {
	struct ibv_device **list;
	int n;
	bool loaded;
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
	if (vb.list)
		ibv_free_device_list(vb.list);
	vb.list = NULL;
	vb.loaded = false;
}

static struct ibv_context *open_dev(const char *dev)
{
	if (load_list())
		return NULL;
	for (int i = 0; i < vb.n; i++)
		if (!strcmp(ibv_get_device_name(vb.list[i]), dev))
			return ibv_open_device(vb.list[i]);
	errno = ENODEV;
	return NULL;
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

	ibv_close_device(ctx);
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

	ibv_close_device(ctx);
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
