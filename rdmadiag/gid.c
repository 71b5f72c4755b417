// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag gid: the GID tables of RDMA ports, with the IP address each RoCE
 * GID encodes and, per local IP, the index to give tools (perftest -x).
 * Read from sysfs through host/gid.c, so it is recorded and replayed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "../host/gid.h"
#include "common.h"
#include "link.h"
#include "lower_err.h"
#include "lower_join.h"
#include "objects.h"
#include "output.h"

enum { F_IFNAME, F_DEV, F_PORT, F_INDEX, F_GID, F_TYPE, F_IP, F_NETDEV, F_FAMILY, F_LINK_LOCAL };

static const struct field gid_fields[] = {
	[F_IFNAME] = { "ifname", NULL, FT_STR, FF_HEAD, NULL },
	[F_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[F_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[F_INDEX] = { "index", NULL, FT_U64, 0, NULL },
	[F_GID] = { "gid", NULL, FT_STR, 0, NULL },
	[F_TYPE] = { "type", NULL, FT_TOKEN, 0, NULL },
	[F_IP] = { "ip", NULL, FT_STR, 0, NULL },
	[F_NETDEV] = { "netdev", NULL, FT_STR, 0, NULL },
	[F_FAMILY] = { "family", NULL, FT_TOKEN, FF_DETAIL, NULL },
	[F_LINK_LOCAL] = { "link_local", NULL, FT_BOOL, FF_DETAIL, NULL },
};

#define MAX_RECS 256

/* One line of the "recommended" section: the index for one local IP. */
struct gid_rec {
	char dev[RD_NAME_LEN];
	unsigned port;
	struct gid_entry g;
};

struct gid_walk {
	int ports;
	int err;
	unsigned nrec;
	struct gid_rec rec[MAX_RECS];
};

static void print_head(const char *dev, unsigned port)
{
	char ifname[RD_NAME_LEN + 8];

	snprintf(ifname, sizeof(ifname), "%s/%u", dev, port);
	out_str(&gid_fields[F_IFNAME], ifname);
	if (out_is_json()) {
		out_str(&gid_fields[F_DEV], dev);
		out_u64(&gid_fields[F_PORT], port);
	}
}

static void print_entry(const char *dev, unsigned port, const struct gid_entry *g)
{
	out_obj_begin(NULL);
	print_head(dev, port);
	out_u64(&gid_fields[F_INDEX], g->index);
	out_str(&gid_fields[F_GID], g->text);
	if (!g->empty)
		out_enum(&gid_fields[F_TYPE], gid_type_token(g->type), gid_type_text(g->type));
	if (g->ip[0]) {
		out_str(&gid_fields[F_IP], g->ip);
		out_token(&gid_fields[F_FAMILY], g->family == AF_INET ? "ipv4" : "ipv6");
		out_bool(&gid_fields[F_LINK_LOCAL], g->link_local);
	}
	if (g->ndev[0])
		out_str(&gid_fields[F_NETDEV], g->ndev);
	out_obj_end();
}

/* Adds the best entry for every IP the table encodes, once per IP. */
static void collect_recs(struct gid_walk *w, const char *dev, unsigned port, const struct gid_table *t)
{
	for (unsigned i = 0; i < t->n && w->nrec < MAX_RECS; i++) {
		const struct gid_entry *g = &t->e[i];
		const struct gid_entry *best;
		bool seen = false;

		if (!g->ip[0])
			continue;
		for (unsigned j = 0; j < w->nrec; j++)
			if (w->rec[j].port == port && !strcmp(w->rec[j].dev, dev) && !strcmp(w->rec[j].g.ip, g->ip))
				seen = true;
		best = gid_for_ip(t, g->ip, GID_TYPE_UNKNOWN);
		if (seen || !best)
			continue;
		snprintf(w->rec[w->nrec].dev, RD_NAME_LEN, "%s", dev);
		w->rec[w->nrec].port = port;
		w->rec[w->nrec].g = *best;
		w->nrec++;
	}
}

static int show_port(const struct rd_port *p, void *data)
{
	struct gid_walk *w = data;
	struct gid_table t;
	int err;

	w->ports++;
	err = gid_table_read(p->dev_name, p->port, g_opts.details, &t);
	if (err) {
		char what[160];

		snprintf(what, sizeof(what), "cannot read the GID table of %s/%u: %s", p->dev_name, p->port,
			 strerror(-err));
		w->err = err;
		if (err == -ENOENT && replay_lacks("fs/sys/class/infiniband")) {
			report_replay_gap(what);
			return 0;
		}
		report_error(what, "sysfs has no gids directory for this port (old kernel, or sysfs not mounted)",
			     "check that /sys/class/infiniband exists; mount sysfs");
		w->err = err;
		return 0;
	}
	for (unsigned i = 0; i < t.n; i++)
		print_entry(p->dev_name, p->port, &t.e[i]);
	collect_recs(w, p->dev_name, p->port, &t);
	gid_table_free(&t);
	return 0;
}

/* Routable IPv4 first, then routable IPv6, then link-local: the order people look for. */
static int rec_rank(const struct gid_entry *g)
{
	return g->link_local ? 2 : g->family == AF_INET ? 0 : 1;
}

static void print_recs(const struct gid_walk *w)
{
	if (!w->nrec)
		return;
	out_text("\nrecommended GID index per local IP (perftest -x, RoCE v2 preferred):\n");
	out_list_begin("recommended");
	for (int rank = 0; rank <= 2; rank++) {
		for (unsigned i = 0; i < w->nrec; i++) {
			const struct gid_rec *r = &w->rec[i];

			if (rec_rank(&r->g) != rank)
				continue;
			out_obj_begin(NULL);
			print_head(r->dev, r->port);
			out_str(&gid_fields[F_IP], r->g.ip);
			out_u64(&gid_fields[F_INDEX], r->g.index);
			out_enum(&gid_fields[F_TYPE], gid_type_token(r->g.type), gid_type_text(r->g.type));
			out_obj_end();
		}
	}
	out_list_end();
}

static int gid_show(struct cmd_ctx *ctx)
{
	static struct gid_walk w;	/* large: the recommendations */
	const struct dev_port sel = ctx->sel;
	int err;

	memset(&w, 0, sizeof(w));
	out_list_begin("gids");
	err = link_each(ctx->argc ? sel.dev : NULL, sel.port, show_port, &w);
	out_list_end();
	if (err)
		return report_dev_error(ctx->argc ? sel.dev : NULL, err);
	print_recs(&w);
	if (w.ports == 0 && sel.port)
		return report_no_port(sel.dev, sel.port);
	if (w.ports == 0 && !ctx->argc)
		return report_no_devices();
	return w.err ? EXIT_RUNTIME : EXIT_OK;
}

static const struct action gid_actions[] = {
	{ .name = "show", .synopsis = "[DEV[/PORT]]",
	  .summary = "GID table: index, GID, type, IP, netdev; which index to use per IP (-d: empty slots too)",
	  .check_args = args_dev_port, .run = gid_show, .flags = NEEDS_NETLINK,
	  .positional = COMPLETE_DEV_PORT },
	{ .name = "list", .synopsis = "[DEV[/PORT]]", .summary = "same as show",
	  .check_args = args_dev_port, .run = gid_show,
	  .flags = NEEDS_NETLINK | HIDDEN, .positional = COMPLETE_DEV_PORT },
	{ 0 },
};

const struct object obj_gid = { .name = "gid", .summary = "GID tables of RDMA ports (RoCE/IB addresses)",
	.actions = gid_actions };
