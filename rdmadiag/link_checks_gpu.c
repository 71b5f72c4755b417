// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GPUDirect RDMA readiness, the checks of `link check` that only mean
 * something on a host with GPUs (rows of lc_checks[], scopes LC_GPU and
 * LC_GPU_HOST, and the GPU half of pci.link). NCCL moves data NIC <-> GPU
 * straight over PCIe; every RDMA check can pass while that path detours
 * through the CPU, bounces through host memory or crawls through IOMMU
 * page tables. These name which, and the fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/sysfs.h"
#include "link_checks_int.h"
#include "lower_join.h"

#define NVIDIA_VENDOR 0x10de
#define MODULES_MAX 65536

void lc_gpu_gather(struct lc_env *env)
{
	struct pci_topo *t = calloc(1, sizeof(*t));

	if (!t)
		return;
	if (pt_read_host(t, true) || t->ngpu == 0) {
		free(t);	/* no GPU: the GPU checks stay silent */
		return;
	}
	pt_pair(t, &env->pairing);
	env->topo = t;
}

void lc_gpu_free(struct lc_env *env)
{
	free(env->topo);
	env->topo = NULL;
}

static int gpu_index(const struct lc_env *env, const struct pt_fn *g)
{
	return (int)(g - env->topo->gpu);
}

static bool has_pci_rdma(const struct pci_topo *t)
{
	for (int n = 0; n < t->nrdma; n++)
		if (t->rdma[n].addr[0])
			return true;
	return false;
}

/* Which GPU the pairing gave RDMA device n to, or -1. */
static int gpu_of_nic(const struct lc_env *env, int n)
{
	for (int g = 0; g < env->topo->ngpu; g++)
		if (env->pairing.nic[g] == n)
			return g;
	return -1;
}

static const char *no_nic =
	"no RDMA device on PCIe: GPUDirect RDMA has no NIC to use";

/* ---- gpu.nic_affinity ---- */

/* Where a NIC for g should go. A GPU with a switch above it (its root port
 * and at least one switch port) can get one in a slot under that switch; one
 * straight on a root port or the host bridge has no switch to share, so both
 * have to move. */
static void nic_slot_advice(const struct pt_fn *g, char *buf, size_t len)
{
	if (g->nbridges >= 2)
		snprintf(buf, len, "Put an RDMA NIC in a slot under the same PCIe switch as %s (NUMA node %d)", g->name,
			 g->numa);
	else
		snprintf(buf, len, "%s sits on %s %s with no PCIe switch above it: put it and an RDMA NIC in slots under "
			 "one PCIe switch (NUMA node %d)", g->name, g->nbridges ? "root port" : "host bridge",
			 g->nbridges ? g->bridge[0] : g->host_bridge, g->numa);
}

void lc_chk_gpu_nic_affinity(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct pt_fn *g = s;
	int gi = gpu_index(env, g), n = env->pairing.nic[gi], near = env->pairing.nearest[gi];
	const struct pt_fn *nic, *best;
	enum pt_affinity a, a_best;
	char advice[200];
	int holder;

	if (n < 0) {
		check_measured(r, "%s", no_nic);
		return;
	}
	nic = &env->topo->rdma[n], best = &env->topo->rdma[near];
	a = pt_affinity(g, nic), a_best = pt_affinity(g, best);
	check_expected(r, "an RDMA device of its own at PIX or PXB (same PCIe switch)");
	check_measured(r, "%s %s gets %s %s at %s (NUMA %d)", g->name, g->addr, nic->name, nic->addr,
		       pt_affinity_token(a), nic->numa);
	if (a_best < a) {
		holder = gpu_of_nic(env, near);
		check_measured(r, "%s %s gets %s %s at %s (NUMA %d); nearest %s at %s goes to %s", g->name, g->addr,
			       nic->name, nic->addr, pt_affinity_token(a), nic->numa, best->name,
			       pt_affinity_token(a_best), holder >= 0 ? env->topo->gpu[holder].name : "no GPU");
	}
	if (a <= PT_PXB) {
		check_verdict(r, V_PASS, NULL);
		return;
	}
	nic_slot_advice(g, advice, sizeof(advice));
	if (a_best < a)
		check_verdict(r, a == PT_SYS ? V_FAIL : V_WARN,
			      "NCCL would want %s on %s (%s, NCCL_IB_HCA=%s for its rank) and will get %s (%s): its GPUDirect "
			      "traffic %s. %s, or move %s (%s) there",
			      g->name, best->name, pt_affinity_token(a_best), best->name, nic->name, pt_affinity_token(a),
			      a == PT_SYS ? "crosses the CPUs' interconnect (UPI/xGMI)" : "goes up through the root complex",
			      advice, nic->name, nic->addr);
	else
		check_verdict(r, a == PT_SYS ? V_FAIL : V_WARN,
			      "NCCL would want %s on an RDMA NIC under its own PCIe switch and will get %s (%s, "
			      "NCCL_IB_HCA=%s): its GPUDirect traffic %s. %s",
			      g->name, nic->name, pt_affinity_token(a), nic->name,
			      a == PT_SYS ? "crosses the CPUs' interconnect (UPI/xGMI)" : "goes up through the root complex",
			      advice);
}

/* ---- pci.acs ---- */

#define ACS_REDIRECT (PT_ACS_REQ_REDIRECT | PT_ACS_CPL_REDIRECT)

void lc_chk_pci_acs(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct pt_fn *g = s;
	int n = env->pairing.nic[gpu_index(env, g)], nb;
	char bridges[PT_MAX_DEPTH * 2][PT_ADDR_LEN], on[256] = "";
	const struct pt_fn *nic;
	enum pt_affinity a;
	uint8_t cfg[4096];

	if (n < 0) {
		check_measured(r, "%s", no_nic);
		return;
	}
	nic = &env->topo->rdma[n];
	a = pt_affinity(g, nic);
	if (a > PT_PXB) {
		check_measured(r, "%s and %s meet at %s: peer-to-peer goes through the root complex whatever ACS says",
			       g->name, nic->name, pt_affinity_token(a));
		return;
	}
	nb = pt_path_bridges(g, nic, bridges, PT_MAX_DEPTH * 2);
	check_expected(r, "P2P request/completion redirect off on the switch ports between %s and %s", g->name,
		       nic->name);
	for (int i = 0; i < nb; i++) {
		ssize_t len = pt_read_config(bridges[i], cfg, sizeof(cfg));
		int ctrl = len < 0 ? -3 : pt_acs_control(cfg, (size_t)len);

		if (ctrl == -2 || ctrl == -3) {
			check_measured(r, "the extended config space of %s is not readable (%zd bytes): reading it needs root",
				       bridges[i], len < 0 ? (ssize_t)0 : len);
			return;	/* SKIP: as a user, sysfs gives the first 64 bytes only */
		}
		if (ctrl >= 0 && (ctrl & ACS_REDIRECT) && strlen(on) + PT_ADDR_LEN + 24 < sizeof(on))
			snprintf(on + strlen(on), sizeof(on) - strlen(on), "%s%s (ACSCtl 0x%04x)", on[0] ? ", " : "",
				 bridges[i], ctrl);
	}
	if (!on[0]) {
		check_measured(r, "redirect off on the %d port%s between %s and %s", nb, nb == 1 ? "" : "s", g->name,
			       nic->name);
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_measured(r, "P2P redirect on at %s", on);
	check_verdict(r, V_FAIL,
		      "peer-to-peer between %s and %s is sent up to the root complex: clear it now with setpci -s %.12s "
		      "ECAP_ACS+0x6.w=0000:000c (each port listed; lost at reboot), and for good disable ACS in the BIOS "
		      "(PCIe 'ACS Control' / 'ACS Enable' = Disabled) or boot with pci=disable_acs_redir=%.12s",
		      g->name, nic->name, on, on);
}

/* ---- gpu.peer_mem ---- */

static bool module_loaded(const char *modules, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = modules; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return true;
	return false;
}

/* dma-buf lets the RDMA driver map GPU memory without nvidia_peermem: the
 * NVIDIA open kernel module on Linux 5.12 or newer. */
static bool dmabuf_capable(char *why, size_t len)
{
	char version[512], release[128];
	int major = 0, minor = 0;

	if (fs_read("/proc/driver/nvidia/version", version, sizeof(version)) < 0 ||
	    !strstr(version, "Open Kernel Module")) {
		snprintf(why, len, "the NVIDIA kernel module is not the open one");
		return false;
	}
	if (fs_read("/proc/sys/kernel/osrelease", release, sizeof(release)) < 0 ||
	    sscanf(release, "%d.%d", &major, &minor) != 2 || major < 5 || (major == 5 && minor < 12)) {
		snprintf(why, len, "kernel %s has no RDMA dma-buf (5.12 or newer)", release);
		return false;
	}
	snprintf(why, len, "dma-buf: NVIDIA open kernel module, kernel %s", release);
	return true;
}

void lc_chk_gpu_peer_mem(const struct lc_env *env, const void *s, struct check_result *r)
{
	bool nvidia = false;
	char *modules, why[160];
	(void)s;

	for (int g = 0; g < env->topo->ngpu; g++)
		nvidia |= env->topo->gpu[g].vendor == NVIDIA_VENDOR;
	if (!nvidia) {
		check_measured(r, "no NVIDIA GPU (nvidia_peermem is NVIDIA's)");
		return;
	}
	if (!has_pci_rdma(env->topo)) {
		check_measured(r, "%s", no_nic);
		return;
	}
	check_expected(r, "nvidia_peermem loaded, or dma-buf (NVIDIA open kernel module, Linux >= 5.12)");
	modules = calloc(1, MODULES_MAX);
	if (!modules || fs_read("/proc/modules", modules, MODULES_MAX) < 0) {
		check_measured(r, "/proc/modules unreadable");
		free(modules);
		return;
	}
	if (module_loaded(modules, "nvidia_peermem") || module_loaded(modules, "nv_peer_mem")) {
		check_measured(r, "%s loaded", module_loaded(modules, "nvidia_peermem") ? "nvidia_peermem" : "nv_peer_mem");
		check_verdict(r, V_PASS, NULL);
	} else if (dmabuf_capable(why, sizeof(why))) {
		check_measured(r, "%s", why);
		check_verdict(r, V_PASS, NULL);
	} else {
		check_measured(r, "nvidia_peermem not loaded and no dma-buf: %s", why);
		check_verdict(r, V_WARN,
			      "GPUDirect RDMA falls back to staging through host memory: modprobe nvidia_peermem (and list "
			      "it in /etc/modules-load.d/ to load at boot), or install the NVIDIA open kernel module so "
			      "NCCL can use dma-buf");
	}
	free(modules);
}

/* ---- pci.iommu ---- */

static int count_entry(const char *name, void *data)
{
	(void)name;
	(*(int *)data)++;
	return 0;
}

struct iommu_tally {
	int known, translating;
	char type[32];		/* of the first translating group */
};

/* Counts f into t: its IOMMU group type known, and whether it translates DMA. */
static void tally_iommu(const struct pt_fn *f, struct iommu_tally *t)
{
	char type[32];

	if (!f->addr[0] || pt_iommu_type(f->addr, type, sizeof(type)) < 0)
		return;
	t->known++;
	if (strncmp(type, "DMA", 3))	/* "DMA", "DMA-FQ": translated; "identity": passthrough */
		return;
	if (!t->translating++)
		snprintf(t->type, sizeof(t->type), "%s", type);
}

void lc_chk_pci_iommu(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct pci_topo *t = env->topo;
	struct iommu_tally gpus = { 0 }, nics = { 0 };
	int iommus = 0;
	(void)s;

	check_expected(r, "the GPUs' and NICs' DMA not translated (iommu=pt, or no IOMMU)");
	if (fs_list("/sys/class/iommu", count_entry, &iommus) <= 0 || !iommus) {
		check_measured(r, "no IOMMU enabled: DMA is not translated");
		check_verdict(r, V_PASS, NULL);
		return;
	}
	for (int g = 0; g < t->ngpu; g++)
		tally_iommu(&t->gpu[g], &gpus);
	for (int n = 0; n < t->nrdma; n++)
		tally_iommu(&t->rdma[n], &nics);
	if (!gpus.known && !nics.known) {
		check_measured(r, "%d IOMMU%s, the devices' IOMMU group types unreadable", iommus, iommus == 1 ? "" : "s");
		return;
	}
	if (!gpus.translating && !nics.translating) {
		check_measured(r, "%d IOMMU%s in passthrough for the GPUs and NICs", iommus, iommus == 1 ? "" : "s");
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_measured(r, "IOMMU translating (group type %s) for %d of %d GPUs and %d of %d RDMA devices",
		       gpus.translating ? gpus.type : nics.type, gpus.translating, gpus.known, nics.translating,
		       nics.known);
	check_verdict(r, V_WARN,
		      "every GPUDirect transfer walks IOMMU page tables (IOTLB misses cut bandwidth): add iommu=pt to the "
		      "kernel command line (with intel_iommu=on or amd_iommu=on as today), update the boot loader and "
		      "reboot");
}

/* ---- pci.link of a GPU ---- */

void lc_chk_gpu_pci_link(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct pt_fn *g = s;
	const struct pt_link *l = &g->link;
	struct pt_link slot = { 0 };
	double cap_gts;
	unsigned cap_w;
	(void)env;

	if (l->cur_gts <= 0 || !l->cur_width || l->max_gts <= 0 || !l->max_width) {
		check_measured(r, "%s: link speed unknown", g->addr);
		return;
	}
	if (g->nbridges)
		pt_read_link(g->bridge[g->nbridges - 1], &slot);
	cap_gts = slot.max_gts > 0 && slot.max_gts < l->max_gts ? slot.max_gts : l->max_gts;
	cap_w = slot.max_width && slot.max_width < l->max_width ? slot.max_width : l->max_width;
	check_measured(r, "%s Gen%d x%u, capable of Gen%d x%u", g->addr, pt_pcie_gen(l->cur_gts), l->cur_width,
		       pt_pcie_gen(l->max_gts), l->max_width);
	check_expected(r, "x%u at up to Gen%d", l->max_width, pt_pcie_gen(l->max_gts));
	if (l->cur_width < l->max_width)
		check_verdict(r, V_WARN, "the GPU's link trained at x%u below its x%u: reseat the GPU or its riser, check "
					 "the slot's wiring and the BIOS bifurcation setting", l->cur_width, l->max_width);
	else if (cap_gts + 0.1 < l->max_gts || cap_w < l->max_width)
		check_verdict(r, V_WARN, "the slot's port (%s) caps the GPU at Gen%d x%u: move it to a Gen%d x%u slot",
			      g->bridge[g->nbridges - 1], pt_pcie_gen(cap_gts), cap_w, pt_pcie_gen(l->max_gts),
			      l->max_width);
	else {
		if (l->cur_gts + 0.1 < l->max_gts)	/* GPUs lower the speed (not the width) when idle */
			check_measured(r, "%s Gen%d x%u now (idle GPUs lower their link speed), capable of Gen%d x%u",
				       g->addr, pt_pcie_gen(l->cur_gts), l->cur_width, pt_pcie_gen(l->max_gts),
				       l->max_width);
		check_verdict(r, V_PASS, NULL);
	}
}
