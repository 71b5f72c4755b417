// SPDX-License-Identifier: GPL-2.0-or-later
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "../host/source.h"
#include "../host/sysfs.h"
#include "../netlink/nl.h"
#include "../netlink/rdma.h"
#include "common.h"
#include "lower_err.h"

static bool gap_reported;

bool replay_gap(void)
{
	return source_replaying() && (gap_reported || nl_gap_told());
}

bool replay_lacks(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	return source_replaying() && (source_path(path, sizeof(path), rel) || stat(path, &st));
}

int report_replay_gap(const char *what)
{
	gap_reported = true;
	report_error(what, "this command, in this form or with these options, was not what was recorded",
		     replay_gap_hint());
	return EXIT_USAGE;
}

static int print_name(const struct rd_dev *d, void *data)
{
	int *n = data;

	fprintf(stderr, "%s%s", (*n)++ ? ", " : "", d->name);
	return 0;
}

int report_dev_error(const char *dev, int err)
{
	char what[160];

	if (err == -ENODEV && dev) {
		int n = 0;

		snprintf(what, sizeof(what), "no RDMA device named '%s'", dev);
		report_error(what, "the name is wrong, or its driver is not loaded", "list devices with: rdmadiag dev show");
		fputs("  devices here: ", stderr);
		if (rd_dev_each(NULL, print_name, &n) || n == 0)
			fputs("(none)", stderr);
		fputc('\n', stderr);
		return EXIT_HOST;
	}
	report_nl_error("reading RDMA devices from the kernel failed", err);
	return EXIT_RUNTIME;
}

int report_no_port(const char *dev, unsigned port)
{
	char what[160];

	snprintf(what, sizeof(what), "device %s has no port %u", dev, port);
	report_error(what, NULL, "list its ports with: rdmadiag link show DEV");
	return EXIT_HOST;
}

int report_no_devices(void)
{
	report_error("no RDMA devices on this host",
		     "no RDMA driver is loaded, or no Soft-RoCE device was created",
		     "load the driver of your NIC (mlx5_ib, irdma, bnxt_re, ...) or create a Soft-RoCE device: "
		     "modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IFACE");
	return EXIT_HOST;
}

static int count_dev(const struct rd_dev *d, void *data)
{
	(void)d;
	(*(int *)data)++;
	return 0;
}

int report_no_rdma(void)
{
	int n = 0;
	int rc = nl_require();

	/* no RDMA in the kernel: nl_require() has said so, as for every command */
	if (rc)
		return rc;
	rc = rd_dev_each(NULL, count_dev, &n);
	if (rc)
		return report_dev_error(NULL, rc);
	if (n == 0)
		return report_no_devices();
	/* the kernel has devices that libibverbs does not show: neither
	 * situation of the table, but the host still cannot run the command */
	report_error("libibverbs lists none of this host's RDMA devices",
		     "rdma-core's provider for their driver is missing, or ib_uverbs is not loaded",
		     "install ibverbs-providers and load ib_uverbs; see: rdmadiag link check");
	return EXIT_HOST;
}

const char *local_host_name(void)
{
	static char name[256];

	if (fs_read("/proc/sys/kernel/hostname", name, sizeof(name)) <= 0)
		return NULL;
	return name;
}

static volatile sig_atomic_t interrupted;

void interrupt_note(int sig)
{
	(void)sig;
	interrupted = 1;
}

bool interrupt_noted(void)
{
	return interrupted;
}

void stop_signals_catch(void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void interrupt_catch(void)
{
	stop_signals_catch(interrupt_note);
}

bool list_has(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, item, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

bool is_ip_address(const char *s)
{
	struct in6_addr a;

	return inet_pton(AF_INET, s, &a) == 1 || inet_pton(AF_INET6, s, &a) == 1;
}
