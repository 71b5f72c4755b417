// SPDX-License-Identifier: GPL-2.0-or-later
/* Packing a work directory into a snapshot, its MANIFEST first; see snapshot.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../util/sha256.h"
#include "../util/snapshot_tar.h"
#include "redact.h"
#include "snapshot.h"

/* ---- packing ---- */

struct member {
	char *path;
	unsigned char *data;
	size_t len;
};

struct members {
	struct member *m;
	int n;
};

static int snap_read_file(const char *path, unsigned char **data, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	struct stat st;

	*data = NULL;
	*len = 0;
	if (!fp)
		return -errno;
	if (fstat(fileno(fp), &st) || st.st_size < 0 || (size_t)st.st_size > TAR_FILE_MAX) {
		fclose(fp);
		return -EFBIG;
	}
	*data = malloc((size_t)st.st_size + 1);
	if (!*data || fread(*data, 1, (size_t)st.st_size, fp) != (size_t)st.st_size) {
		free(*data);
		*data = NULL;
		fclose(fp);
		return -EIO;
	}
	(*data)[st.st_size] = '\0';
	*len = (size_t)st.st_size;
	fclose(fp);
	return 0;
}

static int add_member(struct members *ms, const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct member *n;

	if (ms->n >= SNAP_MAX_FILES)
		return -E2BIG;
	n = realloc(ms->m, (ms->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ms->m = n;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	n = &ms->m[ms->n];
	n->path = strdup(rel);
	if (!n->path || snap_read_file(path, &n->data, &n->len)) {
		free(n->path);
		return -EIO;
	}
	ms->n++;
	return 0;
}

static int collect(struct members *ms, const char *root, const char *rel)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int err = 0;

	snprintf(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(dir)))
		return -errno;
	while (!err && (e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		snprintf(dir, sizeof(dir), "%s/%s", root, sub);
		if (lstat(dir, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			err = collect(ms, root, sub);
		else if (S_ISREG(st.st_mode))
			err = add_member(ms, root, sub);
	}
	closedir(d);
	return err;
}

static int cmp_members(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->path, ((const struct member *)b)->path);
}

static void free_members(struct members *ms)
{
	for (int i = 0; i < ms->n; i++) {
		free(ms->m[i].path);
		free(ms->m[i].data);
	}
	free(ms->m);
}

/* A growing text buffer for the MANIFEST. */
struct text {
	char *s;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3))) static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
		char *s = realloc(t->s, cap);

		if (!s)
			return;
		t->s = s;
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static void manifest_header(struct text *t, const char *host, time_t now, bool redact, const struct snap_tool *tool)
{
	struct utsname u;
	struct tm tm;
	char when[32];

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	text_add(t, "rdmadiag-snapshot %d\n", SNAPSHOT_SCHEMA);
	text_add(t, "created_by rdmadiag %s\n", tool->version);
	text_add(t, "output_schema %d\n", tool->output_schema);
	text_add(t, "created %s\n", when);
	text_add(t, "host %s\n", host);
	text_add(t, "kernel %s\n", u.release);
	text_add(t, "machine %s\n", u.machine);
	text_add(t, "redacted %s\n", redact ? "yes" : "no");
}

/* A new file beside FILE, created by us alone (mkstemp: O_EXCL, so a link
 * or a file planted at a predictable FILE.tmp is never written through);
 * the mode a plain fopen would have given. */
static FILE *open_temp_beside(const char *file, char *tmp, size_t len)
{
	mode_t mask = umask(0);
	FILE *fp;
	int fd;

	umask(mask);
	if ((size_t)snprintf(tmp, len, "%s.XXXXXX", file) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	if (fchmod(fd, 0666 & ~mask) || !(fp = fdopen(fd, "wb"))) {
		int e = errno;

		close(fd);
		unlink(tmp);
		errno = e;
		return NULL;
	}
	return fp;
}

static int write_archive(FILE *fp, const char *manifest, size_t mlen, const struct members *ms, time_t now)
{
	int err = 0;

	err = tar_add(fp, "MANIFEST", manifest, mlen, now);
	for (int i = 0; !err && i < ms->n; i++)
		err = tar_add(fp, ms->m[i].path, ms->m[i].data, ms->m[i].len, now);
	if (!err)
		err = tar_finish(fp);
	if (fclose(fp) || err)
		return errno ? -errno : -EIO;
	return 0;
}

static void build_manifest(struct text *t, const struct members *ms, const char *commands, bool redact,
			   struct redactor *r, time_t now, const struct snap_tool *tool)
{
	char host[256] = "", sha[65];

	gethostname(host, sizeof(host) - 1);
	if (r) {
		unsigned char *h = (unsigned char *)strdup(host);
		size_t n = h ? redact_apply(r, "host", &h, strlen(host)) : 0;

		snprintf(host, sizeof(host), "%.*s", (int)n, h ? (char *)h : "");
		free(h);
	}
	manifest_header(t, host, now, redact, tool);
	text_add(t, "%s", commands);
	for (int i = 0; i < ms->n; i++) {
		sha256_hex(ms->m[i].data, ms->m[i].len, sha);
		text_add(t, "file %s %zu %s\n", sha, ms->m[i].len, ms->m[i].path);
	}
	sha256_hex(t->s, t->len, sha);
	text_add(t, "end %s\n", sha);
}

static void pack_failed(struct snap_error *e, const char *file, int err)
{
	char what[PATH_MAX + 128];

	snap_error_clear(e);
	snprintf(what, sizeof(what), "cannot write the snapshot '%s': %s", file, strerror(-err));
	snprintf(e->what, sizeof(e->what), "%s", what);
	snprintf(e->next, sizeof(e->next), "choose a writable place with -o FILE (the disk may be full)");
}

int snap_pack(const char *work, const char *file, const char *commands, bool redact, const struct snap_tool *tool,
	      struct pack_result *pr, struct snap_error *e)
{
	struct members ms = { 0 };
	struct redactor *r = NULL;
	struct text t = { 0 };
	char tmp[PATH_MAX + 8];
	time_t now = time(NULL);
	int err = collect(&ms, work, "");

	if (!err && redact && !(r = redact_new()))
		err = -ENOMEM;
	if (!err) {
		qsort(ms.m, ms.n, sizeof(*ms.m), cmp_members);
		for (int i = 0; r && i < ms.n; i++)
			redact_learn(r, ms.m[i].path, ms.m[i].data, ms.m[i].len);
		for (int i = 0; r && i < ms.n; i++)
			ms.m[i].len = redact_apply(r, ms.m[i].path, &ms.m[i].data, ms.m[i].len);
		build_manifest(&t, &ms, commands, redact, r, now, tool);
		FILE *fp = t.s ? open_temp_beside(file, tmp, sizeof(tmp)) : NULL;

		err = !t.s ? -ENOMEM : !fp ? -errno : write_archive(fp, t.s, t.len, &ms, now);
		if (!err && rename(tmp, file))
			err = -errno;
		if (err && fp)
			unlink(tmp);
	}
	if (err)
		pack_failed(e, file, err);
	else {
		struct stat st;

		pr->bytes = stat(file, &st) ? 0 : (uint64_t)st.st_size;
		pr->files = ms.n + 1;
	}
	redact_free(r);
	free(t.s);
	free_members(&ms);
	return err;
}
