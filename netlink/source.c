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

#include "../rdmadiag/rdmadiag.h"
#include "source.h"

static struct {
	char dir[PATH_MAX];
	bool record;
	bool replay;
	const void *nl_bytes;	/* source_replay_netlink_bytes() */
	size_t nl_len;
} src;

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
	char path[PATH_MAX];
	FILE *fp;

	if (source_path(path, sizeof(path), rel) || mkdir_p(path))
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

FILE *source_open(const char *rel)
{
	char path[PATH_MAX];

	if (src.nl_bytes && !strncmp(rel, "netlink/", 8))
		return src.nl_len ? fmemopen((void *)src.nl_bytes, src.nl_len, "rb") : fopen("/dev/null", "rb");
	if (source_path(path, sizeof(path), rel))
		return NULL;
	return fopen(path, "rb");
}

static void write_meta(void)
{
	struct utsname u;
	char buf[512];
	time_t now = time(NULL);

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	snprintf(buf, sizeof(buf), "recorded_by=rdmadiag %s\nkernel=%s\nmachine=%s\ntime=%lld\n",
		 RDMADIAG_VERSION, u.release, u.machine, (long long)now);
	source_save("meta", buf, strlen(buf), false);
}

int source_init(const char *record_dir, const char *replay_dir)
{
	const char *dir = replay_dir ? replay_dir : record_dir;
	struct stat st;

	if (!dir)
		return 0;
	if (strlen(dir) >= sizeof(src.dir) - 256) {
		report_error("fixture directory path is too long", NULL, "use a shorter path");
		return -1;
	}
	strcpy(src.dir, dir);
	if (replay_dir) {
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			char what[PATH_MAX + 64];

			snprintf(what, sizeof(what), "cannot replay '%s': %s", dir,
				 errno ? strerror(errno) : "not a directory");
			report_error(what, "--replay and RDMADIAG_REPLAY name a fixture directory made by --record",
				     "check the path, or record one with: rdmadiag --record DIR COMMAND");
			return -1;
		}
		src.replay = true;
		return 0;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "cannot create record directory '%s': %s", dir, strerror(errno));
		report_error(what, NULL, "choose a writable directory for --record");
		return -1;
	}
	src.record = true;
	write_meta();
	return 0;
}

void source_close(void)
{
	src.record = src.replay = false;
}
