// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replaying a snapshot: the archive is checked against its MANIFEST while it
 * is unpacked into a private directory (every member listed once, its size
 * and SHA-256 as listed, none missing); see snapshot.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../util/sha256.h"
#include "../util/snapshot_tar.h"
#include "snapshot.h"

void snap_refused(struct snap_error *e, const char *file, const char *why, const char *next)
{
	char what[PATH_MAX + 512];

	snap_error_clear(e);
	snprintf(what, sizeof(what), "cannot use snapshot '%s': %s", file, why);
	snprintf(e->what, sizeof(e->what), "%s", what);
	snprintf(e->next, sizeof(e->next), "%s", next ? next : "take a new one on the host: rdmadiag system snapshot -o FILE");
}

int snap_open(const char *file, FILE **fp, struct snap_error *e)
{
	struct stat st;

	*fp = fopen(file, "rb");
	if (!*fp) {
		int err = errno;

		snap_refused(e, file, strerror(err), "check the path given to --snapshot");
		return -err;
	}
	if (fstat(fileno(*fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		/* fopen() takes a directory; its first read fails as if truncated */
		snap_refused(e, file, "it is a directory", "give --snapshot the .tar file that system snapshot wrote");
		fclose(*fp);
		*fp = NULL;
		return -EISDIR;
	}
	return 0;
}

/* Writes one checked member under root. */
static int unpack_member(const char *file, struct manifest *m, const struct tar_entry *te, const char *root,
			 struct snap_error *e)
{
	struct man_file *f = manifest_find(m, te->name);
	char sha[65], path[PATH_MAX], why[TAR_NAME_MAX + 128];
	int err;

	if (!f || f->seen) {
		snprintf(why, sizeof(why), "member '%s' is %s the MANIFEST (tampered)", te->name,
			 f ? "twice in the archive, once in" : "not listed in");
		snap_refused(e, file, why, NULL);
		return -EINVAL;
	}
	f->seen = true;
	sha256_hex(te->data, te->size, sha);
	if (f->size != te->size || strcmp(f->sha, sha)) {
		snprintf(why, sizeof(why), "checksum mismatch for '%s' (the file was changed or damaged)", te->name);
		snap_refused(e, file, why, NULL);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", root, te->name);
	err = snap_make_parents(root, te->name);
	if (!err)
		err = snap_write_file(path, te->data, te->size);
	if (err) {
		snprintf(why, sizeof(why), "cannot unpack '%s': %s", te->name, strerror(-err));
		snap_refused(e, file, why, "set TMPDIR to a writable directory with some free space");
		return err;
	}
	return 0;
}

int snap_read_manifest(const char *file, FILE *fp, const struct snap_tool *tool, struct manifest *m,
		       struct snap_error *e)
{
	struct tar_entry te;
	enum tar_status st = tar_next(fp, &te);
	char why[512];

	if (st != TAR_OK || strcmp(te.name, "MANIFEST")) {
		snprintf(why, sizeof(why), "not an rdmadiag snapshot (%s)",
			 st == TAR_OK ? "the first member is not MANIFEST" :
			 st == TAR_END ? "the archive is empty" : tar_status_text(st));
		free(te.data);
		snap_refused(e, file, why, NULL);
		return -EINVAL;
	}
	int rc = manifest_parse(m, (char *)te.data, te.size, tool->version, why, sizeof(why));

	free(te.data);
	if (rc) {
		snap_refused(e, file, why,
			     rc == MANIFEST_NEWER ? "replay it with a newer rdmadiag (see rdmadiag -V on the host "
						    "that took it), or take a new one with this version" : NULL);
		return -EINVAL;
	}
	return 0;
}

int snap_unpack_members(const char *file, FILE *fp, struct manifest *m, const char *root, struct snap_error *e)
{
	struct tar_entry te;
	enum tar_status st;
	char why[TAR_NAME_MAX + 128];

	while ((st = tar_next(fp, &te)) == TAR_OK) {
		int r = unpack_member(file, m, &te, root, e);

		free(te.data);
		if (r)
			return r;
	}
	if (st != TAR_END) {
		snprintf(why, sizeof(why), "%s", tar_status_text(st));
		snap_refused(e, file, why, NULL);
		return -EINVAL;
	}
	const struct man_file *missing = manifest_first_unseen(m);

	if (missing) {
		snprintf(why, sizeof(why), "'%s' listed in the MANIFEST is missing (truncated)", missing->path);
		snap_refused(e, file, why, NULL);
		return -EINVAL;
	}
	return 0;
}
