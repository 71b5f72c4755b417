/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rdmadiag: shared definitions of the front end.
 *
 * Every object (dev, link, gid, qp, ...) lives in its own file and exports one
 * `struct object`. objects.c lists them; main.c parses the global options and
 * hands the rest to the dispatcher in cmd.c. Help, completion and the man-page
 * sync test all read the same tables, so they cannot drift from dispatch.
 */
#ifndef RDMADIAG_H
#define RDMADIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt_id.h"	/* enum opt_id */
#include "output.h"	/* enum color_mode */

#define RDMADIAG_VERSION "0.1.0"

/* Exit codes, documented in rdmadiag(8). */
enum exit_code {
	EXIT_OK = 0,	   /* all good */
	EXIT_PROBLEM = 1,  /* a check or test found a problem */
	EXIT_USAGE = 2,	   /* the command line is wrong */
	EXIT_HOST = 3,	   /* this host cannot run the command */
	EXIT_RUNTIME = 4,  /* unexpected runtime error */
};

/* Global options, set once by main() before dispatch. */
struct global_opts {
	bool json;
	bool pretty;
	bool details;
	enum color_mode color;
	const char *record_dir;	/* --record DIR: save what is read */
	const char *replay_dir;	/* --replay DIR: read a fixture instead */
	const char *snapshot;	/* --snapshot FILE: replay from a snapshot (snapshot.h) */
};
extern struct global_opts g_opts;

/* Kinds of option values, used by the parser and by completion. */
enum opt_kind {
	OPT_FLAG,	/* no value */
	OPT_UINT,	/* unsigned integer in [min, max] */
	OPT_STR,	/* free string */
	OPT_CHOICE,	/* one of choices[] */
	OPT_LIST,	/* comma separated list; choices[] if given */
	OPT_DECIMAL,	/* non-negative decimal number ("0.5") in [min, max], in opt_value.dbl */
	OPT_SECONDS,	/* an --interval: seconds in [INTERVAL_MIN_S, max], fractions allowed, in dbl */
};

/* The shortest --interval of every command: one wait of 10 ms, never a
 * busy loop of netlink dumps (0 read a full QP dump back to back). */
#define INTERVAL_MIN_S 0.01

/* What the positional arguments or an option value name, for completion. */
enum complete_kind {
	COMPLETE_NONE,
	COMPLETE_DEV,		/* DEV */
	COMPLETE_DEV_PORT,	/* DEV[/PORT] */
	COMPLETE_CHECK_ID,	/* check ids (the choices of --only/--skip) */
	COMPLETE_FILE,
	COMPLETE_HOST,		/* recent path peers, then the shell's host names */
	COMPLETE_QPN,		/* QP numbers on this host (netlink) */
	COMPLETE_RQPN,		/* remote QP numbers of this host's QPs */
	COMPLETE_DIR,		/* directories */
};

struct cmd_opt {
	enum opt_id id;			/* O_EXPECT_MTU; its name is opt_name() */
	enum opt_kind kind;
	const char *metavar;		/* "N"; NULL for flags */
	const char *help;		/* one line */
	const char *const *choices;	/* NULL terminated, or NULL */
	unsigned long long min, max;	/* bounds for OPT_UINT */
	enum complete_kind complete;	/* for OPT_STR / OPT_LIST values */
};

/* "--expect-mtu": how the command line spells the option of a table row. */
static inline const char *opt_name(const struct cmd_opt *o)
{
	return opt_names[o->id];
}

/* Parsed value of one option; the array is parallel to action->opts. */
struct opt_value {
	bool set;
	const char *str;
	unsigned long long num;
	double dbl;		/* OPT_DECIMAL */
};

#define MAX_OPTS 32
#define MAX_POSITIONAL 64

struct action;
struct check_def;	/* check.h: a check's id and title */
struct rfilter_key;	/* resource.h: a filter of the resource objects ("state rts") */
struct cmd_form;

/*
 * A keyword among an action's positional words, and what follows it. The
 * parser of the action reads the same words; completion offers them where the
 * grammar takes them, and after one its values.
 */
struct cmd_word {
	const char *name;		/* "peer", "loopback" */
	enum complete_kind complete;	/* its value: live values (peer ADDR) */
	const char *values;		/* or one of these words, space separated; the parser's list */
	const struct cmd_form *form;	/* or no value: a first word that switches the action to this form */
	unsigned flags;			/* WORD_REPEAT */
};

enum word_flags {
	WORD_REPEAT = 1u << 0,		/* may be given more than once (peer A peer B) */
};

/* The positional words of an action, or of the form a cmd_word starts: an
 * optional (ARG_FIRST: required) DEV-like word first, then keywords. */
struct cmd_form {
	enum complete_kind positional;	/* the first word when it is not a keyword */
	const struct cmd_word *words;	/* terminated by { NULL }, or NULL */
	const struct rfilter_key *filters; /* resource filters "KEY VALUE", keywords too; or NULL */
	unsigned flags;			/* ARG_FIRST */
};

/* DEV[/PORT] argument: port 0 means every port. */
struct dev_port {
	char dev[64];
	unsigned port;
};

/* What a handler receives: its positional words and its parsed options. */
struct cmd_ctx {
	const struct object *object;
	const struct action *action;
	int argc;			/* positional words */
	char **argv;
	struct opt_value opt[MAX_OPTS];
	struct dev_port sel;		/* the DEV[/PORT] word, when check_args read one ("" and 0: none) */
};

enum action_flags {
	/* RDMA netlink is opened (nl_require(), lower_err.h) by cmd_run(), once the
	 * action's check_args has accepted its words, before run: a usage error
	 * comes first, and a host without RDMA is told in one wording */
	NEEDS_NETLINK = 1u << 0,
	/* 1u << 1 was NEEDS_VERBS, never read: libibverbs is dlopen()ed where a
	 * port is first queried (verbs/dl.c), so a row has nothing to declare */
	HIDDEN = 1u << 2,		/* not listed in help */
	OUTPUT_STREAM = 1u << 3,	/* JSON lines: one object per line, flushed (watch) */
	ARG_FIRST = 1u << 4,		/* the positional word is required and comes before the keywords */
};

/* What an action's check_args returns when its words and options are valid
 * and it is to run; anything else is its exit code (2 after a usage error,
 * 0 after --list, which needs no netlink). */
#define ARGS_VALID (-1)

struct action {
	const char *name;
	const char *synopsis;		/* positional part, "[DEV[/PORT]]" */
	const char *summary;		/* one line for help */
	/* cmd_run() calls them in this order, each only when the one before
	 * let it: check_args (or none), netlink when the row NEEDS_NETLINK
	 * (no_netlink, when set, says a failed open in the action's own form
	 * and returns the exit code), then run. */
	int (*check_args)(struct cmd_ctx *ctx);	/* ARGS_VALID, or the exit code; may fill ctx->sel */
	int (*no_netlink)(struct cmd_ctx *ctx, int rc);	/* rc: nl_require()'s, already said */
	int (*run)(struct cmd_ctx *ctx);
	unsigned flags;
	const struct cmd_opt *opts;	/* terminated by { 0 } (id O_NONE) */
	enum complete_kind positional;
	const struct cmd_word *words;	/* keywords it takes ("peer ADDR", "loopback"); or NULL */
	const struct rfilter_key *filters; /* resource filters ("state rts"); or NULL */
	const struct check_def *(*checks)(size_t i); /* its checks (check.h), for --list and __tables; or NULL */
};

struct object {
	const char *name;
	const char *summary;
	const struct action *actions;	/* terminated by { .name = NULL }; first is default */
};

/* The positional words an action takes, as the form its keywords may switch from. */
static inline struct cmd_form action_form(const struct action *a)
{
	return (struct cmd_form){ .positional = a->positional, .words = a->words, .filters = a->filters,
				  .flags = a->flags & ARG_FIRST };
}

/* forms.c: each keyword of form f and of the forms its words start, in
 * help order, with the words a command line has before it: `before` and then
 * "qp", "set DEV/PORT" ("DEV/PORT" stands for an ARG_FIRST form's word). */
typedef void (*keyword_fn)(const char *before, const char *name, bool takes_value, enum complete_kind complete,
			   const char *values, void *data);
void form_each_keyword(const struct cmd_form *f, const char *before, keyword_fn fn, void *data);
/* forms.c: a keyword's values ("rc uc ud") as a NULL terminated list of at
 * most FORM_MAX_VALUES words, which live in buf. */
#define FORM_MAX_VALUES 32
void form_split_values(const char *values, char *buf, size_t len, const char **out);

/* objects.c: every object, in help order; NULL terminated. */
extern const struct object *const all_objects[];

/* cmd.c */
int cmd_dispatch(int argc, char **argv);
/* The command line as cmd_dispatch() reads it, without running anything: -1
 * when it names a command to run, else the exit code after printing help or
 * saying the usage error (argv is left as it was). */
int cmd_check_line(int argc, char **argv);
/* Who runs a parsed command: cmd_run() unless replaced (the command-line
 * fuzz target skips handlers that wait or use the network). */
typedef int (*cmd_runner)(struct cmd_ctx *ctx);
void cmd_set_runner(cmd_runner run);
/* cmd_run.c: a parsed action, as the dispatcher and system check run it:
 * check_args, then RDMA netlink for a NEEDS_NETLINK row, then run (see
 * struct action). Returns the exit code. */
int cmd_run(struct cmd_ctx *ctx);

/* complete.c, tables.c: hidden commands for the shell completion and the docs
 * tests. argv[0] is "__complete"; they never open netlink. */
int complete_main(int argc, char **argv);
int tables_main(void);
const struct object *object_find(const char *word, int *ambiguous);
void print_top_help(void);
/* Where an action's table has an option (its index in a->opts and ctx->opt),
 * -1 when it has none: opt_index() by id, for the code that asks whether an
 * action takes an option; opt_index_name() by the name a command line spells,
 * for the parser and completion, the one place names come from a user. */
int opt_index(const struct action *a, enum opt_id id);
int opt_index_name(const struct action *a, const char *name);
/* The index of an option the code reads or sets for action a. An option a
 * does not declare is a bug of the code, not of the command line: built with
 * STRICT_OPT_LOOKUP (make SANITIZE=1, which the tests use) it aborts naming
 * both, so the tests catch it; otherwise -1, and reads give "not given". */
int opt_slot(const struct action *a, enum opt_id id);
/* The parsed value of an option of the running action (see opt_slot()). */
const struct opt_value *ctx_opt(const struct cmd_ctx *ctx, enum opt_id id);
/* The number an OPT_UINT option was given, dflt when it was not. */
unsigned long long ctx_opt_uint(const struct cmd_ctx *ctx, enum opt_id id, unsigned long long dflt);
/* The same for an OPT_DECIMAL/OPT_SECONDS value and for the text of any option. */
double ctx_opt_dbl(const struct cmd_ctx *ctx, enum opt_id id, double dflt);
const char *ctx_opt_str(const struct cmd_ctx *ctx, enum opt_id id, const char *dflt);
/* "42": digits only (no sign, blank, hex) in [min, max]; 0 or -1. */
int parse_uint(const char *s, unsigned long long min, unsigned long long max, unsigned long long *out);
/* "1", "0.25", "2.": a plain non-negative decimal in [min, max]; 0 or -1. */
int parse_decimal(const char *s, double min, double max, double *out);

/*
 * Error reporting: what failed, the likely cause, the next step.
 * All three go to stderr; cause and next may be NULL.
 */
void report_error(const char *what, const char *cause, const char *next);
__attribute__((format(printf, 1, 2))) void usage_error(const char *fmt, ...);

int parse_dev_port(const char *word, struct dev_port *out);
/* The optional single DEV[/PORT] word of an action: 0 (sel->dev is "" when
 * absent) or EXIT_USAGE after saying what is wrong. */
int ctx_dev_port(const struct cmd_ctx *ctx, struct dev_port *sel);
/* check_args of an action whose words are [DEV[/PORT]]: ctx_dev_port() into
 * ctx->sel; ARGS_VALID or EXIT_USAGE. */
int args_dev_port(struct cmd_ctx *ctx);

#endif
