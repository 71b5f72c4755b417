/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GID table of a port, read from sysfs (gids/I, gid_attrs/types/I,
 * gid_attrs/ndevs/I) through sysfs.h so it is recorded and replayed like
 * everything else. Shared by `gid show` and the GID checks of `link check`,
 * through gid_table_read() (rdmadiag/lower_join.h), which takes the used
 * slots from one libibverbs query instead when that is cheap: this layer
 * is below verbs/ and does not call it.
 */
#ifndef RDMADIAG_GID_H
#define RDMADIAG_GID_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

enum gid_type { GID_TYPE_UNKNOWN, GID_TYPE_IB, GID_TYPE_ROCE_V1, GID_TYPE_ROCE_V2 };

struct gid_entry {
	unsigned index;
	uint8_t raw[16];
	char text[40];			/* as sysfs shows it: "fe80:0000:...:3456" */
	enum gid_type type;
	char ndev[64];			/* "" when none */
	int family;			/* AF_INET, AF_INET6, or 0 (IB, empty) */
	char ip[INET6_ADDRSTRLEN];	/* the address a RoCE GID encodes */
	bool link_local;		/* fe80::/10 */
	bool empty;			/* all zero: an unused slot */
};

struct gid_table {
	unsigned n;
	struct gid_entry *e;
	bool ethernet;			/* port link layer is Ethernet (RoCE) */
	unsigned cap;			/* entries e has room for */
};

/* An empty table for DEV/PORT with the port's link layer from sysfs.
 * 0 or -EINVAL (not a device name). */
int gid_table_init(const char *dev, unsigned port, struct gid_table *t);
/* Reads the slots of DEV/PORT from sysfs, a file each, into the table
 * gid_table_init() began. Empty slots are left out unless with_empty.
 * Returns 0 or -errno (-ENOENT: no such port in sysfs). */
int gid_table_read_sysfs(const char *dev, unsigned port, bool with_empty, struct gid_table *t);
/* Adds a slot read elsewhere (text as sysfs shows it; type from a source
 * that names it as the kernel does); an unused or unparsable slot is left
 * out. 0 or -ENOMEM. */
int gid_table_add(struct gid_table *t, unsigned index, const char *text, enum gid_type type, const char *ndev);
/* Orders the entries by index. */
void gid_table_sort(struct gid_table *t);
void gid_table_free(struct gid_table *t);

/* The entry to use for an IP (text as inet_ntop writes it): RoCE v2 first,
 * then RoCE v1; NULL when no GID encodes it. */
const struct gid_entry *gid_for_ip(const struct gid_table *t, const char *ip, enum gid_type want);
/* The entry tools should be given by default: RoCE v2 with a routable IPv4,
 * then routable IPv6, then any RoCE v2, then index 0. NULL on an empty table. */
const struct gid_entry *gid_recommended(const struct gid_table *t);

const char *gid_type_token(enum gid_type t);	/* "roce_v2" */
const char *gid_type_text(enum gid_type t);	/* "RoCE v2" */
/* "roce_v2" -> GID_TYPE_ROCE_V2; GID_TYPE_UNKNOWN when not a token. */
enum gid_type gid_type_from_token(const char *tok);
/* Parses sysfs GID text into 16 bytes; 0 or -EINVAL. */
int gid_parse(const char *text, uint8_t raw[16]);

#endif
