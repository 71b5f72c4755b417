/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers that several objects share. */
#ifndef RDMADIAG_COMMON_H
#define RDMADIAG_COMMON_H

#include "rdmadiag.h"

/* Reports a failed device lookup or dump and returns the exit code. */
int report_dev_error(const char *dev, int err);
/* Says on stderr that there is no RDMA device, and how to get one. */
void report_no_devices(void);

/* This node's name as the kernel knows it (read through fs_read, so a replay
 * shows the recorded host); NULL when unknown. Static buffer. */
const char *local_host_name(void);

#endif
