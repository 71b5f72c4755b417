/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which checks run, and the list of them: --only, --skip and --list of the
 * check commands (link check, counter check; path test has --list alone;
 * system check hands --only and --skip on to them). The ids an option
 * accepts are its table's choices, so the dispatcher has refused an unknown
 * one before these run.
 */
#ifndef RDMADIAG_CHECK_SELECT_H
#define RDMADIAG_CHECK_SELECT_H

#include <stdbool.h>

#include "check.h"
#include "rdmadiag.h"

/* Check id runs: named by --only when it is given, and not by --skip. */
bool check_selected(const struct cmd_ctx *ctx, const char *id);
/* The same for --only and --skip values held as strings (NULL: not given). */
bool check_id_selected(const char *only, const char *skip, const char *id);
/* A check in --only and in --skip: which one the user means is unclear, so
 * a usage error naming it (EXIT_USAGE); 0 when none of ids is in both. */
int check_only_skip_conflict(const char *only, const char *skip, const char *const *ids);

/* --list: "ID SCOPE TITLE" lines, or a JSON "checks" list of the rows; a
 * row is a check's definition with what it runs on (scope: host, device,
 * port, gpu, path) and the link layer it applies to (any, ethernet,
 * infiniband). */
void check_list_begin(void);
void check_list_row(const struct check_def *d, const char *scope, const char *applies_to);
/* Ends the list; returns the exit code of --list, EXIT_OK. */
int check_list_end(void);
/* The whole --list of a table whose checks share scope and applies_to
 * (counter rules, path stages); returns EXIT_OK. */
int check_list(check_def_at_fn *at, const char *scope, const char *applies_to);

#endif
