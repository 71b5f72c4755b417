/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tar (POSIX ustar) subset a snapshot uses: regular files only, names
 * longer than ustar allows as GNU long-name entries. Any tar reads it; the
 * reader accepts only what the writer makes and refuses unsafe names
 * (absolute, "..", empty components), so unpacking stays inside its dir.
 */
#ifndef RDMADIAG_SNAPSHOT_TAR_H
#define RDMADIAG_SNAPSHOT_TAR_H

#include <stdio.h>
#include <time.h>

#define TAR_NAME_MAX 1024
#define TAR_FILE_MAX (64u << 20)	/* one member; snapshots hold small files */

int tar_add(FILE *fp, const char *name, const void *data, size_t len, time_t mtime);
/* The two zero blocks that end an archive. */
int tar_finish(FILE *fp);

enum tar_status {
	TAR_OK,
	TAR_END,		/* the end-of-archive blocks */
	TAR_TRUNCATED,		/* the file ends inside a header or a member */
	TAR_BAD_HEADER,		/* checksum, magic or size field wrong */
	TAR_UNSUPPORTED,	/* links, devices, directories... */
	TAR_BAD_NAME,		/* absolute, "..", empty component, too long */
	TAR_TOO_BIG,		/* a member over TAR_FILE_MAX */
	TAR_NO_MEMORY,
};

struct tar_entry {
	char name[TAR_NAME_MAX];
	size_t size;
	unsigned char *data;	/* malloc'ed, size bytes and a NUL; the caller frees */
};

/* The next member, read whole. */
enum tar_status tar_next(FILE *fp, struct tar_entry *e);
const char *tar_status_text(enum tar_status st);
/* A relative path without "..", ".", empty components or control characters. */
int tar_name_safe(const char *name);

#endif
