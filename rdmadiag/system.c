// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag system: one answer for one host.
 *
 * `system check` runs the layers of the seed in order, each through the
 * engine of its own command (not a subprocess):
 *   device       link check
 *   topology     link check's GPUDirect checks (hosts with a GPU only)
 *   resource     qp watch's judgement from one short sample (qp.h)
 *   counter      counter check over a short interval
 *   connection   path test peer ADDR, stages up to rc_connect, ud, mtu
 *   performance  path test peer ADDR, latency, bandwidth, counters
 * and then prints one line per layer, the findings that want action (warn
 * and fail) and the first failing layer as the one to fix first. The
 * commands' verdicts are collected with a check observer (check.h); with -j
 * every command's report sits under its own key, as that command prints it.
 * --format prometheus/openmetrics gives every check of every layer as
 * rdmadiag_check_verdict (with layer and peer labels) and a verdict series
 * per layer (system_prom_report()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/pcitopo.h"
#include "../host/source.h"
#include "check_select.h"
#include "common.h"
#include "prom.h"
#include "snapshot.h"
#include "system_int.h"

/* ---- the command line ---- */

static int parse_peer(struct system_args *a, char **argv, int argc, int i)
{
	if (i + 1 >= argc) {
		usage_error("'peer' needs an ADDR (the IP address of a host running 'rdmadiag path serve')");
		return -1;
	}
	if (!is_ip_address(argv[i + 1])) {
		usage_error("'%s' is not an IP address (peer ADDR wants the peer's IP on the RDMA network)",
			    argv[i + 1]);
		return -1;
	}
	if (a->npeers >= MAX_PEERS) {
		usage_error("at most %d peers in one system check", MAX_PEERS);
		return -1;
	}
	a->peers[a->npeers++] = argv[i + 1];
	return 0;
}

static int parse_args(const struct cmd_ctx *ctx, struct system_args *a)
{
	struct dev_port sel;
	int i = 0;

	a->quick = ctx_opt(ctx, O_QUICK)->set;
	a->strict = ctx_opt(ctx, O_STRICT)->set;
	a->only = ctx_opt_str(ctx, O_ONLY, NULL);
	a->skip = ctx_opt_str(ctx, O_SKIP, NULL);
	if (check_only_skip_conflict(a->only, a->skip, system_ids))
		return -1;
	a->interval = ctx_opt_dbl(ctx, O_INTERVAL, 1.0);
	a->interval_str = ctx_opt_str(ctx, O_INTERVAL, "1");
	if (a->interval < INTERVAL_MIN_S) {	/* the dispatcher's bound (OPT_SECONDS): never met */
		usage_error("--interval: '%s' is too short (at least 0.01 s)", a->interval_str);
		return -1;
	}
	if (ctx->argc > 0 && strcmp(ctx->argv[0], "peer")) {
		/* DEV is optional, so a bare address would be taken for a device */
		if (is_ip_address(ctx->argv[0])) {
			usage_error("system check: a peer address needs the keyword 'peer' before it: rdmadiag "
				    "system check peer %s", ctx->argv[0]);
			return -1;
		}
		if (parse_dev_port(ctx->argv[0], &sel))
			return -1;
		a->dev_word = ctx->argv[0];
		i = 1;
	}
	for (; i < ctx->argc; i += 2) {
		if (strcmp(ctx->argv[i], "peer")) {
			usage_error("unexpected '%s': system check takes [DEV[/PORT]] then 'peer ADDR' words",
				    ctx->argv[i]);
			return -1;
		}
		if (parse_peer(a, ctx->argv, ctx->argc, i))
			return -1;
	}
	if (a->npeers && source_replaying()) {
		usage_error("peers cannot be tested from a replay (it holds no peer); leave out the 'peer ADDR' words");
		return -1;
	}
	return 0;
}

static void free_run(struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++)
		free(s->layer[i].find);
	free(s->qp_results);
	if (s->devnull)
		fclose(s->devnull);
}

static int system_check(struct cmd_ctx *ctx)
{
	static struct system_run s;	/* large: every layer's findings */
	struct system_args a = { 0 };
	enum out_format fmt;
	int rc = out_format_get(ctx, &fmt);

	if (rc)
		return rc;
	if (parse_args(ctx, &a))
		return EXIT_USAGE;
	/* report merge names the node by it, as for link check and path test */
	out_set_host(local_host_name());
	memset(&s, 0, sizeof(s));
	s.args = &a;
	s.ctx = ctx;
	s.gpu_host = pt_host_has_gpu();
	s.format = fmt;
	s.prom = out_format_is_prom(fmt);
	if (!out_is_json() && (!g_opts.details || s.prom)) {
		s.devnull = fopen("/dev/null", "w");
		if (!s.devnull) {
			report_error("cannot open /dev/null", "a broken /dev", "fix the container or chroot's /dev");
			return EXIT_RUNTIME;
		}
	}
	interrupt_catch();	/* until a layer's command puts its own handler in place */
	rc = system_run_layers(&s);
	if (interrupt_noted())
		system_skip_rest(&s, "interrupted");
	if (rc != EXIT_USAGE && s.prom)
		system_prom_report(&s);
	else if (rc != EXIT_USAGE)
		system_print_report(&s);
	if (rc == EXIT_OK)
		rc = system_exit_code(&s);
	/* as path test with peers left: an interrupted check is not a clean one */
	if (rc == EXIT_OK && interrupt_noted())
		rc = EXIT_PROBLEM;
	free_run(&s);
	return rc;
}

static const struct cmd_opt check_opts[] = {
	{ .id = O_QUICK, .kind = OPT_FLAG, .help = "skip the bandwidth stages of the peer tests" },
	{ .id = O_STRICT, .kind = OPT_FLAG, .help = "warnings fail too (exit 1)" },
	/* handed to each layer's command as the ids of its own checks */
	{ .id = O_ONLY, .kind = OPT_LIST, .metavar = "ID,...",
	  .help = "run only these checks of the device, resource and counter layers", .choices = system_ids,
	  .complete = COMPLETE_CHECK_ID },
	{ .id = O_SKIP, .kind = OPT_LIST, .metavar = "ID,...",
	  .help = "leave these checks of the device, resource and counter layers out", .choices = system_ids,
	  .complete = COMPLETE_CHECK_ID },
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between the two QP and counter samples (default 1)", .max = 60 },
	/* handed to path test as they are: same names, kinds and bounds */
	{ .id = O_PORT, .kind = OPT_UINT, .metavar = "N",
	  .help = "TCP port of the peers' path serve (default 4792)", .min = 1, .max = 65535 },
	{ .id = O_ITERS, .kind = OPT_UINT, .metavar = "N", .help = "messages per peer test (path test --iters)",
	  .min = 1, .max = 100000000 },
	OUT_FORMAT_OPT,
	{ 0 },
};

static const struct cmd_word check_words[] = {
	{ .name = "peer", .complete = COMPLETE_HOST, .flags = WORD_REPEAT },
	{ NULL },
};

static const struct action system_actions[] = {
	{ .name = "check", .synopsis = "[DEV[/PORT]] [peer ADDR]...", .summary = "every layer in order: device, "
	  "resource (QPs), counters, then connection and performance to each peer", .run = system_check,
	  .opts = check_opts, .positional = COMPLETE_DEV_PORT, .words = check_words },
	{ .name = "snapshot", .synopsis = "",
	  .summary = "record what the read-only commands read into one file (replay: --snapshot FILE)",
	  .run = system_snapshot, .opts = system_snapshot_opts },
	{ 0 },
};

const struct object obj_system = { .name = "system",
	.summary = "one verdict for the host: all layers in order, first to fix named", .actions = system_actions };
