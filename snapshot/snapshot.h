/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The snapshot subsystem below the front end: the MANIFEST (manifest.c),
 * packing a work directory into a snapshot (pack.c) with redaction
 * (redact.c, redact.h), the host inventory (inventory.c), checking and
 * unpacking an archive against its MANIFEST (unpack.c), and the file helpers
 * they share (fsutil.c). Format in rdmadiag-system(8); what runs commands,
 * replays and prints is rdmadiag/system_snapshot.c and rdmadiag/snapshot_replay.c.
 *
 * Nothing here prints or knows an exit code: a function that fails returns
 * -errno (or -1) and fills a struct snap_error with the message the front
 * end gives report_error() (what failed, cause, next step).
 */
#ifndef RDMADIAG_SNAPSHOT_SNAPSHOT_H
#define RDMADIAG_SNAPSHOT_SNAPSHOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../host/source.h"

#define SNAPSHOT_SCHEMA 1

/* A failure told, not printed: what is always set; why and next are empty
 * when the message has none. source_failed: the recording could not start
 * (source_init() refused source_dir, as source says), told before what. */
struct snap_error {
	char what[PATH_MAX + 512];
	char why[512];
	char next[512];
	bool source_failed;
	struct source_error source;
	char source_dir[PATH_MAX];
};

/* Who takes the snapshot, written into its MANIFEST and host.txt. */
struct snap_tool {
	const char *version;	/* "0.1.0" */
	int output_schema;	/* of the JSON the commands print */
};

/*
 * MANIFEST, a text file, first in the archive:
 *   rdmadiag-snapshot SCHEMA
 *   KEY VALUE...                 created_by, created, host, kernel, ...
 *   command SLUG EXIT OBJECT ACTION
 *   file SHA256 SIZE PATH
 *   end SHA256                   of every byte before this line
 * Readers ignore keys they do not know (newer writers of the same schema).
 */
struct man_file {
	char *path;
	size_t size;
	char sha[65];
	bool seen;
};

struct manifest {
	int schema;
	struct man_file *files;	/* sorted by path */
	int nfiles;
	char **commands;	/* "SLUG EXIT OBJECT ACTION" */
	int ncommands;
};

enum { MANIFEST_OK, MANIFEST_BAD, MANIFEST_NEWER };
#define SNAP_MAX_FILES 100000	/* files in one snapshot */

/* manifest.c */
/* MANIFEST_OK, or MANIFEST_BAD / MANIFEST_NEWER with why; version: this
 * tool's, named when the snapshot is newer than it reads. */
int manifest_parse(struct manifest *m, char *text, size_t len, const char *version, char *why, size_t wlen);
struct man_file *manifest_find(struct manifest *m, const char *path);
const struct man_file *manifest_first_unseen(const struct manifest *m);
bool manifest_has_command(const struct manifest *m, const char *slug);
/* "dev show, link show, ..." */
void manifest_command_list(const struct manifest *m, char *buf, size_t len);
void manifest_free(struct manifest *m);

/* pack.c */
struct pack_result {
	uint64_t bytes;
	int files;
};

/* Packs every file under work into the tar `file` (via a temporary file
 * beside it and a rename), MANIFEST first with `commands` lines; redacts on
 * the way. 0 or -errno, *e said. */
int snap_pack(const char *work, const char *file, const char *commands, bool redact, const struct snap_tool *tool,
	      struct pack_result *pr, struct snap_error *e);

/* inventory.c: records the host inventory under work/rec/host and writes
 * work/host.txt. 0 or -1; e->what is empty when nothing is to be said. */
int snap_host_inventory(const char *work, const struct snap_tool *tool, struct snap_error *e);

/* unpack.c: replaying FILE. Each returns 0, or -errno / -1 with *e said. */
/* "cannot use snapshot 'FILE': WHY", next step `next` or "take a new one". */
void snap_refused(struct snap_error *e, const char *file, const char *why, const char *next);
/* Opens FILE for reading (refusing a directory). */
int snap_open(const char *file, FILE **fp, struct snap_error *e);
/* Reads and parses the first member, the MANIFEST. */
int snap_read_manifest(const char *file, FILE *fp, const struct snap_tool *tool, struct manifest *m,
		       struct snap_error *e);
/* Unpacks every further member into root, each checked against m; then
 * checks that none listed is missing. */
int snap_unpack_members(const char *file, FILE *fp, struct manifest *m, const char *root, struct snap_error *e);

/* fsutil.c */
/* A new private directory under $TMPDIR (or /tmp) into dir. */
int snap_work_dir(char *dir, size_t len, struct snap_error *e);
/* rm -r; the result of the last rmdir() or unlink(). */
int snap_remove_tree(const char *path);
/* Creates path (O_EXCL, no link followed) holding data: 0 or -errno. */
int snap_write_file(const char *path, const void *data, size_t len);
/* mkdir -p for the parents of root/rel (rel already checked safe): 0 or -errno. */
int snap_make_parents(const char *root, const char *rel);

/* Clears *e (what, why, next empty; no source failure). */
void snap_error_clear(struct snap_error *e);

#endif
