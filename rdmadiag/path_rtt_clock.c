// SPDX-License-Identifier: GPL-2.0-or-later
/* The clock of the latency stage's round trips; see path_int.h. */
#include <stdio.h>

#include "../host/clocksource.h"
#include "../util/clock.h"
#include "../util/cycles.h"
#include "path_int.h"

/* A CLOCK_MONOTONIC reading and the TSC at the same moment: the TSC read on
 * both sides of it, the middle taken (a device read can take long). */
static void pair_read(struct rtt_clock *c, uint64_t *ns, uint64_t *tsc)
{
	uint64_t before = cycles_read(&c->cpu);

	*ns = mono_ns();
	*tsc = before + (cycles_read(&c->cpu) - before) / 2;
}

uint64_t rtt_clock_start(struct rtt_clock *c)
{
	char cs[32];

	*c = (struct rtt_clock){ 0 };
	if (clocksource_current(cs, sizeof(cs)) > 0 && clocksource_slow(cs)) {
		snprintf(c->slow_source, sizeof(c->slow_source), "%s", cs);
		c->tsc = cycles_have();
	}
	if (!c->tsc)
		return c->start_ns = mono_ns();
	pair_read(c, &c->start_ns, &c->start_tsc);
	return c->start_tsc;
}

uint64_t rtt_clock_stamp(struct rtt_clock *c, bool *same_cpu)
{
	unsigned was = c->cpu;
	uint64_t now;

	if (!c->tsc) {
		*same_cpu = true;
		return mono_ns();
	}
	now = cycles_read(&c->cpu);
	*same_cpu = c->cpu == was;
	if (!*same_cpu)
		c->moved++;
	return now;
}

void rtt_clock_to_ns(struct rtt_clock *c, uint64_t *v, unsigned n)
{
	uint64_t end_ns, end_tsc;
	double ns_per_tick;

	if (!c->tsc)
		return;
	pair_read(c, &end_ns, &end_tsc);
	if (end_tsc <= c->start_tsc)
		return;
	ns_per_tick = (double)(end_ns - c->start_ns) / (double)(end_tsc - c->start_tsc);
	for (unsigned i = 0; i < n; i++)
		v[i] = (uint64_t)(v[i] * ns_per_tick + 0.5);
}

void rtt_clock_note(const struct rtt_clock *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (c->moved)
		used = (size_t)snprintf(buf, len, " (%u moved between CPUs, not timed)", c->moved);
	if (!c->slow_source[0] || used >= len)
		return;
	if (c->tsc)
		snprintf(buf + used, len - used, "; clocksource %s: timed with the TSC, as perftest does",
			 c->slow_source);
	else
		snprintf(buf + used, len - used, "; clocksource %s, a device read per round trip: reads high "
			 "(kernel.clocksource)", c->slow_source);
}
