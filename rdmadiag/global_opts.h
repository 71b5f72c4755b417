/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The global options (those before OBJECT), as one table: the parser of
 * main(), the top-level help, shell completion, the __tables dump and the
 * dispatcher's "global options go before OBJECT" hint all read it, so an
 * option added here is parsed, documented-checked and completed at once.
 */
#ifndef RDMADIAG_GLOBAL_OPTS_H
#define RDMADIAG_GLOBAL_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "rdmadiag.h"

enum gopt_id { G_JSON, G_PRETTY, G_DETAILS, G_VERSION, G_HELP, G_COLOR, G_RECORD, G_REPLAY, G_SNAPSHOT };

enum gopt_arg {
	GOPT_FLAG,		/* no value */
	GOPT_VALUE,		/* "--name VALUE" or "--name=VALUE" */
	GOPT_OPTIONAL,		/* "--name", "--name=VALUE", or "--name VALUE" when VALUE is one of choices */
};

enum gopt_flags {
	GOPT_ALIAS = 1u << 0,	/* another spelling ("--colour"): parsed, never offered or listed */
};

struct global_opt {
	const char *name;		/* "--json" */
	char short_name;		/* 'j' for "-j"; 0 when it has none */
	enum gopt_id id;
	enum gopt_arg arg;
	const char *metavar;		/* "DIR"; NULL for flags */
	enum complete_kind complete;	/* what completes its value */
	const char *const *choices;	/* the values it takes, or NULL */
	const char *help;		/* one line for help */
	unsigned flags;			/* GOPT_ALIAS */
};

/* Terminated by { NULL }. */
extern const struct global_opt global_opts[];

/* The option a command-line word names: "--json", "-j", "--color=never"
 * (a value after '=' only for options that take one); NULL if none. */
const struct global_opt *global_opt_find(const char *word);
/* The option a mistyped single-dash word looks like: "-json" is --json,
 * "-js" a unique prefix of it; NULL if none. */
const struct global_opt *global_opt_like(const char *word);
/* The option of a short name ('j'); NULL if none. */
const struct global_opt *global_opt_short(char c);
/* "-j (--json)" or "--snapshot": how an error line names it. */
void global_opt_spelling(const struct global_opt *g, char *buf, size_t len);

/* global_opts_parse.c: parses the global options of argv. Returns the index
 * of the first word after them, -1 after a usage error (said, *rc set), or
 * argc + 1 when the command was fully handled (-V, -h; *rc set). Sets g_opts. */
int global_opts_parse(int argc, char **argv, int *rc);
/* The output mode the parsed options ask for, for out_init(). */
struct out_mode global_opts_out_mode(void);

/* The OPTIONS := { ... } block and the option lines of the top-level help. */
void global_opts_print_help(FILE *fp);

#endif
