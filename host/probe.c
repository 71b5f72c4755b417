// SPDX-License-Identifier: GPL-2.0-or-later
/* Device-node probes with record/replay; see probe.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe.h"
#include "source.h"

static int replay_probe(const char *path)
{
	char rel[PATH_MAX], real[PATH_MAX], line[32];
	struct stat st;
	FILE *fp;

	snprintf(rel, sizeof(rel), "probe%s", path);
	fp = source_open(rel);
	if (fp) {
		int e = fgets(line, sizeof(line), fp) ? atoi(line) : EIO;

		fclose(fp);
		return -e;
	}
	snprintf(rel, sizeof(rel), "fs%s", path);
	if (source_path(real, sizeof(real), rel))
		return -ENAMETOOLONG;
	return stat(real, &st) ? -ENOENT : 0;
}

int probe_open(const char *path)
{
	char rel[PATH_MAX], line[32];
	int fd, err = 0;

	if (path[0] != '/')
		return -EINVAL;
	if (source_replaying())
		return replay_probe(path);
	/* uverbs and rdma_cm allow open() without side effects until a command is written */
	fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		err = errno;
	else
		close(fd);
	if (source_recording()) {
		snprintf(rel, sizeof(rel), "probe%s", path);
		snprintf(line, sizeof(line), "%d\n", err);
		source_save(rel, line, strlen(line), false);
	}
	return -err;
}
