// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of `rdmadiag link check` run once per device: its device nodes,
 * its user-space provider and its PCIe link. Their rows are in
 * link_checks.c; see link_check.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/probe.h"
#include "../host/sysfs.h"
#include "link_checks_int.h"

/* ---- device nodes and provider ---- */

void lc_chk_dev_uverbs(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_dev *d = dev_of(s);
	char path[128];
	int e_uv = -ENODEV, e_cm;
	(void)env;

	if (d->chardev[0]) {
		snprintf(path, sizeof(path), "/dev/infiniband/%s", d->chardev);
		e_uv = probe_open(path);
	}
	e_cm = probe_open("/dev/infiniband/rdma_cm");
	check_expected(r, "/dev/infiniband/uverbsN and rdma_cm open read-write");
	check_measured(r, "%s%s: %s, rdma_cm: %s", d->chardev[0] ? "/dev/infiniband/" : "uverbs",
		       d->chardev[0] ? d->chardev : " node", e_uv ? strerror(-e_uv) : "ok",
		       e_cm ? strerror(-e_cm) : "ok");
	if (!e_uv && !e_cm)
		check_verdict(r, V_PASS, NULL);
	else if (e_uv == -EACCES || e_uv == -EPERM || e_cm == -EACCES || e_cm == -EPERM)
		check_verdict(r, V_FAIL, "no permission: run as root, or let users open the nodes (rdma-core udev "
					 "rules give mode 0666; check /etc/udev/rules.d and the container's device list)");
	else if (!d->chardev[0] || e_uv == -ENOENT || e_uv == -ENODEV)
		check_verdict(r, V_FAIL, "modprobe ib_uverbs; if it is loaded, udev did not create the node: udevadm trigger");
	else if (e_cm)
		check_verdict(r, V_FAIL, "modprobe rdma_ucm (it creates /dev/infiniband/rdma_cm)");
	else
		check_verdict(r, V_FAIL, "the node exists but cannot be opened: check dmesg for uverbs errors");
}

void lc_chk_dev_provider(const struct lc_env *env, const void *s, struct check_result *r)
{
	static char names[LC_MAX_DEVS][64];
	const struct lc_dev *d = dev_of(s);
	int n = vb_device_names(names, LC_MAX_DEVS);
	(void)env;

	check_expected(r, "libibverbs lists %s", d->d.name);
	for (int i = 0; i < n; i++) {
		if (!strcmp(names[i], d->d.name)) {
			check_measured(r, "libibverbs lists %s", d->d.name);
			check_verdict(r, V_PASS, NULL);
			return;
		}
	}
	check_measured(r, "libibverbs does not list %s (%d device%s listed)", d->d.name, n < 0 ? 0 : n,
		       n == 1 ? "" : "s");
	check_verdict(r, V_FAIL, "the user-space provider for %s is missing or does not match the kernel: install "
				 "ibverbs-providers (Debian/Ubuntu) or rdma-core (RHEL/SUSE) matching this kernel",
		      d->driver[0] ? d->driver : d->d.name);
}

/* ---- PCIe ---- */

double lc_pcie_gts(const char *s)
{
	return strtod(s, NULL);	/* "8.0 GT/s PCIe", "16.0 GT/s PCIe"; "Unknown" -> 0 */
}

int lc_pcie_gen(double gts)
{
	static const double gens[] = { 2.5, 5, 8, 16, 32, 64 };

	for (int i = 0; i < 6; i++)
		if (gts > gens[i] - 0.1 && gts < gens[i] + 0.1)
			return i + 1;
	return 0;
}

/* Data rate of a link after line encoding (8b/10b up to Gen2, 128b/130b after). */
static double pcie_gbps(double gts, unsigned width)
{
	return gts * width * (gts < 8 ? 0.8 : 128.0 / 130.0);
}

static double dev_port_rate(const struct lc_env *env, const struct lc_dev *d)
{
	double best = 0;

	for (int i = 0; i < env->nport; i++)
		if (env->ports[i].lp.nl.dev_index == d->d.index && env->ports[i].lp.rate_gbps > best)
			best = env->ports[i].lp.rate_gbps;
	return best;
}

void lc_chk_pci_link(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_dev *d = dev_of(s);
	char cs[64], ms[64];
	uint64_t cw = 0, mw = 0;
	char path[256];
	double cur, max, port, bw;

	if (fs_readf(cs, sizeof(cs), "/sys/class/infiniband/%s/device/current_link_speed", d->d.name) < 0 ||
	    fs_readf(ms, sizeof(ms), "/sys/class/infiniband/%s/device/max_link_speed", d->d.name) < 0) {
		check_measured(r, "not a PCIe device");
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/current_link_width", d->d.name);
	fs_read_u64(path, &cw);
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/max_link_width", d->d.name);
	fs_read_u64(path, &mw);
	cur = lc_pcie_gts(cs), max = lc_pcie_gts(ms);
	if (cur <= 0 || !cw) {
		check_measured(r, "link speed unknown (%s x%u)", cs, (unsigned)cw);
		return;
	}
	bw = pcie_gbps(cur, (unsigned)cw);
	port = dev_port_rate(env, d);
	check_measured(r, "Gen%d x%u (%.0f Gb/s), capable of Gen%d x%u; port %g Gb/s", lc_pcie_gen(cur), (unsigned)cw, bw,
		       lc_pcie_gen(max), (unsigned)mw, port);
	check_expected(r, "Gen%d x%u and PCIe bandwidth >= port rate", lc_pcie_gen(max), (unsigned)mw);
	if (port > 0 && bw < port)
		check_verdict(r, V_FAIL, "PCIe Gen%d x%u carries about %.0f Gb/s, less than the %g Gb/s port: move the "
					 "NIC to a slot with more lanes or a newer generation (lspci -vvv: LnkCap/LnkSta)",
			      lc_pcie_gen(cur), (unsigned)cw, bw, port);
	else if (cur + 0.1 < max || cw < mw)
		check_verdict(r, V_WARN, "the link trained at Gen%d x%u below its Gen%d x%u capability: reseat the card, "
					 "check the slot's wiring and the BIOS PCIe settings",
			      lc_pcie_gen(cur), (unsigned)cw, lc_pcie_gen(max), (unsigned)mw);
	else
		check_verdict(r, V_PASS, NULL);
}
