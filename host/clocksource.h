/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's clocksource, live or from a recording (sysfs.h): what every
 * clock_gettime(CLOCK_MONOTONIC) of every program on the host reads.
 */
#ifndef RDMADIAG_CLOCKSOURCE_H
#define RDMADIAG_CLOCKSOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CLOCKSOURCE_DIR "/sys/devices/system/clocksource/clocksource0"

/* Its name ("tsc", "hpet", ...); the length or -errno. */
ssize_t clocksource_current(char *buf, size_t len);
/* The ones the kernel could use ("tsc hpet acpi_pm"); the length or -errno. */
ssize_t clocksource_available(char *buf, size_t len);
/* A clocksource read as a device register (hpet, acpi_pm, pit) or only a
 * tick (jiffies): each precise clock read costs microseconds, more under a
 * hypervisor, and timings taken with it are inflated. The counters read in
 * user space (tsc, kvm-clock, arch_sys_counter, ...) are not slow. */
bool clocksource_slow(const char *name);

#endif
