/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the front end joins lower layers that may not call each other
 * (README.md, "Layout"): host/ is below netlink/ and verbs/ and
 * knows neither, so what needs a host reader and one of them is put
 * together here.
 */
#ifndef RDMADIAG_LOWER_JOIN_H
#define RDMADIAG_LOWER_JOIN_H

#include <stdbool.h>

#include "../host/gid.h"
#include "../host/pcitopo.h"

/* The GID table of DEV/PORT (host/gid.h): the used slots from one
 * libibverbs query when that is cheap, else from sysfs. Empty slots are
 * left out unless with_empty. Returns 0 or -errno (-ENOENT: no such port
 * in sysfs). */
int gid_table_read(const char *dev, unsigned port, bool with_empty, struct gid_table *t);

/* pt_read() with the RDMA devices the kernel lists over RDMA netlink
 * (none when it has no RDMA netlink); gpu_hosts_only: not even asked for
 * when there is no GPU, so a host without one reads nothing more. */
int pt_read_host(struct pci_topo *t, bool gpu_hosts_only);

#endif
