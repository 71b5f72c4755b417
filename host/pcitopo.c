// SPDX-License-Identifier: GPL-2.0-or-later
/* PCIe topology of GPUs and RDMA devices from sysfs; see pcitopo.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcitopo.h"
#include "sysfs.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

bool pt_is_gpu_class(unsigned class_code)
{
	unsigned cls = class_code >> 8;	/* class and subclass, without the programming interface */

	return cls == 0x0300 || cls == 0x0302 || cls == 0x1200;
}

/* "0000:17:00.0": what a PCI function's directory is named. */
static bool is_pci_addr(const char *s)
{
	unsigned d, b, dev, fn;
	char end;

	return strlen(s) == 12 && sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &end) == 4;
}

/* Joins a relative link target onto the directory holding the link:
 * "/sys/bus/pci/devices" + "../../../devices/pci0000:00/0000:00:06.0". */
static int resolve_link(const char *dir, const char *target, char *out, size_t len)
{
	char buf[PATH_MAX], *save = NULL;
	size_t n;

	if (target[0] == '/')
		return snprintf(out, len, "%s", target) < (int)len ? 0 : -ENAMETOOLONG;
	snprintf(out, len, "%s", dir);
	snprintf(buf, sizeof(buf), "%s", target);
	for (char *part = strtok_r(buf, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			char *slash = strrchr(out, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		n = strlen(out);
		if (n + strlen(part) + 2 > len)
			return -ENAMETOOLONG;
		out[n] = '/';
		strcpy(out + n + 1, part);
	}
	return 0;
}

/* Where ADDR sits: its real sysfs path. */
static int real_path(const char *addr, char *out, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), PCI_DEVICES "/%s", addr);
	n = fs_readlink(link, target, sizeof(target));
	if (n < 0)
		return (int)n;
	return resolve_link(PCI_DEVICES, target, out, len);
}

static unsigned read_hex(const char *dir, const char *attr)
{
	char path[PATH_MAX];
	uint64_t v = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	return fs_read_u64(path, &v) ? 0 : (unsigned)v;
}

static void read_link_attrs(const char *dir, struct pt_link *l)
{
	char path[PATH_MAX], buf[64];
	uint64_t v;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/current_link_speed", dir);
	if (fs_read(path, buf, sizeof(buf)) > 0)
		l->cur_gts = strtod(buf, NULL);	/* "32.0 GT/s PCIe"; "Unknown" -> 0 */
	snprintf(path, sizeof(path), "%s/max_link_speed", dir);
	if (fs_read(path, buf, sizeof(buf)) > 0)
		l->max_gts = strtod(buf, NULL);
	snprintf(path, sizeof(path), "%s/current_link_width", dir);
	if (!fs_read_u64(path, &v))
		l->cur_width = (unsigned)v;
	snprintf(path, sizeof(path), "%s/max_link_width", dir);
	if (!fs_read_u64(path, &v))
		l->max_width = (unsigned)v;
}

/* Splits "/sys/devices/pci0000:16/0000:16:01.0/.../0000:19:00.0" into the
 * host bridge and the bridges above the device. */
static void place(struct pt_fn *f, const char *path)
{
	char buf[PATH_MAX], *save = NULL;
	const char *prev = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	f->nbridges = 0;
	for (char *part = strtok_r(buf, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (!strncmp(part, "pci", 3) && strchr(part, ':') && !f->host_bridge[0]) {
			snprintf(f->host_bridge, sizeof(f->host_bridge), "%s", part);
			continue;
		}
		if (!f->host_bridge[0] || !is_pci_addr(part))
			continue;
		if (prev && f->nbridges < PT_MAX_DEPTH)
			snprintf(f->bridge[f->nbridges++], PT_ADDR_LEN, "%s", prev);
		prev = part;	/* the last one is the device itself */
	}
}

/* Everything about the function ADDR that topo show prints. */
static int read_fn(const char *addr, struct pt_fn *f)
{
	char path[PATH_MAX], attr[PATH_MAX], buf[64];
	int err = real_path(addr, path, sizeof(path));

	if (err)
		return err;
	snprintf(f->addr, sizeof(f->addr), "%s", addr);
	place(f, path);
	f->class_code = read_hex(path, "class");
	f->vendor = read_hex(path, "vendor");
	f->device = read_hex(path, "device");
	snprintf(attr, sizeof(attr), "%s/numa_node", path);
	f->numa = fs_read(attr, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
	snprintf(attr, sizeof(attr), "%s/local_cpulist", path);
	if (fs_read(attr, f->cpus, sizeof(f->cpus)) < 0)
		f->cpus[0] = '\0';
	snprintf(attr, sizeof(attr), PCI_DEVICES "/%s/driver", addr);
	if (fs_readlink_base(attr, f->driver, sizeof(f->driver)) < 0)
		f->driver[0] = '\0';
	read_link_attrs(path, &f->link);
	return 0;
}

struct gpu_walk {
	struct pci_topo *t;
};

static int add_if_gpu(const char *name, void *data)
{
	struct pci_topo *t = ((struct gpu_walk *)data)->t;
	char path[PATH_MAX];
	struct pt_fn *f;
	unsigned cls;

	if (!is_pci_addr(name) || t->ngpu >= PT_MAX_GPUS || real_path(name, path, sizeof(path)))
		return 0;
	cls = read_hex(path, "class");
	if (!pt_is_gpu_class(cls))
		return 0;
	f = &t->gpu[t->ngpu];
	memset(f, 0, sizeof(*f));
	if (read_fn(name, f))
		return 0;
	snprintf(f->name, sizeof(f->name), "gpu%d", t->ngpu);
	t->ngpu++;
	return 0;
}

void pt_add_rdma(struct pci_topo *t, const char *name)
{
	struct pt_fn *f = &t->rdma[t->nrdma++];
	char link[PATH_MAX], addr[PATH_MAX];

	memset(f, 0, sizeof(*f));
	f->numa = -1;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(link, sizeof(link), "/sys/class/infiniband/%s/device", name);
	if (fs_readlink_base(link, addr, sizeof(addr)) < 0 || !is_pci_addr(addr) || read_fn(addr, f)) {
		f->addr[0] = '\0';	/* software device (rxe, siw) or not on PCI */
		f->nbridges = 0;
	}
}

int pt_read_gpus(struct pci_topo *t)
{
	struct gpu_walk w = { t };
	int n;

	t->ngpu = t->nrdma = 0;
	n = fs_list(PCI_DEVICES, add_if_gpu, &w);
	return n < 0 && n != -ENOENT ? n : 0;	/* no PCI bus (some VMs, containers): nothing to show */
}

int pt_read(struct pci_topo *t, const char *const *rdma_names, int nrdma)
{
	int err = pt_read_gpus(t);

	for (int i = 0; i < nrdma && t->nrdma < PT_MAX_RDMA; i++)
		pt_add_rdma(t, rdma_names[i]);
	return err;
}

bool pt_host_has_gpu(void)
{
	struct pci_topo *t = calloc(1, sizeof(*t));
	bool any = t && !pt_read_gpus(t) && t->ngpu > 0;

	free(t);
	return any;
}

/* ---- distances ---- */

static int common_bridges(const struct pt_fn *a, const struct pt_fn *b)
{
	int k = 0;

	while (k < a->nbridges && k < b->nbridges && !strcmp(a->bridge[k], b->bridge[k]))
		k++;
	return k;
}

enum pt_affinity pt_affinity(const struct pt_fn *a, const struct pt_fn *b)
{
	int k;

	if (!a->addr[0] || !b->addr[0])
		return PT_UNKNOWN;
	if (strcmp(a->host_bridge, b->host_bridge))
		/* an unknown node (-1, single-node machines) counts as the same node */
		return a->numa >= 0 && b->numa >= 0 && a->numa != b->numa ? PT_SYS : PT_NODE;
	k = common_bridges(a, b);
	if (k == 0)
		return PT_PHB;
	/* they meet at bridge k-1; each hangs at most one port below it: one switch */
	return a->nbridges - k <= 1 && b->nbridges - k <= 1 ? PT_PIX : PT_PXB;
}

const char *pt_affinity_token(enum pt_affinity a)
{
	static const char *const tokens[] = { "PIX", "PXB", "PHB", "NODE", "SYS" };

	return a < PT_UNKNOWN ? tokens[a] : "-";
}

int pt_path_bridges(const struct pt_fn *a, const struct pt_fn *b, char out[][PT_ADDR_LEN], int max)
{
	int k = common_bridges(a, b), n = 0;

	if (!a->addr[0] || !b->addr[0] || strcmp(a->host_bridge, b->host_bridge) || k == 0)
		return 0;
	for (int i = k - 1; i < a->nbridges && n < max; i++)
		snprintf(out[n++], PT_ADDR_LEN, "%s", a->bridge[i]);
	for (int i = k; i < b->nbridges && n < max; i++)
		snprintf(out[n++], PT_ADDR_LEN, "%s", b->bridge[i]);
	return n;
}

int pt_read_link(const char *addr, struct pt_link *l)
{
	char path[PATH_MAX];
	int err = real_path(addr, path, sizeof(path));

	if (err)
		return err;
	read_link_attrs(path, l);
	return 0;
}

int pt_pcie_gen(double gts)
{
	static const double gens[] = { 2.5, 5, 8, 16, 32, 64 };

	for (int i = 0; i < 6; i++)
		if (gts > gens[i] - 0.1 && gts < gens[i] + 0.1)
			return i + 1;
	return 0;
}

/* ---- config space ---- */

ssize_t pt_read_config(const char *addr, uint8_t *buf, size_t size)
{
	char path[PATH_MAX], attr[PATH_MAX];
	int err = real_path(addr, path, sizeof(path));

	if (err)
		return err;
	snprintf(attr, sizeof(attr), "%s/config", path);
	return fs_read_bin(attr, buf, size);
}

#define EXT_CAP_START 0x100
#define EXT_CAP_ACS 0x000d

int pt_acs_control(const uint8_t *cfg, size_t len)
{
	unsigned off = EXT_CAP_START;

	if (len <= EXT_CAP_START)
		return -2;
	/* the list is linked by offsets; a bound on the walk guards against loops */
	for (int hops = 0; hops < 64 && off >= EXT_CAP_START && off + 8 <= len; hops++) {
		uint32_t hdr = cfg[off] | cfg[off + 1] << 8 | cfg[off + 2] << 16 | (uint32_t)cfg[off + 3] << 24;

		if (hdr == 0 || hdr == 0xffffffffu)
			return -1;
		if ((hdr & 0xffff) == EXT_CAP_ACS)
			return cfg[off + 6] | cfg[off + 7] << 8;
		off = (hdr >> 20) & 0xffc;
	}
	return -1;
}

ssize_t pt_iommu_type(const char *addr, char *buf, size_t size)
{
	char link[PATH_MAX], group[64];
	ssize_t n;

	snprintf(link, sizeof(link), PCI_DEVICES "/%s/iommu_group", addr);
	n = fs_readlink_base(link, group, sizeof(group));
	if (n < 0)
		return n;
	return fs_readf(buf, size, "/sys/kernel/iommu_groups/%s/type", group);
}

/* ---- GPU to NIC pairing ---- */

static int nearest_nic(const struct pci_topo *t, int g)
{
	int best = -1;
	enum pt_affinity best_a = PT_UNKNOWN;

	for (int n = 0; n < t->nrdma; n++) {
		enum pt_affinity a = pt_affinity(&t->gpu[g], &t->rdma[n]);

		if (a < best_a)
			best = n, best_a = a;
	}
	return best;
}

void pt_pair(const struct pci_topo *t, struct pt_pairing *p)
{
	int used[PT_MAX_RDMA] = { 0 }, nics = 0, share;

	for (int n = 0; n < t->nrdma; n++)
		nics += t->rdma[n].addr[0] != '\0';
	share = nics ? (t->ngpu + nics - 1) / nics : 0;	/* GPUs per NIC */
	for (int g = 0; g < t->ngpu; g++) {
		p->nic[g] = -1;
		p->nearest[g] = nearest_nic(t, g);
	}
	for (enum pt_affinity level = PT_PIX; level < PT_UNKNOWN; level++)
		for (int g = 0; g < t->ngpu; g++)
			for (int n = 0; p->nic[g] < 0 && n < t->nrdma; n++)
				if (used[n] < share && pt_affinity(&t->gpu[g], &t->rdma[n]) == level)
					p->nic[g] = n, used[n]++;
}
