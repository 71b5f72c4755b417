// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of the checks of `rdmadiag link check`; the checks
 * themselves, one small function each, are in link_checks_host.c (the host),
 * link_checks_dev.c (each device), link_checks_port.c (each port),
 * link_checks_addr.c (GIDs and subnets) and link_checks_gpu.c (GPU hosts).
 * See link_check.h.
 */
#include "link_checks_int.h"

/* The table: order is the order of the output. */
const struct lc_check lc_checks[] = {
	{ { "kernel.rdma", "the kernel has the RDMA core and at least one device" }, LC_HOST, LC_ANY, O_NONE,
	  lc_chk_kernel_rdma },
	{ { "kernel.modules", "ib_core, ib_uverbs, rdma_cm, rdma_ucm and each device's driver are loaded or built in" },
	  LC_HOST, LC_ANY, O_NONE, lc_chk_kernel_modules },
	{ { "dev.uverbs", "/dev/infiniband/uverbsN and rdma_cm exist and open" }, LC_DEV, LC_ANY, O_NONE, lc_chk_dev_uverbs },
	{ { "dev.provider", "libibverbs sees the device (user-space provider installed)" }, LC_DEV, LC_ANY, O_NONE,
	  lc_chk_dev_provider },
	{ { "pci.link", "PCIe link trained at its capability and fast enough for the port" }, LC_DEV, LC_ANY, O_NONE,
	  lc_chk_pci_link, O_NONE, lc_chk_gpu_pci_link },
	{ { "port.state", "port state is ACTIVE" }, LC_PORT, LC_ANY, O_NONE, lc_chk_port_state },
	{ { "port.phys_state", "physical state is LINK_UP" }, LC_PORT, LC_ANY, O_NONE, lc_chk_port_phys },
	{ { "port.lid", "InfiniBand: the port has a LID" }, LC_PORT, LC_IB, O_NONE, lc_chk_port_lid },
	{ { "port.sm", "InfiniBand: a subnet manager is known (SM LID)" }, LC_PORT, LC_IB, O_NONE, lc_chk_port_sm },
	{ { "port.rate", "port rate (against --expect-rate)" }, LC_PORT, LC_ANY, O_NONE, lc_chk_port_rate, O_EXPECT_RATE },
	{ { "netdev.present", "RoCE: the port has a visible netdev" }, LC_PORT, LC_ETH, O_NONE, lc_chk_netdev_present },
	{ { "netdev.up", "RoCE: the netdev is up with carrier" }, LC_PORT, LC_ETH, O_NONE, lc_chk_netdev_up },
	{ { "netdev.mtu", "RoCE: netdev MTU (against --expect-mtu)" }, LC_PORT, LC_ETH, O_NONE, lc_chk_netdev_mtu,
	  O_EXPECT_MTU },
	{ { "port.mtu", "RoCE: active RDMA MTU fits the netdev MTU and uses what it allows" }, LC_PORT, LC_ETH, O_NONE,
	  lc_chk_port_mtu },
	{ { "gid.usable", "the port has a usable GID" }, LC_PORT, LC_ANY, O_NONE, lc_chk_gid_usable },
	{ { "gid.roce_v2", "RoCE: every IP of the netdev has a RoCE v2 GID" }, LC_PORT, LC_ETH, O_NONE, lc_chk_gid_roce_v2 },
	{ { "gid.default", "RoCE: GID index 0 is what tools should use, else name the index" }, LC_PORT, LC_ETH, O_NONE,
	  lc_chk_gid_default },
	{ { "cm.roce_mode", "RoCE: rdma_cm default RoCE mode is v2 (configfs)" }, LC_PORT, LC_ETH, O_NONE, lc_chk_cm_roce_mode },
	{ { "net.subnet", "no two RDMA netdevs share an IP subnet without ARP/routing setup" }, LC_HOST, LC_ANY, O_NONE,
	  lc_chk_net_subnet },
	{ { "cpu.governor", "CPU frequency governor is performance" }, LC_HOST, LC_ANY, O_NONE, lc_chk_cpu_governor },
	{ { "kernel.clocksource", "the kernel's clocksource is a counter read in user space (not hpet or acpi_pm)" },
	  LC_HOST, LC_ANY, O_NONE, lc_chk_kernel_clocksource },
	{ { "mem.memlock", "locked-memory limit is large enough to register buffers" }, LC_HOST, LC_ANY, O_NONE,
	  lc_chk_mem_memlock },
	/* GPU hosts only (link_checks_gpu.c) */
	{ { "gpu.nic_affinity", "each GPU has an RDMA NIC of its own at PIX/PXB (NCCL pairing)" }, LC_GPU, LC_ANY, O_NONE,
	  lc_chk_gpu_nic_affinity },
	{ { "pci.acs", "no ACS P2P redirect on the switch ports between a GPU and its NIC" }, LC_GPU, LC_ANY, O_NONE,
	  lc_chk_pci_acs },
	{ { "gpu.peer_mem", "nvidia_peermem loaded or dma-buf available for GPUDirect RDMA" }, LC_GPU_HOST, LC_ANY, O_NONE,
	  lc_chk_gpu_peer_mem },
	{ { "pci.iommu", "the IOMMU does not translate the GPUs' and NICs' DMA (iommu=pt)" }, LC_GPU_HOST, LC_ANY, O_NONE,
	  lc_chk_pci_iommu },
	{ { "expect.devices", "number of RDMA devices (with --expect-devices)" }, LC_HOST, LC_ANY, O_EXPECT_DEVICES,
	  lc_chk_expect_devices },
	{ { "expect.link_layer", "port link layer (with --expect-link-layer)" }, LC_PORT, LC_ANY, O_EXPECT_LINK_LAYER,
	  lc_chk_expect_link_layer },
	{ { "expect.gid_type", "port has a GID of a type (with --expect-gid-type)" }, LC_PORT, LC_ANY,
	  O_EXPECT_GID_TYPE, lc_chk_expect_gid_type },
	{ { 0 } },
};
