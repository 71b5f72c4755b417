/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Recently tested peers, offered first by completion (see recent.c). */
#ifndef RDMADIAG_RECENT_H
#define RDMADIAG_RECENT_H

/* Puts addr at the head of the list (at most 20, no duplicates). Silent. */
void recent_peer_add(const char *addr);
/* Calls cb for each remembered peer, most recent first, until cb returns
 * non-zero. Returns how many the list holds. */
int recent_peer_each(int (*cb)(const char *addr, void *data), void *data);

#endif
