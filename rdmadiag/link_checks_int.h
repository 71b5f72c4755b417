/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside `rdmadiag link check` (link_check.h), shared by the files of the
 * checks and the table that lists them (link_checks.c), and by nothing else:
 * the run functions of the rows, and the small helpers they share.
 */
#ifndef RDMADIAG_LINK_CHECKS_INT_H
#define RDMADIAG_LINK_CHECKS_INT_H

#include <stdio.h>
#include <string.h>

#include "link_check.h"

/* The run function of a row of lc_checks[]. */
typedef void lc_run_fn(const struct lc_env *env, const void *s, struct check_result *r);

/* link_checks_host.c */
lc_run_fn lc_chk_kernel_rdma, lc_chk_kernel_modules, lc_chk_cpu_governor, lc_chk_kernel_clocksource,
	lc_chk_mem_memlock, lc_chk_expect_devices;
/* link_checks_dev.c */
lc_run_fn lc_chk_dev_uverbs, lc_chk_dev_provider, lc_chk_pci_link;
/* link_checks_port.c */
lc_run_fn lc_chk_port_state, lc_chk_port_phys, lc_chk_port_lid, lc_chk_port_sm, lc_chk_port_rate,
	lc_chk_port_mtu, lc_chk_netdev_present, lc_chk_netdev_up, lc_chk_netdev_mtu, lc_chk_cm_roce_mode,
	lc_chk_expect_link_layer;
/* link_checks_addr.c */
lc_run_fn lc_chk_gid_roce_v2, lc_chk_gid_default, lc_chk_gid_usable, lc_chk_net_subnet, lc_chk_expect_gid_type;
/* link_checks_gpu.c (GPUDirect readiness) */
lc_run_fn lc_chk_gpu_nic_affinity, lc_chk_pci_acs, lc_chk_gpu_peer_mem, lc_chk_pci_iommu, lc_chk_gpu_pci_link;

static inline const struct lc_port *port_of(const void *s) { return s; }
static inline const struct lc_dev *dev_of(const void *s) { return s; }

static inline const char *uopt_str(const struct lc_env *env, enum opt_id id)
{
	return ctx_opt_str(env->ctx, id, NULL);
}

static inline unsigned long long uopt_num(const struct lc_env *env, enum opt_id id)
{
	return ctx_opt_uint(env->ctx, id, 0);
}

/* Appends w to the list in buf, after sep unless it is the first item. */
static inline void add_item(char *buf, size_t len, const char *sep, const char *w)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? sep : "", w);
}

static inline void add_word(char *buf, size_t len, const char *w)
{
	add_item(buf, len, " ", w);
}

#endif
