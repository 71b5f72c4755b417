/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink constants that the build host's uAPI header (linux-libc-dev;
 * Debian 12 ships 6.1) may lack. Attributes newer than the header are not
 * parsed: the policy table ignores them, so a newer kernel still works.
 */
#ifndef RDMADIAG_RDMA_NL_COMPAT_H
#define RDMADIAG_RDMA_NL_COMPAT_H

#include <rdma/rdma_netlink.h>

/* Highest attribute the policy table may know. */
#define NL_ATTR_KNOWN_MAX (RDMA_NLDEV_ATTR_MAX - 1)

#define NL_RDMA_TYPE(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, (cmd))

#endif
