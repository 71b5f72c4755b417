// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag path: active tests between two hosts (or one host with itself).
 *
 * `path serve` (path_serve.c) answers; `path test peer ADDR` runs stages in
 * order (control, resolve, config, rc_connect, rc_latency, write_bw, read_bw,
 * send_bw, ud, mtu, counters), each with a verdict and its duration; the
 * first failure is named with its cause and later stages are skipped. The
 * control channel is TCP (path/pathproto.h), the QPs are built by hand
 * (path/pathq.h) so every transition can be timed and decoded; rdma_cm only
 * resolves the address.
 *
 * This file is the command: its arguments and its table rows; path_int.h
 * lists the files of the stages, the runs and their report.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "../host/source.h"
#include "../path/pathproto.h"
#include "check_select.h"
#include "common.h"
#include "objects.h"
#include "output.h"
#include "path.h"
#include "path_int.h"
#include "path_peers.h"

/* ------------------------------------------------------------- the command */

static const char *const test_choices[] = { "rc", "lat", "write", "read", "send", "ud", "mtu", "counters", NULL };

static unsigned parse_tests(const char *list)
{
	static const struct { const char *name; unsigned bits; } map[] = {
		{ "rc", T_LAT | T_WRITE | T_READ | T_SEND }, { "lat", T_LAT }, { "write", T_WRITE },
		{ "read", T_READ }, { "send", T_SEND }, { "ud", T_UD }, { "mtu", T_MTU }, { "counters", T_COUNTERS },
	};
	char buf[256], *save = NULL;
	unsigned bits = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(w, map[i].name))
				bits |= map[i].bits;
	return bits;
}

/* --expect-bw/--expect-lat: a plain positive decimal up to max ("12.5"). */
static int parse_double_opt(const struct cmd_ctx *ctx, enum opt_id id, double max, double *out)
{
	const struct opt_value *v = ctx_opt(ctx, id);

	*out = 0;
	if (!v || !v->set)
		return 0;
	if (parse_decimal(v->str, 0, max, out) || !(*out > 0)) {
		usage_error("%s: '%s' is not a positive number up to %.0f (as in 12.5)", opt_names[id], v->str, max);
		return -1;
	}
	return 0;
}

static int parse_loopback(struct cmd_ctx *ctx, struct tester *t)
{
	static struct dev_port dp;

	if (ctx_opt(ctx, O_PEERS)->set) {
		usage_error("path test loopback tests this host alone; --peers is for 'peer' runs");
		return -1;
	}
	if (ctx->argc > 2) {
		usage_error("path test loopback takes at most one DEV[/PORT]");
		return -1;
	}
	if (ctx->argc == 2) {
		if (parse_dev_port(ctx->argv[1], &dp))
			return -1;
		t->dev_arg = dp.dev;
		t->dev_port = dp.port ? dp.port : 1;
	}
	return 0;
}

/* `peer A [peer B ...]` and --peers FILE; one peer given as `peer A` alone
 * keeps the single-peer report, anything else is a many-peer run. */
static int parse_target(struct cmd_ctx *ctx, struct tester *t, struct peer_list *pl, bool *many)
{
	const struct opt_value *file = ctx_opt(ctx, O_PEERS);

	if (ctx->argc >= 1 && !strcmp(ctx->argv[0], "loopback"))
		return parse_loopback(ctx, t);
	if (ctx->argc < 1 && !file->set) {
		usage_error("path test needs 'peer ADDR' or 'loopback [DEV]' (or --peers FILE)");
		return -1;
	}
	/* A bare address is the likeliest slip (ping's habit): name the fix. */
	if (ctx->argc >= 1 && strcmp(ctx->argv[0], "peer")) {
		if (is_ip_address(ctx->argv[0]))
			usage_error("path test: the address needs the keyword 'peer' before it: rdmadiag path test "
				    "peer %s", ctx->argv[0]);
		else
			usage_error("path test: unknown word '%.80s'; it needs 'peer ADDR' or 'loopback [DEV]' "
				    "(or --peers FILE)", ctx->argv[0]);
		return -1;
	}
	for (int i = 0; i < ctx->argc; i += 2) {
		if (strcmp(ctx->argv[i], "peer")) {
			usage_error("path test peer takes one ADDR (the peer's IP address); for more peers repeat "
				    "'peer ADDR', got '%s'", ctx->argv[i]);
			return -1;
		}
		if (i + 1 >= ctx->argc) {
			usage_error("path test peer takes one ADDR (the peer's IP address)");
			return -1;
		}
		if (peers_add(pl, ctx->argv[i + 1], "peer"))
			return -1;
	}
	if (file->set && peers_read_file(pl, file->str))
		return -1;
	*many = file->set || pl->n > 1;
	t->peer = pl->addr[0];
	return 0;
}

static int parse_test_opts(struct cmd_ctx *ctx, struct tester *t)
{
	const struct opt_value *v;
	static struct dev_port dp;

	t->port = ctx_opt_uint(ctx, O_PORT, PP_DEFAULT_PORT);
	t->size = ctx_opt_uint(ctx, O_SIZE, 65536);
	t->lat_size = ctx_opt_uint(ctx, O_LAT_SIZE, 8);
	t->iters = ctx_opt_uint(ctx, O_ITERS, 0);
	t->duration_s = ctx_opt_uint(ctx, O_DURATION, 1);
	t->tests = T_ALL;
	t->gid_index = -1;
	v = ctx_opt(ctx, O_TESTS);
	if (v && v->set)
		t->tests = parse_tests(v->str);
	v = ctx_opt(ctx, O_GID_INDEX);
	if (v && v->set && strcmp(v->str, "auto")) {
		unsigned long long g;

		if (parse_uint(v->str, 0, 255, &g)) {
			usage_error("--gid-index: '%s' is neither a GID index 0..255 nor 'auto'", v->str);
			return -1;
		}
		t->gid_index = (int)g;
	}
	v = ctx_opt(ctx, O_DEV);
	if (v && v->set && t->dev_arg) {
		usage_error("--dev: the device is already given as 'loopback %s'; give it once", t->dev_arg);
		return -1;
	}
	if (v && v->set) {
		if (parse_dev_port(v->str, &dp))
			return -1;
		t->dev_arg = dp.dev;
		t->dev_port = dp.port ? dp.port : 1;
	}
	if (parse_double_opt(ctx, O_EXPECT_BW, 100000, &t->expect_bw) ||
	    parse_double_opt(ctx, O_EXPECT_LAT, 10000000, &t->expect_lat))
		return -1;
	t->timeout_s = ctx_opt_uint(ctx, O_TIMEOUT, 0);
	t->run_deadline = t->timeout_s ? pp_now_ms() + (int64_t)t->timeout_s * 1000 : INT64_MAX;
	return 0;
}

static int path_test(struct cmd_ctx *ctx)
{
	struct tester t = { .fd = -1 };
	struct peer_list pl = { 0 };
	bool many = false;
	int rc;

	/* --list: the stages, as link check's checks; no peer, no device */
	if (ctx_opt(ctx, O_LIST)->set)
		return check_list(path_stage_def, "path", "any");
	if (parse_target(ctx, &t, &pl, &many) || parse_test_opts(ctx, &t)) {
		peers_free(&pl);
		return EXIT_USAGE;
	}
	/* its stages send traffic through this host's devices: a recording of
	 * another host's kernel cannot stand in for them (as system check peer) */
	if (source_replaying()) {
		usage_error("path test sends live traffic and cannot run from a replay or snapshot; run it on the host");
		peers_free(&pl);
		return EXIT_USAGE;
	}
	path_catch_stop_signals();
	t.no_rdma = !path_host_has_rdma_device();
	if (t.peer)
		out_set_host(local_host_name());
	rc = many ? test_many_peers(&t, &pl, (unsigned)ctx_opt_uint(ctx, O_PARALLEL, 1)) : test_one_peer(&t);
	peers_free(&pl);
	return rc;
}

/* ------------------------------------------------------------------ tables */

#define OPT_GID \
	{ .id = O_GID_INDEX, .kind = OPT_STR, .metavar = "N|auto", \
	  .help = "GID index to use (default: the RoCE v2 GID of the address)" }

static const struct cmd_opt test_opts[] = {
	{ .id = O_LIST, .kind = OPT_FLAG, .help = "print the stages with one-line descriptions and exit" },
	OPT_PORT,
	{ .id = O_PEERS, .kind = OPT_STR, .metavar = "FILE",
	  .help = "test every peer listed in FILE (one IP address per line, # comments; - for stdin)",
	  .complete = COMPLETE_FILE },
	{ .id = O_PARALLEL, .kind = OPT_UINT, .metavar = "N",
	  .help = "peers tested at once (default 1: bandwidth figures not shared)", .min = 1,
	  .max = PATH_PARALLEL_MAX },
	{ .id = O_DEV, .kind = OPT_STR, .metavar = "DEV[/PORT]",
	  .help = "local RDMA device and port (default: the route's)", .complete = COMPLETE_DEV_PORT },
	OPT_GID,
	{ .id = O_TESTS, .kind = OPT_LIST, .metavar = "LIST", .help = "stages to run (default all)",
	  .choices = test_choices },
	{ .id = O_SIZE, .kind = OPT_UINT, .metavar = "BYTES",
	  .help = "message size of the bandwidth tests (default 65536)", .min = 1, .max = PP_MAX_SIZE },
	{ .id = O_LAT_SIZE, .kind = OPT_UINT, .metavar = "BYTES",
	  .help = "message size of the latency test (default 8)", .min = 1, .max = 4096 },
	{ .id = O_ITERS, .kind = OPT_UINT, .metavar = "N",
	  .help = "messages per test (default: 1000 round trips within 3 s for latency, --duration for bandwidth)",
	  .min = 1, .max = 100000000 },
	{ .id = O_DURATION, .kind = OPT_UINT, .metavar = "S", .help = "seconds per bandwidth test (default 1)",
	  .min = 1, .max = 600 },
	{ .id = O_TIMEOUT, .kind = OPT_UINT, .metavar = "S",
	  .help = "bound on the whole run (default: each stage's own bound)", .min = 1, .max = 3600 },
	{ .id = O_EXPECT_BW, .kind = OPT_STR, .metavar = "GBPS",
	  .help = "fail a bandwidth stage below this many Gb/s" },
	{ .id = O_EXPECT_LAT, .kind = OPT_STR, .metavar = "US",
	  .help = "fail the latency stage when p50 is above this many microseconds" },
	{ 0 },
};

/* What parse_target() takes: peer ADDR [peer ADDR ...] | loopback [DEV[/PORT]] */
static const struct cmd_form loopback_form = { .positional = COMPLETE_DEV_PORT };
static const struct cmd_word test_words[] = {
	{ .name = "peer", .complete = COMPLETE_HOST, .flags = WORD_REPEAT },
	{ .name = "loopback", .form = &loopback_form },
	{ NULL },
};

static const struct action path_actions[] = {
	{ .name = "test", .synopsis = "{ peer ADDR [peer ADDR ...] | --peers FILE | loopback [DEV[/PORT]] }",
	  .summary = "staged RDMA test to a peer running path serve, or of this host with itself", .run = path_test,
	  .opts = test_opts, .words = test_words, .checks = path_stage_def },
	{ .name = "serve", .synopsis = "", .summary = "answer path test sessions from other hosts", .run = path_serve,
	  .opts = path_serve_opts },
	{ 0 },
};

const struct object obj_path = { .name = "path",
	.summary = "active RDMA tests between hosts (RC, UD, latency, bandwidth)", .actions = path_actions };
