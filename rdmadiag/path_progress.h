/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress of a long `path test` stage on a terminal: a stage that has run
 * for PROGRESS_AFTER_MS rewrites one stderr line ("path.rc_latency 412 round
 * trips, 3.1 s") at most every PROGRESS_EVERY_MS, and erases it when the
 * stage ends. Nothing when stderr is no terminal or the output is JSON, so
 * pipes, logs and scripts see the report alone.
 */
#ifndef RDMADIAG_PATH_PROGRESS_H
#define RDMADIAG_PATH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define PROGRESS_AFTER_MS 2000
#define PROGRESS_EVERY_MS 250

struct progress {
	const char *id;		/* stage id, the line's head */
	bool on;		/* a terminal and no -j */
	bool shown;		/* a line is on the screen */
	int64_t start_ms, last_ms;
};

/* on: whether this run may draw at all (one peer, not a fleet). */
void progress_begin(struct progress *p, const char *id, bool on);
/* "N UNIT" done so far, of total (0: open ended). */
void progress_update(struct progress *p, uint64_t done, uint64_t total, const char *unit);
void progress_end(struct progress *p);

#endif
