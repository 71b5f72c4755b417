// SPDX-License-Identifier: GPL-2.0-or-later
/* Shared setup of the fuzz targets; see fuzz_common.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../host/source.h"
#include "fuzz_common.h"

static char dir[64];

static void remove_dir(void)
{
	char cmd[sizeof(dir) + 16];

	/* the directory name is ours (mkdtemp), no quoting issue */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

static int make_recording_dirs(const char *top)
{
	char sub[sizeof(dir) + 16];

	snprintf(sub, sizeof(sub), "%s/netlink", top);
	if (mkdir(sub, 0700))
		return -1;
	snprintf(sub, sizeof(sub), "%s/fs", top);
	return mkdir(sub, 0700);
}

const char *fuzz_replay_dir(void)
{
	static bool done;
	struct source_error se;

	if (done)
		return dir;
	/* every input writes files: keep them in memory when the host allows */
	snprintf(dir, sizeof(dir), "%s/rdmadiag-fuzz-XXXXXX", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	/* a recording's layout (netlink/, fs/): source_init() refuses any other directory */
	if (!mkdtemp(dir) || make_recording_dirs(dir) || source_init(NULL, dir, &se)) {
		perror("fuzz: replay directory");
		abort();
	}
	atexit(remove_dir);
	done = true;
	return dir;
}

void fuzz_put_file(const char *rel, const void *data, size_t len)
{
	char path[4096];
	FILE *fp;

	/* the directories exist after the first input: skip source_save's mkdirs */
	if (!source_path(path, sizeof(path), rel) && (fp = fopen(path, "wb"))) {
		if (len && fwrite(data, 1, len, fp) != len)
			fprintf(stderr, "fuzz: cannot write %s\n", path);
		fclose(fp);
		return;
	}
	if (source_save(rel, data, len, false) && errno != ENAMETOOLONG)
		fprintf(stderr, "fuzz: cannot write %s/%s: %s\n", dir, rel, strerror(errno));
}

static volatile uint64_t sink;

void fuzz_sink_u64(uint64_t v)
{
	sink += v;
}

void fuzz_sink_str(const char *s)
{
	if (!s)
		return;
	sink += strlen(s);
}
