// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shell completion and the table dump, both read from the command tables so
 * that a new object, action or option is completed and documented-checked the
 * moment it is registered in objects.c.
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
 * `path test` (recent.c) come before the ":host" line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../netlink/nl.h"
#include "../netlink/rdma.h"
#include "../netlink/res.h"
#include "../netlink/source.h"
#include "../netlink/sysfs.h"
#include "global_opts.h"
#include "lower_err.h"
#include "rdmadiag.h"
#include "recent.h"
#include "resource.h"

#define IB_CLASS "/sys/class/infiniband"

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void emit(const char *head, const char *word, const char *cur)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", head, word);
	if (starts_with(full, cur))
		puts(full);
}

static void emit_list(const char *head, const char *const *words, const char *cur)
{
	for (int i = 0; words && words[i]; i++)
		emit(head, words[i], cur);
}

/* --- live values ------------------------------------------------------- */

struct live_walk {
	const char *head;	/* printed before each candidate ("--dev=") */
	const char *part;	/* what is typed after head */
	bool with_ports;
	int matches;		/* devices whose name starts with part */
	const char *dev;	/* device whose ports are listed */
};

static int count_device(const char *name, void *data)
{
	struct live_walk *w = data;

	if (starts_with(name, w->part))
		w->matches++;
	return 0;
}

static int emit_port(const char *name, void *data)
{
	struct live_walk *w = data;
	char word[256];

	snprintf(word, sizeof(word), "%s%s/%s", w->head, w->dev, name);
	if (starts_with(word + strlen(w->head), w->part))
		puts(word);
	return 0;
}

static int emit_device(const char *name, void *data)
{
	struct live_walk *w = data;
	char dir[512];
	size_t len = strlen(name);
	bool typed_dev = !strncmp(w->part, name, len) && w->part[len] == '/';

	if (starts_with(name, w->part))
		printf("%s%s\n", w->head, name);
	/* Ports once the device is typed or the only match, so lists stay short. */
	if (!w->with_ports || !(typed_dev || (starts_with(name, w->part) && w->matches == 1)))
		return 0;
	snprintf(dir, sizeof(dir), IB_CLASS "/%s/ports", name);
	w->dev = name;
	fs_list(dir, emit_port, w);
	return 0;
}

/* Missing /sys/class/infiniband (no RDMA here) simply gives no candidates. */
static void emit_devices(const char *head, const char *part, bool with_ports)
{
	struct live_walk w = { head, part, with_ports, 0, NULL };

	if (with_ports)
		fs_list(IB_CLASS, count_device, &w);
	fs_list(IB_CLASS, emit_device, &w);
}

/* QP numbers: one dump per device, at most QPN_MAX candidates (a host with
 * 10k QPs gets a short list; typing digits narrows it). */
#define QPN_MAX 200
#define QPN_DEVS 64

struct qpn_walk {
	const char *head, *part;
	bool remote;		/* rqpn rather than lqpn */
	int emitted;
	uint32_t dev[QPN_DEVS];
	int ndev;
};

static int note_device(const struct rd_dev *d, void *data)
{
	struct qpn_walk *w = data;

	if (w->ndev < QPN_DEVS)
		w->dev[w->ndev++] = d->index;
	return 0;
}

static int emit_qpn(const struct rd_res *r, void *data)
{
	struct qpn_walk *w = data;
	char word[16];

	if (w->remote && !rd_res_has(r, RF_RQPN))
		return 0;
	snprintf(word, sizeof(word), "%u", w->remote ? r->rqpn : r->id);
	if (starts_with(word, w->part)) {
		printf("%s%s\n", w->head, word);
		w->emitted++;
	}
	return w->emitted >= QPN_MAX;
}

static int count_any(const char *name, void *data)
{
	(void)name;
	++*(int *)data;
	return 1;
}

static void emit_qp_numbers(const char *head, const char *part, bool remote)
{
	struct qpn_walk w = { .head = head, .part = part, .remote = remote };
	int devices = 0;

	/* A fixture is asked as it is; a live host without devices is left alone. */
	if (!source_replaying())
		fs_list(IB_CLASS, count_any, &devices);
	if ((!source_replaying() && !devices) || nl_require() != 0)
		return;
	rd_dev_each(NULL, note_device, &w);
	for (int i = 0; i < w.ndev && w.emitted < QPN_MAX; i++)
		rd_res_each(RD_RES_QP, w.dev[i], false, 0, emit_qpn, &w);
}

static int emit_peer(const char *addr, void *data)
{
	const char *const *hp = data;

	emit(hp[0], addr, hp[1]);
	return 0;
}

/* Check ids are the choices of the option that completes COMPLETE_CHECK_ID. */
static const char *const *find_check_ids(void)
{
	for (int i = 0; all_objects[i]; i++)
		for (const struct action *a = all_objects[i]->actions; a->name; a++)
			for (const struct cmd_opt *o = a->opts; o && o->name; o++)
				if (o->complete == COMPLETE_CHECK_ID && o->choices)
					return o->choices;
	return NULL;
}

/* Completes one item of a comma separated list: "a,b,c<TAB>". */
static void emit_list_item(const char *head, const char *part, const char *const *choices)
{
	const char *comma = strrchr(part, ',');
	char prefix[512];

	snprintf(prefix, sizeof(prefix), "%s%.*s", head, comma ? (int)(comma - part + 1) : 0, part);
	for (int i = 0; choices && choices[i]; i++) {
		char item[256];

		/* skip what the list already holds */
		snprintf(item, sizeof(item), ",%s,", choices[i]);
		char have[1024];

		snprintf(have, sizeof(have), ",%.*s", comma ? (int)(comma - part + 1) : 0, part);
		if (strstr(have, item))
			continue;
		char full[768];

		snprintf(full, sizeof(full), "%s%s", prefix, choices[i]);
		if (starts_with(full + strlen(head), part))
			puts(full);
	}
}

static void emit_kind(enum complete_kind kind, const char *head, const char *part)
{
	switch (kind) {
	case COMPLETE_DEV:
	case COMPLETE_DEV_PORT:
		emit_devices(head, part, kind == COMPLETE_DEV_PORT);
		return;
	case COMPLETE_CHECK_ID:
		emit_list_item(head, part, find_check_ids());
		return;
	case COMPLETE_FILE:
		puts(":file");
		return;
	case COMPLETE_DIR:
		puts(":dir");
		return;
	case COMPLETE_HOST: {
		const char *hp[2] = { head, part };
		char full[512];

		snprintf(full, sizeof(full), "%s%s", head, part);
		hp[1] = full;
		recent_peer_each(emit_peer, hp);
		puts(":host");
		return;
	}
	case COMPLETE_QPN:
	case COMPLETE_RQPN:
		emit_qp_numbers(head, part, kind == COMPLETE_RQPN);
		return;
	default:	/* COMPLETE_NONE, and kinds this file does not know yet */
		return;
	}
}

static void emit_opt_value(const struct cmd_opt *o, const char *head, const char *part)
{
	char full[512];

	switch (o->kind) {
	case OPT_CHOICE:
		snprintf(full, sizeof(full), "%s%s", head, part);
		emit_list(head, o->choices, full);
		return;
	case OPT_LIST:
		if (o->choices) {
			emit_list_item(head, part, o->choices);
			return;
		}
		emit_kind(o->complete, head, part);
		return;
	case OPT_STR:
		if (o->choices) {
			snprintf(full, sizeof(full), "%s%s", head, part);
			emit_list(head, o->choices, full);
			return;
		}
		emit_kind(o->complete, head, part);
		return;
	default:
		/* flags and numbers: nothing to offer; new kinds complete as their choices */
		if (o->kind != OPT_FLAG && o->choices) {
			snprintf(full, sizeof(full), "%s%s", head, part);
			emit_list(head, o->choices, full);
		}
		return;
	}
}

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

#define MAX_VALUES 32

/* "rc uc ud" as a NULL terminated list whose words live in buf. */
static void split_values(const char *values, char *buf, size_t len, const char **out)
{
	int n = 0;
	char *save = NULL;

	snprintf(buf, len, "%s", values ? values : "");
	for (char *w = strtok_r(buf, " ", &save); w && n < MAX_VALUES; w = strtok_r(NULL, " ", &save))
		out[n++] = w;
	out[n] = NULL;
}

/* The value after a keyword ("state r<TAB>", "peer <TAB>"). */
static void emit_keyword_value(const struct keyword *k, const char *cur)
{
	char buf[512];
	const char *values[MAX_VALUES + 1];

	if (!k->values) {
		emit_kind(k->complete, "", cur);
		return;
	}
	split_values(k->values, buf, sizeof(buf), values);
	if (k->list)
		emit_list_item("", cur, values);
	else
		emit_list("", values, cur);
}

void form_each_keyword(const struct cmd_form *f, const char *before, keyword_fn fn, void *data)
{
	char first[128], next[160];

	/* an ARG_FIRST form takes its keywords after that word */
	snprintf(first, sizeof(first), "%s%s%s", before, *before && (f->flags & ARG_FIRST) ? " " : "",
		 f->flags & ARG_FIRST ? "DEV/PORT" : "");
	for (const struct cmd_word *w = f->words; w && w->name; w++) {
		fn(w->form ? before : first, w->name, !w->form, w->complete, w->values, data);
		if (w->form) {
			snprintf(next, sizeof(next), "%s%s%s", before, *before ? " " : "", w->name);
			form_each_keyword(w->form, next, fn, data);
		}
	}
	for (const struct rfilter_key *r = f->filters; r && r->name; r++)
		fn(first, r->name, true, r->complete, r->kind == RFK_ENUM ? r->values : NULL, data);
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
	for (const struct cmd_opt *o = a->opts; o && o->name; o++)
		emit("", o->name, cur);
	emit("", "--help", cur);
}

static const struct cmd_opt *find_action_opt(const struct action *a, const char *name, size_t len)
{
	const struct cmd_opt *found = NULL;
	int n = 0;

	for (const struct cmd_opt *o = a->opts; o && o->name; o++) {
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
		if (!strncmp(o->name, name, len)) {
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
			emit("", w->name, cur);
	}
	for (const struct rfilter_key *r = f->filters; keywords && r && r->name; r++)
		if (!word_used(fw, r->name))
			emit("", r->name, cur);
	if (!fw->any)
		emit_kind(f->positional, "", cur);
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
		} else if (!opts_done && (starts_with(w, "--") || (w[0] == '-' && opt_index(a, w) >= 0))) {
			const struct cmd_opt *o = find_action_opt(a, w, strcspn(w, "="));

			if (o && o->kind != OPT_FLAG && !strchr(w, '=')) {
				if (i + 1 == l->cword) {
					emit_opt_value(o, "", cur);
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
			emit_opt_value(o, head, eq + 1);
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
				emit("", b->name, l->cur);
		emit("", "help", l->cur);
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
			emit_list(head, g->choices, cur);
			return;
		}
	}
	for (const struct global_opt *g = global_opts; g->name; g++) {
		char s[3] = { '-', g->short_name, '\0' };

		if (g->flags & GOPT_ALIAS)
			continue;
		if (g->short_name)
			emit("", s, cur);
		emit("", g->name, cur);
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
				emit_kind(g->complete, "", l->cur);
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
			emit_list("", g->choices, l->cur);
		for (int j = 0; all_objects[j]; j++)
			emit("", all_objects[j]->name, l->cur);
		emit("", "help", l->cur);
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
	json_str(o->name);
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
	const char *list[MAX_VALUES + 1];

	split_values(values, buf, sizeof(buf), list);
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
	for (const struct cmd_opt *o = a->opts; o && o->name; o++) {
		if (o != a->opts)
			putchar(',');
		dump_opt(o);
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
