// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of `rdmadiag link check` run once per port: its state, LID, SM,
 * rate and MTU, its netdev, its rdma_cm RoCE mode and its link layer against
 * --expect-link-layer. Their rows are in link_checks.c; see link_check.h.
 */
#include <stdio.h>
#include <string.h>

#include "../host/sysfs.h"
#include "link_checks_int.h"

/* RoCE headers the RDMA MTU must leave room for in the netdev MTU (the
 * kernel's iboe_get_mtu(): GRH 40 + UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4). */
#define ROCE_HDR_BYTES 96

/* ---- port ---- */

void lc_chk_port_state(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_port_phys(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_port_lid(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_port_sm(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_port_rate(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	double want = ctx_opt(env->ctx, O_EXPECT_RATE)->dbl;
	bool have_want = ctx_opt(env->ctx, O_EXPECT_RATE)->set;
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

void lc_chk_port_mtu(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_netdev_present(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_netdev_up(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_netdev_mtu(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	bool have_want = ctx_opt(env->ctx, O_EXPECT_MTU)->set;
	unsigned long long want = uopt_num(env, O_EXPECT_MTU);

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

/* ---- rdma_cm ---- */

void lc_chk_cm_roce_mode(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_expect_link_layer(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const char *want = uopt_str(env, O_EXPECT_LINK_LAYER);
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
