// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The keywords of an action's forms (rdmadiag.h), as help, shell completion
 * and the __tables dump list them.
 */
#include <stdio.h>
#include <string.h>

#include "rdmadiag.h"
#include "resource.h"

void form_split_values(const char *values, char *buf, size_t len, const char **out)
{
	int n = 0;
	char *save = NULL;

	snprintf(buf, len, "%s", values ? values : "");
	for (char *w = strtok_r(buf, " ", &save); w && n < FORM_MAX_VALUES; w = strtok_r(NULL, " ", &save))
		out[n++] = w;
	out[n] = NULL;
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
