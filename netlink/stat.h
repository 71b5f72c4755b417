/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Port counters from every place the kernel keeps them, live or replayed:
 *   - RDMA netlink statistics (RDMA_NLDEV_CMD_STAT_GET): the driver's
 *     hw_counters of a port (rxe, mlx5, irdma, bnxt_re, efa, ...);
 *   - sysfs ports/N/hw_counters when netlink lacks them (old kernels), and
 *     ports/N/counters (the IB PMA counters, which netlink never had);
 *   - the port's netdev's pause/PFC counters from ethtool statistics.
 * ethtool answers over an ioctl, so its replies are recorded as a fixture
 * file "ethtool/IFNAME" of "name=value" lines.
 */
#ifndef RDMADIAG_STAT_H
#define RDMADIAG_STAT_H

#include <stdbool.h>
#include <stdint.h>

enum stat_source {
	STAT_SRC_NETLINK,	/* RDMA netlink hw counters */
	STAT_SRC_HW_SYSFS,	/* ports/N/hw_counters/NAME */
	STAT_SRC_IB_SYSFS,	/* ports/N/counters/NAME (IB PMA) */
	STAT_SRC_ETHTOOL,	/* ethtool -S of the netdev */
};

#define STAT_NAME_LEN 64

struct stat_counter {
	char name[STAT_NAME_LEN];
	uint64_t value;
	enum stat_source src;
};

struct stat_set {
	struct stat_counter *c;
	int n, cap;
	unsigned lifespan_ms;	/* hw_counters cache lifespan; 0 unknown */
	bool from_netlink;	/* hw counters came from netlink */
	int nl_err;		/* netlink statistics error, 0 when none */
};

/* Reads every counter of one port; netdev may be "" (IB, or none). Returns 0
 * when at least one source answered, else -errno of the first failure. */
int stat_port_read(const char *dev, uint32_t dev_index, uint32_t port, const char *netdev, struct stat_set *s);

/* The parts, for tests and for callers that need only one source. */
int stat_port_netlink(uint32_t dev_index, uint32_t port, struct stat_set *s);
int stat_port_sysfs(const char *dev, uint32_t port, bool hw_counters, struct stat_set *s);
int stat_netdev_ethtool(const char *ifname, struct stat_set *s);

/* Adds the entries of a STAT_HWCOUNTERS table (a port's, or a per-QP
 * counter's) as STAT_SRC_NETLINK counters; returns how many, or -ENOMEM. */
struct nlattr;
int stat_add_hwcounters(const struct nlattr *table, struct stat_set *s);

void stat_set_free(struct stat_set *s);
const struct stat_counter *stat_find(const struct stat_set *s, const char *name, enum stat_source src);
const char *stat_source_token(enum stat_source src);	/* "netlink", "hw_counters", ... */

/* Whether an ethtool statistic is about pause frames or PFC; only those are kept. */
bool stat_ethtool_is_pause(const char *name);

#endif
