// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of `rdmadiag link check` that look at the host as a whole: the
 * kernel's RDMA core and modules, the CPU governor and the locked-memory
 * limit, and the number of devices against --expect-devices. Their rows are
 * in link_checks.c; see link_check.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/clocksource.h"
#include "../host/module_presence.h"
#include "../host/sysfs.h"
#include "link_checks_int.h"

/* Below this RLIMIT_MEMLOCK, registering real buffers fails (ENOMEM in ibv_reg_mr). */
#define MEMLOCK_MIN_BYTES (64ULL << 20)

static const char *const core_modules[] = { "ib_core", "ib_uverbs", "rdma_cm", "rdma_ucm", NULL };

/* ---- kernel ---- */

void lc_chk_kernel_rdma(const struct lc_env *env, const void *s, struct check_result *r)
{
	(void)s;
	check_measured(r, "RDMA netlink answers; %d device%s", env->total_devs, env->total_devs == 1 ? "" : "s");
	check_expected(r, "at least one RDMA device");
	if (env->total_devs == 0)
		check_verdict(r, V_FAIL, "load the driver of your NIC (mlx5_ib, irdma, bnxt_re, ...) or create a "
					 "Soft-RoCE device: modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IFACE");
	else
		check_verdict(r, V_PASS, NULL);
}

/* The modules kernel.modules wants: the core ones, then each device's driver once. */
static int wanted_modules(const struct lc_env *env, const char **want)
{
	int n = 0;

	for (int i = 0; core_modules[i]; i++)
		want[n++] = core_modules[i];
	for (int i = 0; i < env->ndev; i++) {
		bool dup = !env->devs[i].driver[0];

		for (int j = 0; j < n && !dup; j++)
			dup = !strcmp(want[j], env->devs[i].driver);
		if (!dup)
			want[n++] = env->devs[i].driver;
	}
	return n;
}

static bool driver_has_device(const struct lc_env *env, const char *name)
{
	for (int i = 0; i < env->ndev; i++)
		if (!strcmp(env->devs[i].driver, name))
			return true;
	return false;
}

/* The modules sorted by what is known of them, as space-separated lists. */
struct mod_lists {
	char loaded[200], builtin[200], signs[200];
	char missing[200];	/* modprobe can load them */
	char unavailable[200];	/* this kernel's module directory lacks them */
	char no_dir[200];	/* not in the kernel, and no module directory */
	char unknown[200], unknown_why[200];
};

static void sort_module(const char *name, const struct mod_answer *a, struct mod_lists *m)
{
	switch (a->presence) {
	case MOD_LOADED:
		add_word(m->loaded, sizeof(m->loaded), name);
		break;
	case MOD_BUILTIN:
		add_word(m->builtin, sizeof(m->builtin), name);
		if (!strstr(m->signs, a->how))
			add_item(m->signs, sizeof(m->signs), ", ", a->how);
		break;
	case MOD_ABSENT:
		if (a->index == KMOD_IDX_NOT_FOUND)
			add_word(m->unavailable, sizeof(m->unavailable), name);
		else if (a->index == KMOD_IDX_NO_DIR)
			add_word(m->no_dir, sizeof(m->no_dir), name);
		else
			add_word(m->missing, sizeof(m->missing), name);
		break;
	case MOD_UNKNOWN:
		add_word(m->unknown, sizeof(m->unknown), name);
		if (a->index == KMOD_IDX_NO_LIB)
			snprintf(m->unknown_why, sizeof(m->unknown_why), "and libkmod.so.2 cannot be opened");
		else
			snprintf(m->unknown_why, sizeof(m->unknown_why), "and no %s for libkmod to read", a->how);
		break;
	}
}

/* "loaded: a b; built in: c d (seen in X, Y)", the parts there are. */
static void present_text(const struct mod_lists *m, char *buf, size_t len)
{
	buf[0] = '\0';
	if (m->loaded[0])
		snprintf(buf, len, "loaded: %s", m->loaded);
	if (m->builtin[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "%sbuilt in: %s (%s)", n ? "; " : "", m->builtin, m->signs);
	}
}

static void modules_fail(const struct mod_lists *m, struct check_result *r)
{
	const char *parts[] = { m->missing, m->unavailable, m->no_dir };
	char absent[600] = "";

	for (int i = 0; i < 3; i++)
		if (parts[i][0])
			add_word(absent, sizeof(absent), parts[i]);
	check_measured(r, "not loaded: %s", absent);
	if (m->no_dir[0])
		check_verdict(r, V_FAIL, "%s%s%s%s: not in this kernel, which has no module directory (/lib/modules): "
					 "install the kernel's modules package, or boot a kernel built with them "
					 "(CONFIG_INFINIBAND_USER_ACCESS, CONFIG_INFINIBAND_ADDR_TRANS)",
			      m->missing[0] ? "modprobe -a " : "", m->missing, m->missing[0] ? "; " : "", m->no_dir);
	else if (m->unavailable[0])
		check_verdict(r, V_FAIL, "%s%s%s%s not found for this kernel: install its modules package "
					 "(linux-modules-extra / kernel-modules-extra)",
			      m->missing[0] ? "modprobe -a " : "", m->missing, m->missing[0] ? "; " : "",
			      m->unavailable);
	else
		check_verdict(r, V_FAIL, "modprobe -a %s (and add them to /etc/modules-load.d/rdma.conf to load at boot)",
			      m->missing);
}

/* Loaded, or built in: a kernel that builds the RDMA core in (cloud and vendor
 * kernels) has no /sys/module entry for code without parameters, so
 * module_presence() also looks at what the code makes and at libkmod. */
void lc_chk_kernel_modules(const struct lc_env *env, const void *s, struct check_result *r)
{
	const char *want[LC_MAX_DEVS + 8];
	struct mod_lists m = { 0 };
	char present[400];
	int n = wanted_modules(env, want);
	(void)s;

	for (int i = 0; i < n; i++) {
		struct mod_answer a;

		/* link check runs only once RDMA netlink has answered (NEEDS_NETLINK) */
		module_presence(want[i], true, driver_has_device(env, want[i]), &a);
		sort_module(want[i], &a, &m);
	}
	present_text(&m, present, sizeof(present));
	check_expected(r, "ib_core ib_uverbs rdma_cm rdma_ucm and each device's driver loaded");
	if (m.missing[0] || m.unavailable[0] || m.no_dir[0]) {
		modules_fail(&m, r);
	} else if (m.unknown[0]) {
		check_measured(r, "cannot tell whether %s is in the kernel: no sign of it in sysfs %s%s%s", m.unknown,
			       m.unknown_why, present[0] ? "; " : "", present);
		check_verdict(r, V_WARN, "look for it in the kernel's configuration (/boot/config-$(uname -r)) or "
					 "modules.builtin; if it is a module: modprobe -a %s",
			      m.unknown);
	} else {
		check_measured(r, "%s", present);
		check_verdict(r, V_PASS, NULL);
	}
}

/* ---- CPU and memory ---- */

struct gov_count {
	int cpus, performance;
	char other[32];
};

static int count_governor(const char *name, void *data)
{
	struct gov_count *g = data;
	char gov[32];
	const char *p = name + 3;

	if (strncmp(name, "cpu", 3) || !*p || strspn(p, "0123456789") != strlen(p))
		return 0;
	if (fs_readf(gov, sizeof(gov), "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", name) < 0)
		return 0;
	g->cpus++;
	if (!strcmp(gov, "performance"))
		g->performance++;
	else if (!g->other[0])
		snprintf(g->other, sizeof(g->other), "%s", gov);
	return 0;
}

void lc_chk_cpu_governor(const struct lc_env *env, const void *s, struct check_result *r)
{
	struct gov_count g = { 0 };
	(void)env, (void)s;

	fs_list("/sys/devices/system/cpu", count_governor, &g);
	if (!g.cpus) {
		check_measured(r, "no cpufreq governor (VM, or frequency left to firmware)");
		return;
	}
	check_expected(r, "performance");
	if (g.performance == g.cpus) {
		check_measured(r, "performance on %d CPU%s", g.cpus, g.cpus == 1 ? "" : "s");
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_measured(r, "%s on %d of %d CPUs", g.other, g.cpus - g.performance, g.cpus);
	check_verdict(r, V_WARN, "frequency scaling adds latency and jitter: cpupower frequency-set -g performance "
				 "(or tuned-adm profile network-latency)");
}

/* A slow clocksource inflates every latency timed on the host (rdmadiag's
 * latency stage reads the clock once per round trip) and slows programs that
 * read the clock often: in the lab's two-vCPU VMs (hpet) round trips were
 * timed at twice perftest's. */
void lc_chk_kernel_clocksource(const struct lc_env *env, const void *s, struct check_result *r)
{
	char cur[64], avail[256];
	(void)env, (void)s;

	if (clocksource_current(cur, sizeof(cur)) <= 0) {
		check_measured(r, "clocksource unknown (%s/current_clocksource unreadable)", CLOCKSOURCE_DIR);
		return;
	}
	if (clocksource_available(avail, sizeof(avail)) <= 0)
		snprintf(avail, sizeof(avail), "unknown");
	check_expected(r, "a counter read in user space (tsc, kvm-clock, arch_sys_counter, ...)");
	check_measured(r, "%s (available: %s)", cur, avail);
	if (!clocksource_slow(cur)) {
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_verdict(r, V_WARN, "every precise clock read is a device access (slower still in a VM): latencies timed "
				 "on this host read high and programs that read the clock often run slower; dmesg | "
				 "grep -i -e clocksource -e tsc says why the TSC was set aside; give a VM an invariant "
				 "TSC or kvm-clock");
}

/* RLIMIT_MEMLOCK of this process, from /proc/self/limits (a file, so it replays). */
static int memlock_limit(unsigned long long *soft, bool *unlimited)
{
	char buf[4096];

	if (fs_read("/proc/self/limits", buf, sizeof(buf)) < 0)
		return -ENOENT;
	return lc_memlock_parse(buf, soft, unlimited);
}

int lc_memlock_parse(const char *limits, unsigned long long *soft, bool *unlimited)
{
	const char *line = strstr(limits, "Max locked memory");

	if (!line)
		return -EINVAL;
	line += strlen("Max locked memory");
	while (*line == ' ')
		line++;
	*unlimited = !strncmp(line, "unlimited", 9);
	*soft = *unlimited ? 0 : strtoull(line, NULL, 10);
	return 0;
}

static void format_bytes(unsigned long long b, char *buf, size_t len)
{
	if (b >= (1ULL << 30) && !(b % (1ULL << 30)))
		snprintf(buf, len, "%llu GiB", b >> 30);
	else if (b >= (1ULL << 20))
		snprintf(buf, len, "%llu MiB", b >> 20);
	else
		snprintf(buf, len, "%llu KiB", b >> 10);
}

void lc_chk_mem_memlock(const struct lc_env *env, const void *s, struct check_result *r)
{
	unsigned long long soft = 0;
	bool unlimited = false;
	char have[32], want[32];
	(void)env, (void)s;

	if (memlock_limit(&soft, &unlimited)) {
		check_measured(r, "locked-memory limit unknown (/proc/self/limits unreadable)");
		return;
	}
	format_bytes(MEMLOCK_MIN_BYTES, want, sizeof(want));
	check_expected(r, "unlimited, or at least %s", want);
	if (unlimited) {
		check_measured(r, "RLIMIT_MEMLOCK unlimited");
		check_verdict(r, V_PASS, NULL);
		return;
	}
	format_bytes(soft, have, sizeof(have));
	check_measured(r, "RLIMIT_MEMLOCK %s", have);
	if (soft >= MEMLOCK_MIN_BYTES)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_WARN, "registering buffers larger than %s fails: ulimit -l unlimited in the shell, "
					 "'* - memlock unlimited' in /etc/security/limits.d/rdma.conf, "
					 "LimitMEMLOCK=infinity for systemd services",
			      have);
}

/* ---- expectations ---- */

void lc_chk_expect_devices(const struct lc_env *env, const void *s, struct check_result *r)
{
	unsigned long long want = uopt_num(env, O_EXPECT_DEVICES);
	(void)s;

	check_measured(r, "%d RDMA device%s", env->total_devs, env->total_devs == 1 ? "" : "s");
	check_expected(r, "%llu", want);
	if ((unsigned long long)env->total_devs == want)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "%s: compare 'rdmadiag dev show' with the inventory; a missing device needs "
					 "its driver (dmesg) or its Soft-RoCE link",
			      (unsigned long long)env->total_devs < want ? "devices are missing" : "more devices than expected");
}
