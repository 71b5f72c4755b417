/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Facts that are not file contents, recorded so that they replay:
 * whether a device node opens, and this process's resource limits.
 * Recorded as probe/<path> holding the errno number (0 = opened).
 */
#ifndef RDMADIAG_PROBE_H
#define RDMADIAG_PROBE_H

/* Opens path read-write and closes it again: 0 or -errno. In replay, a
 * hand-made fixture without a probe record counts a file under fs/ as openable. */
int probe_open(const char *path);

#endif
