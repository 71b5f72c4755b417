// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shell completion and the table dump (tables.c), both read from the command
 * tables so that a new object, action or option is completed and
 * documented-checked the moment it is registered in objects.c.
 *
 *   rdmadiag __complete CWORD WORD...   candidates for WORD[CWORD], one a line
 *   rdmadiag __tables                   every object/action/option as JSON
 *
 * WORD[0] is the program name, as in bash's COMP_WORDS. Candidates are whole
 * words ("--color=never", "port.state,gid.roce_v2"); the shell functions trim
 * what their own word splitting already consumed. A single line ":file",
 * ":dir" or ":host" asks the shell to complete file names, directories or
 * host names itself.
 *
 * Keywords and their values come from the action's own tables (its words and
 * cmd_forms, the resource filters' rfilter_key lists), the ones its parser
 * reads, and are offered only where that grammar takes them.
 *
 * Live values (device names, DEV/PORT) come from /sys/class/infiniband through
 * fs_list(), so `--replay DIR` on the command line being completed (or
 * RDMADIAG_REPLAY) makes them come from a fixture. QP numbers need netlink:
 * it is opened only when that directory lists a device, so hosts without
 * RDMA print nothing and pay nothing. Peers that answered a recent
 * `path test` (recent.c) come before the ":host" line. The candidates for one
 * value are complete_values.c's; see complete_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/source.h"
#include "complete_int.h"
#include "global_opts.h"
#include "lower_err.h"
#include "rdmadiag.h"
#include "resource.h"

/* --- keywords ----------------------------------------------------------- */

/* A keyword of a form: one of its words, or a resource filter. */
struct keyword {
	const char *name;
	enum complete_kind complete;	/* live values of its value */
	const char *values;		/* or these, space separated */
	bool list;			/* the value is a comma separated list of them (filters) */
	const struct cmd_form *form;	/* a word without a value that switches the form */
};

static bool find_keyword(const struct cmd_form *f, const char *word, struct keyword *k)
{
	for (const struct cmd_word *w = f->words; w && w->name; w++) {
		if (!strcmp(w->name, word)) {
			*k = (struct keyword){ w->name, w->complete, w->values, false, w->form };
			return true;
		}
	}
	for (const struct rfilter_key *r = f->filters; r && r->name; r++) {
		if (!strcmp(r->name, word)) {
			*k = (struct keyword){ r->name, r->complete, r->kind == RFK_ENUM ? r->values : NULL, true, NULL };
			return true;
		}
	}
	return false;
}

/* The value after a keyword ("state r<TAB>", "peer <TAB>"). */
static void emit_keyword_value(const struct keyword *k, const char *cur)
{
	char buf[512];
	const char *values[FORM_MAX_VALUES + 1];

	if (!k->values) {
		compl_emit_kind(k->complete, "", cur);
		return;
	}
	form_split_values(k->values, buf, sizeof(buf), values);
	if (k->list)
		compl_emit_list_item("", cur, values);
	else
		compl_emit_list("", values, cur);
}

/* --- the command line being completed -------------------------------- */

struct line {
	char **words;
	int cword;		/* index of the word being completed */
	const char *cur;	/* its text ("" past the end) */
};

/* Options of an action; "" prefix lists all. */
static void emit_action_opts(const struct action *a, const char *cur)
{
	for (const struct cmd_opt *o = a->opts; o && o->id; o++)
		compl_emit("", opt_name(o), cur);
	compl_emit("", "--help", cur);
}

static const struct cmd_opt *find_action_opt(const struct action *a, const char *name, size_t len)
{
	const struct cmd_opt *found = NULL;
	int n = 0;

	for (const struct cmd_opt *o = a->opts; o && o->id; o++) {
		if (strlen(opt_name(o)) == len && !strncmp(opt_name(o), name, len))
			return o;
		if (!strncmp(opt_name(o), name, len)) {
			found = o;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

#define MAX_USED 16

/* Where the positional words before the cursor leave the grammar. */
struct form_walk {
	struct cmd_form f;
	bool any;		/* a word of this form was given */
	int bare;		/* words that are not keywords or their values */
	bool pending;		/* the next word is the value of k */
	struct keyword k;
	const char *used[MAX_USED];
	int nused;
};

static void walk_word(struct form_walk *fw, const char *w)
{
	struct keyword k;

	if (fw->pending) {
		fw->pending = false;
		return;
	}
	if (find_keyword(&fw->f, w, &k)) {
		if (k.form && !fw->any) {	/* "counter show qp": a form of its own from here */
			*fw = (struct form_walk){ .f = *k.form };
			return;
		}
		if (!k.form) {
			fw->any = fw->pending = true;
			fw->k = k;
			if (fw->nused < MAX_USED)
				fw->used[fw->nused++] = k.name;
			return;
		}
	}
	fw->any = true;
	fw->bare++;
}

static bool word_used(const struct form_walk *fw, const char *name)
{
	for (int i = 0; i < fw->nused; i++)
		if (!strcmp(fw->used[i], name))
			return true;
	return false;
}

/* The keywords and the positional word the form takes next. */
static void emit_form_next(const struct form_walk *fw, const char *cur)
{
	const struct cmd_form *f = &fw->f;
	bool keywords = !(f->flags & ARG_FIRST) || fw->bare;

	for (const struct cmd_word *w = f->words; w && w->name; w++) {
		if (w->form ? !fw->any : keywords && (!word_used(fw, w->name) || (w->flags & WORD_REPEAT)))
			compl_emit("", w->name, cur);
	}
	for (const struct rfilter_key *r = f->filters; keywords && r && r->name; r++)
		if (!word_used(fw, r->name))
			compl_emit("", r->name, cur);
	if (!fw->any)
		compl_emit_kind(f->positional, "", cur);
}

/* Words after OBJECT ACTION: options, positional words, keyword pairs. */
static void complete_action_args(const struct line *l, int i, const struct action *a)
{
	bool opts_done = false;
	struct form_walk fw = { .f = action_form(a) };
	const char *cur = l->cur;

	for (; i < l->cword; i++) {
		const char *w = l->words[i];

		if (!opts_done && !strcmp(w, "--")) {
			opts_done = true;
		} else if (!opts_done && (starts_with(w, "--") || (w[0] == '-' && opt_index_name(a, w) >= 0))) {
			const struct cmd_opt *o = find_action_opt(a, w, strcspn(w, "="));

			if (o && o->kind != OPT_FLAG && !strchr(w, '=')) {
				if (i + 1 == l->cword) {
					compl_emit_opt_value(o, "", cur);
					return;
				}
				i++;
			}
		} else {
			walk_word(&fw, w);
		}
	}
	if (!opts_done && cur[0] == '-') {	/* "--x" and the short options of a table ("-o") */
		const char *eq = strchr(cur, '=');

		if (!eq) {
			emit_action_opts(a, cur);
			return;
		}
		const struct cmd_opt *o = find_action_opt(a, cur, (size_t)(eq - cur));
		char head[256];

		if (o) {
			snprintf(head, sizeof(head), "%.*s=", (int)(eq - cur), cur);
			compl_emit_opt_value(o, head, eq + 1);
		}
		return;
	}
	if (fw.pending)
		emit_keyword_value(&fw.k, cur);
	else
		emit_form_next(&fw, cur);
}

static const struct action *find_action_word(const struct object *obj, const char *word)
{
	const struct action *found = NULL;
	int n = 0;

	for (const struct action *a = obj->actions; a->name; a++) {
		if (!strcmp(a->name, word))
			return a;	/* hidden aliases match exactly */
		if (!(a->flags & HIDDEN) && starts_with(a->name, word)) {
			found = a;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

static void complete_after_object(const struct line *l, int i, const struct object *obj)
{
	const struct action *a = obj->actions;	/* the first action is the default */

	if (i == l->cword && l->cur[0] != '-') {
		for (const struct action *b = obj->actions; b->name; b++)
			if (!(b->flags & HIDDEN))
				compl_emit("", b->name, l->cur);
		compl_emit("", "help", l->cur);
		return;
	}
	if (i < l->cword && l->words[i][0] != '-') {
		a = find_action_word(obj, l->words[i]);
		if (!a)
			return;	/* unknown action, or help */
		i++;
	}
	complete_action_args(l, i, a);
}

static bool in_choices(const char *const *choices, const char *w)
{
	for (int i = 0; choices && choices[i]; i++)
		if (!strcmp(choices[i], w))
			return true;
	return false;
}

/* The global option of a word before OBJECT: "-j", "--record"; NULL for
 * "--record=DIR" and anything else that carries its own value. */
static const struct global_opt *find_global(const char *w)
{
	const struct global_opt *g = global_opt_find(w);

	return g && !strchr(w, '=') ? g : NULL;
}

/* Each option by its short and long name ("-j", "--json"); "--color=" its values. */
static void emit_globals(const char *cur)
{
	for (const struct global_opt *g = global_opts; g->name; g++) {
		char head[64];

		if (g->flags & GOPT_ALIAS)
			continue;
		snprintf(head, sizeof(head), "%s=", g->name);
		if (g->choices && starts_with(cur, head)) {
			compl_emit_list(head, g->choices, cur);
			return;
		}
	}
	for (const struct global_opt *g = global_opts; g->name; g++) {
		char s[3] = { '-', g->short_name, '\0' };

		if (g->flags & GOPT_ALIAS)
			continue;
		if (g->short_name)
			compl_emit("", s, cur);
		compl_emit("", g->name, cur);
	}
}

static void complete_line(const struct line *l)
{
	int i = 1;

	/* Global options, then OBJECT. */
	for (; i < l->cword; i++) {
		const char *w = l->words[i];

		if (w[0] != '-' || !w[1])
			break;
		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		const struct global_opt *g = find_global(w);

		if (g && g->arg == GOPT_OPTIONAL && i + 1 < l->cword && in_choices(g->choices, l->words[i + 1]))
			i++;	/* its optional value, as the parser takes it */
		if (g && g->arg == GOPT_VALUE) {
			if (i + 1 == l->cword) {
				compl_emit_kind(g->complete, "", l->cur);
				return;
			}
			i++;
		}
	}
	if (i == l->cword) {
		if (l->cur[0] == '-') {
			emit_globals(l->cur);
			return;
		}
		/* after a bare --color: its value or, since it is optional, an object */
		const struct global_opt *g = i > 1 ? find_global(l->words[i - 1]) : NULL;

		if (g && g->arg == GOPT_OPTIONAL)
			compl_emit_list("", g->choices, l->cur);
		for (int j = 0; all_objects[j]; j++)
			compl_emit("", all_objects[j]->name, l->cur);
		compl_emit("", "help", l->cur);
		return;
	}
	int ambiguous;
	const struct object *obj = object_find(l->words[i], &ambiguous);

	if (obj)
		complete_after_object(l, i + 1, obj);
}

/* The fixture named on the line being completed, so live values match it. */
static const char *replay_dir_of(char **words, int n)
{
	for (int i = 1; i < n; i++) {
		if (words[i][0] != '-')
			break;
		if (!strcmp(words[i], "--replay") && i + 1 < n)
			return words[i + 1];
		if (starts_with(words[i], "--replay="))
			return words[i] + strlen("--replay=");
	}
	return getenv("RDMADIAG_REPLAY");
}

int complete_main(int argc, char **argv)
{
	char *end;
	long cword;

	if (argc < 2) {
		usage_error("usage: rdmadiag __complete CWORD WORD...   (used by the shell completion functions)");
		return EXIT_USAGE;
	}
	cword = strtol(argv[1], &end, 10);
	if (*end || cword < 1 || cword > 4096) {
		usage_error("__complete: CWORD '%s' is not an index into the words (1..4096)", argv[1]);
		return EXIT_USAGE;
	}
	char **words = argv + 2;
	int n = argc - 2;

	if (n < 1)
		return EXIT_OK;
	if (cword > n)
		cword = n;	/* completing a new word past the end */
	struct line l = { words, (int)cword, cword < n ? words[cword] : "" };
	const char *replay = replay_dir_of(words, (int)cword);

	/* Never record while completing; a bad fixture just gives no live values
	 * (asked first: source_start() would print its refusal into the line). */
	if (replay && source_replay_unusable(replay))
		replay = NULL;
	if (replay && source_start(NULL, replay))
		replay = NULL;
	complete_line(&l);
	if (replay)
		source_close();
	return EXIT_OK;
}
