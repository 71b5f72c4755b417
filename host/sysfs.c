// SPDX-License-Identifier: GPL-2.0-or-later
/* sysfs/procfs access with record and replay; see sysfs.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source.h"
#include "sysfs.h"

#define MAX_ENTRIES 4096

static int fixture_rel(char *rel, size_t len, const char *path, const char *suffix)
{
	int n = snprintf(rel, len, "fs%s%s", path, suffix ? suffix : "");

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Reads a whole file into buf (at most size - 1 bytes, then a NUL), records
 * it; text callers strip the newline themselves. */
static ssize_t read_whole(const char *path, char *buf, size_t size)
{
	char rel[PATH_MAX], real[PATH_MAX];
	ssize_t n, total = 0;
	int fd;

	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (path[0] != '/')
		return -EINVAL;
	if (source_replaying()) {
		if (fixture_rel(rel, sizeof(rel), path, NULL) || source_read_path(real, sizeof(real), rel))
			return -ENAMETOOLONG;
		path = real;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs attributes are at most a page; read until EOF or the buffer is full */
	while ((size_t)total < size - 1) {
		n = read(fd, buf + total, size - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;

			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	if (source_recording() && !fixture_rel(rel, sizeof(rel), path, NULL))
		source_save(rel, buf, total, false);
	return total;
}

ssize_t fs_read(const char *path, char *buf, size_t size)
{
	ssize_t total = read_whole(path, buf, size);

	if (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
}

ssize_t fs_read_bin(const char *path, void *buf, size_t size)
{
	char tmp[8192];
	ssize_t n;

	if (size > sizeof(tmp) - 1)
		size = sizeof(tmp) - 1;
	n = read_whole(path, tmp, size + 1);
	if (n > 0)
		memcpy(buf, tmp, (size_t)n);
	return n;
}

ssize_t fs_readf(char *buf, size_t size, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		if (size)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return fs_read(path, buf, size);
}

int fs_read_u64(const char *path, uint64_t *out)
{
	char buf[64], *end;
	ssize_t n = fs_read(path, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);

	while (*end == ' ' || *end == '\n')
		end++;
	if (errno || end == buf || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of a directory, grown as read: most have a handful of entries, so
 * no table of MAX_ENTRIES pointers is zeroed for each listing. */
struct names {
	char **v;
	int n, cap;
};

static int names_add(struct names *l, const char *name)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 32;
		char **v = realloc(l->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strdup(name);
	if (!l->v[l->n])
		return -ENOMEM;
	l->n++;
	return 0;
}

static void names_free(struct names *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* Names from a recorded .listing file (one per line). */
static int read_listing(FILE *fp, struct names *l)
{
	char line[NAME_MAX + 2];

	while (l->n < MAX_ENTRIES && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && strcmp(line, ".listing") && names_add(l, line))
			return -ENOMEM;
	}
	return l->n;
}

static int read_dir(const char *dir, struct names *l)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int err = 0;

	if (!d)
		return -errno;
	while (!err && l->n < MAX_ENTRIES && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, ".listing"))
			continue;
		err = names_add(l, e->d_name);
	}
	closedir(d);
	return err ? err : l->n;
}

static void record_listing(const char *dir, char **names, int n)
{
	char rel[PATH_MAX];

	if (fixture_rel(rel, sizeof(rel), dir, "/.listing"))
		return;
	source_save(rel, "", 0, false);
	for (int i = 0; i < n; i++) {
		source_save(rel, names[i], strlen(names[i]), true);
		source_save(rel, "\n", 1, true);
	}
}

int fs_list(const char *dir, int (*cb)(const char *name, void *data), void *data)
{
	struct names l = { 0 };
	char rel[PATH_MAX], real[PATH_MAX];
	int n;

	if (source_replaying()) {
		FILE *fp = NULL;

		if (!fixture_rel(rel, sizeof(rel), dir, "/.listing"))
			fp = source_open(rel);
		if (fp) {
			n = read_listing(fp, &l);
			fclose(fp);
		} else if (!fixture_rel(rel, sizeof(rel), dir, NULL) && !source_path(real, sizeof(real), rel)) {
			n = read_dir(real, &l);
		} else {
			n = -ENAMETOOLONG;
		}
	} else {
		n = read_dir(dir, &l);
	}
	if (n >= 0) {
		if (n > 1)	/* fewer: nothing to sort, and no array when none */
			qsort(l.v, (size_t)n, sizeof(*l.v), cmp_names);
		if (source_recording())
			record_listing(dir, l.v, n);
		for (int i = 0; i < n; i++)
			if (cb(l.v[i], data))
				break;
	}
	names_free(&l);
	return n;
}

/* The links file holds "path<TAB>target" lines. */
static ssize_t replay_link(const char *path, char *buf, size_t size)
{
	FILE *fp = source_open("links");
	char line[2 * PATH_MAX + 2];
	size_t plen = strlen(path);
	ssize_t found = -ENOENT;

	if (!fp)
		return -ENOENT;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, path, plen) && line[plen] == '\t') {
			snprintf(buf, size, "%s", line + plen + 1);
			found = (ssize_t)strlen(buf);
		}
	}
	fclose(fp);
	return found;
}

ssize_t fs_readlink(const char *path, char *buf, size_t size)
{
	char rel[PATH_MAX], real[PATH_MAX];
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (source_replaying()) {
		n = replay_link(path, buf, size);
		if (n >= 0)
			return n;
		/* hand-made fixtures may carry real symlinks */
		if (fixture_rel(rel, sizeof(rel), path, NULL) || source_path(real, sizeof(real), rel))
			return -ENAMETOOLONG;
		path = real;
	}
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (source_recording()) {
		source_save("links", path, strlen(path), true);
		source_save("links", "\t", 1, true);
		source_save("links", buf, n, true);
		source_save("links", "\n", 1, true);
	}
	return n;
}

ssize_t fs_readlink_base(const char *path, char *buf, size_t size)
{
	char target[PATH_MAX];
	ssize_t n = fs_readlink(path, target, sizeof(target));

	if (n < 0)
		return n;
	const char *base = strrchr(target, '/');

	snprintf(buf, size, "%s", base ? base + 1 : target);
	return (ssize_t)strlen(buf);
}
