// SPDX-License-Identifier: GPL-2.0-or-later
/* path_hints: a software provider (rxe, siw) is told from a hardware device by
 * its sysfs tree, and the loss and stall hints send each to the right place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../host/source.h"
#include "../../rdmadiag/path_hints.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"

static char dir[] = "/tmp/rdmadiag-hints-XXXXXX";

/* rel under the recording: fs/ABSOLUTE for files, links at its top */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		exit(1);
	fp = fopen(path, "w");
	if (!fp)
		exit(1);
	fputs(text, fp);
	fclose(fp);
}

int main(void)
{
	struct provider p;
	struct source_error se;
	char buf[512], cmd[600];

	if (!mkdtemp(dir))
		return 1;
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/netlink", dir);
	if (system(cmd) != 0)
		return 1;
	/* rxe and siw have no bus device; mlx5 sits on PCI */
	put("fs/sys/class/infiniband/rxe0/node_type", "1: CA\n");
	put("fs/sys/class/infiniband/siw0/node_type", "4: RNIC\n");
	put("fs/sys/class/infiniband/mlx5_0/node_type", "1: CA\n");
	put("fs/sys/class/infiniband/mlx5_0/device/vendor", "0x15b3\n");
	put("links", "/sys/class/infiniband/mlx5_0/device/driver\t../../../bus/pci/drivers/mlx5_core\n");
	source_init(NULL, dir, &se);

	provider_read("rxe0", &p);
	ok(p.software, "rxe0 (no bus device) is a software provider");
	is_str(p.driver, "rdma_rxe", "a software CA is Soft-RoCE");
	hint_loss(&p, "during this stage", buf, sizeof(buf));
	ok(strstr(buf, "rxe0 is a software provider (rdma_rxe)") && strstr(buf, "CPU load"),
	   "rxe's loss hint sends the user to the host's CPU load: %s", buf);
	ok(!strstr(buf, "lossless fabric"), "rxe's loss hint does not blame the fabric's PFC");
	hint_stall_extra(&p, buf, sizeof(buf));
	ok(strstr(buf, "CPU load on both hosts") != NULL, "rxe's stall hint names the CPU load: %s", buf);
	hint_heavy_loss(&p, buf, sizeof(buf));
	ok(strstr(buf, "rxe0 is a software provider (rdma_rxe)") && strstr(buf, "CPU load") && !strstr(buf, "PFC"),
	   "rxe's heavy-loss hint sends the user to the host: %s", buf);

	provider_read("siw0", &p);
	ok(p.software, "siw0 is a software provider");
	is_str(p.driver, "siw", "a software RNIC is Soft-iWARP");

	provider_read("mlx5_0", &p);
	ok(!p.software, "mlx5_0 (a PCI device) is hardware");
	is_str(p.driver, "mlx5_core", "its driver is named");
	hint_loss(&p, "during this stage", buf, sizeof(buf));
	ok(strstr(buf, "lossless fabric (PFC) or ECN") != NULL, "hardware's loss hint names PFC and ECN: %s", buf);
	hint_stall_extra(&p, buf, sizeof(buf));
	is_str(buf, "", "hardware's stall hint has nothing to add");
	hint_heavy_loss(&p, buf, sizeof(buf));
	ok(strstr(buf, "PFC or ECN on every NIC and switch") != NULL, "hardware's heavy-loss hint names PFC and ECN: %s",
	   buf);

	source_close();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
