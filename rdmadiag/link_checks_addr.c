// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The checks of `rdmadiag link check` on addresses: each port's GIDs (and
 * --expect-gid-type), and RDMA netdevs that share an IP subnet. Their rows
 * are in link_checks.c; see link_check.h.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "../host/sysfs.h"
#include "link_checks_int.h"

/* ---- GIDs ---- */

static bool gids_unreadable(const struct lc_port *p, struct check_result *r)
{
	if (!p->gid_err)
		return false;
	check_measured(r, "GID table unreadable: %s", strerror(-p->gid_err));
	return true;
}

void lc_chk_gid_roce_v2(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_gid_default(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_gid_usable(const struct lc_env *env, const void *s, struct check_result *r)
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

void lc_chk_net_subnet(const struct lc_env *env, const void *s, struct check_result *r)
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

/* ---- expectations ---- */

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

void lc_chk_expect_gid_type(const struct lc_env *env, const void *s, struct check_result *r)
{
	const struct lc_port *p = port_of(s);
	const char *want = uopt_str(env, O_EXPECT_GID_TYPE);
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
