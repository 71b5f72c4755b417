/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The check model shared by `link check`, `counter check`, `path test` and
 * `system check`: every check yields a verdict with a stable id, the subject
 * it looked at, what it measured, what it expected and, unless it passed, a
 * hint in the operator's words. Printed as one text line (plus the hint) or
 * one JSON object, from the same call.
 */
#ifndef RDMADIAG_CHECK_H
#define RDMADIAG_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

enum verdict { V_PASS, V_WARN, V_FAIL, V_SKIP };

/* What a check is, alike for the three tables of them (link checks in
 * link_checks.c, counter rules in counter_check.c, path stages in
 * path_run.c): each row holds one, beside how its command runs it. --list,
 * the __tables dump (docs-sync, completion) and --only/--skip read the ids
 * from here. */
struct check_def {
	const char *id;		/* stable machine-readable name: "port.state" */
	const char *title;	/* one line for --list */
};

/* The checks of an action in their order: the i-th, NULL past the last
 * (struct action's checks). */
typedef const struct check_def *check_def_at_fn(size_t i);

struct check_result {
	const char *id;		/* stable machine-readable name: "port.state" */
	char subject[96];	/* "rxe0/1", "ens3f0", "host" */
	enum verdict verdict;
	char measured[512];
	char expected[256];
	char hint[512];
};

struct check_summary {
	int pass, warn, fail, skip;
};

const char *verdict_token(enum verdict v);	/* "pass", "warn", "fail", "skip" */
const char *verdict_label(enum verdict v);	/* "PASS", ... for text */

/* Builders: set verdict and the formatted text fields. */
void check_init(struct check_result *r, const char *id, const char *subject);
__attribute__((format(printf, 2, 3))) void check_measured(struct check_result *r, const char *fmt, ...);
/* Adds to what check_measured() wrote ("; counters: ...", " (75 of 1000 asked)"). */
__attribute__((format(printf, 2, 3))) void check_measured_add(struct check_result *r, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void check_expected(struct check_result *r, const char *fmt, ...);
__attribute__((format(printf, 3, 4))) void check_verdict(struct check_result *r, enum verdict v,
							   const char *hint_fmt, ...);

/* Text form: what was measured and expected, then the hint line (after the
 * caller printed the verdict and id); shared with stage lines of path test. */
void check_print_text_details(const struct check_result *r);
/* An observer sees every result as it is emitted, whatever prints it:
 * `system check` collects the verdicts of the commands it runs this way.
 * NULL stops observing. Emitters with their own form (path stages) call
 * check_observe() themselves. */
typedef void (*check_observer_fn)(const struct check_result *r, void *data);
void check_set_observer(check_observer_fn fn, void *data);
void check_observe(const struct check_result *r);
/* Counts one verdict into sum (NULL: nothing). */
void check_tally(struct check_summary *sum, enum verdict v);
/* Prints one result (an element of the current JSON list) and tallies it. */
void check_emit(const struct check_result *r, struct check_summary *sum);
/* Prints the totals: text line, or a JSON "summary" object. */
void check_print_summary(const struct check_summary *sum);
/* kernel.rdma failed on this host: no RDMA netlink at all (netlink false),
 * or netlink answers without a device. link check and counter check give it
 * alike, so that a host without RDMA reads the same in both. */
void check_kernel_rdma_failed(struct check_result *r, bool netlink);
/* 0 nothing failed; 1 something failed (or warned, when strict). */
int check_exit_code(const struct check_summary *sum, bool strict);

#endif
