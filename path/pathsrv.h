/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The responder side of one `rdmadiag path` session, used by `path serve`
 * (one forked child per session) and by `path test loopback` (a thread).
 * It trusts nothing from the tester: every message is checked, sizes are
 * bounded, and every wait ends at the idle timeout.
 */
#ifndef RDMADIAG_PATHSRV_H
#define RDMADIAG_PATHSRV_H

#include <signal.h>
#include <stddef.h>

#include "pathq.h"

struct ps_opts {
	const char *dev;	/* NULL: the device of the control socket's local address */
	unsigned port;
	int gid_index;		/* -1 auto */
	enum pq_poll_mode mode;
	enum pq_poll_mode lat_mode;	/* the latency phase's: its round trips are timed */
	unsigned idle_timeout_ms;
	volatile sig_atomic_t *stop;
};

/* Runs one session on the connected control socket fd. Returns 0 when the
 * tester ended it with BYE, -errno otherwise; summary gets one line. */
int ps_session(int fd, const struct ps_opts *o, char *summary, size_t len);

#endif
