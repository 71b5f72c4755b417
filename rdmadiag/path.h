/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `path test` (path.c) and `path serve` (path_serve.c) share
 * (path_shared.c): the stop flag their signal handlers set, how completions
 * are waited for, and the --port option both take.
 */
#ifndef RDMADIAG_PATH_H
#define RDMADIAG_PATH_H

#include <signal.h>
#include <stdbool.h>

#include "../path/pathq.h"
#include "rdmadiag.h"

/* Set by SIGINT/SIGTERM once path_catch_stop_signals() ran: every wait of a
 * test or a session checks it, so that an interrupted run still cleans up. */
extern volatile sig_atomic_t path_stop;
void path_catch_stop_signals(void);

/* dflt, or what RDMADIAG_PATH_POLL=busy|yield|event|hybrid asks for. */
enum pq_poll_mode path_poll_mode(enum pq_poll_mode dflt);
bool path_host_has_rdma_device(void);

#define OPT_PORT \
	{ .id = O_PORT, .kind = OPT_UINT, .metavar = "N", \
	  .help = "TCP port of the control channel (default 4792)", .min = 1, .max = 65535 }

/* path_serve.c */
extern const struct cmd_opt path_serve_opts[];
int path_serve(struct cmd_ctx *ctx);

#endif
