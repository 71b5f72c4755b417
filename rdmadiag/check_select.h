/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which checks run, and the list of them: --only, --skip and --list of the
 * check commands (link check, counter check; system check hands --only and
 * --skip on to them). The ids an option accepts are its table's choices, so
 * the dispatcher has refused an unknown one before these run.
 */
#ifndef RDMADIAG_CHECK_SELECT_H
#define RDMADIAG_CHECK_SELECT_H

#include <stdbool.h>

#include "rdmadiag.h"

/* Check id runs: named by --only when it is given, and not by --skip. */
bool check_selected(const struct cmd_ctx *ctx, const char *id);
/* The same for --only and --skip values held as strings (NULL: not given). */
bool check_id_selected(const char *only, const char *skip, const char *id);
/* A check in --only and in --skip: which one the user means is unclear, so
 * a usage error naming it (EXIT_USAGE); 0 when none of ids is in both. */
int check_only_skip_conflict(const char *only, const char *skip, const char *const *ids);

/* One row of --list. */
struct check_desc {
	const char *id;		/* "port.state" */
	const char *scope;	/* what it runs on: host, device, port, gpu */
	const char *applies_to;	/* link layer: any, ethernet, infiniband */
	const char *title;	/* one line */
};

/* --list: "ID SCOPE TITLE" lines, or a JSON "checks" list of the rows. */
void check_list_begin(void);
void check_list_row(const struct check_desc *d);
/* Ends the list; returns the exit code of --list, EXIT_OK. */
int check_list_end(void);

#endif
