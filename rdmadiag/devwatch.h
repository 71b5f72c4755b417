/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device list of a watch (qp watch, dev monitor). Every round re-reads
 * it (one device dump) and compares. With RDMA netlink monitor events
 * (Linux 6.12+) the events are printed as they arrive and keep the list up to
 * date, so the compare prints only what no event said: 6.12 sends no event
 * for a device rename, and events can be lost. Each change is printed once,
 * as an event in the watch's stream: dev_added, dev_removed, dev_renamed,
 * netdev_attached, netdev_detached, netdev_renamed; "source" says whether
 * the kernel's event ("netlink") or the compare ("poll") found it.
 */
#ifndef RDMADIAG_DEVWATCH_H
#define RDMADIAG_DEVWATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "../netlink/monitor.h"
#include "../netlink/rdma.h"

#define DEVWATCH_MAX 64

struct devwatch {
	const char *only;		/* the device the watch is limited to, or NULL */
	enum mon_mode mode;
	bool fresh;			/* just read: the next refresh need not */
	unsigned changes;		/* device events printed so far */
	double t0;			/* event times are relative to it */
	double (*clock)(void);		/* seconds; the watch's replayable clock */
	int n;
	struct {
		uint32_t index;
		char name[RD_NAME_LEN];
	} dev[DEVWATCH_MAX];
};

/* Reads the device list and chooses the mode (-d prints which), RDMA
 * netlink being open (the command's NEEDS_NETLINK). Returns an exit code; a
 * named device that does not exist is reported here as an error, unless
 * wait_for_it (dev monitor, which one starts before creating the device):
 * then a note on stderr, and its addition is reported. */
int devwatch_start(struct devwatch *dw, const char *only, bool wait_for_it, double t0, double (*clock)(void));
/* Before a round: re-reads the list and prints what changed that no event
 * said. Returns an exit code. */
int devwatch_refresh(struct devwatch *dw);
/* Between rounds: waits secs, printing device events as they come and
 * applying them to the list. */
void devwatch_wait(struct devwatch *dw, double secs, volatile sig_atomic_t *stop);
/* A device dump failed: whether that device is gone now (then the list is
 * already updated and its removal printed). */
bool devwatch_gone(struct devwatch *dw, uint32_t index);
void devwatch_stop(struct devwatch *dw);

/* The watch clock: monotonic seconds, recorded and replayed (source_clock). */
double devwatch_clock(void);
/* `dev monitor`: prints device events until SIGINT/SIGTERM or `count` rounds
 * (0: no limit); polls every `interval` s without events. Exit code. */
int devwatch_follow(const char *only, double interval, unsigned long count);

#endif
