// SPDX-License-Identifier: GPL-2.0-or-later
/* The snapshot MANIFEST read back: parsed, checked, looked up; see snapshot.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/sha256.h"
#include "../util/snapshot_tar.h"
#include "snapshot.h"

/* ---- parsing ---- */

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct man_file *)a)->path, ((const struct man_file *)b)->path);
}

struct man_file *manifest_find(struct manifest *m, const char *path)
{
	struct man_file key = { .path = (char *)path };

	return m->nfiles ? bsearch(&key, m->files, m->nfiles, sizeof(key), cmp_files) : NULL;
}

const struct man_file *manifest_first_unseen(const struct manifest *m)
{
	for (int i = 0; i < m->nfiles; i++)
		if (!m->files[i].seen)
			return &m->files[i];
	return NULL;
}

bool manifest_has_command(const struct manifest *m, const char *slug)
{
	size_t len = strlen(slug);

	for (int i = 0; i < m->ncommands; i++)
		if (!strncmp(m->commands[i], slug, len) && m->commands[i][len] == ' ')
			return true;
	return false;
}

void manifest_command_list(const struct manifest *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < m->ncommands && n < len; i++) {
		char slug[64], object[32], action[32];
		int rc;

		if (sscanf(m->commands[i], "%63s %d %31s %31s", slug, &rc, object, action) == 4)
			n += (size_t)snprintf(buf + n, len - n, "%s%s %s", n ? ", " : "", object, action);
	}
}

void manifest_free(struct manifest *m)
{
	for (int i = 0; i < m->nfiles; i++)
		free(m->files[i].path);
	for (int i = 0; i < m->ncommands; i++)
		free(m->commands[i]);
	free(m->files);
	free(m->commands);
	memset(m, 0, sizeof(*m));
}

static bool is_hex64(const char *s)
{
	return strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

static int add_file_line(struct manifest *m, const char *rest)
{
	char sha[80];
	unsigned long long size;
	int off = 0;

	if (m->nfiles >= SNAP_MAX_FILES || sscanf(rest, "%79s %llu %n", sha, &size, &off) != 2 || !off || !is_hex64(sha) ||
	    size > TAR_FILE_MAX || !tar_name_safe(rest + off) || !strcmp(rest + off, "MANIFEST"))
		return -1;
	if (!(m->nfiles & (m->nfiles - 1))) {
		struct man_file *n = realloc(m->files, (m->nfiles ? 2 * m->nfiles : 64) * sizeof(*n));

		if (!n)
			return -1;
		m->files = n;
	}
	struct man_file *f = &m->files[m->nfiles];

	memset(f, 0, sizeof(*f));
	f->path = strdup(rest + off);
	f->size = (size_t)size;
	memcpy(f->sha, sha, 65);
	if (!f->path)
		return -1;
	m->nfiles++;
	return 0;
}

static int add_command_line(struct manifest *m, const char *rest)
{
	char **n = realloc(m->commands, (m->ncommands + 1) * sizeof(*n));

	if (!n)
		return -1;
	m->commands = n;
	if (!(m->commands[m->ncommands] = strdup(rest)))
		return -1;
	m->ncommands++;
	return 0;
}

/* The "end SHA" line: the digest of everything before it, checked before
 * the lines are cut up. Returns where the end line starts. */
static char *check_end(char *text, char *why, size_t wlen, int *rc)
{
	char *end = strncmp(text, "end ", 4) ? strstr(text, "\nend ") : text - 1;
	char sha[65];

	*rc = MANIFEST_BAD;
	if (!end) {
		snprintf(why, wlen, "the MANIFEST has no end line (truncated)");
		return NULL;
	}
	end++;
	sha256_hex(text, (size_t)(end - text), sha);
	if (strncmp(end + 4, sha, 64) || (end[68] && strcmp(end + 68, "\n"))) {
		snprintf(why, wlen, "the MANIFEST checksum does not match (the file was changed or damaged)");
		return NULL;
	}
	*rc = MANIFEST_OK;
	return end;
}

static int parse_schema(struct manifest *m, const char *text, const char *version, char *why, size_t wlen)
{
	if (sscanf(text, "rdmadiag-snapshot %d\n", &m->schema) != 1 || m->schema < 1) {
		snprintf(why, wlen, "not an rdmadiag snapshot (the MANIFEST does not start with a schema line)");
		return MANIFEST_BAD;
	}
	if (m->schema > SNAPSHOT_SCHEMA) {
		snprintf(why, wlen, "it has snapshot schema %d, made by a newer rdmadiag; this one (%s) reads schema %d",
			 m->schema, version, SNAPSHOT_SCHEMA);
		return MANIFEST_NEWER;
	}
	return MANIFEST_OK;
}

int manifest_parse(struct manifest *m, char *text, size_t len, const char *version, char *why, size_t wlen)
{
	char *end;
	int rc;

	if (strlen(text) != len) {
		snprintf(why, wlen, "the MANIFEST holds binary data");
		return MANIFEST_BAD;
	}
	rc = parse_schema(m, text, version, why, wlen);
	if (rc)
		return rc;
	end = check_end(text, why, wlen, &rc);
	if (rc)
		return rc;
	*end = '\0';
	for (char *line = text, *next; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if ((!strncmp(line, "file ", 5) && add_file_line(m, line + 5)) ||
		    (!strncmp(line, "command ", 8) && add_command_line(m, line + 8))) {
			snprintf(why, wlen, "a MANIFEST line is malformed: '%.80s'", line);
			return MANIFEST_BAD;
		}
	}
	if (m->nfiles)
		qsort(m->files, m->nfiles, sizeof(*m->files), cmp_files);
	for (int i = 1; i < m->nfiles; i++) {
		if (!strcmp(m->files[i].path, m->files[i - 1].path)) {
			snprintf(why, wlen, "the MANIFEST lists '%.200s' twice", m->files[i].path);
			return MANIFEST_BAD;
		}
	}
	return MANIFEST_OK;
}
