// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag __tables: every object, action, option and keyword of the command
 * tables (and the global options) as one JSON document, for the docs-sync
 * and completion tests.
 */
#include <stdio.h>

#include "check.h"
#include "global_opts.h"
#include "output.h"
#include "rdmadiag.h"

/* --- __tables: the command tables as JSON, for the docs and completion tests -- */

/* A developer interface, not a result: printed directly, not via output.h. */
static void json_str(const char *s)
{
	json_fput_string(stdout, s ? s : "");
}

static void json_str_list(const char *const *list)
{
	putchar('[');
	for (int i = 0; list && list[i]; i++) {
		if (i)
			putchar(',');
		json_str(list[i]);
	}
	putchar(']');
}

static const char *const opt_kind_names[] = {
	[OPT_FLAG] = "flag", [OPT_UINT] = "uint", [OPT_STR] = "str", [OPT_CHOICE] = "choice", [OPT_LIST] = "list",
	[OPT_DECIMAL] = "decimal", [OPT_SECONDS] = "seconds",
};
static const char *const complete_kind_names[] = {
	[COMPLETE_NONE] = "none", [COMPLETE_DEV] = "dev", [COMPLETE_DEV_PORT] = "dev_port",
	[COMPLETE_CHECK_ID] = "check_id", [COMPLETE_FILE] = "file", [COMPLETE_HOST] = "host", [COMPLETE_QPN] = "qpn",
	[COMPLETE_RQPN] = "rqpn", [COMPLETE_DIR] = "dir",
};

/* Kinds added later (by other objects) dump as "other" rather than reading past the table. */
static const char *kind_name(const char *const *names, size_t n, unsigned k)
{
	return k < n && names[k] ? names[k] : "other";
}

#define KIND_NAME(names, k) kind_name(names, sizeof(names) / sizeof(names[0]), (unsigned)(k))

static void dump_opt(const struct cmd_opt *o)
{
	printf("{\"name\":");
	json_str(opt_name(o));
	printf(",\"kind\":\"%s\",\"metavar\":", KIND_NAME(opt_kind_names, o->kind));
	json_str(o->metavar);
	printf(",\"help\":");
	json_str(o->help);
	printf(",\"choices\":");
	json_str_list(o->choices);
	printf(",\"complete\":\"%s\"}", KIND_NAME(complete_kind_names, o->complete));
}

struct dump_keywords {
	int n;
};

/* {"name":"state","before":"","takes_value":true,"values":["rc",...],"complete":"none"}:
 * before is what a command line has ahead of it ("qp", "set DEV/PORT"). */
static void dump_keyword(const char *before, const char *name, bool takes_value, enum complete_kind complete,
			 const char *values, void *data)
{
	struct dump_keywords *d = data;
	char buf[512];
	const char *list[FORM_MAX_VALUES + 1];

	form_split_values(values, buf, sizeof(buf), list);
	printf("%s{\"name\":", d->n++ ? "," : "");
	json_str(name);
	printf(",\"before\":");
	json_str(before);
	printf(",\"takes_value\":%s,\"values\":", takes_value ? "true" : "false");
	json_str_list(list);
	printf(",\"complete\":\"%s\"}", KIND_NAME(complete_kind_names, complete));
}

static void dump_action(const struct action *a)
{
	struct cmd_form f = action_form(a);
	struct dump_keywords d = { 0 };

	printf("{\"name\":");
	json_str(a->name);
	printf(",\"synopsis\":");
	json_str(a->synopsis);
	printf(",\"summary\":");
	json_str(a->summary);
	printf(",\"hidden\":%s,\"positional\":\"%s\",\"keywords\":", a->flags & HIDDEN ? "true" : "false",
	       KIND_NAME(complete_kind_names, a->positional));
	putchar('[');
	form_each_keyword(&f, "", dump_keyword, &d);
	putchar(']');
	printf(",\"options\":[");
	for (const struct cmd_opt *o = a->opts; o && o->id; o++) {
		if (o != a->opts)
			putchar(',');
		dump_opt(o);
	}
	/* its checks (link checks, counter rules, path stages): what --list
	 * prints, and what the man page documents as .TP tags */
	printf("],\"checks\":[");
	const struct check_def *c;

	for (size_t i = 0; a->checks && (c = a->checks(i)); i++) {
		printf("%s{\"id\":", i ? "," : "");
		json_str(c->id);
		printf(",\"title\":");
		json_str(c->title);
		putchar('}');
	}
	printf("]}");
}

static void dump_global(const char *name, const struct global_opt *g, int n)
{
	printf("%s{\"name\":", n ? "," : "");
	json_str(name);
	printf(",\"takes_value\":%s,\"complete\":\"%s\",\"help\":", g->arg == GOPT_VALUE ? "true" : "false",
	       KIND_NAME(complete_kind_names, g->complete));
	json_str(g->help);
	printf("}");
}

int tables_main(void)
{
	int n = 0;

	/* one entry per spelling ("-j", "--json"): what a command line may hold */
	printf("{\"global_options\":[");
	for (const struct global_opt *g = global_opts; g->name; g++) {
		char s[3] = { '-', g->short_name, '\0' };

		if (g->flags & GOPT_ALIAS)
			continue;
		if (g->short_name)
			dump_global(s, g, n++);
		dump_global(g->name, g, n++);
	}
	printf("],\"objects\":[");
	for (int i = 0; all_objects[i]; i++) {
		printf("%s{\"name\":", i ? "," : "");
		json_str(all_objects[i]->name);
		printf(",\"summary\":");
		json_str(all_objects[i]->summary);
		printf(",\"actions\":[");
		for (const struct action *a = all_objects[i]->actions; a->name; a++) {
			if (a != all_objects[i]->actions)
				putchar(',');
			dump_action(a);
		}
		printf("]}");
	}
	printf("]}\n");
	return EXIT_OK;
}
