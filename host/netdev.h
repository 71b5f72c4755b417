/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A network device as sysfs shows it (MTU, state, carrier), live or replayed. */
#ifndef RDMADIAG_NETDEV_H
#define RDMADIAG_NETDEV_H

#include <stdbool.h>

struct netdev_info {
	bool found;
	unsigned mtu;
	unsigned ifindex;
	int carrier;		/* 1, 0, or -1 when unknown (device down) */
	int admin_up;		/* IFF_UP of its flags: 1, 0, or -1 when unknown */
	char operstate[16];	/* "up", "down", "unknown", ... */
	char driver[64];	/* "" when none (virtual devices) */
};

int netdev_read(const char *name, struct netdev_info *out);

#endif
