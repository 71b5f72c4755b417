/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PCIe topology of GPUs and RDMA devices, from sysfs only (sysfs.h, so
 * it records and replays): where each sits in the PCI tree, its NUMA node,
 * local CPUs and link, and how far apart a GPU and an RDMA device are in
 * the classes nvidia-smi topo -m and NCCL use:
 *   PIX   through at most one PCIe switch
 *   PXB   through several PCIe bridges, not the host bridge
 *   PHB   through a PCIe host bridge (the CPU's root complex)
 *   NODE  across host bridges within one NUMA node
 *   SYS   across NUMA nodes (the CPUs' SMP interconnect)
 * A device's place is its real sysfs path, found through the link
 * /sys/bus/pci/devices/ADDR: /sys/devices/pciDDDD:BB/<root port>/.../<ADDR>.
 */
#ifndef RDMADIAG_PCITOPO_H
#define RDMADIAG_PCITOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PT_MAX_GPUS 32
#define PT_MAX_RDMA 64
#define PT_MAX_DEPTH 12		/* bridges between a host bridge and a device */
#define PT_ADDR_LEN 16		/* "0000:17:00.0" */

enum pt_affinity { PT_PIX, PT_PXB, PT_PHB, PT_NODE, PT_SYS, PT_UNKNOWN };

struct pt_link {
	double cur_gts, max_gts;	/* GT/s per lane; 0 unknown */
	unsigned cur_width, max_width;	/* lanes; 0 unknown */
};

struct pt_fn {
	char name[64];			/* RDMA device name; "gpuN" for GPUs */
	char addr[PT_ADDR_LEN];		/* "" for an RDMA device not on PCI (rxe, siw) */
	char host_bridge[PT_ADDR_LEN];	/* "pci0000:16" */
	unsigned class_code, vendor, device;
	int numa;			/* -1 unknown */
	char cpus[128];			/* local_cpulist */
	char driver[32];
	struct pt_link link;
	int nbridges;			/* from the root port down to the parent */
	char bridge[PT_MAX_DEPTH][PT_ADDR_LEN];
};

struct pci_topo {
	int ngpu, nrdma;
	struct pt_fn gpu[PT_MAX_GPUS], rdma[PT_MAX_RDMA];
};

/* A GPU or accelerator: display 3D/VGA (0x0300, 0x0302) or processing accelerator (0x1200). */
bool pt_is_gpu_class(unsigned class_code);
/* Every GPU on the PCI bus (in address order, named gpu0, gpu1...), and the
 * named RDMA devices (those not on PCI keep an empty addr). 0 or -errno. */
int pt_read(struct pci_topo *t, const char *const *rdma_names, int nrdma);
/* The GPUs alone, t's RDMA devices emptied: pt_read() without names. The
 * devices RDMA netlink lists are added by pt_read_host()
 * (rdmadiag/lower_join.h): this layer is below netlink/. 0 or -errno. */
int pt_read_gpus(struct pci_topo *t);
/* Adds the RDMA device name to t (the caller keeps t->nrdma < PT_MAX_RDMA). */
void pt_add_rdma(struct pci_topo *t, const char *name);
/* Whether the PCI bus has a GPU or accelerator (sysfs only). */
bool pt_host_has_gpu(void);

/*
 * The NIC each GPU gets for GPUDirect RDMA, as a rail-optimised NCCL job
 * wants it: every GPU its own RDMA device (or an equal share of them when
 * there are fewer), the closest pairs made first: all PIX pairs in address
 * order, then PXB, PHB, NODE, SYS. A GPU whose nearest device went to another
 * GPU gets a farther one; that is what the job will see.
 */
struct pt_pairing {
	int nic[PT_MAX_GPUS];		/* index into t->rdma; -1 none */
	int nearest[PT_MAX_GPUS];	/* the closest device whoever has it; -1 none */
};
void pt_pair(const struct pci_topo *t, struct pt_pairing *p);

/* The distance class of two functions; PT_UNKNOWN when either is not on PCI. */
enum pt_affinity pt_affinity(const struct pt_fn *a, const struct pt_fn *b);
const char *pt_affinity_token(enum pt_affinity a);	/* "PIX" ... "SYS", "-" */
/* The bridges a peer-to-peer transfer between a and b crosses: below the
 * point where their paths meet and that point itself (none when they meet at
 * the host bridge). Returns how many it wrote into out. */
int pt_path_bridges(const struct pt_fn *a, const struct pt_fn *b, char out[][PT_ADDR_LEN], int max);
/* The PCIe link of any PCI function (a bridge); 0 or -errno. */
int pt_read_link(const char *addr, struct pt_link *l);
/* PCIe generation of a per-lane rate: 8.0 -> 3; 0 unknown. */
int pt_pcie_gen(double gts);
/* The config space of a function as sysfs gives it (64 bytes to a user, 4096 to root). */
ssize_t pt_read_config(const char *addr, uint8_t *buf, size_t size);
/* ACS control of a config space (len bytes): >= 0 the register, -1 no ACS
 * capability, -2 the extended space is not there to read (len <= 256). */
int pt_acs_control(const uint8_t *cfg, size_t len);
#define PT_ACS_REQ_REDIRECT 0x0004	/* P2P Request Redirect */
#define PT_ACS_CPL_REDIRECT 0x0008	/* P2P Completion Redirect */
/* The IOMMU group type of a function ("DMA", "DMA-FQ", "identity", ...):
 * its length, or -errno when it has no group. */
ssize_t pt_iommu_type(const char *addr, char *buf, size_t size);

#endif
