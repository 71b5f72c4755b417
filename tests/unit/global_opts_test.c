// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of global options and its parser: each spelling sets what the
 * table says, values come as "--opt V" and "--opt=V", a mistyped "-json"
 * is found, and the help, completion and lookup read the same rows.
 */
#include <stdlib.h>
#include <unistd.h>

#include "../../rdmadiag/global_opts.h"
#include "../../rdmadiag/output.h"
#include "tap.h"

/* Parses a space-separated command line; returns what the parser returns. */
static int parse(const char *line, int *rc)
{
	static char buf[512];
	char *argv[32] = { "rdmadiag" };
	int argc = 1;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	memset(&g_opts, 0, sizeof(g_opts));
	*rc = -1;
	fflush(stdout);
	return global_opts_parse(argc, argv, rc);
}

static const char *like(const char *w)
{
	const struct global_opt *g = global_opt_like(w);

	return g ? g->name : "(none)";
}

int main(void)
{
	int rc;

	out_init(fopen("/dev/null", "w"), (struct out_mode){ 0 });
	/* help, the version and usage errors are not part of the TAP stream */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	FILE *tap = fdopen(dup(1), "w");

	if (!tap || !freopen("/dev/null", "w", stdout))
		return 1;
	tap_out = tap;

	ok(parse("-jd dev", &rc) == 2 && g_opts.json && g_opts.details, "short flags combine");
	ok(parse("-p dev", &rc) == 2 && g_opts.json && g_opts.pretty, "-p implies -j");
	ok(parse("--json --details dev", &rc) == 3 && g_opts.json && g_opts.details, "long flags");
	ok(parse("--record /tmp/r dev", &rc) == 3 && !strcmp(g_opts.record_dir, "/tmp/r"), "--opt VALUE");
	ok(parse("--replay=/tmp/r dev", &rc) == 2 && !strcmp(g_opts.replay_dir, "/tmp/r"), "--opt=VALUE");
	ok(parse("--snapshot s.tar help", &rc) == 3 && !strcmp(g_opts.snapshot, "s.tar"), "--snapshot FILE");
	ok(parse("--color never dev", &rc) == 3 && g_opts.color == COLOR_NEVER, "--color WHEN");
	ok(parse("--colour=auto dev", &rc) == 2 && g_opts.color == COLOR_AUTO, "--colour is --color");
	ok(parse("--color dev", &rc) == 2 && g_opts.color == COLOR_ALWAYS, "--color alone is always, dev an object");
	ok(parse("-- -j", &rc) == 2 && !g_opts.json, "-- ends the options");
	ok(parse("-V dev", &rc) == 4 && rc == EXIT_OK, "-V is handled (argc + 1), exit 0");
	ok(parse("--help", &rc) == 3 && rc == EXIT_OK, "--help is handled, exit 0");
	ok(parse("-json dev", &rc) < 0 && rc == EXIT_USAGE, "-json is a usage error");
	ok(parse("-help", &rc) < 0 && rc == EXIT_USAGE && !g_opts.json, "-help is not -h then junk");
	ok(parse("-jx dev", &rc) < 0 && !g_opts.json, "no flag of a bad group takes effect");
	ok(parse("--json=1 dev", &rc) < 0, "a flag takes no value");
	ok(parse("--record", &rc) < 0, "a missing value exits 2");
	ok(parse("--record= dev", &rc) < 0, "an empty directory exits 2");
	ok(parse("--record a --replay b dev", &rc) < 0, "--record with --replay exits 2");
	ok(parse("--snapshot s --replay b dev", &rc) < 0, "--snapshot with --replay exits 2");

	is_str(like("-json"), "--json", "-json looks like --json");
	is_str(like("-js"), "--json", "-js: a unique prefix of json");
	is_str(like("-snapshot"), "--snapshot", "-snapshot looks like --snapshot");
	is_str(like("-colour"), "--colour", "-colour, the other spelling");
	is_str(like("-re"), "(none)", "-re is record or replay: nothing");
	is_str(like("-x"), "(none)", "one letter is a short flag, not a long name");
	is_str(like("--json"), "(none)", "two dashes are not a mistyped option");

	ok(global_opt_find("-j") && global_opt_find("-j")->id == G_JSON, "-j is found by its short name");
	ok(global_opt_find("--snapshot") && global_opt_find("--help"), "--snapshot and --help are in the table");
	ok(global_opt_find("--record=/x") && !global_opt_find("--json=1"), "=VALUE only for options taking one");
	ok(!global_opt_find("--frob") && !global_opt_find("-x"), "unknown spellings are not found");
	for (const struct global_opt *g = global_opts; g->name; g++)
		ok(g->help && *g->help && (g->arg == GOPT_FLAG) == !g->metavar, "%s has help and a metavar iff a value",
		   g->name);
	return tap_done();
}
