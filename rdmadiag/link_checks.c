// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of `rdmadiag link check`, one small function each, and the one
 * table that lists them (at the end). See link_check.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../netlink/probe.h"
#include "../netlink/source.h"
#include "../netlink/sysfs.h"
#include "link_check.h"
#include "module_presence.h"

/* RoCE headers the RDMA MTU must leave room for in the netdev MTU (the
 * kernel's iboe_get_mtu(): GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4). */
#define ROCE_HDR_BYTES 96
/* Below this RLIMIT_MEMLOCK, registering real buffers fails (ENOMEM in ibv_reg_mr). */
#define MEMLOCK_MIN_BYTES (64ULL << 20)

static const char *const core_modules[] = { "ib_core", "ib_uverbs", "rdma_cm", "rdma_ucm", NULL };

static const struct lc_port *port_of(const void *s) { return s; }
static const struct lc_dev *dev_of(const void *s) { return s; }

static const char *uopt_str(const struct lc_env *env, const char *name)
{
	return ctx_opt_str(env->ctx, name, NULL);
}

static unsigned long long uopt_num(const struct lc_env *env, const char *name)
{
	return ctx_opt_uint(env->ctx, name, 0);
}

/* ---- kernel ---- */

static void chk_kernel_rdma(const struct lc_env *env, const void *s, struct check_result *r)
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

/* Appends w to the list in buf, after sep unless it is the first item. */
static void add_item(char *buf, size_t len, const char *sep, const char *w)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? sep : "", w);
}

static void add_word(char *buf, size_t len, const char *w)
{
	add_item(buf, len, " ", w);
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
static void chk_kernel_modules(const struct lc_env *env, const void *s, struct check_result *r)
{
	const char *want[LC_MAX_DEVS + 8];
	struct mod_lists m = { 0 };
	char present[400];
	int n = wanted_modules(env, want);
	(void)s;

	for (int i = 0; i < n; i++) {
		struct mod_answer a;

		/* link check runs only once RDMA netlink has answered (nl_require) */
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

/* ---- device nodes and provider ---- */

static void chk_dev_uverbs(const struct lc_env *env, const void *s, struct check_result *r)
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

static void chk_dev_provider(const struct lc_env *env, const void *s, struct check_result *r)
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

/* ---- port ---- */

static void chk_port_state(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	(void)env;

	check_measured(r, "%s", rd_port_state_name(p->lp.nl.state));
	check_expected(r, "ACTIVE");
	if (p->lp.nl.state == 4)
		check_verdict(r, V_PASS, NULL);
	else if (p->lp.is_ib && p->lp.nl.state == 2)
		check_verdict(r, V_FAIL, "link is up but no subnet manager configured the port: start opensm "
					 "(systemctl start opensm) here or on a switch");
	else if (!p->lp.is_ib && p->lp.nl.ndev_name[0])
		check_verdict(r, V_FAIL, "bring the netdev up and check the cable: ip link set dev %s up",
			      p->lp.nl.ndev_name);
	else
		check_verdict(r, V_FAIL, "check the cable, the transceiver and the switch port");
}

static void chk_port_phys(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	(void)env;

	check_measured(r, "%s", rd_phys_state_name(p->lp.nl.phys_state));
	check_expected(r, "LINK_UP");
	if (p->lp.nl.phys_state == 5)
		check_verdict(r, V_PASS, NULL);
	else if (p->lp.nl.phys_state == 3 && p->lp.nl.ndev_name[0])
		check_verdict(r, V_FAIL, "the port is disabled: ip link set dev %s up", p->lp.nl.ndev_name);
	else
		check_verdict(r, V_FAIL, "no physical link: check the cable, the transceiver and the switch port%s%s",
			      p->lp.nl.ndev_name[0] ? "; ethtool " : "", p->lp.nl.ndev_name);
}

static void chk_port_lid(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	(void)env;

	check_measured(r, "LID %u", p->lp.nl.lid);
	check_expected(r, "a LID in 1..0xbfff");
	if (p->lp.nl.lid && p->lp.nl.lid < 0xc000)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "the subnet manager has not assigned a LID: start opensm (systemctl start "
					 "opensm) or check the fabric's SM (sminfo)");
}

static void chk_port_sm(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	(void)env;

	check_measured(r, "SM LID %u", p->lp.nl.sm_lid);
	check_expected(r, "a subnet manager (SM LID non-zero)");
	if (p->lp.nl.sm_lid && p->lp.nl.sm_lid < 0xc000)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "no subnet manager answers on this fabric: run opensm on one node or "
					 "enable the switch's SM");
}

static void chk_port_rate(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	double want = ctx_opt(env->ctx, "--expect-rate")->dbl;
	bool have_want = ctx_opt(env->ctx, "--expect-rate")->set;
	const char *w = vb_width_str(p->lp.vb.active_width), *sp = vb_speed_str(p->lp.vb.active_speed);

	if (!p->lp.has_verbs || p->lp.rate_gbps <= 0) {
		check_measured(r, "rate unknown (libibverbs has no port attributes)");
		return;	/* skip */
	}
	check_measured(r, "%g Gb/s (%s %s)", p->lp.rate_gbps, w ? w : "?", sp ? sp : "?");
	if (!have_want) {
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_expected(r, "%g Gb/s", want);
	/* nominal rates (lanes x 2.5, 5, 10, 14, 25 ... Gb/s): no slack needed */
	if (p->lp.rate_gbps + 1e-9 >= want)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "the port trained below %g Gb/s: check the cable and transceiver, and the "
					 "switch port speed%s%s",
			      want, p->lp.nl.ndev_name[0] ? " (ethtool " : "",
			      p->lp.nl.ndev_name[0] ? p->lp.nl.ndev_name : "");
	if (r->verdict == V_FAIL && p->lp.nl.ndev_name[0])
		strncat(r->hint, ")", sizeof(r->hint) - strlen(r->hint) - 1);
}

/* The largest IB MTU a netdev MTU carries with the RoCE headers. */
static unsigned roce_mtu_for(unsigned netdev_mtu)
{
	for (unsigned m = 4096; m >= 256; m /= 2)
		if (netdev_mtu >= m + ROCE_HDR_BYTES)
			return m;
	return 0;
}

static void chk_port_mtu(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	unsigned active = p->lp.vb.active_mtu, max = p->lp.vb.max_mtu, allowed, best;
	(void)env;

	if (!p->lp.has_verbs || !active || !p->lp.nd.found) {
		check_measured(r, "%s", !p->lp.nd.found ? "no netdev" : "active MTU unknown");
		return;
	}
	allowed = roce_mtu_for(p->lp.nd.mtu);
	best = max && max < allowed ? max : allowed;
	check_measured(r, "active %u, netdev %s MTU %u allows %u, port max %u", active, p->lp.nl.ndev_name,
		       p->lp.nd.mtu, allowed, max);
	check_expected(r, "%u", best);
	if (active > allowed)
		check_verdict(r, V_FAIL, "RDMA MTU %u does not fit netdev MTU %u (RoCE adds %u bytes): raise it: "
					 "ip link set dev %s mtu %u",
			      active, p->lp.nd.mtu, ROCE_HDR_BYTES, p->lp.nl.ndev_name, active + ROCE_HDR_BYTES + 4);
	else if (active < best)
		check_verdict(r, V_WARN, "RDMA MTU %u is below the %u the netdev allows: the driver did not follow the "
					 "MTU change; re-create the device or reload the driver",
			      active, best);
	else
		check_verdict(r, V_PASS, NULL);
}

/* ---- netdev ---- */

static void chk_netdev_present(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	(void)env;

	check_expected(r, "a network device bound to the port");
	if (!p->lp.nl.ndev_name[0]) {
		check_measured(r, "none");
		check_verdict(r, V_FAIL, "the RoCE port has no netdev: for Soft-RoCE, rdma link add %s type rxe "
					 "netdev IFACE; for a NIC, check that its Ethernet driver is loaded",
			      p->lp.nl.dev_name);
	} else if (!p->lp.nd.found) {
		check_measured(r, "%s (ifindex %u) not visible", p->lp.nl.ndev_name, p->lp.nl.ndev_index);
		check_verdict(r, V_FAIL, "%s is in another network namespace or gone: run rdmadiag in its namespace "
					 "(ip netns exec NS rdmadiag link check)",
			      p->lp.nl.ndev_name);
	} else {
		check_measured(r, "%s", p->lp.nl.ndev_name);
		check_verdict(r, V_PASS, NULL);
	}
}

static void chk_netdev_up(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const char *st = p->lp.nd.operstate;
	(void)env;

	if (!p->lp.nd.found) {
		check_measured(r, "no netdev");
		return;
	}
	check_measured(r, "%s operstate %s, carrier %s", p->lp.nl.ndev_name, st,
		       p->lp.nd.carrier == 1 ? "yes" : p->lp.nd.carrier == 0 ? "no" : "unknown");
	check_expected(r, "up with carrier");
	/* virtual devices (dummy, veth peers) report "unknown" while up */
	if (p->lp.nd.carrier == 1 && (!strcmp(st, "up") || !strcmp(st, "unknown")))
		check_verdict(r, V_PASS, NULL);
	else if (p->lp.nd.carrier == -1)	/* carrier reads fail while administratively down */
		check_verdict(r, V_FAIL, "ip link set dev %s up", p->lp.nl.ndev_name);
	else
		check_verdict(r, V_FAIL, "%s has no carrier: check the cable and the switch port (ethtool %s)",
			      p->lp.nl.ndev_name, p->lp.nl.ndev_name);
}

static void chk_netdev_mtu(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	bool have_want = ctx_opt(env->ctx, "--expect-mtu")->set;
	unsigned long long want = uopt_num(env, "--expect-mtu");

	if (!p->lp.nd.found) {
		check_measured(r, "no netdev");
		return;
	}
	check_measured(r, "%s MTU %u", p->lp.nl.ndev_name, p->lp.nd.mtu);
	if (!have_want) {
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_expected(r, "%llu", want);
	/* An equality, as a provisioning script means it: a netdev above its
	 * peers' MTU sends frames they drop (QPs stall) as surely as one below. */
	if (p->lp.nd.mtu == want)
		check_verdict(r, V_PASS, NULL);
	else if (p->lp.nd.mtu < want)
		check_verdict(r, V_FAIL, "%s has MTU %u, %llu expected: set MTU %llu on %s and on the switch port: "
					 "ip link set dev %s mtu %llu",
			      p->lp.nl.ndev_name, p->lp.nd.mtu, want, want, p->lp.nl.ndev_name, p->lp.nl.ndev_name, want);
	else
		check_verdict(r, V_FAIL, "%s has MTU %u, %llu expected: peers and switch ports at %llu drop its larger "
					 "frames; set MTU %llu on %s and on the switch port: ip link set dev %s mtu %llu "
					 "(or raise every peer and expect %u)",
			      p->lp.nl.ndev_name, p->lp.nd.mtu, want, want, want, p->lp.nl.ndev_name, p->lp.nl.ndev_name,
			      want, p->lp.nd.mtu);
}

/* ---- GIDs ---- */

static bool gids_unreadable(const struct lc_port *p, struct check_result *r)
{
	if (!p->gid_err)
		return false;
	check_measured(r, "GID table unreadable: %s", strerror(-p->gid_err));
	return true;
}

static void chk_gid_roce_v2(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	char missing[320] = "", have[320] = "";
	int routable = 0;
	(void)env;

	if (gids_unreadable(p, r))
		return;
	if (p->naddr < 0) {
		check_measured(r, "addresses of %s unknown", p->lp.nl.ndev_name);
		return;
	}
	for (int i = 0; i < p->naddr; i++) {
		const struct nd_addr *a = &p->addrs[i];
		const struct gid_entry *g;
		char item[80];

		if (a->link_local)
			continue;	/* the port's default GID covers link-local, from the MAC */
		routable++;
		g = gid_for_ip(&p->gids, a->text, GID_TYPE_ROCE_V2);
		if (g) {
			snprintf(item, sizeof(item), "%s at index %u", a->text, g->index);
			add_item(have, sizeof(have), ", ", item);
		} else {
			add_word(missing, sizeof(missing), a->text);
		}
	}
	check_expected(r, "a RoCE v2 GID for every IP of %s", p->lp.nl.ndev_name);
	if (!routable) {
		check_measured(r, "%s has no IPv4/IPv6 address", p->lp.nl.ndev_name[0] ? p->lp.nl.ndev_name : "netdev");
		check_verdict(r, V_WARN, "RoCE v2 and rdma_cm need an IP on the netdev: ip addr add ADDR/PREFIX dev %s",
			      p->lp.nl.ndev_name);
	} else if (missing[0]) {
		check_measured(r, "no RoCE v2 GID for %s%s%s", missing, have[0] ? "; " : "", have);
		check_verdict(r, V_FAIL, "the RDMA core did not add GIDs for these addresses: check that %s is the "
					 "netdev of %s (rdma link show) and that the address is not tentative (DAD); "
					 "re-add the address",
			      p->lp.nl.ndev_name, p->lp.nl.dev_name);
	} else {
		check_measured(r, "%s", have);
		check_verdict(r, V_PASS, NULL);
	}
}

static void describe_gid(const struct gid_entry *g, char *buf, size_t len)
{
	snprintf(buf, len, "index %u (%s, %s)", g->index, gid_type_text(g->type), g->ip[0] ? g->ip : g->text);
}

static void chk_gid_default(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const struct gid_entry *zero = NULL, *best = gid_recommended(&p->gids);
	char z[96], b[96];
	(void)env;

	if (gids_unreadable(p, r))
		return;
	for (unsigned i = 0; i < p->gids.n; i++)
		if (p->gids.e[i].index == 0 && !p->gids.e[i].empty)
			zero = &p->gids.e[i];
	if (!zero || !best) {
		check_measured(r, "GID index 0 is empty");
		return;	/* gid.usable reports it */
	}
	describe_gid(zero, z, sizeof(z));
	describe_gid(best, b, sizeof(b));
	check_measured(r, "GID %s", z);
	check_expected(r, "%s", b);
	if (zero == best || (zero->type == GID_TYPE_ROCE_V2 && !zero->link_local))
		check_verdict(r, V_PASS, NULL);
	else if (best->type == GID_TYPE_ROCE_V2 && !best->link_local)
		check_verdict(r, V_WARN, "GID index 0 is %s%s; tools that default to index 0 use it: use index %u "
					 "(%s, %s), e.g. ib_write_bw -x %u",
			      gid_type_text(zero->type), zero->link_local ? " link-local" : "", best->index,
			      gid_type_text(best->type), best->ip, best->index);
	else
		check_verdict(r, V_WARN, "GID index 0 is %s%s and no routable RoCE v2 GID exists: add an IP address "
					 "to %s",
			      gid_type_text(zero->type), zero->link_local ? " link-local" : "", p->lp.nl.ndev_name);
}

static void chk_gid_usable(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	int roce = 0, routable = 0, ib = 0;
	(void)env;

	if (gids_unreadable(p, r))
		return;
	for (unsigned i = 0; i < p->gids.n; i++) {
		const struct gid_entry *g = &p->gids.e[i];

		if (g->empty)
			continue;
		if (g->type == GID_TYPE_IB)
			ib++;
		else if (g->type == GID_TYPE_ROCE_V1 || g->type == GID_TYPE_ROCE_V2) {
			roce++;
			routable += !g->link_local;
		}
	}
	if (p->lp.is_ib) {
		check_measured(r, "%d IB GID%s", ib, ib == 1 ? "" : "s");
		check_expected(r, "at least one IB GID");
		if (ib)
			check_verdict(r, V_PASS, NULL);
		else
			check_verdict(r, V_FAIL, "the port has no GID: it is not initialised (check port.state and the SM)");
		return;
	}
	check_measured(r, "%d RoCE GID%s, %d with a routable IP", roce, roce == 1 ? "" : "s", routable);
	check_expected(r, "a RoCE GID with a routable IP");
	if (routable)
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "no usable GID: give %s an IP address (ip addr add ADDR/PREFIX dev %s) and "
					 "check that it is up",
			      p->lp.nl.ndev_name[0] ? p->lp.nl.ndev_name : "the netdev",
			      p->lp.nl.ndev_name[0] ? p->lp.nl.ndev_name : "IFACE");
}

/* ---- several RDMA netdevs on one subnet ---- */

static bool arp_sysctls_set(const char *ifname)
{
	char path[160];
	uint64_t ign = 0, ann = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/arp_ignore", ifname);
	if (fs_read_u64(path, &ign))
		return false;
	snprintf(path, sizeof(path), "/proc/sys/net/ipv4/conf/%s/arp_announce", ifname);
	if (fs_read_u64(path, &ann))
		return false;
	return ign == 1 && ann == 2;
}

static void chk_net_subnet(const struct lc_env *env, const void *s, struct check_result *r)
{
	char pairs[256] = "", names[128] = "";
	bool known = false, sysctls = true;
	(void)s;

	for (int i = 0; i < env->nport; i++) {
		const struct lc_port *a = &env->ports[i];

		known |= a->naddr >= 0 && !a->lp.is_ib;
		for (int j = i + 1; j < env->nport; j++) {
			const struct lc_port *b = &env->ports[j];

			if (a->lp.is_ib || b->lp.is_ib || !a->lp.nl.ndev_index ||
			    a->lp.nl.ndev_index == b->lp.nl.ndev_index)
				continue;
			for (int x = 0; x < a->naddr; x++) {
				for (int y = 0; y < b->naddr; y++) {
					char item[128];

					if (a->addrs[x].link_local || b->addrs[y].link_local ||
					    !addr_same_subnet(&a->addrs[x], &b->addrs[y]))
						continue;
					snprintf(item, sizeof(item), "%s(%s)+%s(%s)", a->lp.nl.ndev_name, a->addrs[x].text,
						 b->lp.nl.ndev_name, b->addrs[y].text);
					add_word(pairs, sizeof(pairs), item);
					if (!strstr(names, a->lp.nl.ndev_name))
						add_word(names, sizeof(names), a->lp.nl.ndev_name);
					if (!strstr(names, b->lp.nl.ndev_name))
						add_word(names, sizeof(names), b->lp.nl.ndev_name);
					sysctls &= arp_sysctls_set(a->lp.nl.ndev_name) && arp_sysctls_set(b->lp.nl.ndev_name);
				}
			}
		}
	}
	if (!known) {
		check_measured(r, "no RoCE netdev addresses known");
		return;
	}
	check_expected(r, "each RDMA netdev on its own IP subnet, or ARP and routing set up for shared subnets");
	if (!pairs[0]) {
		check_measured(r, "no two RDMA netdevs share a subnet");
		check_verdict(r, V_PASS, NULL);
		return;
	}
	check_measured(r, "same subnet: %s%s", pairs, sysctls ? " (arp_ignore=1 arp_announce=2 set)" : "");
	if (sysctls)
		check_verdict(r, V_WARN, "ARP is set up; also make each source address leave through its own port with "
					 "policy routing: ip rule add from ADDR table N; ip route add SUBNET dev IFACE table N");
	else
		check_verdict(r, V_WARN, "ARP replies and source-address selection go to the wrong port: for each of %s: "
					 "sysctl -w net.ipv4.conf.IFACE.arp_ignore=1 net.ipv4.conf.IFACE.arp_announce=2, "
					 "and policy routing per source address (ip rule add from ADDR table N)",
			      names);
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

static void chk_pci_link(const struct lc_env *env, const void *s, struct check_result *r)
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

static void chk_cpu_governor(const struct lc_env *env, const void *s, struct check_result *r)
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

static void chk_mem_memlock(const struct lc_env *env, const void *s, struct check_result *r)
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

/* ---- rdma_cm ---- */

static void chk_cm_roce_mode(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	char mode[32];
	(void)env;

	if (fs_readf(mode, sizeof(mode), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
		     p->lp.nl.dev_name, p->lp.nl.port) < 0) {
		check_measured(r, "not exposed (configfs rdma_cm/%s not created; the kernel default is RoCE v2)",
			       p->lp.nl.dev_name);
		return;
	}
	check_measured(r, "rdma_cm default %s", mode);
	check_expected(r, "RoCE v2");
	if (!strcmp(mode, "RoCE v2"))
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_WARN, "rdma_cm connects with %s (not routable, not the peer's likely mode): "
					 "echo 'RoCE v2' > /sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
			      mode, p->lp.nl.dev_name, p->lp.nl.port);
}

/* ---- expectations ---- */

static void chk_expect_devices(const struct lc_env *env, const void *s, struct check_result *r)
{
	unsigned long long want = uopt_num(env, "--expect-devices");
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

static void chk_expect_link_layer(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const char *want = uopt_str(env, "--expect-link-layer");
	const char *have = p->lp.is_ib ? "infiniband" : "ethernet";

	check_measured(r, "%s", have);
	check_expected(r, "%s", want);
	if (!strcmp(have, want))
		check_verdict(r, V_PASS, NULL);
	else
		check_verdict(r, V_FAIL, "the port runs %s: a VPI adapter can switch (mlxconfig ... LINK_TYPE_P1=%s, "
					 "then reboot)",
			      have, !strcmp(want, "ethernet") ? "2" : "1");
}

/* Why a port has no routable GID of type t: the link layer, a device that
 * makes only the other RoCE version, or a netdev without an IP. */
static const char *gid_type_missing_hint(const struct lc_port *p, enum gid_type t)
{
	bool other_roce = false;

	if (t == GID_TYPE_IB)
		return p->lp.is_ib ? "the port lists no IB GID: check the port with rdmadiag gid show"
				   : "a RoCE (Ethernet) port has RoCE GIDs, not IB GIDs";
	if (p->lp.is_ib)
		return "an InfiniBand port has IB GIDs only: RoCE needs an Ethernet port";
	for (unsigned i = 0; i < p->gids.n; i++)
		other_roce |= p->gids.e[i].type != t && p->gids.e[i].type != GID_TYPE_IB && !p->gids.e[i].link_local;
	if (other_roce)
		return t == GID_TYPE_ROCE_V1 ? "the device makes RoCE v2 GIDs only for its IPs (Soft-RoCE does): use v2"
					     : "the device makes RoCE v1 GIDs only for its IPs: check its RoCE mode "
					       "(driver or firmware setting)";
	return "give the netdev an IP address; RoCE v1/v2 GIDs follow the IPs of the netdev";
}

static void chk_expect_gid_type(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const char *want = uopt_str(env, "--expect-gid-type");
	enum gid_type t = gid_type_from_token(want);
	const struct gid_entry *found = NULL;

	if (gids_unreadable(p, r))
		return;
	for (unsigned i = 0; i < p->gids.n && !found; i++)
		if (p->gids.e[i].type == t && (t == GID_TYPE_IB || !p->gids.e[i].link_local))
			found = &p->gids.e[i];
	check_expected(r, "%s %s GID%s", t == GID_TYPE_IB ? "an" : "a", gid_type_text(t),
		       t == GID_TYPE_IB ? "" : " with a routable IP");
	if (found) {
		check_measured(r, "index %u (%s%s%s)", found->index, gid_type_text(t), found->ip[0] ? ", " : "",
			       found->ip);
		check_verdict(r, V_PASS, NULL);
	} else {
		check_measured(r, "no %s GID", gid_type_text(t));
		check_verdict(r, V_FAIL, "%s", gid_type_missing_hint(p, t));
	}
}

/* The table: order is the order of the output. */
const struct lc_check lc_checks[] = {
	{ "kernel.rdma", "the kernel has the RDMA core and at least one device", LC_HOST, LC_ANY, NULL,
	  chk_kernel_rdma },
	{ "kernel.modules", "ib_core, ib_uverbs, rdma_cm, rdma_ucm and each device's driver are loaded or built in",
	  LC_HOST, LC_ANY, NULL, chk_kernel_modules },
	{ "dev.uverbs", "/dev/infiniband/uverbsN and rdma_cm exist and open", LC_DEV, LC_ANY, NULL, chk_dev_uverbs },
	{ "dev.provider", "libibverbs sees the device (user-space provider installed)", LC_DEV, LC_ANY, NULL,
	  chk_dev_provider },
	{ "pci.link", "PCIe link trained at its capability and fast enough for the port", LC_DEV, LC_ANY, NULL,
	  chk_pci_link, NULL, lc_chk_gpu_pci_link },
	{ "port.state", "port state is ACTIVE", LC_PORT, LC_ANY, NULL, chk_port_state },
	{ "port.phys_state", "physical state is LINK_UP", LC_PORT, LC_ANY, NULL, chk_port_phys },
	{ "port.lid", "InfiniBand: the port has a LID", LC_PORT, LC_IB, NULL, chk_port_lid },
	{ "port.sm", "InfiniBand: a subnet manager is known (SM LID)", LC_PORT, LC_IB, NULL, chk_port_sm },
	{ "port.rate", "port rate (against --expect-rate)", LC_PORT, LC_ANY, NULL, chk_port_rate, "--expect-rate" },
	{ "netdev.present", "RoCE: the port has a visible netdev", LC_PORT, LC_ETH, NULL, chk_netdev_present },
	{ "netdev.up", "RoCE: the netdev is up with carrier", LC_PORT, LC_ETH, NULL, chk_netdev_up },
	{ "netdev.mtu", "RoCE: netdev MTU (against --expect-mtu)", LC_PORT, LC_ETH, NULL, chk_netdev_mtu,
	  "--expect-mtu" },
	{ "port.mtu", "RoCE: active RDMA MTU fits the netdev MTU and uses what it allows", LC_PORT, LC_ETH, NULL,
	  chk_port_mtu },
	{ "gid.usable", "the port has a usable GID", LC_PORT, LC_ANY, NULL, chk_gid_usable },
	{ "gid.roce_v2", "RoCE: every IP of the netdev has a RoCE v2 GID", LC_PORT, LC_ETH, NULL, chk_gid_roce_v2 },
	{ "gid.default", "RoCE: GID index 0 is what tools should use, else name the index", LC_PORT, LC_ETH, NULL,
	  chk_gid_default },
	{ "cm.roce_mode", "RoCE: rdma_cm default RoCE mode is v2 (configfs)", LC_PORT, LC_ETH, NULL, chk_cm_roce_mode },
	{ "net.subnet", "no two RDMA netdevs share an IP subnet without ARP/routing setup", LC_HOST, LC_ANY, NULL,
	  chk_net_subnet },
	{ "cpu.governor", "CPU frequency governor is performance", LC_HOST, LC_ANY, NULL, chk_cpu_governor },
	{ "mem.memlock", "locked-memory limit is large enough to register buffers", LC_HOST, LC_ANY, NULL,
	  chk_mem_memlock },
	/* GPU hosts only (link_checks_gpu.c) */
	{ "gpu.nic_affinity", "each GPU has an RDMA NIC of its own at PIX/PXB (NCCL pairing)", LC_GPU, LC_ANY, NULL,
	  lc_chk_gpu_nic_affinity },
	{ "pci.acs", "no ACS P2P redirect on the switch ports between a GPU and its NIC", LC_GPU, LC_ANY, NULL,
	  lc_chk_pci_acs },
	{ "gpu.peer_mem", "nvidia_peermem loaded or dma-buf available for GPUDirect RDMA", LC_GPU_HOST, LC_ANY, NULL,
	  lc_chk_gpu_peer_mem },
	{ "pci.iommu", "the IOMMU does not translate the GPUs' and NICs' DMA (iommu=pt)", LC_GPU_HOST, LC_ANY, NULL,
	  lc_chk_pci_iommu },
	{ "expect.devices", "number of RDMA devices (with --expect-devices)", LC_HOST, LC_ANY, "--expect-devices",
	  chk_expect_devices },
	{ "expect.link_layer", "port link layer (with --expect-link-layer)", LC_PORT, LC_ANY, "--expect-link-layer",
	  chk_expect_link_layer },
	{ "expect.gid_type", "port has a GID of a type (with --expect-gid-type)", LC_PORT, LC_ANY,
	  "--expect-gid-type", chk_expect_gid_type },
	{ 0 },
};
