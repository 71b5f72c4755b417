// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages and exit codes for the lower layers' errors; see lower_err.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../host/source.h"
#include "../netlink/nl.h"
#include "../snapshot/snapshot.h"
#include "lower_err.h"
#include "output.h"
#include "rdmadiag.h"

static bool gap_told;

bool nl_gap_told(void)
{
	return gap_told;
}

const char *replay_gap_hint(void)
{
	return g_opts.snapshot ? "replay it in the form the snapshot ran it: see 'Snapshots' in rdmadiag-system(8)"
			       : "replay the command the recording was made with, or record this one with "
				 "'rdmadiag --record DIR ...'";
}

void report_nl_error(const char *what, int err)
{
	char line[512];
	const char *ack = nl_error_msg();

	snprintf(line, sizeof(line), "%s: %s%s%s", what, strerror(err < 0 ? -err : err),
		 ack[0] ? ": " : "", ack);
	if (err == -ETIMEDOUT) {
		report_error(line, "the RDMA core did not answer in time (kernel busy or hung driver)",
			     "retry; check 'dmesg' for RDMA driver errors");
	} else if (err == -EPERM || err == -EACCES) {
		report_error(line, "this request needs privileges", "run as root (or with CAP_NET_ADMIN)");
	} else if (err == -ENOENT && nl_reply_not_recorded()) {
		gap_told = true;
		report_error(line, "this command, in this form or with these options, was not what was recorded",
			     replay_gap_hint());
	} else if (err == -EOPNOTSUPP) {
		report_error(line, "this kernel does not support the request", "use a newer kernel for this information");
	} else {
		report_error(line, NULL, "retry; if it persists, report it with 'rdmadiag --record DIR' output");
	}
}

/* Says why the socket did not open (err: nl_open()'s -errno); the exit code. */
static int say_open_error(int err)
{
	char what[128];

	if (err == -ENOMEM) {
		report_error("out of memory", NULL, NULL);
		return EXIT_RUNTIME;
	}
	if (err == -EPROTONOSUPPORT || err == -EAFNOSUPPORT) {
		report_error("cannot open an RDMA netlink socket: this kernel has no RDMA support",
			     "the RDMA core (ib_core) is not loaded, or the kernel was built without CONFIG_INFINIBAND",
			     "load it with 'modprobe ib_core' and a device driver (e.g. 'modprobe rdma_rxe' for "
			     "Soft-RoCE, mlx5_ib, irdma), or boot a kernel with CONFIG_INFINIBAND");
		return EXIT_HOST;
	}
	if (err == -EACCES || err == -EPERM) {
		report_error("cannot open an RDMA netlink socket: permission denied",
			     "a security policy (seccomp, SELinux, container) forbids NETLINK_RDMA",
			     "run rdmadiag on the host or allow netlink sockets for it");
		return EXIT_HOST;
	}
	snprintf(what, sizeof(what), "cannot open an RDMA netlink socket: %s", strerror(-err));
	report_error(what, NULL, "retry; if it persists, check the kernel log (dmesg)");
	return EXIT_RUNTIME;
}

/* nl_run() opened the socket itself and failed: the same message. */
static void open_failed(int err)
{
	(void)say_open_error(err);
}

int nl_require(void)
{
	int err = nl_open();

	return err ? say_open_error(err) : 0;
}

void lower_layers_setup(void)
{
	source_set_recorder("rdmadiag " RDMADIAG_VERSION);
	nl_on_open_error(open_failed);
}

static void source_report(const char *record_dir, const char *replay_dir, const struct source_error *e)
{
	const char *dir = replay_dir ? replay_dir : record_dir;
	char what[PATH_MAX + 64];

	switch (e->kind) {
	case SOURCE_DIR_TOO_LONG:
		report_error("the recording directory's path is too long", NULL,
			     "use a shorter path for --record or --replay");
		break;
	case SOURCE_REPLAY_UNUSABLE:
		snprintf(what, sizeof(what), "cannot replay '%s': %s", dir, e->why);
		report_error(what, "--replay and RDMADIAG_REPLAY name a fixture directory made by --record",
			     "check the path, or record one with: rdmadiag --record DIR COMMAND");
		break;
	case SOURCE_RECORD_MKDIR:
		snprintf(what, sizeof(what), "cannot create record directory '%s': %s", dir, strerror(-e->err));
		report_error(what, NULL, "choose a writable directory for --record");
		break;
	}
}

int source_start(const char *record_dir, const char *replay_dir)
{
	struct source_error e;

	if (!source_init(record_dir, replay_dir, &e))
		return 0;
	source_report(record_dir, replay_dir, &e);
	return -1;
}

void report_snap_error(const struct snap_error *e)
{
	if (e->source_failed)
		source_report(e->source_dir, NULL, &e->source);
	if (e->what[0])
		report_error(e->what, e->why[0] ? e->why : NULL, e->next[0] ? e->next : NULL);
}

const struct snap_tool *snap_tool(void)
{
	static const struct snap_tool tool = { .version = RDMADIAG_VERSION, .output_schema = OUTPUT_SCHEMA };

	return &tool;
}
