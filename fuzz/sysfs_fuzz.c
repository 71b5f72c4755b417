// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: values read from sysfs, procfs and the other replayed text
 * files, through the readers the commands use (sysfs.c fs_read/fs_list/
 * fs_readlink in replay mode, then the parsers on top).
 *
 * Input: one selector byte, then NUL-separated fields; each field becomes the
 * content of one file of a fake device "fz0" in a private replay directory:
 *   0 netdev:   class/net/fz0/{mtu,ifindex,carrier,operstate}, driver link
 *   1 GIDs:     ports/1/link_layer, then per index gids/I, types/I, ndevs/I
 *   2 counters: hw_counters/.listing (names), lifespan, values, counters/
 *   3 verbs:    verbs/fz0.device and verbs/fz0.port1 (key=value)
 *   4 PCIe and limits: link speed text, width, /proc/self/limits
 *   5 ethtool:  ethtool/fz0 lines (name=value)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/gid.h"
#include "../host/netdev.h"
#include "../host/source.h"
#include "../host/sysfs.h"
#include "../netlink/stat.h"
#include "../rdmadiag/link_check.h"
#include "../rdmadiag/lower_join.h"
#include "../verbs/verbs.h"
#include "fuzz_common.h"

#define MAX_FIELDS 16
#define IB "fs/sys/class/infiniband/fz0"

struct fields {
	int n;
	const char *f[MAX_FIELDS];
	size_t len[MAX_FIELDS];
};

static void split(const uint8_t *data, size_t size, struct fields *fl)
{
	size_t start = 0;

	fl->n = 0;
	for (size_t i = 0; i <= size && fl->n < MAX_FIELDS; i++) {
		if (i < size && data[i])
			continue;
		fl->f[fl->n] = (const char *)data + start;
		fl->len[fl->n++] = i - start;
		start = i + 1;
	}
}

/* Field i (or empty) as the file rel; a missing field removes nothing: it
 * writes an empty file, which sysfs also has (e.g. carrier of a down link). */
static void put(const struct fields *fl, int i, const char *rel)
{
	fuzz_put_file(rel, i < fl->n ? fl->f[i] : "", i < fl->n ? fl->len[i] : 0);
}

static void fuzz_netdev(const struct fields *fl)
{
	static const char *const files[] = { "mtu", "ifindex", "carrier", "operstate" };
	struct netdev_info nd;
	char rel[128], link[256];

	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "fs/sys/class/net/fz0/%s", files[i]);
		put(fl, i, rel);
	}
	/* the recorded readlink() answers: "path<TAB>target" lines */
	snprintf(link, sizeof(link), "/sys/class/net/fz0/device/driver\t");
	fuzz_put_file("links", link, strlen(link));
	if (fl->n > 4)
		source_save("links", fl->f[4], fl->len[4], true);
	netdev_read("fz0", &nd);
	fuzz_sink_u64(nd.mtu + nd.ifindex + (uint64_t)nd.carrier);
	fuzz_sink_str(nd.operstate);
	fuzz_sink_str(nd.driver);
}

static void fuzz_gids(const struct fields *fl)
{
	struct gid_table t;
	char rel[128];

	put(fl, 0, IB "/ports/1/link_layer");
	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), IB "/ports/1/gids/%d", i);
		put(fl, 1 + 3 * i, rel);
		snprintf(rel, sizeof(rel), IB "/ports/1/gid_attrs/types/%d", i);
		put(fl, 2 + 3 * i, rel);
		snprintf(rel, sizeof(rel), IB "/ports/1/gid_attrs/ndevs/%d", i);
		put(fl, 3 + 3 * i, rel);
	}
	if (gid_table_read("fz0", 1, true, &t) == 0) {
		const struct gid_entry *g = gid_recommended(&t);

		for (unsigned i = 0; i < t.n; i++) {
			fuzz_sink_str(t.e[i].text);
			fuzz_sink_str(t.e[i].ip);
			fuzz_sink_str(gid_type_text(t.e[i].type));
			if (gid_for_ip(&t, t.e[i].ip, GID_TYPE_UNKNOWN) == NULL && t.e[i].ip[0] && !t.e[i].empty &&
			    (t.e[i].type == GID_TYPE_ROCE_V1 || t.e[i].type == GID_TYPE_ROCE_V2))
				abort();	/* a RoCE GID's own address must find a GID */
		}
		if (g)
			fuzz_sink_str(g->text);
	}
	gid_table_free(&t);
}

static void fuzz_counters(const struct fields *fl)
{
	struct stat_set s = { 0 };

	put(fl, 0, IB "/ports/1/hw_counters/.listing");
	put(fl, 1, IB "/ports/1/hw_counters/lifespan");
	put(fl, 2, IB "/ports/1/hw_counters/rx_packets");
	put(fl, 3, IB "/ports/1/hw_counters/tx_packets");
	put(fl, 4, IB "/ports/1/counters/port_rcv_data");
	put(fl, 5, IB "/ports/1/counters/symbol_error");
	stat_port_sysfs("fz0", 1, true, &s);
	for (int i = 0; i < s.n; i++) {
		fuzz_sink_str(s.c[i].name);
		fuzz_sink_u64(s.c[i].value);
	}
	stat_set_free(&s);
}

static void fuzz_verbs(const struct fields *fl)
{
	struct vb_device d;
	struct vb_port p;

	put(fl, 0, "verbs/fz0.device");
	put(fl, 1, "verbs/fz0.port1");
	if (vb_query_device("fz0", &d) == 0) {
		fuzz_sink_str(d.fw_ver);
		fuzz_sink_u64(d.node_guid + d.phys_port_cnt);
	}
	if (vb_query_port("fz0", 1, &p) == 0) {
		fuzz_sink_str(vb_width_str(p.active_width));
		fuzz_sink_str(vb_speed_str(p.active_speed));
		fuzz_sink_str(vb_link_layer_token(p.link_layer));
		fuzz_sink_u64(vb_width_lanes(p.active_width) + (uint64_t)vb_speed_lane_gbps(p.active_speed) +
			      vb_mtu_bytes(p.active_mtu) + vb_mtu_bytes(p.max_mtu));
	}
}

static void fuzz_pcie_limits(const struct fields *fl)
{
	char text[4096];
	uint64_t width = 0;
	unsigned long long soft = 0;
	bool unlimited = false;

	put(fl, 0, IB "/device/current_link_speed");
	put(fl, 1, IB "/device/current_link_width");
	put(fl, 2, "fs/proc/self/limits");
	if (fs_read("/sys/class/infiniband/fz0/device/current_link_speed", text, sizeof(text)) >= 0)
		fuzz_sink_u64((uint64_t)lc_pcie_gen(lc_pcie_gts(text)));
	if (fs_read_u64("/sys/class/infiniband/fz0/device/current_link_width", &width) == 0)
		fuzz_sink_u64(width);
	if (fs_read("/proc/self/limits", text, sizeof(text)) >= 0 && lc_memlock_parse(text, &soft, &unlimited) == 0)
		fuzz_sink_u64(soft + unlimited);
}

static void fuzz_ethtool(const struct fields *fl)
{
	struct stat_set s = { 0 };

	put(fl, 0, "ethtool/fz0");
	stat_netdev_ethtool("fz0", &s);
	for (int i = 0; i < s.n; i++)
		fuzz_sink_str(s.c[i].name);
	stat_set_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static void (*const parsers[])(const struct fields *) = {
		fuzz_netdev, fuzz_gids, fuzz_counters, fuzz_verbs, fuzz_pcie_limits, fuzz_ethtool,
	};
	struct fields fl;

	if (size < 1)
		return 0;
	fuzz_replay_dir();
	split(data + 1, size - 1, &fl);
	parsers[data[0] % (sizeof(parsers) / sizeof(parsers[0]))](&fl);
	return 0;
}
