// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host inventory of a snapshot: kernel, rdma-core, loaded modules,
 * netdevs (address, MTU, state, IP addresses), RDMA devices and their PCIe
 * link. Read through the recorded path (sysfs.h, addr.h) into rec/host, and
 * summed up for people in host.txt.
 */
#include <arpa/inet.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../host/source.h"
#include "../host/sysfs.h"
#include "../netlink/addr.h"
#include "../verbs/verbs.h"
#include "snapshot.h"

/* libibverbs' file name carries the rdma-core version: libibverbs.so.1.14.50.0 is rdma-core 50.0. */
static int find_verbs(struct dl_phdr_info *info, size_t size, void *data)
{
	char *out = data, real[PATH_MAX];
	(void)size;

	if (!info->dlpi_name || !strstr(info->dlpi_name, "libibverbs.so"))
		return 0;
	const char *path = realpath(info->dlpi_name, real) ? real : info->dlpi_name;
	const char *base = strrchr(path, '/');

	snprintf(out, 128, "%s", base ? base + 1 : path);
	return 1;
}

static void add_netdev(FILE *fp, const char *name)
{
	char v[256], mtu[32], state[32];
	struct nd_addr a[16];
	uint64_t ifindex = 0;

	fs_readf(v, sizeof(v), "/sys/class/net/%s/address", name);
	fs_readf(mtu, sizeof(mtu), "/sys/class/net/%s/mtu", name);
	fs_readf(state, sizeof(state), "/sys/class/net/%s/operstate", name);
	snprintf(v + 128, 128, "/sys/class/net/%s/ifindex", name);
	fs_read_u64(v + 128, &ifindex);
	fprintf(fp, "netdev %s mac %s mtu %s state %s\n", name, v, mtu, state);
	int n = addr_of_ifindex((unsigned)ifindex, a, 16);

	for (int i = 0; i < n; i++)
		fprintf(fp, "address %s %s/%u\n", name, a[i].text, a[i].prefixlen);
}

static int each_netdev(const char *name, void *data)
{
	add_netdev(data, name);
	return 0;
}

static void pcie_line(FILE *fp, const char *dev)
{
	char speed[64] = "", width[16] = "", mspeed[64] = "", mwidth[16] = "";

	fs_readf(speed, sizeof(speed), "/sys/class/infiniband/%s/device/current_link_speed", dev);
	fs_readf(width, sizeof(width), "/sys/class/infiniband/%s/device/current_link_width", dev);
	fs_readf(mspeed, sizeof(mspeed), "/sys/class/infiniband/%s/device/max_link_speed", dev);
	fs_readf(mwidth, sizeof(mwidth), "/sys/class/infiniband/%s/device/max_link_width", dev);
	if (speed[0] || width[0])
		fprintf(fp, "pcie %s speed %s width x%s max %s x%s\n", dev, speed, width, mspeed, mwidth);
	else
		fprintf(fp, "pcie %s none\n", dev);
}

static int each_rdma_dev(const char *name, void *data)
{
	FILE *fp = data;
	char guid[64] = "", sysguid[64] = "", fw[64] = "", type[64] = "";

	fs_readf(guid, sizeof(guid), "/sys/class/infiniband/%s/node_guid", name);
	fs_readf(sysguid, sizeof(sysguid), "/sys/class/infiniband/%s/sys_image_guid", name);
	fs_readf(fw, sizeof(fw), "/sys/class/infiniband/%s/fw_ver", name);
	fs_readf(type, sizeof(type), "/sys/class/infiniband/%s/node_type", name);
	fprintf(fp, "rdma %s node_guid %s sys_image_guid %s fw %s type %s\n", name, guid, sysguid,
		fw[0] ? fw : "-", type);
	pcie_line(fp, name);
	return 0;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void host_lines(FILE *fp, const char *version)
{
	static char modules[1 << 16];
	char verbs[128] = "none", host[256] = "";
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	gethostname(host, sizeof(host) - 1);
	vb_library_load();	/* opened on first use (verbs/dl.c): maybe not yet */
	dl_iterate_phdr(find_verbs, verbs);
	fprintf(fp, "hostname %s\nkernel %s %s %s\nrdmadiag %s\nlibibverbs %s\n", host, u.sysname, u.release,
		u.version, version, verbs);
	fs_read("/proc/modules", modules, sizeof(modules));
	fprintf(fp, "modules %d loaded (rec/host/fs/proc/modules)\n", count_lines(modules) + (modules[0] != 0));
	addr_load();
	fs_list("/sys/class/net", each_netdev, fp);
	fs_list("/sys/class/infiniband", each_rdma_dev, fp);
}

int snap_host_inventory(const char *work, const struct snap_tool *tool, struct snap_error *e)
{
	char rec[PATH_MAX], txt[PATH_MAX];
	FILE *fp;

	snap_error_clear(e);
	snprintf(rec, sizeof(rec), "%s/rec/host", work);
	snprintf(txt, sizeof(txt), "%s/host.txt", work);
	fp = fopen(txt, "w");
	if (fp && source_init(rec, NULL, &e->source)) {
		e->source_failed = true;
		snprintf(e->source_dir, sizeof(e->source_dir), "%s", rec);
	}
	if (!fp || e->source_failed) {
		if (fp)
			fclose(fp);
		snprintf(e->what, sizeof(e->what), "cannot write the host inventory of the snapshot");
		snprintf(e->next, sizeof(e->next), "set TMPDIR to a writable directory with some free space");
		return -1;
	}
	host_lines(fp, tool->version);
	source_close();
	return fclose(fp) ? -1 : 0;
}
