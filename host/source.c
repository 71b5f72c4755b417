// SPDX-License-Identifier: GPL-2.0-or-later
/* Record/replay fixture directory; see source.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "source.h"

static struct {
	char dir[PATH_MAX];
	bool record;
	bool replay;
	const void *nl_bytes;	/* source_replay_netlink_bytes() */
	size_t nl_len;
	int clock_state;	/* replay: 0 not looked, 1 the fixture has a clock file, -1 none */
	const char *recorder;	/* source_set_recorder() */
} src;

/*
 * Generations: a command that reads the same thing twice (two counter
 * samples) records the second read as "rel~2", the third as "rel~3"...; the
 * Nth read in replay gets the Nth generation, or the last one there is. So a
 * replay sees the values change exactly as the recording did.
 */
#define GEN_BUCKETS 4096

struct gen {
	struct gen *next;
	unsigned writes;	/* record: truncating saves so far */
	unsigned reads;		/* replay: opens so far */
	unsigned have;		/* replay: generations the fixture holds (0: not looked) */
	char rel[];
};

static struct gen *gens[GEN_BUCKETS];
static unsigned gen_count;	/* lets a run that never recorded nor replayed skip the table */

static unsigned hash_rel(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % GEN_BUCKETS;
}

static struct gen *gen_get(const char *rel)
{
	unsigned h = hash_rel(rel);
	struct gen *g;

	for (g = gens[h]; g; g = g->next)
		if (!strcmp(g->rel, rel))
			return g;
	g = calloc(1, sizeof(*g) + strlen(rel) + 1);
	if (!g)
		return NULL;
	strcpy(g->rel, rel);
	gen_count++;
	g->next = gens[h];
	gens[h] = g;
	return g;
}

static void gen_free_all(void)
{
	for (int i = 0; gen_count && i < GEN_BUCKETS; i++) {
		while (gens[i]) {
			struct gen *next = gens[i]->next;

			free(gens[i]);
			gens[i] = next;
		}
	}
	gen_count = 0;
}

/* DIR/rel, or DIR/rel~N for generation N > 1. */
static int gen_path(char *buf, size_t len, const char *rel, unsigned n)
{
	int r = n > 1 ? snprintf(buf, len, "%s/%s~%u", src.dir, rel, n) : snprintf(buf, len, "%s/%s", src.dir, rel);

	if (r < 0 || (size_t)r >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

bool source_replaying(void)
{
	return src.replay;
}

bool source_recording(void)
{
	return src.record;
}

int source_path(char *buf, size_t len, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", src.dir, rel);

	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int r = mkdir(path, 0755);

		*p = '/';
		if (r && errno != EEXIST)
			return -1;
	}
	return 0;
}

int source_mkparents(const char *rel)
{
	char path[PATH_MAX];

	if (source_path(path, sizeof(path), rel))
		return -1;
	return mkdir_p(path);
}

int source_save(const char *rel, const void *data, size_t len, bool append)
{
	struct gen *g = gen_get(rel);
	char path[PATH_MAX];
	FILE *fp;

	if (g && (!append || !g->writes))
		g->writes++;
	if (gen_path(path, sizeof(path), rel, g ? g->writes : 1) || mkdir_p(path))
		return -1;
	fp = fopen(path, append ? "ab" : "wb");
	if (!fp)
		return -1;
	if (len && fwrite(data, 1, len, fp) != len) {
		fclose(fp);
		return -1;
	}
	return fclose(fp);
}

void source_replay_netlink_bytes(const void *data, size_t len)
{
	src.nl_bytes = data;
	src.nl_len = len;
}

int source_read_path(char *buf, size_t len, const char *rel)
{
	struct gen *g = src.replay ? gen_get(rel) : NULL;
	struct stat st;

	if (!g)
		return source_path(buf, len, rel);
	if (!g->have) {
		g->have = 1;
		while (!gen_path(buf, len, rel, g->have + 1) && !stat(buf, &st))
			g->have++;
	}
	g->reads++;
	return gen_path(buf, len, rel, g->reads < g->have ? g->reads : g->have);
}

FILE *source_open(const char *rel)
{
	char path[PATH_MAX];

	if (src.nl_bytes && !strncmp(rel, "netlink/", 8))
		return src.nl_len ? fmemopen((void *)src.nl_bytes, src.nl_len, "rb") : fopen("/dev/null", "rb");
	if (source_read_path(path, sizeof(path), rel))
		return NULL;
	return fopen(path, "rb");
}

/* ---- clock ---- */

/* The "clock" file holds "NAME VALUE" lines, one per reading, in order. */
static FILE *open_clock(void)
{
	char path[PATH_MAX];

	return source_path(path, sizeof(path), "clock") ? NULL : fopen(path, "r");
}

bool source_clock_replayed(void)
{
	if (src.replay && !src.clock_state) {
		FILE *fp = open_clock();

		src.clock_state = fp ? 1 : -1;
		if (fp)
			fclose(fp);
	}
	return src.replay && src.clock_state > 0;
}

/* The next recorded reading of NAME: the Nth call gets the Nth line. */
static bool replay_clock(const char *name, double *out)
{
	char line[128], key[64], counter[80];
	unsigned seen = 0;
	struct gen *g;
	double v;
	FILE *fp;

	snprintf(counter, sizeof(counter), "\x01clock/%s", name);	/* never a file name */
	if (!source_clock_replayed() || !(g = gen_get(counter)) || !(fp = open_clock()))
		return false;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%63s %lf", key, &v) == 2 && !strcmp(key, name) && ++seen > g->reads) {
			g->reads++;
			*out = v;
			fclose(fp);
			return true;
		}
	}
	fclose(fp);
	return false;
}

double source_clock(const char *name, double live)
{
	double v;

	if (src.replay && replay_clock(name, &v))
		return v;
	if (src.record) {
		char line[128];
		int n = snprintf(line, sizeof(line), "%s %.9f\n", name, live);

		source_save("clock", line, (size_t)n, true);
	}
	return live;
}

static void write_meta(void)
{
	struct utsname u;
	char buf[512];
	time_t now = time(NULL);

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(buf, sizeof(buf), "recorded_by=%s\nkernel=%s\nmachine=%s\ntime=%lld\n",
		 src.recorder ? src.recorder : "rdmadiag", u.release, u.machine, (long long)now);
	source_save("meta", buf, strlen(buf), false);
}

/* A recording holds netlink/ (replies) or fs/ (files): any other directory
 * is a wrong path, not a host without RDMA, and would otherwise fail on its
 * first read with a misleading cause. */
const char *source_replay_unusable(const char *dir)
{
	static const char *const parts[] = { "netlink", "fs" };
	char sub[PATH_MAX];
	struct stat st;

	if (stat(dir, &st))
		return strerror(errno);
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, parts[i]);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			return NULL;
	}
	return "not a recording (it has neither netlink/ nor fs/)";
}

void source_set_recorder(const char *who)
{
	src.recorder = who;
}

int source_init(const char *record_dir, const char *replay_dir, struct source_error *e)
{
	const char *dir = replay_dir ? replay_dir : record_dir;

	if (!dir)
		return 0;
	if (strlen(dir) >= sizeof(src.dir) - 256) {
		*e = (struct source_error){ SOURCE_DIR_TOO_LONG, -ENAMETOOLONG, NULL };
		return e->err;
	}
	strcpy(src.dir, dir);
	if (replay_dir) {
		const char *why = source_replay_unusable(dir);

		if (why) {
			*e = (struct source_error){ SOURCE_REPLAY_UNUSABLE, -EINVAL, why };
			return e->err;
		}
		src.replay = true;
		return 0;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		*e = (struct source_error){ SOURCE_RECORD_MKDIR, -errno, NULL };
		return e->err;
	}
	src.record = true;
	write_meta();
	return 0;
}

void source_close(void)
{
	src.record = src.replay = false;
	src.clock_state = 0;
	gen_free_all();
}
