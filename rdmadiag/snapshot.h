/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots: `system snapshot` records what the read-only commands read on
 * this host into one tar file; `rdmadiag --snapshot FILE CMD` replays CMD from
 * it on any machine through the --replay path. Format in rdmadiag-system(8):
 *   MANIFEST                first member: schema, host, versions, commands, checksums
 *   host.txt                readable inventory (kernel, netdevs, addresses, PCIe)
 *   rec/<command>/...       the --record directory of each command (source.h)
 *   rec/host/...            what host.txt was made from
 *   out/<command>.json      what the command printed (-d -j) when recorded
 */
#ifndef RDMADIAG_SNAPSHOT_H
#define RDMADIAG_SNAPSHOT_H

#include "rdmadiag.h"

/* What the code below the front end does (MANIFEST, packing, redaction, the
 * host inventory, unpacking) is in snapshot/ (snapshot/snapshot.h); here
 * are the replay front (snapshot_replay.c) and the command (system_snapshot.c). */

/* --snapshot FILE for the command in argv: checks and unpacks FILE, sets
 * *replay_dir to the recording of that command. 0 or an exit code. */
int snapshot_replay_begin(const char *file, int argc, char **argv, const char **replay_dir);
/* Removes what snapshot_replay_begin unpacked. */
void snapshot_replay_end(void);
/* While a snapshot is unpacked: SIGINT, SIGTERM and SIGHUP are noted instead
 * of ending the process, so that main() removes the unpacked tree; a command
 * with handlers of its own stops as it always does. snapshot_signals_end()
 * then ends the process by the signal noted, if any, else returns rc. */
void snapshot_signals_catch(void);
int snapshot_signals_end(int rc);

/* The handler and options of `system snapshot` (system_snapshot.c), whose
 * row is in system.c's table. */
int system_snapshot(struct cmd_ctx *ctx);
extern const struct cmd_opt system_snapshot_opts[];

/* What a snapshot records: the read-only commands, each replayable alone
 * (system_snapshot.c). */
struct snap_cmd {
	const char *slug;
	const char *object, *action;
	bool interval;		/* takes --interval */
};
/* The recorded command that runs action a, or NULL. */
const struct snap_cmd *snap_cmd_for(const struct action *a);

#endif
