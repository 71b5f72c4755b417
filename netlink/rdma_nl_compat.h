/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink constants that the build host's uAPI header (linux-libc-dev;
 * Debian 12 ships 6.1) may lack. Attributes newer than the header are not
 * parsed: the policy table ignores them, so a newer kernel still works.
 */
#ifndef RDMADIAG_RDMA_NL_COMPAT_H
#define RDMADIAG_RDMA_NL_COMPAT_H

#include <rdma/rdma_netlink.h>

/*
 * RDMA netlink monitor events (Linux 6.12+: "RDMA/nldev: Add support for RDMA
 * monitoring"; rename events 6.13). Debian 12's linux-libc-dev (6.1) has
 * none of them. These are enum members in the uAPI, so #ifndef cannot see
 * them: the macros below shadow them with the same ABI values when a newer
 * header already has them (this file is included after rdma_netlink.h).
 */
#ifndef RDMA_NL_GROUP_NOTIFY
#define RDMA_NL_GROUP_NOTIFY 4			/* multicast group of monitor events */
#endif
#ifndef RDMA_NLDEV_CMD_MONITOR
#define RDMA_NLDEV_CMD_MONITOR 28		/* message type of a monitor event */
#endif
#ifndef RDMA_NLDEV_ATTR_EVENT_TYPE
#define RDMA_NLDEV_ATTR_EVENT_TYPE 102		/* u8, enum rdma_nl_notify_event_type */
#endif
#ifndef RDMA_NLDEV_SYS_ATTR_MONITOR_MODE
#define RDMA_NLDEV_SYS_ATTR_MONITOR_MODE 103	/* u8 in SYS_GET: 1 when events are sent */
#endif
/* enum rdma_nl_notify_event_type, under names of our own (values are ABI). */
#define RD_MON_REGISTER 0
#define RD_MON_UNREGISTER 1
#define RD_MON_NETDEV_ATTACH 2
#define RD_MON_NETDEV_DETACH 3
#define RD_MON_RENAME 4
#define RD_MON_NETDEV_RENAME 5

/* Highest attribute the policy table may know: the header's, or the monitor
 * attributes above when the header is older than them. */
#define NL_ATTR_KNOWN_MAX (RDMA_NLDEV_ATTR_MAX - 1 > RDMA_NLDEV_SYS_ATTR_MONITOR_MODE ? \
			   RDMA_NLDEV_ATTR_MAX - 1 : RDMA_NLDEV_SYS_ATTR_MONITOR_MODE)

#define NL_RDMA_TYPE(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, (cmd))

#endif
