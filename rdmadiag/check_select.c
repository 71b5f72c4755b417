// SPDX-License-Identifier: GPL-2.0-or-later
/* --only, --skip and --list of the check commands; see check_select.h. */
#include <stdio.h>

#include "check_select.h"
#include "common.h"
#include "output.h"

bool check_id_selected(const char *only, const char *skip, const char *id)
{
	return (!only || list_has(only, id)) && !(skip && list_has(skip, id));
}

bool check_selected(const struct cmd_ctx *ctx, const char *id)
{
	return check_id_selected(ctx_opt_str(ctx, O_ONLY, NULL), ctx_opt_str(ctx, O_SKIP, NULL), id);
}

int check_only_skip_conflict(const char *only, const char *skip, const char *const *ids)
{
	for (int i = 0; only && skip && ids && ids[i]; i++)
		if (list_has(only, ids[i]) && list_has(skip, ids[i])) {
			usage_error("%s is in --only and in --skip; give it in one of them", ids[i]);
			return EXIT_USAGE;
		}
	return 0;
}

static const struct field list_fields[] = {
	{ "id", NULL, FT_STR, FF_HEAD, NULL },
	{ "scope", NULL, FT_TOKEN, 0, NULL },
	{ "applies_to", NULL, FT_TOKEN, 0, NULL },
	{ "title", NULL, FT_STR, 0, NULL },
};

void check_list_begin(void)
{
	out_list_begin("checks");
}

void check_list_row(const struct check_def *d, const char *scope, const char *applies_to)
{
	if (!out_is_json()) {
		/* the id column as wide as in the verdict lines */
		out_text("%-22s %-6s %s\n", d->id, scope, d->title);
		return;
	}
	out_obj_begin(NULL);
	out_str(&list_fields[0], d->id);
	out_token(&list_fields[1], scope);
	out_token(&list_fields[2], applies_to);
	out_str(&list_fields[3], d->title);
	out_obj_end();
}

int check_list_end(void)
{
	out_list_end();
	return EXIT_OK;
}

int check_list(check_def_at_fn *at, const char *scope, const char *applies_to)
{
	const struct check_def *d;

	check_list_begin();
	for (size_t i = 0; (d = at(i)); i++)
		check_list_row(d, scope, applies_to);
	return check_list_end();
}
