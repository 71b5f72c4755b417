// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress of a long path test stage on a terminal; see path_progress.h. */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "../path/pathproto.h"
#include "output.h"
#include "path_progress.h"

void progress_begin(struct progress *p, const char *id, bool on)
{
	*p = (struct progress){ .id = id, .on = on && !out_is_json() && isatty(STDERR_FILENO) };
	p->start_ms = p->last_ms = pp_now_ms();
}

void progress_update(struct progress *p, uint64_t done, uint64_t total, const char *unit)
{
	int64_t now;

	if (!p->on)
		return;
	now = pp_now_ms();
	if (now - p->start_ms < PROGRESS_AFTER_MS || (p->shown && now - p->last_ms < PROGRESS_EVERY_MS))
		return;
	p->last_ms = now;
	p->shown = true;
	if (total)
		fprintf(stderr, "\r\033[K%s: %" PRIu64 " of %" PRIu64 " %s, %.1f s", p->id, done, total, unit,
			(now - p->start_ms) / 1e3);
	else
		fprintf(stderr, "\r\033[K%s: %" PRIu64 " %s, %.1f s", p->id, done, unit, (now - p->start_ms) / 1e3);
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}
