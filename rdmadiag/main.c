// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag: global options, then the dispatcher. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netlink/source.h"
#include "common.h"
#include "output.h"
#include "rdmadiag.h"
#include "snapshot.h"

struct global_opts g_opts;

static int parse_color(const char *v)
{
	if (!strcmp(v, "auto"))
		g_opts.color = COLOR_AUTO;
	else if (!strcmp(v, "always"))
		g_opts.color = COLOR_ALWAYS;
	else if (!strcmp(v, "never"))
		g_opts.color = COLOR_NEVER;
	else {
		usage_error("--color: unknown value '%s' (expected auto, always or never)", v);
		return -1;
	}
	return 0;
}

static bool is_color_word(const char *w)
{
	return !strcmp(w, "auto") || !strcmp(w, "always") || !strcmp(w, "never");
}

static int short_flags(const char *w)
{
	for (const char *p = w + 1; *p; p++) {
		switch (*p) {
		case 'j': g_opts.json = true; break;
		case 'p': g_opts.pretty = true; break;
		case 'd': g_opts.details = true; break;
		case 'V': return 'V';
		case 'h': return 'h';
		default:
			usage_error("unknown option '-%c' in '%s' (global options: -j -p -d -V -h --color --record "
				    "--replay --snapshot)", *p, w);
			return -1;
		}
	}
	return 0;
}

/* A global option taking a value, as "--name VALUE" or "--name=VALUE". */
static const char *opt_value(const char *name, int argc, char **argv, int *i)
{
	size_t len = strlen(name);
	const char *w = argv[*i];

	if (w[len] == '=')
		return w + len + 1;
	if (*i + 1 >= argc) {
		usage_error("%s needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/* --record/--replay DIR: a directory path, checked here so that a wrong one
 * is a usage error rather than a failure to open it. */
static const char *dir_value(const char *name, int argc, char **argv, int *i)
{
	const char *v = opt_value(name, argc, argv, i);

	if (v && (!*v || strlen(v) >= PATH_MAX)) {
		usage_error("%s: '%s' is not a directory path (empty or over %d bytes)", name, v, PATH_MAX - 1);
		return NULL;
	}
	return v;
}

static bool is_opt(const char *w, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(w, name, len) && (w[len] == '\0' || w[len] == '=');
}

/* Returns the index of the first non-option word, or -1 after an error,
 * or argc + 1 when the command was fully handled (help, version). */
static int parse_global(int argc, char **argv, int *rc)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *w = argv[i];
		const char *v;

		if (w[0] != '-' || !w[1])
			break;
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (!strcmp(w, "--json")) {
			g_opts.json = true;
		} else if (!strcmp(w, "--pretty")) {
			g_opts.pretty = true;
		} else if (!strcmp(w, "--details")) {
			g_opts.details = true;
		} else if (!strcmp(w, "--version")) {
			goto version;
		} else if (!strcmp(w, "--help")) {
			goto help;
		} else if (is_opt(w, "--color") || is_opt(w, "--colour")) {
			v = strchr(w, '=') ? strchr(w, '=') + 1 : "always";
			/* "--color never" as well as "--color=never": no object has these names */
			if (!strchr(w, '=') && i + 1 < argc && is_color_word(argv[i + 1]))
				v = argv[++i];
			if (parse_color(v))
				goto usage;
		} else if (is_opt(w, "--record")) {
			if (!(g_opts.record_dir = dir_value("--record", argc, argv, &i)))
				goto usage;
		} else if (is_opt(w, "--replay")) {
			if (!(g_opts.replay_dir = dir_value("--replay", argc, argv, &i)))
				goto usage;
		} else if (is_opt(w, "--snapshot")) {
			if (!(g_opts.snapshot = opt_value("--snapshot", argc, argv, &i)))
				goto usage;
		} else if (w[1] != '-') {
			int r = short_flags(w);

			if (r < 0)
				goto usage;
			if (r == 'V')
				goto version;
			if (r == 'h')
				goto help;
		} else {
			usage_error("unknown option '%s' (global options: -j -p -d -V -h --color --record --replay --snapshot; "
				    "try: rdmadiag help)", w);
			goto usage;
		}
	}
	/* -p alone means pretty JSON, as in iproute2. */
	if (g_opts.pretty)
		g_opts.json = true;
	if (g_opts.record_dir && g_opts.replay_dir) {
		usage_error("--record and --replay cannot be used together");
		goto usage;
	}
	if (g_opts.snapshot && (g_opts.record_dir || g_opts.replay_dir)) {
		usage_error("--snapshot cannot be used with --record or --replay");
		goto usage;
	}
	return i;
version:
	printf("rdmadiag %s (output schema %d)\n", RDMADIAG_VERSION, OUTPUT_SCHEMA);
	*rc = EXIT_OK;
	return argc + 1;
help:
	print_top_help();
	*rc = EXIT_OK;
	return argc + 1;
usage:
	*rc = EXIT_USAGE;
	return -1;
}

int main(int argc, char **argv)
{
	int rc = EXIT_OK;
	int first;

	/* A closed pipe (rdmadiag ... | head) must not kill us mid-cleanup. */
	signal(SIGPIPE, SIG_IGN);
	out_init(stdout);
	/* Hidden commands of the completion functions: before anything opens. */
	if (argc >= 2 && !strcmp(argv[1], "__complete"))
		return complete_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "__tables"))
		return tables_main();
	first = parse_global(argc, argv, &rc);
	if (first < 0 || first > argc)
		return rc;
	if (g_opts.snapshot) {
		/* help and a wrong command line need no snapshot: answered before
		 * anything is unpacked, so that they behave as without --snapshot */
		rc = cmd_check_line(argc - first, argv + first);
		if (rc >= 0)
			return rc;
		snapshot_signals_catch();
		rc = snapshot_replay_begin(g_opts.snapshot, argc - first, argv + first, &g_opts.replay_dir);
		if (rc)
			return snapshot_signals_end(rc);
	} else if (!g_opts.replay_dir) {
		g_opts.replay_dir = getenv("RDMADIAG_REPLAY");
		/* as --record with --replay: one would be silently ignored */
		if (g_opts.replay_dir && g_opts.record_dir) {
			usage_error("--record cannot be used while RDMADIAG_REPLAY is set (%s): unset it to record this host",
				    g_opts.replay_dir);
			return EXIT_USAGE;
		}
	}
	if (!g_opts.record_dir && !g_opts.replay_dir)
		g_opts.record_dir = getenv("RDMADIAG_RECORD");
	if (source_init(g_opts.record_dir, g_opts.replay_dir)) {
		snapshot_replay_end();
		return snapshot_signals_end(EXIT_HOST);
	}
	rc = cmd_dispatch(argc - first, argv + first);
	/* a recording that lacks a reply the command needed says nothing about
	 * the host: the command has said what was missing (rdmadiag(8), exit 2) */
	if (replay_gap() && (rc == EXIT_HOST || rc == EXIT_RUNTIME))
		rc = EXIT_USAGE;
	source_close();
	snapshot_replay_end();
	return snapshot_signals_end(rc < 0 || rc > 255 ? EXIT_RUNTIME : rc);
}
