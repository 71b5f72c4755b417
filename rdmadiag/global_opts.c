// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of global options, looked up and printed for help; the parser is
 * global_opts_parse.c. See global_opts.h. */
#include <stdio.h>
#include <string.h>

#include "global_opts.h"

/* Set once by main() through global_opts_parse(); defined here, with the
 * table, so that whatever links the front end has it (tests, fuzz targets). */
struct global_opts g_opts;

static const char *const color_values[] = { "auto", "always", "never", NULL };

const struct global_opt global_opts[] = {
	{ .name = "--json", .short_name = 'j', .id = G_JSON, .arg = GOPT_FLAG,
	  .help = "print one JSON document instead of text" },
	{ .name = "--pretty", .short_name = 'p', .id = G_PRETTY, .arg = GOPT_FLAG,
	  .help = "indented JSON (implies -j)" },
	{ .name = "--details", .short_name = 'd', .id = G_DETAILS, .arg = GOPT_FLAG, .help = "show more" },
	{ .name = "--version", .short_name = 'V', .id = G_VERSION, .arg = GOPT_FLAG,
	  .help = "print the version and exit" },
	{ .name = "--help", .short_name = 'h', .id = G_HELP, .arg = GOPT_FLAG, .help = "print this help and exit" },
	{ .name = "--color", .id = G_COLOR, .arg = GOPT_OPTIONAL, .metavar = "WHEN", .choices = color_values,
	  .help = "colour verdicts and states (default auto; always when given alone)" },
	{ .name = "--colour", .id = G_COLOR, .arg = GOPT_OPTIONAL, .metavar = "WHEN", .choices = color_values,
	  .help = "same as --color", .flags = GOPT_ALIAS },
	{ .name = "--record", .id = G_RECORD, .arg = GOPT_VALUE, .metavar = "DIR", .complete = COMPLETE_DIR,
	  .help = "also save everything the command reads under DIR" },
	{ .name = "--replay", .id = G_REPLAY, .arg = GOPT_VALUE, .metavar = "DIR", .complete = COMPLETE_DIR,
	  .help = "read a --record directory instead of the kernel" },
	{ .name = "--snapshot", .id = G_SNAPSHOT, .arg = GOPT_VALUE, .metavar = "FILE", .complete = COMPLETE_FILE,
	  .help = "run against the file of a system snapshot" },
	{ NULL },
};

/* "--name" or "--name=...", for options that take a value. */
static bool names_opt(const char *w, const struct global_opt *g)
{
	size_t len = strlen(g->name);

	if (strncmp(w, g->name, len))
		return false;
	return w[len] == '\0' || (w[len] == '=' && g->arg != GOPT_FLAG);
}

const struct global_opt *global_opt_short(char c)
{
	for (const struct global_opt *g = global_opts; g->name; g++)
		if (c && g->short_name == c)
			return g;
	return NULL;
}

const struct global_opt *global_opt_find(const char *word)
{
	if (word[0] == '-' && word[1] && word[1] != '-' && !word[2])
		return global_opt_short(word[1]);
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
