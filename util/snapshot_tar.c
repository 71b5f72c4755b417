// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing and reading the ustar subset of snapshots; see snapshot_tar.h. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot_tar.h"

#define BLOCK 512

struct ustar {
	char name[100], mode[8], uid[8], gid[8], size[12], mtime[12], chksum[8], type;
	char linkname[100], magic[6], version[2], uname[32], gname[32], devmajor[8], devminor[8];
	char prefix[155], pad[12];
};

static unsigned header_sum(const struct ustar *h)
{
	const unsigned char *p = (const unsigned char *)h;
	unsigned sum = 0;

	for (size_t i = 0; i < BLOCK; i++)
		sum += (i >= offsetof(struct ustar, chksum) && i < offsetof(struct ustar, chksum) + 8) ? ' ' : p[i];
	return sum;
}

static int write_padded(FILE *fp, const void *data, size_t len)
{
	static const char zero[BLOCK];
	size_t pad = (BLOCK - len % BLOCK) % BLOCK;

	if (len && fwrite(data, 1, len, fp) != len)
		return -1;
	return pad && fwrite(zero, 1, pad, fp) != pad ? -1 : 0;
}

/* ustar keeps a name in prefix "/" name: split at a slash when it does not fit. */
static int split_name(struct ustar *h, const char *name)
{
	size_t len = strlen(name);

	if (len <= sizeof(h->name)) {
		memcpy(h->name, name, len);
		return 0;
	}
	for (const char *slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		size_t pre = (size_t)(slash - name);

		if (pre <= sizeof(h->prefix) && len - pre - 1 <= sizeof(h->name) && len - pre - 1 > 0) {
			memcpy(h->prefix, name, pre);
			memcpy(h->name, slash + 1, len - pre - 1);
			return 0;
		}
	}
	return -1;
}

static int write_header(FILE *fp, const char *name, size_t len, time_t mtime, char type)
{
	struct ustar h;

	memset(&h, 0, sizeof(h));
	if (type == 'L')
		memcpy(h.name, "././@LongLink", 13);
	else if (split_name(&h, name))
		return -1;
	snprintf(h.mode, sizeof(h.mode), "%07o", 0644);
	snprintf(h.uid, sizeof(h.uid), "%07o", 0);
	snprintf(h.gid, sizeof(h.gid), "%07o", 0);
	snprintf(h.size, sizeof(h.size), "%011llo", (unsigned long long)len);
	snprintf(h.mtime, sizeof(h.mtime), "%011llo", (unsigned long long)(mtime > 0 ? mtime : 0));
	h.type = type;
	memcpy(h.magic, "ustar", 6);
	memcpy(h.version, "00", 2);
	snprintf(h.chksum, sizeof(h.chksum), "%06o", header_sum(&h));
	h.chksum[7] = ' ';
	return fwrite(&h, 1, BLOCK, fp) == BLOCK ? 0 : -1;
}

int tar_add(FILE *fp, const char *name, const void *data, size_t len, time_t mtime)
{
	struct ustar probe;
	size_t nlen = strlen(name);

	if (nlen >= TAR_NAME_MAX)
		return -1;
	memset(&probe, 0, sizeof(probe));
	if (split_name(&probe, name)) {
		/* GNU long name: an 'L' member holding the name, then the file */
		if (write_header(fp, name, nlen + 1, mtime, 'L') || write_padded(fp, name, nlen + 1))
			return -1;
		name = "././@LongName";
	}
	if (write_header(fp, name, len, mtime, '0'))
		return -1;
	return write_padded(fp, data, len);
}

int tar_finish(FILE *fp)
{
	static const char zero[2 * BLOCK];

	return fwrite(zero, 1, sizeof(zero), fp) == sizeof(zero) ? 0 : -1;
}

/* ---- reading ---- */

static int parse_octal(const char *f, size_t width, unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i = 0;

	while (i < width && f[i] == ' ')
		i++;
	if (i == width || f[i] < '0' || f[i] > '7')
		return -1;
	for (; i < width && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (~0ULL >> 3))
			return -1;
		v = v * 8 + (unsigned)(f[i] - '0');
	}
	for (; i < width; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	*out = v;
	return 0;
}

int tar_name_safe(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/')
		return 0;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c == 0x7f || *c == '\\')
			return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p == '/' && !*++p)
			return 0;	/* trailing slash: a directory */
	}
	return 1;
}

static int all_zero(const void *b)
{
	const unsigned char *p = b;

	for (int i = 0; i < BLOCK; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Reads len bytes and the padding to the next block. */
static enum tar_status read_body(FILE *fp, size_t len, unsigned char **out)
{
	unsigned char *buf = malloc(len + 1);
	size_t pad = (BLOCK - len % BLOCK) % BLOCK;
	char skip[BLOCK];

	if (!buf)
		return TAR_NO_MEMORY;
	if (fread(buf, 1, len, fp) != len || (pad && fread(skip, 1, pad, fp) != pad)) {
		free(buf);
		return TAR_TRUNCATED;
	}
	buf[len] = '\0';
	*out = buf;
	return TAR_OK;
}

static enum tar_status read_header(FILE *fp, struct ustar *h, unsigned long long *size)
{
	unsigned long long sum;

	if (fread(h, 1, BLOCK, fp) != BLOCK)
		return TAR_TRUNCATED;
	if (all_zero(h))
		return TAR_END;
	if (parse_octal(h->chksum, sizeof(h->chksum), &sum) || sum != header_sum(h) ||
	    memcmp(h->magic, "ustar", 5) || parse_octal(h->size, sizeof(h->size), size))
		return TAR_BAD_HEADER;
	return *size > TAR_FILE_MAX ? TAR_TOO_BIG : TAR_OK;
}

static void header_name(const struct ustar *h, char *out)
{
	int n = 0;

	if (h->prefix[0])
		n = snprintf(out, TAR_NAME_MAX, "%.*s/", (int)sizeof(h->prefix), h->prefix);
	snprintf(out + n, TAR_NAME_MAX - n, "%.*s", (int)sizeof(h->name), h->name);
}

enum tar_status tar_next(FILE *fp, struct tar_entry *e)
{
	struct ustar h;
	unsigned long long size;
	enum tar_status st;
	unsigned char *longname = NULL;

	memset(e, 0, sizeof(*e));
	for (;;) {
		st = read_header(fp, &h, &size);
		if (st != TAR_OK)
			break;
		if (h.type == 'L' && !longname) {
			if (size == 0 || size >= TAR_NAME_MAX)
				return TAR_BAD_NAME;
			st = read_body(fp, (size_t)size, &longname);
			if (st != TAR_OK)
				return st;
			continue;
		}
		if (h.type != '0' && h.type != '\0') {
			st = TAR_UNSUPPORTED;
			break;
		}
		if (longname)
			snprintf(e->name, sizeof(e->name), "%s", (char *)longname);
		else
			header_name(&h, e->name);
		if (!tar_name_safe(e->name)) {
			st = TAR_BAD_NAME;
			break;
		}
		e->size = (size_t)size;
		st = read_body(fp, e->size, &e->data);
		break;
	}
	free(longname);
	return st;
}

const char *tar_status_text(enum tar_status st)
{
	switch (st) {
	case TAR_OK: return "ok";
	case TAR_END: return "end of archive";
	case TAR_TRUNCATED: return "the file ends in the middle of the archive (truncated)";
	case TAR_BAD_HEADER: return "a tar header is damaged (checksum, magic or size)";
	case TAR_UNSUPPORTED: return "the archive holds something other than regular files (link, device or directory)";
	case TAR_BAD_NAME: return "a member name is unsafe (absolute, '..', empty component) or too long";
	case TAR_TOO_BIG: return "a member is larger than a snapshot file can be";
	case TAR_NO_MEMORY: return "out of memory";
	}
	return "unknown";
}
