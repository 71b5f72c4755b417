// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer of `rdmadiag system check` (system.c): one line per layer, the
 * findings that want action and the layer to fix first, in text or JSON, or
 * as Prometheus series; and its exit code. See system_int.h.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "prom.h"
#include "system_int.h"

/* ---- the report ---- */

static enum verdict layer_verdict(const struct layer *l)
{
	if (l->sum.fail)
		return V_FAIL;
	if (l->sum.warn)
		return V_WARN;
	return l->sum.pass ? V_PASS : V_SKIP;
}

static void layer_command(const struct layer *l, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", system_layer_info[l->kind].command, l->peer ? " " : "", l->peer ? l->peer : "");
}

struct first_fail {
	const struct layer *l;
	const struct check_result *r;	/* its first failing finding */
};

static struct first_fail first_failing(const struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];

		if (layer_verdict(l) != V_FAIL)
			continue;
		for (int j = 0; j < l->nfind; j++)
			if (l->find[j].verdict == V_FAIL)
				return (struct first_fail){ l, &l->find[j] };
		return (struct first_fail){ l, NULL };
	}
	return (struct first_fail){ NULL, NULL };
}

enum { LF_LAYER, LF_COMMAND, LF_PEER, LF_VERDICT, LF_NOTE, LF_MORE, LF_CHECK, LF_SUBJECT, LF_INTERRUPTED };
static const struct field layer_fields[] = {
	[LF_LAYER] = { "layer", NULL, FT_TOKEN, 0, NULL },
	[LF_COMMAND] = { "command", NULL, FT_STR, 0, NULL },
	[LF_PEER] = { "peer", NULL, FT_STR, 0, NULL },
	[LF_VERDICT] = { "verdict", NULL, FT_TOKEN, 0, NULL },
	[LF_NOTE] = { "note", NULL, FT_STR, 0, NULL },
	[LF_MORE] = { "more_findings", NULL, FT_U64, 0, NULL },
	[LF_CHECK] = { "check", NULL, FT_STR, 0, NULL },
	[LF_SUBJECT] = { "subject", NULL, FT_STR, 0, NULL },
	[LF_INTERRUPTED] = { "interrupted", NULL, FT_BOOL, 0, NULL },
};

static void text_layer_line(const struct layer *l)
{
	enum verdict v = layer_verdict(l);
	const char *tok = verdict_token(v);
	char cmd[96];

	layer_command(l, cmd, sizeof(cmd));
	out_text("%-12s %s%-4s%s  %-28s", system_layer_info[l->kind].token, out_color(tok), verdict_label(v),
		 out_color_reset(), cmd);
	if (!l->ran)
		out_text(" %s\n", l->note);
	else
		out_text(" %d pass, %d warn, %d fail, %d skip%s%s\n", l->sum.pass, l->sum.warn, l->sum.fail,
			 l->sum.skip, l->note[0] ? "; " : "", l->note);
}

static void json_layer(const struct layer *l)
{
	out_obj_begin(NULL);
	out_token(&layer_fields[LF_LAYER], system_layer_info[l->kind].token);
	out_str(&layer_fields[LF_COMMAND], system_layer_info[l->kind].command);
	if (l->peer)
		out_str(&layer_fields[LF_PEER], l->peer);
	out_token(&layer_fields[LF_VERDICT], verdict_token(layer_verdict(l)));
	if (l->note[0])
		out_str(&layer_fields[LF_NOTE], l->note);
	check_print_summary(&l->sum);
	out_list_begin("findings");
	for (int i = 0; i < l->nfind; i++)
		check_emit(&l->find[i], NULL);
	out_list_end();
	if (l->more)
		out_u64(&layer_fields[LF_MORE], l->more);
	out_obj_end();
}

static void text_findings(const struct system_run *s)
{
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];
		char cmd[96];

		if (!l->nfind)
			continue;
		layer_command(l, cmd, sizeof(cmd));
		out_text("\n%s layer (%s):\n", system_layer_info[l->kind].token, cmd);
		for (int j = 0; j < l->nfind; j++)
			check_emit(&l->find[j], NULL);
		if (l->more)
			out_text("      ... and %d more (rdmadiag -j system check, or run the command alone)\n", l->more);
	}
}

static void print_fix_first(const struct system_run *s)
{
	struct first_fail f = first_failing(s);
	char cmd[96];

	if (!f.l) {
		if (!out_is_json())
			out_text("\n%s\n", s->nlayers ? "no layer fails" : "nothing checked");
		return;
	}
	layer_command(f.l, cmd, sizeof(cmd));
	if (out_is_json()) {
		out_obj_begin("fix_first");
		out_token(&layer_fields[LF_LAYER], system_layer_info[f.l->kind].token);
		out_str(&layer_fields[LF_COMMAND], system_layer_info[f.l->kind].command);
		if (f.l->peer)
			out_str(&layer_fields[LF_PEER], f.l->peer);
		if (f.r) {
			out_str(&layer_fields[LF_CHECK], f.r->id);
			out_str(&layer_fields[LF_SUBJECT], f.r->subject);
		}
		out_obj_end();
		return;
	}
	out_text("\nfix first: the %s layer (%s)", system_layer_info[f.l->kind].token, cmd);
	if (f.r)
		out_text(": %s on %s", f.r->id, f.r->subject);
	out_text("\n");
}

void system_print_report(const struct system_run *s)
{
	if (out_is_json()) {
		out_list_begin("layers");
		for (int i = 0; i < s->nlayers; i++)
			json_layer(&s->layer[i]);
		out_list_end();
	} else {
		for (int i = 0; i < s->nlayers; i++)
			text_layer_line(&s->layer[i]);
		text_findings(s);
	}
	if (out_is_json() && interrupt_noted())
		out_bool(&layer_fields[LF_INTERRUPTED], true);
	else if (interrupt_noted())
		out_text("\ninterrupted: the layers after the one running then were not run\n");
	print_fix_first(s);
}

void system_prom_report(const struct system_run *s)
{
	static const enum verdict all[] = { V_PASS, V_WARN, V_FAIL, V_SKIP };
	const char *name = "rdmadiag_system_layer_verdict";

	prom_family(stdout, s->format, name, "gauge",
		    "1 for the verdict of a layer of system check (pass, warn, fail, skip), 0 for the others");
	for (int i = 0; i < s->nlayers; i++) {
		const struct layer *l = &s->layer[i];

		for (int v = 0; v < 4; v++) {
			struct prom_label lb[] = {
				{ "layer", system_layer_info[l->kind].token }, { "command", system_layer_info[l->kind].command },
				{ "peer", l->peer }, { "verdict", verdict_token(all[v]) },
			};

			prom_gauge(stdout, name, lb, 4, layer_verdict(l) == all[v]);
		}
	}
	prom_checks_print(s->format, "system check");
	prom_end(stdout, s->format);
}

int system_exit_code(const struct system_run *s)
{
	struct check_summary all = { 0 };

	for (int i = 0; i < s->nlayers; i++)
		check_tally(&all, layer_verdict(&s->layer[i]));
	return check_exit_code(&all, s->args->strict);
}
