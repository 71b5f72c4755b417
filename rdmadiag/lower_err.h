/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the lower layers' errors mean to the user.
 *
 * netlink/ and verbs/ return -errno and leave what they know (the kernel's
 * extended ACK, whether a replay lacked a reply, why a fixture directory was
 * refused) where the front end can read it; they print no message and know
 * no exit code. This file turns those into the three-part message (what
 * failed, cause, next step) and the exit code of rdmadiag(8).
 */
#ifndef RDMADIAG_LOWER_ERR_H
#define RDMADIAG_LOWER_ERR_H

#include <stdbool.h>

/* Connects the lower layers to the front end once, before any command:
 * the version a recording names, the message of a failed implicit open. */
void lower_layers_setup(void);

/* Opens the netlink socket (or the fixture). On failure prints what failed,
 * why and what to do, and returns the exit code (EXIT_HOST or EXIT_RUNTIME).
 * For a NEEDS_NETLINK action cmd_run() (rdmadiag.h) calls it, once the
 * action's words and options are valid, so that a usage error comes first
 * and a host without RDMA is told in one wording; handlers do not. */
int nl_require(void);

/* One message for a failed netlink request (err: -errno): strerror plus the
 * kernel's extended ACK, with the cause and next step its errno suggests. */
void report_nl_error(const char *what, int err);
/* Whether report_nl_error() said that a replayed recording has no reply for
 * a request (the front end then exits 2: a command line to change). */
bool nl_gap_told(void);
/* The next step for a replay that lacks what this command reads: how to
 * replay a snapshot, or a recording, in the form it was made. */
const char *replay_gap_hint(void);

/* --record / --replay: source_init(), saying why it refused; 0 or -1. */
int source_start(const char *record_dir, const char *replay_dir);

/* The snapshot code's failure (snapshot/snapshot.h) said: the recording's
 * refusal first when there was one, then what, why and next, if what is set. */
struct snap_error;
void report_snap_error(const struct snap_error *e);
/* This rdmadiag, as the snapshot code writes it into a MANIFEST. */
struct snap_tool;
const struct snap_tool *snap_tool(void);

#endif
