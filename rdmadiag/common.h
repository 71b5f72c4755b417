/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers that several objects share. */
#ifndef RDMADIAG_COMMON_H
#define RDMADIAG_COMMON_H

#include "rdmadiag.h"

/* Reports a failed device lookup or dump and returns the exit code. */
int report_dev_error(const char *dev, int err);
/* --replay/--snapshot: whether a request of this run found no reply in the
 * recording. Such a run cannot say anything about the host: exit 2
 * (rdmadiag(8): a command line to change), said by report_replay_gap(). */
bool replay_gap(void);
int report_replay_gap(const char *what);
/* --replay/--snapshot: the recording has no file or directory rel (as
 * "fs/sys/class/infiniband"): it was made by a command that never read it. */
bool replay_lacks(const char *rel);
/* Says that device dev has no port `port` (the selection DEV/PORT names a
 * port the device lacks) and returns the exit code, EXIT_HOST. */
int report_no_port(const char *dev, unsigned port);
/* Says on stderr that there is no RDMA device, and how to get one; returns
 * the exit code every command that reads devices gives then, EXIT_HOST. */
int report_no_devices(void);
/* For a command that finds devices through libibverbs (path test, path serve)
 * and found none: says which situation of rdmadiag(8)'s exit-code table it
 * is, in the words every other command uses for it (no RDMA in the kernel:
 * nl_require()'s; no device: report_no_devices()'s), and returns its code. */
int report_no_rdma(void);

/* This node's name as the kernel knows it (read through fs_read, so a replay
 * shows the recorded host); NULL when unknown. Static buffer. */
const char *local_host_name(void);

/* Ctrl-C (SIGINT) or SIGTERM asked the run to stop. Each command that waits
 * keeps its own handler and flag; the handlers also call interrupt_note(),
 * so that a command running others (system check) learns of it between them
 * and stops too. interrupt_note() is async-signal-safe. */
void interrupt_note(int sig);
bool interrupt_noted(void);
/* handler for SIGINT and SIGTERM, without SA_RESTART: a signal must cut
 * sleeps and poll() short so that the command ends cleanly. */
void stop_signals_catch(void (*handler)(int));
/* Installs interrupt_note() itself for the time no command's own handler is
 * in place. */
void interrupt_catch(void);

/* item is one of the comma separated items of list (an OPT_LIST value). */
bool list_has(const char *list, const char *item);

/* s is an IPv4 or IPv6 address in text form. */
bool is_ip_address(const char *s);

#endif
