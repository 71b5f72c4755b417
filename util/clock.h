/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monotonic clock of intervals, deadlines and round trips, for every
 * layer: one read of CLOCK_MONOTONIC, in nanoseconds or seconds. Live only;
 * a recording replays its readings through source_clock() (source.h).
 */
#ifndef UTIL_CLOCK_H
#define UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whole seconds plus the fraction, as tv_sec + tv_nsec / 1e9 gives them. */
static inline double mono_s(void)
{
	uint64_t ns = mono_ns();

	return (double)(ns / 1000000000u) + (double)(ns % 1000000000u) / 1e9;
}

#endif
