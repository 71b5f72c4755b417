// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option ids (rdmadiag/opt_id.h) against the real option tables: every id
 * has one name of its own and some action that takes it, every row names a
 * real id once per table, the parser finds each row by the name of its id,
 * and the options link check's rows depend on are options of link check.
 * A misspelt id does not compile; these catch the mistakes that would.
 */
#include "../../rdmadiag/link_check.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"

static bool names_ok(void)
{
	bool good = !opt_names[O_NONE];

	for (int id = 1; id < N_OPT_IDS; id++) {
		const char *n = opt_names[id];

		if (!n || n[0] != '-' || !n[1]) {
			printf("# id %d has no option name\n", id);
			good = false;
			continue;
		}
		for (int other = 1; other < id; other++)
			if (opt_names[other] && !strcmp(opt_names[other], n)) {
				printf("# ids %d and %d are both %s\n", other, id, n);
				good = false;
			}
	}
	return good;
}

/* One action's table: real ids, none twice, each found by its name. */
static bool table_ok(const struct object *o, const struct action *a, int *declared)
{
	bool good = true;

	for (int i = 0; a->opts && a->opts[i].id; i++) {
		enum opt_id id = a->opts[i].id;

		if (id >= N_OPT_IDS) {
			printf("# %s %s: row %d has id %d, past the list\n", o->name, a->name, i, (int)id);
			good = false;
			continue;
		}
		declared[id]++;
		if (opt_index(a, id) != i || opt_index_name(a, opt_names[id]) != i) {
			printf("# %s %s: %s is not found at its row %d\n", o->name, a->name, opt_names[id], i);
			good = false;
		}
	}
	return good;
}

static bool tables_ok(int *declared)
{
	bool good = true;

	for (int k = 0; all_objects[k]; k++)
		for (const struct action *a = all_objects[k]->actions; a->name; a++)
			good &= table_ok(all_objects[k], a, declared);
	return good;
}

static bool every_id_declared(const int *declared)
{
	bool good = true;

	for (int id = 1; id < N_OPT_IDS; id++)
		if (!declared[id]) {
			printf("# %s is in opt_id.h but in no action's table\n", opt_names[id]);
			good = false;
		}
	return good;
}

static bool link_check_declares(enum opt_id id)
{
	for (const struct cmd_opt *o = link_check_opts; o->id; o++)
		if (o->id == id)
			return true;
	return id == O_NONE;
}

static bool check_rows_ok(void)
{
	bool good = true;

	for (const struct lc_check *c = lc_checks; c->def.id; c++)
		if (!link_check_declares(c->needs_opt) || !link_check_declares(c->judges_opt)) {
			printf("# link check row %s depends on an option link check does not take\n", c->def.id);
			good = false;
		}
	return good;
}

int main(void)
{
	int declared[N_OPT_IDS] = { 0 };

	ok(names_ok(), "every option id has a name of its own");
	ok(tables_ok(declared), "every table row names a real id once, found by the name of its id");
	ok(every_id_declared(declared), "every option id is taken by some action");
	ok(check_rows_ok(), "link check rows depend only on options of link check");
	return tap_done();
}
