// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of global options and their parser; see global_opts.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "global_opts.h"
#include "output.h"

/* Set once by main() through global_opts_parse(); defined here, with the
 * table, so that whatever links the front end has it (tests, fuzz targets). */
struct global_opts g_opts;

static const char *const color_values[] = { "auto", "always", "never", NULL };

const struct global_opt global_opts[] = {
	{ "--json", 'j', G_JSON, GOPT_FLAG, NULL, COMPLETE_NONE, NULL, "print one JSON document instead of text", 0 },
	{ "--pretty", 'p', G_PRETTY, GOPT_FLAG, NULL, COMPLETE_NONE, NULL, "indented JSON (implies -j)", 0 },
	{ "--details", 'd', G_DETAILS, GOPT_FLAG, NULL, COMPLETE_NONE, NULL, "show more", 0 },
	{ "--version", 'V', G_VERSION, GOPT_FLAG, NULL, COMPLETE_NONE, NULL, "print the version and exit", 0 },
	{ "--help", 'h', G_HELP, GOPT_FLAG, NULL, COMPLETE_NONE, NULL, "print this help and exit", 0 },
	{ "--color", 0, G_COLOR, GOPT_OPTIONAL, "WHEN", COMPLETE_NONE, color_values,
	  "colour verdicts and states (default auto; always when given alone)", 0 },
	{ "--colour", 0, G_COLOR, GOPT_OPTIONAL, "WHEN", COMPLETE_NONE, color_values, "same as --color", GOPT_ALIAS },
	{ "--record", 0, G_RECORD, GOPT_VALUE, "DIR", COMPLETE_DIR, NULL,
	  "also save everything the command reads under DIR", 0 },
	{ "--replay", 0, G_REPLAY, GOPT_VALUE, "DIR", COMPLETE_DIR, NULL,
	  "read a --record directory instead of the kernel", 0 },
	{ "--snapshot", 0, G_SNAPSHOT, GOPT_VALUE, "FILE", COMPLETE_FILE, NULL,
	  "run against the file of a system snapshot", 0 },
	{ NULL },
};

static bool in_list(const char *const *list, const char *w)
{
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(list[i], w))
			return true;
	return false;
}

/* "--name" or "--name=...", for options that take a value. */
static bool names_opt(const char *w, const struct global_opt *g)
{
	size_t len = strlen(g->name);

	if (strncmp(w, g->name, len))
		return false;
	return w[len] == '\0' || (w[len] == '=' && g->arg != GOPT_FLAG);
}

static const struct global_opt *find_short(char c)
{
	for (const struct global_opt *g = global_opts; g->name; g++)
		if (c && g->short_name == c)
			return g;
	return NULL;
}

const struct global_opt *global_opt_find(const char *word)
{
	if (word[0] == '-' && word[1] && word[1] != '-' && !word[2])
		return find_short(word[1]);
	for (const struct global_opt *g = global_opts; g->name; g++)
		if (names_opt(word, g))
			return g;
	return NULL;
}

const struct global_opt *global_opt_like(const char *word)
{
	const struct global_opt *found = NULL;
	size_t len = strcspn(word, "=");
	int n = 0;

	/* "-json": the long name with one dash, or a unique prefix of one ("-js") */
	if (word[0] != '-' || word[1] == '-' || len < 3)
		return NULL;
	for (const struct global_opt *g = global_opts; g->name; g++) {
		if (strlen(g->name + 2) == len - 1 && !strncmp(g->name + 2, word + 1, len - 1))
			return g;
		if (!(g->flags & GOPT_ALIAS) && !strncmp(g->name + 2, word + 1, len - 1)) {
			found = g;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

void global_opt_spelling(const struct global_opt *g, char *buf, size_t len)
{
	if (g->short_name)
		snprintf(buf, len, "-%c (%s)", g->short_name, g->name);
	else
		snprintf(buf, len, "%s", g->name);
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
		const struct global_opt *g = find_short(*p);

		if (!g || g->arg != GOPT_FLAG) {
			unknown_option(w, *p);
			return -1;
		}
	}
	for (const char *p = w + 1; *p; p++) {
		int r = apply(find_short(*p), NULL);

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

/* --- help ---------------------------------------------------------------- */

/* "-j, --json", "--color [auto|always|never]", "--record DIR" */
static void spell_usage(const struct global_opt *g, char *buf, size_t len)
{
	size_t n = 0;

	if (g->short_name)
		n = (size_t)snprintf(buf, len, "-%c, ", g->short_name);
	n += (size_t)snprintf(buf + n, len - n, "%s", g->name);
	if (g->choices) {
		n += (size_t)snprintf(buf + n, len - n, " [");
		for (int i = 0; g->choices[i] && n < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "|" : "", g->choices[i]);
		snprintf(buf + n, len - n, "]");
	} else if (g->metavar) {
		snprintf(buf + n, len - n, " %s", g->metavar);
	}
}

void global_opts_print_help(FILE *fp)
{
	const int indent = 20, width = 80;
	int col = fprintf(fp, "       OPTIONS := { ");
	bool first = true;
	char item[96];

	for (const struct global_opt *g = global_opts; g->name; g++) {
		if (g->flags & GOPT_ALIAS)
			continue;
		spell_usage(g, item, sizeof(item));
		if (!first) {
			col += fprintf(fp, " |");
			if (col + 1 + (int)strlen(item) + 2 > width)
				col = fprintf(fp, "\n%*s", indent, "") - 1;
			else
				col += fprintf(fp, " ");
		}
		col += fprintf(fp, "%s", item);
		first = false;
	}
	fprintf(fp, " }\n                  (short options combine: -jd is -j -d)\n\nOptions:\n");
	for (const struct global_opt *g = global_opts; g->name; g++) {
		if (g->flags & GOPT_ALIAS)
			continue;
		spell_usage(g, item, sizeof(item));
		fprintf(fp, "  %-28s %s\n", item, g->help);
	}
}
