// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `rdmadiag link check`: gathers what the checks look at once (devices,
 * ports, GID tables, netdev addresses), then runs every selected row of
 * lc_checks[] on each subject it applies to. See link_check.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/source.h"
#include "../netlink/nl.h"
#include "../verbs/verbs.h"
#include "check_select.h"
#include "common.h"
#include "link_check.h"
#include "lower_err.h"
#include "lower_join.h"
#include "output.h"
#include "prom.h"

#define LC_MAX_CHECKS 64

/* --only/--skip accept exactly the ids of the table: filled from it at start-up,
 * so adding a check updates the options, help and completion too. */
static const char *check_ids[LC_MAX_CHECKS + 1];

__attribute__((constructor)) static void fill_check_ids(void)
{
	for (int i = 0; lc_checks[i].def.id && i < LC_MAX_CHECKS; i++)
		check_ids[i] = lc_checks[i].def.id;
}

const struct check_def *lc_check_def(size_t i)
{
	for (size_t n = 0; n < i; n++)	/* the table ends with a row without id */
		if (!lc_checks[n].def.id)
			return NULL;
	return lc_checks[i].def.id ? &lc_checks[i].def : NULL;
}

static const char *const link_layers[] = { "ethernet", "infiniband", NULL };
static const char *const gid_types[] = { "roce_v2", "roce_v1", "ib", NULL };

const struct cmd_opt link_check_opts[] = {
	{ .id = O_LIST, .kind = OPT_FLAG, .help = "print the checks with one-line descriptions and exit" },
	{ .id = O_ONLY, .kind = OPT_LIST, .metavar = "ID,...", .help = "run only these checks",
	  .choices = check_ids, .complete = COMPLETE_CHECK_ID },
	{ .id = O_SKIP, .kind = OPT_LIST, .metavar = "ID,...", .help = "leave these checks out",
	  .choices = check_ids, .complete = COMPLETE_CHECK_ID },
	{ .id = O_STRICT, .kind = OPT_FLAG, .help = "warnings fail too (exit 1)" },
	{ .id = O_EXPECT_RATE, .kind = OPT_DECIMAL, .metavar = "GBPS",
	  .help = "fail ports slower than GBPS Gb/s (2.5, 12.5, 100, ...)", .min = 1, .max = 3200 },
	{ .id = O_EXPECT_MTU, .kind = OPT_UINT, .metavar = "N",
	  .help = "fail netdevs whose MTU is not N (above or below)", .min = 68, .max = 65535 },
	{ .id = O_EXPECT_DEVICES, .kind = OPT_UINT, .metavar = "N",
	  .help = "fail unless the host has N RDMA devices", .max = 4096 },
	{ .id = O_EXPECT_LINK_LAYER, .kind = OPT_CHOICE, .metavar = "LL",
	  .help = "fail ports of another link layer", .choices = link_layers },
	{ .id = O_EXPECT_GID_TYPE, .kind = OPT_CHOICE, .metavar = "TYPE",
	  .help = "fail ports without a GID of TYPE", .choices = gid_types },
	OUT_FORMAT_OPT,
	{ 0 },
};

/* --format of this run: text/JSON results, or Prometheus series (prom.h) */
static enum out_format lc_format;

static void emit(const struct check_result *r, struct check_summary *sum)
{
	if (out_format_is_prom(lc_format))
		prom_check_add(r, sum);
	else
		check_emit(r, sum);
}

static void finish(const struct check_summary *sum)
{
	if (out_format_is_prom(lc_format))
		prom_checks_flush(lc_format, "link check");
	else
		check_print_summary(sum);
}

static const char *scope_token(enum lc_scope s)
{
	static const char *const tokens[] = { "host", "device", "port", "gpu", "host" };

	return tokens[s];
}

static const char *applies_token(enum lc_applies a)
{
	return a == LC_IB ? "infiniband" : a == LC_ETH ? "ethernet" : "any";
}

static int list_checks(void)
{
	check_list_begin();
	for (const struct lc_check *c = lc_checks; c->def.id; c++)
		check_list_row(&c->def, scope_token(c->scope), applies_token(c->applies));
	return check_list_end();
}

/* ---- selection ---- */

static bool selected(const struct cmd_ctx *ctx, const struct lc_check *c)
{
	if (!check_selected(ctx, c->def.id))
		return false;
	return !c->needs_opt || ctx_opt(ctx, c->needs_opt)->set;
}

/* ---- gathering ---- */

struct gather {
	struct lc_env *env;
	const char *dev;
};

static int gather_dev(const struct rd_dev *d, void *data)
{
	struct gather *g = data;
	struct lc_dev *out;

	g->env->total_devs++;
	if ((g->dev && strcmp(g->dev, d->name)) || g->env->ndev >= LC_MAX_DEVS)
		return 0;
	out = &g->env->devs[g->env->ndev++];
	out->d = *d;
	return 0;	/* the uverbs query comes after the dump: requests must not nest */
}

static int gather_port(const struct rd_port *p, void *data)
{
	struct lc_env *env = data;
	struct lc_port *lp;

	if (env->nport >= LC_MAX_PORTS)
		return 0;
	lp = &env->ports[env->nport++];
	link_port_fill(p, &lp->lp);
	snprintf(lp->subject, sizeof(lp->subject), "%s/%u", p->dev_name, p->port);
	lp->gid_err = gid_table_read(p->dev_name, p->port, false, &lp->gids);
	lp->naddr = -1;
	if (p->ndev_index && addr_load() == 0)
		lp->naddr = addr_of_ifindex(p->ndev_index, lp->addrs, LC_MAX_ADDRS);
	return 0;
}

static void free_env(struct lc_env *env)
{
	lc_gpu_free(env);
	for (int i = 0; i < env->nport; i++)
		gid_table_free(&env->ports[i].gids);
}

/* ---- running ---- */

static void run_one(const struct lc_env *env, const struct lc_check *c, const void *subject, const char *name,
		    struct check_summary *sum)
{
	struct check_result r;

	check_init(&r, c->def.id, name);
	c->run(env, subject, &r);
	emit(&r, sum);
}

/* Each GPU, when the host has any (env->topo is NULL otherwise). */
static void run_gpus(const struct lc_env *env, const struct lc_check *c,
		     void (*run)(const struct lc_env *, const void *, struct check_result *), struct check_summary *sum)
{
	struct check_result r;

	for (int i = 0; run && env->topo && i < env->topo->ngpu; i++) {
		check_init(&r, c->def.id, env->topo->gpu[i].name);
		run(env, &env->topo->gpu[i], &r);
		emit(&r, sum);
	}
}

static bool port_applies(const struct lc_check *c, const struct lc_port *p)
{
	return c->applies == LC_ANY || (c->applies == LC_IB) == p->lp.is_ib;
}

/* A port check of the other link layer that the user asked for by name
 * (--only) or through its --expect option: said to be skipped, and why,
 * rather than left out, which would read as nothing wrong. */
static bool asked_for(const struct cmd_ctx *ctx, const struct lc_check *c)
{
	const struct opt_value *only = ctx_opt(ctx, O_ONLY);

	return (only->set && list_has(only->str, c->def.id)) || (c->judges_opt && ctx_opt(ctx, c->judges_opt)->set);
}

static void run_other_layer(const struct lc_check *c, const struct lc_port *p, struct check_summary *sum)
{
	struct check_result r;

	check_init(&r, c->def.id, p->subject);
	check_measured(&r, "%s port: this check is for %s ports", p->lp.is_ib ? "an InfiniBand" : "a RoCE (Ethernet)",
		       c->applies == LC_ETH ? "RoCE (Ethernet)" : "InfiniBand");
	emit(&r, sum);
}

static void run_checks(const struct lc_env *env, struct check_summary *sum)
{
	for (const struct lc_check *c = lc_checks; c->def.id; c++) {
		if (!selected(env->ctx, c))
			continue;
		if (c->scope == LC_HOST) {
			run_one(env, c, NULL, "host", sum);
		} else if (c->scope == LC_DEV) {
			for (int i = 0; i < env->ndev; i++)
				run_one(env, c, &env->devs[i], env->devs[i].d.name, sum);
			run_gpus(env, c, c->run_gpu, sum);
		} else if (c->scope == LC_GPU) {
			run_gpus(env, c, c->run, sum);
		} else if (c->scope == LC_GPU_HOST) {
			if (env->topo)
				run_one(env, c, NULL, "host", sum);
		} else {
			for (int i = 0; i < env->nport; i++)
				if (port_applies(c, &env->ports[i]))
					run_one(env, c, &env->ports[i], env->ports[i].subject, sum);
				else if (asked_for(env->ctx, c))
					run_other_layer(c, &env->ports[i], sum);
		}
	}
}

/* No RDMA netlink at all (nl_require() has said why, rc its exit code):
 * one failed kernel.rdma, a valid document, exit 3. */
int link_check_no_netlink(struct cmd_ctx *ctx, int rc)
{
	(void)ctx;
	struct check_summary sum = { 0 };
	struct check_result r;

	out_list_begin("checks");
	check_kernel_rdma_failed(&r, false);
	emit(&r, &sum);
	out_list_end();
	finish(&sum);
	return rc;
}

/* Gathers what the checks read into env (zeroed by the caller) and runs them. */
static int gather_and_run(struct cmd_ctx *ctx, const struct dev_port *sel, struct lc_env *env)
{
	struct check_summary sum = { 0 };
	struct gather g = { .env = env };
	int err;

	env->ctx = ctx;
	g.dev = ctx->argc ? sel->dev : NULL;
	err = rd_dev_each(NULL, gather_dev, &g);
	if (!err && g.dev && env->ndev == 0)
		err = -ENODEV;
	for (int i = 0; !err && i < env->ndev; i++) {
		struct lc_dev *d = &env->devs[i];

		rd_dev_uverbs(d->d.index, d->driver, sizeof(d->driver), d->chardev, sizeof(d->chardev));
		/* before the first verbs query lists the devices (live only) */
		if (!source_replaying())
			vb_preload_module_provider(d->driver);
	}
	if (!err)
		err = link_each(g.dev, sel->port, gather_port, env);
	if (!err)
		lc_gpu_gather(env);
	if (err)
		return report_dev_error(g.dev, err);
	if (sel->port && env->nport == 0)
		return report_no_port(sel->dev, sel->port);
	out_list_begin("checks");
	run_checks(env, &sum);
	out_list_end();
	finish(&sum);
	return check_exit_code(&sum, ctx_opt(ctx, O_STRICT)->set);
}

int link_check_args(struct cmd_ctx *ctx)
{
	int rc = out_format_get(ctx, &lc_format);

	if (rc)
		return rc;
	if (ctx_opt(ctx, O_LIST)->set)
		return list_checks();	/* no netlink: the devices are not read */
	if (ctx_dev_port(ctx, &ctx->sel) ||
	    check_only_skip_conflict(ctx_opt_str(ctx, O_ONLY, NULL), ctx_opt_str(ctx, O_SKIP, NULL), check_ids))
		return EXIT_USAGE;
	/* the document names the host also when netlink cannot open */
	out_set_host(local_host_name());
	return ARGS_VALID;
}

int link_check(struct cmd_ctx *ctx)
{
	struct lc_env *env;
	int rc;

	/* calloc rather than a static zeroed each run: the table has room for
	 * 128 ports (380 KiB); fresh pages are zero and only those of the ports
	 * present get touched, which counts under emulation and on small VMs */
	env = calloc(1, sizeof(*env));
	if (!env) {
		report_error("gathering what link check reads", "out of memory", "free memory and run it again");
		return EXIT_RUNTIME;
	}
	rc = gather_and_run(ctx, &ctx->sel, env);
	free_env(env);
	free(env);
	return rc;
}
