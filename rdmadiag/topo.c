// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag topo: where the GPUs and the RDMA devices sit on PCIe, and how
 * far each GPU is from each RDMA device (host/pcitopo.h). GPUDirect RDMA
 * moves data NIC <-> GPU straight over PCIe; how far apart they are decides
 * whether it runs at line rate. sysfs only, so it replays and snapshots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/pcitopo.h"
#include "common.h"
#include "lower_join.h"
#include "objects.h"
#include "output.h"

enum {
	F_NAME, F_KIND, F_ADDR, F_CLASS, F_VENDOR, F_DEVICE, F_NUMA, F_CPUS, F_DRIVER, F_HOST_BRIDGE,
	F_CUR_GTS, F_CUR_WIDTH, F_MAX_GTS, F_MAX_WIDTH, F_CUR_GEN, F_MAX_GEN,
	F_GPU, F_RDMA, F_AFFINITY, F_NEAREST, F_NEAREST_AFF,
};

static const struct field topo_fields[] = {
	[F_NAME] = { "name", NULL, FT_STR, 0, NULL },
	[F_KIND] = { "kind", NULL, FT_TOKEN, 0, NULL },
	[F_ADDR] = { "pci_address", NULL, FT_STR, 0, NULL },
	[F_CLASS] = { "pci_class", NULL, FT_STR, 0, NULL },
	[F_VENDOR] = { "vendor_id", NULL, FT_HEX, 0, NULL },
	[F_DEVICE] = { "device_id", NULL, FT_HEX, 0, NULL },
	[F_NUMA] = { "numa_node", NULL, FT_S64, 0, NULL },
	[F_CPUS] = { "local_cpus", NULL, FT_STR, 0, NULL },
	[F_DRIVER] = { "driver", NULL, FT_STR, 0, NULL },
	[F_HOST_BRIDGE] = { "host_bridge", NULL, FT_STR, 0, NULL },
	[F_CUR_GTS] = { "current_speed_gts", NULL, FT_DOUBLE, 0, NULL },
	[F_CUR_WIDTH] = { "current_width_lanes", NULL, FT_U64, 0, NULL },
	[F_MAX_GTS] = { "max_speed_gts", NULL, FT_DOUBLE, 0, NULL },
	[F_MAX_WIDTH] = { "max_width_lanes", NULL, FT_U64, 0, NULL },
	[F_CUR_GEN] = { "current_gen", NULL, FT_U64, 0, NULL },
	[F_MAX_GEN] = { "max_gen", NULL, FT_U64, 0, NULL },
	[F_GPU] = { "gpu", NULL, FT_STR, 0, NULL },
	[F_RDMA] = { "rdma_device", NULL, FT_STR, 0, NULL },
	[F_AFFINITY] = { "affinity", NULL, FT_TOKEN, 0, NULL },
	[F_NEAREST] = { "nearest_rdma_device", NULL, FT_STR, 0, NULL },
	[F_NEAREST_AFF] = { "nearest_affinity", NULL, FT_TOKEN, 0, NULL },
};

/* "Gen5 x16", or "unknown" when sysfs has no link attributes (not PCIe, a VF). */
static void link_text(double gts, unsigned width, char *buf, size_t len)
{
	if (gts <= 0 || !width)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "Gen%d x%u", pt_pcie_gen(gts), width);
}

/* ---- JSON ---- */

static void json_link(const struct pt_link *l)
{
	out_obj_begin("pcie_link");
	if (l->cur_gts > 0) {
		out_double(&topo_fields[F_CUR_GTS], l->cur_gts, 1);
		out_u64(&topo_fields[F_CUR_GEN], (uint64_t)pt_pcie_gen(l->cur_gts));
	}
	if (l->cur_width)
		out_u64(&topo_fields[F_CUR_WIDTH], l->cur_width);
	if (l->max_gts > 0) {
		out_double(&topo_fields[F_MAX_GTS], l->max_gts, 1);
		out_u64(&topo_fields[F_MAX_GEN], (uint64_t)pt_pcie_gen(l->max_gts));
	}
	if (l->max_width)
		out_u64(&topo_fields[F_MAX_WIDTH], l->max_width);
	out_obj_end();
}

static void json_fn(const struct pt_fn *f, const char *kind)
{
	out_obj_begin(NULL);
	out_str(&topo_fields[F_NAME], f->name);
	out_token(&topo_fields[F_KIND], kind);
	if (f->addr[0]) {
		out_str(&topo_fields[F_ADDR], f->addr);
		char cls[16];

		snprintf(cls, sizeof(cls), "0x%06x", f->class_code);
		out_str(&topo_fields[F_CLASS], cls);
		out_hex(&topo_fields[F_VENDOR], f->vendor);
		out_hex(&topo_fields[F_DEVICE], f->device);
		out_s64(&topo_fields[F_NUMA], f->numa);
		out_str(&topo_fields[F_CPUS], f->cpus[0] ? f->cpus : NULL);
		out_str(&topo_fields[F_DRIVER], f->driver[0] ? f->driver : NULL);
		out_str(&topo_fields[F_HOST_BRIDGE], f->host_bridge);
		json_link(&f->link);
		out_list_begin("bridges");
		for (int i = 0; i < f->nbridges; i++) {
			struct pt_link l;

			out_obj_begin(NULL);
			out_str(&topo_fields[F_ADDR], f->bridge[i]);
			if (!pt_read_link(f->bridge[i], &l))
				json_link(&l);
			out_obj_end();
		}
		out_list_end();
	}
	out_obj_end();
}

static void json_topo(const struct pci_topo *t, const struct pt_pairing *p)
{
	out_list_begin("gpus");
	for (int g = 0; g < t->ngpu; g++)
		json_fn(&t->gpu[g], pt_is_gpu_class(t->gpu[g].class_code) && t->gpu[g].class_code >> 16 == 0x12 ?
					    "accelerator" : "gpu");
	out_list_end();
	out_list_begin("rdma_devices");
	for (int n = 0; n < t->nrdma; n++)
		json_fn(&t->rdma[n], t->rdma[n].addr[0] ? "pci" : "no_pci");
	out_list_end();
	out_list_begin("affinity");
	for (int g = 0; g < t->ngpu; g++)
		for (int n = 0; n < t->nrdma; n++) {
			enum pt_affinity a = pt_affinity(&t->gpu[g], &t->rdma[n]);

			if (a == PT_UNKNOWN)
				continue;
			out_obj_begin(NULL);
			out_str(&topo_fields[F_GPU], t->gpu[g].name);
			out_str(&topo_fields[F_RDMA], t->rdma[n].name);
			out_token(&topo_fields[F_AFFINITY], pt_affinity_token(a));
			out_obj_end();
		}
	out_list_end();
	out_list_begin("pairing");
	for (int g = 0; g < t->ngpu && p; g++) {
		if (p->nic[g] < 0)
			continue;
		out_obj_begin(NULL);
		out_str(&topo_fields[F_GPU], t->gpu[g].name);
		out_str(&topo_fields[F_RDMA], t->rdma[p->nic[g]].name);
		out_token(&topo_fields[F_AFFINITY], pt_affinity_token(pt_affinity(&t->gpu[g], &t->rdma[p->nic[g]])));
		out_str(&topo_fields[F_NEAREST], t->rdma[p->nearest[g]].name);
		out_token(&topo_fields[F_NEAREST_AFF],
			  pt_affinity_token(pt_affinity(&t->gpu[g], &t->rdma[p->nearest[g]])));
		out_obj_end();
	}
	out_list_end();
}

/* ---- text ---- */

static void text_fn(const struct pt_fn *f)
{
	char cur[32], max[32], numa[16];

	if (!f->addr[0]) {
		out_text("%-8s  no PCI function (a software device such as rxe, or no device link in sysfs)\n", f->name);
		return;
	}
	link_text(f->link.cur_gts, f->link.cur_width, cur, sizeof(cur));
	link_text(f->link.max_gts, f->link.max_width, max, sizeof(max));
	snprintf(numa, sizeof(numa), f->numa >= 0 ? "%d" : "n/a", f->numa);
	out_text("%-8s  %s  class %06x  %04x:%04x  numa %s  cpus %s  link %s (max %s)%s%s\n", f->name, f->addr,
		 f->class_code, f->vendor, f->device, numa, f->cpus[0] ? f->cpus : "-", cur, max,
		 f->driver[0] ? "  driver " : "", f->driver);
	out_text("%-8s  path %s", "", f->host_bridge);
	for (int i = 0; i < f->nbridges; i++) {
		struct pt_link l = { 0 };

		pt_read_link(f->bridge[i], &l);
		link_text(l.cur_gts, l.cur_width, cur, sizeof(cur));
		out_text(" > %s (%s)", f->bridge[i], cur);
	}
	out_text(" > %s\n", f->addr);
}

static void text_matrix(const struct pci_topo *t)
{
	out_text("\naffinity (PIX one PCIe switch, PXB several, PHB host bridge, NODE across host bridges, "
		 "SYS across NUMA nodes):\n%-8s", "");
	for (int n = 0; n < t->nrdma; n++)
		out_text(n + 1 < t->nrdma ? " %-8s" : " %s", t->rdma[n].name);
	out_text("\n");
	for (int g = 0; g < t->ngpu; g++) {
		out_text("%-8s", t->gpu[g].name);
		for (int n = 0; n < t->nrdma; n++)
			out_text(n + 1 < t->nrdma ? " %-8s" : " %s", pt_affinity_token(pt_affinity(&t->gpu[g], &t->rdma[n])));
		out_text("\n");
	}
}

static void text_pairing(const struct pci_topo *t, const struct pt_pairing *p)
{
	out_text("\nGPU to RDMA device pairing (each GPU its own NIC, closest first):\n");
	for (int g = 0; g < t->ngpu; g++) {
		int n = p->nic[g], near = p->nearest[g];

		if (n < 0) {
			out_text("%-8s  no RDMA device on PCI\n", t->gpu[g].name);
			continue;
		}
		out_text("%-8s  %-8s %s", t->gpu[g].name, t->rdma[n].name,
			 pt_affinity_token(pt_affinity(&t->gpu[g], &t->rdma[n])));
		if (pt_affinity(&t->gpu[g], &t->rdma[near]) < pt_affinity(&t->gpu[g], &t->rdma[n]))
			out_text("  (nearest: %s %s)", t->rdma[near].name,
				 pt_affinity_token(pt_affinity(&t->gpu[g], &t->rdma[near])));
		out_text("\n");
	}
}

static void text_topo(const struct pci_topo *t, const struct pt_pairing *p)
{
	bool any_pci = false;

	for (int g = 0; g < t->ngpu; g++)
		text_fn(&t->gpu[g]);
	if (!t->ngpu)
		out_text("no GPU or accelerator on the PCI bus\n");
	for (int n = 0; n < t->nrdma; n++) {
		text_fn(&t->rdma[n]);
		any_pci |= t->rdma[n].addr[0] != '\0';
	}
	if (!t->nrdma)
		out_text("no RDMA device\n");
	if (t->ngpu && any_pci) {
		text_matrix(t);
		text_pairing(t, p);
	}
}

static int topo_show(struct cmd_ctx *ctx)
{
	struct pci_topo *t;
	struct pt_pairing p;
	int err;

	if (ctx->argc > 0) {
		usage_error("topo show takes no arguments, got '%s'", ctx->argv[0]);
		return EXIT_USAGE;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		report_error("reading the PCIe topology", "out of memory", "free memory and run it again");
		return EXIT_RUNTIME;
	}
	err = pt_read_host(t, false);
	if (err) {
		report_error("cannot list /sys/bus/pci/devices", NULL, "run it where sysfs is mounted");
		free(t);
		return EXIT_HOST;
	}
	pt_pair(t, &p);
	if (out_is_json())
		json_topo(t, &p);
	else
		text_topo(t, &p);
	free(t);
	return EXIT_OK;
}

static const struct action topo_actions[] = {
	{ .name = "show", .synopsis = "",
	  .summary = "GPUs and RDMA devices on PCIe: place, NUMA node, link, GPU x NIC affinity (PIX..SYS)",
	  .run = topo_show },
	{ 0 },
};

const struct object obj_topo = { .name = "topo", .summary = "PCIe topology of GPUs and RDMA devices (GPUDirect RDMA)",
	.actions = topo_actions };
