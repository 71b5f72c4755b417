// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher: matches OBJECT and ACTION words (unique prefixes accepted),
 * parses the action's options from its table, prints help from the same
 * tables, and runs the action (cmd_run(): its words checked, netlink opened
 * when its row needs it, its handler) between out_begin() and out_finish().
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_opts.h"
#include "output.h"
#include "rdmadiag.h"

void report_error(const char *what, const char *cause, const char *next)
{
	char msg[1024];

	/* what may quote a device name from a kernel reply: no control bytes on a terminal */
	fputs("rdmadiag: ", stderr);
	for (const unsigned char *p = (const unsigned char *)what; *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stderr);
	fputc('\n', stderr);
	if (cause)
		fprintf(stderr, "  cause: %s\n", cause);
	if (next)
		fprintf(stderr, "  next:  %s\n", next);
	snprintf(msg, sizeof(msg), "%s%s%s%s%s", what, cause ? "; cause: " : "", cause ? cause : "",
		 next ? "; next: " : "", next ? next : "");
	out_record_error(msg);
}

/*
 * A usage error is one line on stderr, hints included, so that a script (or a
 * person) sees one clear message. Words from the command line may be anything:
 * bytes outside printable ASCII are shown as \xNN (no escape sequences reach
 * the terminal) and a very long line keeps its start and end.
 */
#define USAGE_LINE_MAX 1000	/* room for the longest list of choices */

static void printable_line(const char *msg, char *out, size_t cap)
{
	size_t n = strlen(msg), len = 0;
	char *esc = malloc(4 * n + 1);

	if (!esc) {
		snprintf(out, cap, "usage error");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c < 0x20 || c > 0x7e)
			len += (size_t)sprintf(esc + len, "\\x%02x", c);
		else
			esc[len++] = (char)c;
	}
	esc[len] = '\0';
	if (len < cap && len <= USAGE_LINE_MAX)
		snprintf(out, cap, "%s", esc);
	else
		snprintf(out, cap, "%.500s[...%zu bytes...]%s", esc, len - 500 - 400, esc + len - 400);
	free(esc);
}

void usage_error(const char *fmt, ...)
{
	char line[USAGE_LINE_MAX + 64];
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	printable_line(n < 0 ? "usage error" : msg, line, sizeof(line));
	free(n < 0 ? NULL : msg);
	fprintf(stderr, "rdmadiag: %s\n", line);
	/* a usage error found by a handler still lands in the JSON document */
	out_record_error(line);
}

/*
 * Match a word against names[] (stride bytes apart, NULL name ends): exact
 * match first, then a unique prefix. Returns the index, -1 for none, -2 for
 * ambiguous.
 */
static int match_word(const char *word, const void *base, size_t stride, bool skip_hidden,
		      size_t flags_off)
{
	int found = -1, n = 0;
	size_t len = strlen(word);

	for (int i = 0;; i++) {
		const char *name = *(const char *const *)((const char *)base + i * stride);

		if (!name)
			break;
		/* hidden aliases ("list") match when typed in full, never as a prefix */
		if (!strcmp(name, word))
			return i;
		if (skip_hidden && (*(const unsigned *)((const char *)base + i * stride + flags_off) & HIDDEN))
			continue;
		if (len && !strncmp(name, word, len)) {
			found = i;
			n++;
		}
	}
	return n > 1 ? -2 : found;
}

const struct object *object_find(const char *word, int *ambiguous)
{
	int found = -1, n = 0;
	size_t len = strlen(word);

	*ambiguous = 0;
	for (int i = 0; all_objects[i]; i++) {
		if (!strcmp(all_objects[i]->name, word))
			return all_objects[i];
		if (len && !strncmp(all_objects[i]->name, word, len)) {
			found = i;
			n++;
		}
	}
	if (n > 1)
		*ambiguous = 1;
	return n == 1 ? all_objects[found] : NULL;
}

/* The list functions print "a | b | c" of the names starting with prefix
 * (all when NULL); what is their object, action or option table. */
typedef void list_fn(FILE *fp, const void *what, const char *prefix);

/* What a list function prints, as a string for a one-line usage error. */
static char *list_text(list_fn *fn, const void *what, const char *prefix)
{
	char *text = NULL;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	if (!fp)
		return NULL;
	fn(fp, what, prefix);
	fclose(fp);
	return text;
}

static void list_objects(FILE *fp, const void *unused, const char *prefix)
{
	(void)unused;
	const char *sep = "";

	for (int i = 0; all_objects[i]; i++) {
		if (prefix && strncmp(all_objects[i]->name, prefix, strlen(prefix)))
			continue;
		fprintf(fp, "%s%s", sep, all_objects[i]->name);
		sep = " | ";
	}
}

static void list_actions(FILE *fp, const void *what, const char *prefix)
{
	const struct object *obj = what;
	const char *sep = "";

	for (const struct action *a = obj->actions; a->name; a++) {
		if (a->flags & HIDDEN)
			continue;
		if (prefix && strncmp(a->name, prefix, strlen(prefix)))
			continue;
		fprintf(fp, "%s%s", sep, a->name);
		sep = " | ";
	}
	if (!prefix || !strncmp("help", prefix, strlen(prefix)))
		fprintf(fp, "%shelp", sep);
}

void print_top_help(void)
{
	printf("Usage: rdmadiag [OPTIONS] OBJECT [ACTION] [ARGS]\n"
	       "       rdmadiag OBJECT [ACTION] help\n"
	       "       rdmadiag help [OBJECT [ACTION]]\n"
	       "       rdmadiag -V\n"
	       "where  OBJECT := { ");
	list_objects(stdout, NULL, NULL);
	printf(" }\n"
	       "\n");
	global_opts_print_help(stdout);
	printf("\nObjects:\n");
	for (int i = 0; all_objects[i]; i++)
		printf("  %-9s %s\n", all_objects[i]->name, all_objects[i]->summary);
	printf("\nUnique prefixes are accepted: 'rdmadiag l s' is 'rdmadiag link show'.\n"
	       "Exit codes: 0 all good, 1 a problem was found, 2 usage error,\n"
	       "            3 this host cannot run the command, 4 runtime error.\n"
	       "See rdmadiag(8) and rdmadiag-OBJECT(8).\n");
}

static void print_opt_help(const struct cmd_opt *opt)
{
	char left[64];

	snprintf(left, sizeof(left), "%s%s%s", opt_name(opt), opt->metavar ? " " : "",
		 opt->metavar ? opt->metavar : "");
	printf("      %-24s %s", left, opt->help);
	if (opt->choices) {
		printf(" (");
		for (int i = 0; opt->choices[i]; i++)
			printf("%s%s", i ? ", " : "", opt->choices[i]);
		printf(")");
	}
	printf("\n");
}

static void print_keyword(const char *before, const char *name, bool takes_value, enum complete_kind complete,
			  const char *values, void *data)
{
	(void)before, (void)takes_value, (void)complete, (void)values, (void)data;
	printf(" %s", name);
}

static void print_action_usage(const struct object *obj, const struct action *a, bool with_opts)
{
	bool words = a->synopsis && a->synopsis[0];

	printf("Usage: rdmadiag %s %s%s%s", obj->name, a->name, words ? " " : "", words ? a->synopsis : "");
	if (a->opts && a->opts[0].id)
		printf(" [OPTIONS]");
	printf("\n    %s\n", a->summary);
	if (a->words || a->filters) {
		struct cmd_form f = action_form(a);

		printf("    Keywords:");
		form_each_keyword(&f, "", print_keyword, NULL);
		printf("\n");
	}
	if (with_opts && a->opts)
		for (const struct cmd_opt *opt = a->opts; opt->id; opt++)
			print_opt_help(opt);
}

static void print_object_help(const struct object *obj)
{
	printf("rdmadiag %s: %s\n\n", obj->name, obj->summary);
	for (const struct action *a = obj->actions; a->name; a++) {
		if (a->flags & HIDDEN)
			continue;
		print_action_usage(obj, a, true);
	}
	printf("Usage: rdmadiag %s help\n", obj->name);
}

/* Built from the list itself, each name at its id: no second copy to drift. */
const char *const opt_names[N_OPT_IDS] = {
#define OPT_ID_NAME(id, name) [id] = name,
	OPT_IDS(OPT_ID_NAME)
#undef OPT_ID_NAME
};

int opt_index(const struct action *a, enum opt_id id)
{
	for (int i = 0; a && a->opts && a->opts[i].id; i++)
		if (a->opts[i].id == id)
			return i;
	return -1;
}

int opt_index_name(const struct action *a, const char *name)
{
	for (int i = 0; a && a->opts && a->opts[i].id; i++)
		if (!strcmp(opt_name(&a->opts[i]), name))
			return i;
	return -1;
}

int opt_slot(const struct action *a, enum opt_id id)
{
	int i = opt_index(a, id);

#ifdef STRICT_OPT_LOOKUP
	if (i < 0) {
		fprintf(stderr, "rdmadiag: bug: the code reads %s of '%s', whose option table has no such option\n",
			opt_names[id] ? opt_names[id] : "O_NONE", a ? a->name : "(no action)");
		abort();
	}
#endif
	return i;
}

const struct opt_value *ctx_opt(const struct cmd_ctx *ctx, enum opt_id id)
{
	static const struct opt_value unset;
	int i = opt_slot(ctx->action, id);

	return i < 0 ? &unset : &ctx->opt[i];
}

unsigned long long ctx_opt_uint(const struct cmd_ctx *ctx, enum opt_id id, unsigned long long dflt)
{
	const struct opt_value *v = ctx_opt(ctx, id);

	return v->set ? v->num : dflt;
}

double ctx_opt_dbl(const struct cmd_ctx *ctx, enum opt_id id, double dflt)
{
	const struct opt_value *v = ctx_opt(ctx, id);

	return v->set ? v->dbl : dflt;
}

const char *ctx_opt_str(const struct cmd_ctx *ctx, enum opt_id id, const char *dflt)
{
	const struct opt_value *v = ctx_opt(ctx, id);

	return v->set ? v->str : dflt;
}

int parse_uint(const char *s, unsigned long long min, unsigned long long max,
		      unsigned long long *out)
{
	char *end;

	/* digits only: strtoull would take " 12", "+5" and "-1" */
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);

	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_decimal(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	/* Digits and one dot only: no sign, exponent, hex, inf or nan. */
	if (!s || !*s || strspn(s, "0123456789.") != strlen(s) || strchr(s, '.') != strrchr(s, '.') ||
	    !strcmp(s, "."))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static bool in_choices(const char *const *choices, const char *v)
{
	for (int i = 0; choices[i]; i++)
		if (!strcmp(choices[i], v))
			return true;
	return false;
}

/* "a, b, c": the values an option takes, for a one-line usage error. */
static void list_choices(FILE *fp, const void *what, const char *prefix)
{
	const char *const *choices = what;

	(void)prefix;
	for (int i = 0; choices[i]; i++)
		fprintf(fp, "%s%s", i ? ", " : "", choices[i]);
}

/* A check id the action does not know: its --list says what each one is. */
static void unknown_choice(const struct cmd_ctx *ctx, const struct cmd_opt *opt, const char *value)
{
	char *text = list_text(list_choices, opt->choices, NULL);
	char see[128] = "";

	if (opt->complete == COMPLETE_CHECK_ID && opt_index(ctx->action, O_LIST) >= 0)
		snprintf(see, sizeof(see), "; see them with: rdmadiag %s %s --list", ctx->object->name,
			 ctx->action->name);
	usage_error("%s: unknown value '%s' (expected one of: %s)%s", opt_name(opt), value, text ? text : "?", see);
	free(text);
}

static int check_list_items(const struct cmd_ctx *ctx, const struct cmd_opt *opt, const char *value)
{
	char buf[1024];

	if (!*value || strlen(value) >= sizeof(buf)) {
		usage_error("%s: expected a comma separated list", opt_name(opt));
		return -1;
	}
	strcpy(buf, value);
	/* strsep, not strtok: "a,,b" and "," have empty items, which are errors */
	for (char *rest = buf, *item; (item = strsep(&rest, ","));) {
		if (!*item) {
			usage_error("%s: empty item in '%s'", opt_name(opt), value);
			return -1;
		}
		if (opt->choices && !in_choices(opt->choices, item)) {
			unknown_choice(ctx, opt, item);
			return -1;
		}
	}
	return 0;
}

static int set_opt_value(const struct cmd_ctx *ctx, const struct cmd_opt *opt, struct opt_value *v,
			 const char *value)
{
	switch (opt->kind) {
	case OPT_FLAG:
		break;
	case OPT_UINT:
		if (parse_uint(value, opt->min, opt->max, &v->num)) {
			usage_error("%s: '%s' is not a whole number in %llu..%llu", opt_name(opt), value,
				    opt->min, opt->max);
			return -1;
		}
		break;
	case OPT_DECIMAL:
		if (parse_decimal(value, (double)opt->min, (double)opt->max, &v->dbl)) {
			usage_error("%s: '%s' is not a number in %llu..%llu (fractions like 0.5 allowed)", opt_name(opt),
				    value, opt->min, opt->max);
			return -1;
		}
		break;
	case OPT_SECONDS:
		if (parse_decimal(value, INTERVAL_MIN_S, (double)opt->max, &v->dbl)) {
			usage_error("%s: '%s' is not a number of seconds in %g..%llu", opt_name(opt), value, INTERVAL_MIN_S,
				    opt->max);
			return -1;
		}
		break;
	case OPT_CHOICE:
		if (!in_choices(opt->choices, value)) {
			unknown_choice(ctx, opt, value);
			return -1;
		}
		break;
	case OPT_LIST:
		if (check_list_items(ctx, opt, value))
			return -1;
		break;
	case OPT_STR:
		if (!*value) {
			usage_error("%s: empty value", opt_name(opt));
			return -1;
		}
		break;
	}
	if (v->set) {
		usage_error("%s given twice", opt_name(opt));
		return -1;
	}
	v->set = true;
	v->str = value;
	return 0;
}

static void list_opts(FILE *fp, const void *what, const char *prefix)
{
	const struct action *a = what;

	for (int i = 0, n = 0; a->opts && a->opts[i].id; i++)
		if (!prefix || !strncmp(opt_name(&a->opts[i]), prefix, strlen(prefix)))
			fprintf(fp, "%s%s", n++ ? " | " : "", opt_name(&a->opts[i]));
}

/* Find an option by exact name or unique prefix; reports errors itself. */
static int find_opt(const struct cmd_ctx *ctx, const char *name)
{
	const struct action *a = ctx->action;
	int found = opt_index_name(a, name), n = 0;
	size_t len = strlen(name);

	if (found >= 0)
		return found;
	for (int i = 0; a->opts && a->opts[i].id; i++)
		if (!strncmp(opt_name(&a->opts[i]), name, len)) {
			found = i;
			n++;
		}
	if (n == 1)
		return found;
	char *text = list_text(list_opts, a, n ? name : NULL);

	usage_error("%s option '%s' for '%s %s' (options: %s%s)", n ? "ambiguous" : "unknown", name,
		    ctx->object->name, a->name, text && *text ? text : "none",
		    global_opt_find(name) ? "; global options go before OBJECT" : "");
	free(text);
	return -1;
}

/* "-only", "-json", "-j", "-x" after the action: what it looks like, when anything. */
static void unknown_dash_option(const struct cmd_ctx *ctx, const char *w)
{
	const char *obj = ctx->object->name, *act = ctx->action->name;
	const struct global_opt *g = global_opt_find(w), *like = global_opt_like(w);
	char dashed[128], spelled[64];

	snprintf(dashed, sizeof(dashed), "-%.*s", (int)strcspn(w, "="), w);
	if (strlen(w) > 2 && opt_index_name(ctx->action, dashed) >= 0) {
		usage_error("unknown option '%s' for '%s %s'; did you mean %s?", w, obj, act, dashed);
	} else if (g) {
		usage_error("unknown option '%s' for '%s %s': %s is a global option, it goes before OBJECT (rdmadiag %s %s %s)",
			    w, obj, act, w, w, obj, act);
	} else if (like) {
		global_opt_spelling(like, spelled, sizeof(spelled));
		usage_error("unknown option '%s' for '%s %s'; did you mean %s? It is a global option, it goes before "
			    "OBJECT", w, obj, act, spelled);
	} else {
		usage_error("unknown option '%s' for '%s %s' (options are --long; global options go before OBJECT)", w,
			    obj, act);
	}
}

/* Split argv into positional words and options of the action. */
static int parse_action_args(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct action *a = ctx->action;
	bool opts_done = false;

	ctx->argc = 0;
	for (int i = 0; i < argc; i++) {
		char *w = argv[i];
		/* a short option exists only when the table names it ("-o") */
		bool short_opt = !opts_done && w[0] == '-' && w[1] && w[1] != '-' && opt_index_name(a, w) >= 0;

		if (!short_opt && (opts_done || strncmp(w, "--", 2) || !strcmp(w, "-"))) {
			if (!opts_done && w[0] == '-' && w[1] && strcmp(w, "-")) {
				unknown_dash_option(ctx, w);
				return -1;
			}
			if (ctx->argc >= MAX_POSITIONAL) {
				usage_error("too many arguments (at most %d)", MAX_POSITIONAL);
				return -1;
			}
			argv[ctx->argc++] = w;	/* compact in place; i >= ctx->argc */
			continue;
		}
		if (!strcmp(w, "--")) {
			opts_done = true;
			continue;
		}
		char name[128];
		const char *eq = strchr(w, '=');
		size_t nlen = eq ? (size_t)(eq - w) : strlen(w);

		if (nlen >= sizeof(name)) {
			usage_error("option name too long");
			return -1;
		}
		memcpy(name, w, nlen);
		name[nlen] = '\0';
		int idx = find_opt(ctx, name);

		if (idx < 0)
			return -1;
		const struct cmd_opt *opt = &a->opts[idx];
		const char *value = NULL;

		if (opt->kind == OPT_FLAG) {
			if (eq) {
				usage_error("%s takes no value", opt_name(opt));
				return -1;
			}
		} else if (eq) {
			value = eq + 1;
		} else if (i + 1 < argc) {
			value = argv[++i];
		} else {
			usage_error("%s needs a value (%s)", opt_name(opt), opt->metavar ? opt->metavar : "VALUE");
			return -1;
		}
		if (set_opt_value(ctx, opt, &ctx->opt[idx], value))
			return -1;
	}
	ctx->argv = argv;
	return 0;
}

static bool is_help_word(const char *w)
{
	return !strcmp(w, "help") || !strcmp(w, "-h") || !strcmp(w, "--help");
}

static const struct action *find_action(const struct object *obj, const char *word)
{
	int i = match_word(word, obj->actions, sizeof(struct action), true,
			   offsetof(struct action, flags));

	if (i >= 0)
		return &obj->actions[i];
	char *text = list_text(list_actions, obj, i == -2 ? word : NULL);

	usage_error("%s action '%s' for object '%s' (candidates: %s; try: rdmadiag %s help)",
		    i == -2 ? "ambiguous" : "unknown", word, obj->name, text ? text : "?", obj->name);
	free(text);
	return NULL;
}

static cmd_runner runner = cmd_run;

void cmd_set_runner(cmd_runner run)
{
	runner = run ? run : cmd_run;
}

/* Everything cmd_dispatch() does before the handler runs: -1 and ctx filled
 * when the command is to run, else its exit code (help printed, or a usage
 * error said). argv is compacted in place. */
/* OBJECT, a unique prefix of one, or a usage error naming the candidates. */
static const struct object *find_object(const char *word)
{
	int ambiguous;
	const struct object *obj = object_find(word, &ambiguous);

	if (!obj) {
		char *text = list_text(list_objects, NULL, ambiguous ? word : NULL);

		usage_error("%s object '%s' (candidates: %s; try: rdmadiag help)", ambiguous ? "ambiguous" : "unknown",
			    word, text ? text : "?");
		free(text);
	}
	return obj;
}

/* `rdmadiag help OBJECT [ACTION]`: what `rdmadiag OBJECT [ACTION] help` prints. */
static int help_for(int argc, char **argv)
{
	const struct object *obj = find_object(argv[0]);
	const struct action *a;

	if (!obj)
		return EXIT_USAGE;
	if (argc == 1) {
		print_object_help(obj);
		return EXIT_OK;
	}
	if (!(a = find_action(obj, argv[1])))
		return EXIT_USAGE;
	if (argc > 2) {
		usage_error("help takes OBJECT [ACTION], got '%s' after '%s %s'", argv[2], obj->name, a->name);
		return EXIT_USAGE;
	}
	print_action_usage(obj, a, true);
	return EXIT_OK;
}

/* Everything cmd_dispatch() does before the handler runs: -1 and ctx filled
 * when the command is to run, else its exit code (help printed, or a usage
 * error said). argv is compacted in place. */
static int cmd_parse(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 1) {
		usage_error("no OBJECT given (Usage: rdmadiag [OPTIONS] OBJECT [ACTION] [ARGS]; try: rdmadiag help)");
		return EXIT_USAGE;
	}
	if (argc > 1 && !strcmp(argv[0], "help"))
		return help_for(argc - 1, argv + 1);
	if (is_help_word(argv[0])) {
		print_top_help();
		return EXIT_OK;
	}
	const struct object *obj = find_object(argv[0]);

	if (!obj)
		return EXIT_USAGE;
	argc--, argv++;

	const struct action *a = obj->actions;	/* the first action is the default */

	if (argc > 0 && is_help_word(argv[0])) {
		print_object_help(obj);
		return EXIT_OK;
	}
	if (argc > 0 && argv[0][0] != '-') {
		a = find_action(obj, argv[0]);
		if (!a)
			return EXIT_USAGE;
		argc--, argv++;
	}
	/* `rdmadiag link check help` and `... --help` print that action's help. */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if ((i == 0 && !strcmp(argv[i], "help")) || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			print_action_usage(obj, a, true);
			return EXIT_OK;
		}
	}

	*ctx = (struct cmd_ctx){ .object = obj, .action = a };
	if (parse_action_args(ctx, argc, argv))
		return EXIT_USAGE;
	/* An action whose synopsis names no words takes none: a stray word is a
	 * typo or a misplaced argument, never something to run without. */
	if (ctx->argc && (!a->synopsis || !a->synopsis[0])) {
		usage_error("%s %s takes no arguments, got '%s'", obj->name, a->name, ctx->argv[0]);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_check_line(int argc, char **argv)
{
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	struct cmd_ctx ctx;
	int rc;

	if (!copy) {
		report_error("out of memory", NULL, NULL);
		return EXIT_RUNTIME;
	}
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	rc = cmd_parse(argc, copy, &ctx);
	free(copy);
	return rc;
}

int cmd_dispatch(int argc, char **argv)
{
	struct cmd_ctx ctx;
	int rc = cmd_parse(argc, argv, &ctx);

	if (rc >= 0)
		return rc;
	const struct action *a = ctx.action;

	/* Set before out_begin(): a stream has no enclosing document. */
	if (a->flags & OUTPUT_STREAM)
		out_set_stream(true);
	out_begin();
	rc = runner(&ctx);
	out_finish();
	return rc;
}

int parse_dev_port(const char *word, struct dev_port *out)
{
	const char *slash = strchr(word, '/');
	size_t len = slash ? (size_t)(slash - word) : strlen(word);

	memset(out, 0, sizeof(*out));
	if (len == 0 || len >= sizeof(out->dev)) {
		usage_error("'%s' is not DEV or DEV/PORT (device names are 1..%zu characters)", word,
			    sizeof(out->dev) - 1);
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)word[i];

		if (c <= ' ' || c >= 0x7f) {
			usage_error("'%s' is not a device name (only printable characters)", word);
			return -1;
		}
	}
	memcpy(out->dev, word, len);
	if (slash) {
		unsigned long long port;

		if (parse_uint(slash + 1, 1, 255, &port)) {
			usage_error("'%s': port must be a number in 1..255 (as in rxe0/1)", word);
			return -1;
		}
		out->port = (unsigned)port;
	}
	return 0;
}

int ctx_dev_port(const struct cmd_ctx *ctx, struct dev_port *sel)
{
	memset(sel, 0, sizeof(*sel));
	if (ctx->argc > 1) {
		usage_error("%s %s takes at most one DEV[/PORT], got '%s'", ctx->object->name, ctx->action->name,
			    ctx->argv[1]);
		return EXIT_USAGE;
	}
	if (ctx->argc == 1 && parse_dev_port(ctx->argv[0], sel))
		return EXIT_USAGE;
	return 0;
}

int args_dev_port(struct cmd_ctx *ctx)
{
	return ctx_dev_port(ctx, &ctx->sel) ? EXIT_USAGE : ARGS_VALID;
}
