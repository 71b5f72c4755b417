/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU's time-stamp counter, read in user space as perftest reads it: no
 * system call and no device access, whatever the kernel's clocksource. x86
 * only (RDTSCP, which also says which CPU it was read on: two CPUs' counters
 * need not agree); elsewhere cycles_have() is false and callers use
 * mono_ns(). The rate is the caller's to measure against CLOCK_MONOTONIC.
 */
#ifndef UTIL_CYCLES_H
#define UTIL_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>

static inline bool cycles_have(void)
{
	unsigned a, b, c, d;

	/* CPUID 0x80000001 EDX bit 27: RDTSCP */
	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}

static inline uint64_t cycles_read(unsigned *cpu)
{
	return __rdtscp(cpu);
}
#else
static inline bool cycles_have(void)
{
	return false;
}

static inline uint64_t cycles_read(unsigned *cpu)
{
	*cpu = 0;
	return 0;
}
#endif

#endif
