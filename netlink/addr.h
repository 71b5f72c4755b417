/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IP addresses of network devices, from one rtnetlink RTM_GETADDR dump
 * (IPv4 and IPv6 alike; procfs has no per-device IPv4 list). The dump is
 * recorded and replayed like the RDMA netlink replies, as
 * netlink/route-getaddr.bin ([u32 length][bytes] chunks).
 */
#ifndef RDMADIAG_ADDR_H
#define RDMADIAG_ADDR_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct nd_addr {
	unsigned ifindex;
	int family;			/* AF_INET or AF_INET6 */
	uint8_t addr[16];
	unsigned prefixlen;
	char text[INET6_ADDRSTRLEN];	/* inet_ntop form */
	bool link_local;		/* fe80::/10 */
};

/* Loads every address once; 0 or -errno (-ENOENT: replay fixture without addresses). */
int addr_load(void);
/* Drops what addr_load() cached, so the next call loads again (fuzzing). */
void addr_forget(void);
/* Addresses of one interface; returns how many were stored in out (at most max). */
int addr_of_ifindex(unsigned ifindex, struct nd_addr *out, int max);
/* true when a and b are in the same subnet (shorter prefix of the two). */
bool addr_same_subnet(const struct nd_addr *a, const struct nd_addr *b);

#endif
