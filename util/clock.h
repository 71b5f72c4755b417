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

/* Milliseconds of CLOCK_MONOTONIC_COARSE: the kernel's last tick (1-4 ms
 * behind), read from the vDSO page without touching the clock hardware. For
 * deadlines and bounds that are checked in loops: where the clocksource is
 * hpet or acpi_pm every CLOCK_MONOTONIC read is a register access (a trip
 * through the hypervisor in a VM, serialised with every other vCPU in qemu),
 * and a deadline check per message made round trips there twice as long as
 * perftest's (lab shape smp2). Not for measuring: its resolution is a tick. */
static inline int64_t mono_coarse_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whole seconds plus the fraction, as tv_sec + tv_nsec / 1e9 gives them. */
static inline double mono_s(void)
{
	uint64_t ns = mono_ns();

	return (double)(ns / 1000000000u) + (double)(ns % 1000000000u) / 1e9;
}

#endif
