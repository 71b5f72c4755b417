/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The peers of `path test peer A peer B ...` and `--peers FILE`: a checked
 * list of IP addresses, each with where it came from for error messages.
 */
#ifndef RDMADIAG_PATH_PEERS_H
#define RDMADIAG_PATH_PEERS_H

#include <stdbool.h>

#define PEERS_MAX 1024
#define PEER_ADDR_MAX 64	/* longest address text accepted (IPv6 with zone) */

struct peer_list {
	char (*addr)[PEER_ADDR_MAX];
	unsigned n;
};

/* Adds one address; where names its origin ("FILE:LINE", "argument") for the
 * message. 0, or -1 after a usage error. */
int peers_add(struct peer_list *pl, const char *addr, const char *where);
/* One address per line; '#' starts a comment; blank lines are skipped.
 * 0, or -1 after a usage error naming FILE:LINE (or why the file cannot be read). */
int peers_read_file(struct peer_list *pl, const char *file);
void peers_free(struct peer_list *pl);

#endif
