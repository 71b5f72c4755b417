// SPDX-License-Identifier: GPL-2.0-or-later
/* The file helpers of the snapshot code: a private work directory, writing
 * one file, mkdir -p, rm -r; see snapshot.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot.h"

void snap_error_clear(struct snap_error *e)
{
	e->what[0] = e->why[0] = e->next[0] = '\0';
	e->source_failed = false;
	e->source_dir[0] = '\0';
}

int snap_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	for (size_t done = 0; done < len; done += (size_t)n) {
		n = write(fd, (const char *)data + done, len - done);
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			close(fd);
			return -e;
		}
	}
	return close(fd) ? -errno : 0;
}

int snap_make_parents(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

int snap_remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return unlink(path);
	while ((e = readdir(d))) {
		char sub[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			snap_remove_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	return rmdir(path);
}

int snap_work_dir(char *dir, size_t len, struct snap_error *e)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/rdmadiag-snapshot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		char what[PATH_MAX + 64];
		int err = errno;

		snap_error_clear(e);
		snprintf(what, sizeof(what), "cannot create a temporary directory in %s: %s",
			 tmp && *tmp ? tmp : "/tmp", strerror(err));
		snprintf(e->what, sizeof(e->what), "%s", what);
		snprintf(e->next, sizeof(e->next), "set TMPDIR to a writable directory with some free space");
		return -err;
	}
	return 0;
}
