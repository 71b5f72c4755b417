// SPDX-License-Identifier: GPL-2.0-or-later
/* The parser of the global options, for main(); see global_opts.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "global_opts.h"
#include "output.h"

static bool in_list(const char *const *list, const char *w)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(list[i], w))
			return true;
	return false;
}

/* "-j -p -d -V -h --color --record --replay --snapshot": for error lines. */
static void short_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct global_opt *g = global_opts; g->name && n < len; g++)
		if (g->short_name)
			n += (size_t)snprintf(buf + n, len - n, "%s-%c", n ? " " : "", g->short_name);
	for (const struct global_opt *g = global_opts; g->name && n < len; g++)
		if (!g->short_name && !(g->flags & GOPT_ALIAS))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", g->name);
}

static void unknown_option(const char *w, char bad)
{
	const struct global_opt *like = global_opt_like(w);
	char list[256], spelled[64];

	if (like) {
		global_opt_spelling(like, spelled, sizeof(spelled));
		usage_error("unknown option '%s'; did you mean %s?", w, spelled);
		return;
	}
	short_list(list, sizeof(list));
	if (bad && w[2])
		usage_error("unknown option '-%c' in '%s' (global options: %s)", bad, w, list);
	else if (bad)
		usage_error("unknown option '%s' (global options: %s)", w, list);
	else
		usage_error("unknown option '%s' (global options: %s; try: rdmadiag help)", w, list);
}

/* --- values -------------------------------------------------------------- */

static int set_color(const char *v)
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

/* The value of an option that takes one: after '=' or the next word. */
static const char *opt_value(const struct global_opt *g, int argc, char **argv, int *i)
{
	const char *eq = strchr(argv[*i], '=');

	if (eq)
		return eq + 1;
	if (g->arg == GOPT_OPTIONAL) {
		/* "--color never" as well as "--color=never": no object has these names */
		if (*i + 1 < argc && in_list(g->choices, argv[*i + 1]))
			return argv[++*i];
		return "always";
	}
	if (*i + 1 >= argc) {
		usage_error("%s needs a value", g->name);
		return NULL;
	}
	return argv[++*i];
}

/* --record/--replay DIR: a directory path, checked here so that a wrong one
 * is a usage error rather than a failure to open it. */
static int dir_value(const struct global_opt *g, const char *v, const char **out)
{
	if (!*v || strlen(v) >= PATH_MAX) {
		usage_error("%s: '%s' is not a directory path (empty or over %d bytes)", g->name, v, PATH_MAX - 1);
		return -1;
	}
	*out = v;
	return 0;
}

/* Sets what option g says; v is its value (NULL for flags). 0, -1 after a
 * usage error, or G_VERSION / G_HELP + 1 for an option that ends parsing. */
static int apply(const struct global_opt *g, const char *v)
{
	switch (g->id) {
	case G_JSON: g_opts.json = true; return 0;
	case G_PRETTY: g_opts.pretty = true; return 0;
	case G_DETAILS: g_opts.details = true; return 0;
	case G_VERSION: return G_VERSION + 1;
	case G_HELP: return G_HELP + 1;
	case G_COLOR: return set_color(v);
	case G_RECORD: return dir_value(g, v, &g_opts.record_dir);
	case G_REPLAY: return dir_value(g, v, &g_opts.replay_dir);
	case G_SNAPSHOT: g_opts.snapshot = v; return 0;
	}
	return -1;
}

/* "-jd": every letter must be a flag before any takes effect, so that
 * "-help" is an unknown option rather than -h followed by junk. */
static int short_flags(const char *w)
{
	for (const char *p = w + 1; *p; p++) {
		const struct global_opt *g = global_opt_short(*p);

		if (!g || g->arg != GOPT_FLAG) {
			unknown_option(w, *p);
			return -1;
		}
	}
	for (const char *p = w + 1; *p; p++) {
		int r = apply(global_opt_short(*p), NULL);

		if (r)
			return r;
	}
	return 0;
}

static int long_option(int argc, char **argv, int *i)
{
	const struct global_opt *g = global_opt_find(argv[*i]);
	const char *v = NULL;

	if (!g) {
		unknown_option(argv[*i], 0);
		return -1;
	}
	if (g->arg != GOPT_FLAG && !(v = opt_value(g, argc, argv, i)))
		return -1;
	return apply(g, v);
}

/* After every option: the combinations that cannot work. */
static int check_combination(void)
{
	/* -p alone means pretty JSON, as in iproute2. */
	if (g_opts.pretty)
		g_opts.json = true;
	if (g_opts.record_dir && g_opts.replay_dir) {
		usage_error("--record and --replay cannot be used together");
		return -1;
	}
	if (g_opts.snapshot && (g_opts.record_dir || g_opts.replay_dir)) {
		usage_error("--snapshot cannot be used with --record or --replay");
		return -1;
	}
	return 0;
}

int global_opts_parse(int argc, char **argv, int *rc)
{
	int i, r = 0;

	for (i = 1; i < argc && !r; i++) {
		const char *w = argv[i];

		if (w[0] != '-' || !w[1])
			break;
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		r = w[1] == '-' ? long_option(argc, argv, &i) : short_flags(w);
	}
	if (!r && check_combination())
		r = -1;
	if (r < 0) {
		*rc = EXIT_USAGE;
		return -1;
	}
	if (r == G_VERSION + 1)
		printf("rdmadiag %s (output schema %d)\n", RDMADIAG_VERSION, OUTPUT_SCHEMA);
	else if (r == G_HELP + 1)
		print_top_help();
	else
		return i;
	*rc = EXIT_OK;
	return argc + 1;
}

struct out_mode global_opts_out_mode(void)
{
	return (struct out_mode){ g_opts.json, g_opts.pretty, g_opts.details, g_opts.color };
}
