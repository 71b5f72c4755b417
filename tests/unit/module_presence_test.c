// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libkmod's view of modules.builtin (module_presence.c) on a module directory
 * made here by depmod: a name listed in modules.builtin is built in, a name in
 * no index is not found. Needs depmod (kmod); without it the cases say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../host/module_presence.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"

/* base/lib/modules/9.9.9 with ib_uverbs and rdma_cm built in; 0 or -1. */
static int make_module_dir(const char *base, char *dir, size_t len)
{
	char cmd[1024];
	FILE *fp;

	snprintf(dir, len, "%s/lib/modules/9.9.9", base);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/modules.builtin", dir);
	fp = fopen(cmd, "w");
	if (!fp)
		return -1;
	fputs("kernel/drivers/infiniband/core/ib_uverbs.ko\nkernel/drivers/infiniband/core/rdma_cm.ko\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "%s/modules.order", dir);
	fp = fopen(cmd, "w");
	if (!fp)
		return -1;
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/sbin:/usr/sbin depmod -b %s 9.9.9 2>/dev/null", base);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	char base[] = "/tmp/rdmadiag-kmod-XXXXXX", dir[512], cmd[600];

	if (!mkdtemp(base))
		return 1;
	if (make_module_dir(base, dir, sizeof(dir))) {
		ok(1, "# SKIP depmod could not build a module index (kmod not installed)");
	} else {
		ok(module_index_in("ib_uverbs", dir) == KMOD_IDX_BUILTIN, "a name in modules.builtin is built in");
		ok(module_index_in("rdma_cm", dir) == KMOD_IDX_BUILTIN, "so is the second one listed");
		ok(module_index_in("rdma_ucm", dir) == KMOD_IDX_NOT_FOUND, "a name in no index is not found");
	}
	snprintf(cmd, sizeof(cmd), "%s/nothing-here", base);
	ok(module_index_in("ib_uverbs", cmd) == KMOD_IDX_NOT_FOUND, "a directory without an index finds nothing");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", base);
	return tap_done();
}
