// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `path test` and `path serve` share (path.h): the stop flag and its
 * signal handlers, how completions are waited for, and whether this host has
 * an RDMA device at all.
 */
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "path.h"

volatile sig_atomic_t path_stop;

static void on_stop_signal(int sig)
{
	path_stop = 1;
	interrupt_note(sig);
}

/* No SA_RESTART (stop_signals_catch): a signal must end poll() and friends
 * so that we clean up. */
void path_catch_stop_signals(void)
{
	stop_signals_catch(on_stop_signal);
}

/* How completions are waited for: between hosts hybrid by default (spin for
 * PQ_SPIN_US, as long as a round trip takes on hardware, then sleep, so that
 * Soft-RoCE's kernel work gets the CPU while operations are in flight);
 * RDMADIAG_PATH_POLL=busy|yield|event|hybrid overrides. */
enum pq_poll_mode path_poll_mode(enum pq_poll_mode dflt)
{
	const char *e = getenv("RDMADIAG_PATH_POLL");

	if (!e)
		return dflt;
	return !strcmp(e, "event") ? PQ_EVENT : !strcmp(e, "yield") ? PQ_YIELD : !strcmp(e, "busy") ? PQ_BUSY :
	       !strcmp(e, "hybrid") ? PQ_HYBRID : dflt;
}

bool path_host_has_rdma_device(void)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);

	if (list)
		ibv_free_device_list(list);
	return list && n > 0;
}
