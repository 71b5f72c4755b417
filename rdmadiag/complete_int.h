/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside shell completion (`rdmadiag __complete`), shared by its parts and by
 * nothing else:
 *   complete.c          the command line: where the cursor is in its grammar
 *   complete_values.c   the candidates for one value
 * Each candidate is printed on a line of its own when it starts with what is
 * typed; head is printed before it ("--dev=").
 */
#ifndef RDMADIAG_COMPLETE_INT_H
#define RDMADIAG_COMPLETE_INT_H

#include <stdbool.h>
#include <string.h>

#include "rdmadiag.h"

static inline bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* head and word, when they start with cur; each word of a NULL-terminated list. */
void compl_emit(const char *head, const char *word, const char *cur);
void compl_emit_list(const char *head, const char *const *words, const char *cur);
/* One item of a comma separated list of choices: "a,b,c<TAB>". */
void compl_emit_list_item(const char *head, const char *part, const char *const *choices);
/* The live values of a kind (devices, ports, QP numbers, hosts, files). */
void compl_emit_kind(enum complete_kind kind, const char *head, const char *part);
/* The value of option o: its choices, or its kind's live values. */
void compl_emit_opt_value(const struct cmd_opt *o, const char *head, const char *part);

#endif
