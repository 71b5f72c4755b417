/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the snapshot code: the MANIFEST, packing, host inventory, redaction. */
#ifndef RDMADIAG_SNAPSHOT_INT_H
#define RDMADIAG_SNAPSHOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* snapshot_manifest.c */
int manifest_parse(struct manifest *m, char *text, size_t len, char *why, size_t wlen);
struct man_file *manifest_find(struct manifest *m, const char *path);
const struct man_file *manifest_first_unseen(const struct manifest *m);
bool manifest_has_command(const struct manifest *m, const char *slug);
/* "dev show, link show, ..." */
void manifest_command_list(const struct manifest *m, char *buf, size_t len);
void manifest_free(struct manifest *m);

/* snapshot_pack.c */
struct pack_result {
	uint64_t bytes;
	int files;
};

/* Packs every file under work into the tar `file` (via file.tmp and a
 * rename), MANIFEST first with `commands` lines; redacts on the way. */
int snap_pack(const char *work, const char *file, const char *commands, bool redact, struct pack_result *pr);
/* snapshot_host.c: records the host inventory under work/rec/host and writes work/host.txt. */
int snap_host_inventory(const char *work);

/* ---- redaction (snapshot_redact.c) ---- */
struct redactor;
struct redactor *redact_new(void);
/* Shows it one member: it learns the identities to hide (all members first). */
void redact_learn(struct redactor *r, const char *path, const unsigned char *data, size_t len);
/* Rewrites one member in place or into a new buffer; returns the new length. */
size_t redact_apply(struct redactor *r, const char *path, unsigned char **data, size_t len);
void redact_free(struct redactor *r);

#endif
