/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Redaction of snapshots (--redact), used by pack.c; see redact.c. */
#ifndef RDMADIAG_SNAPSHOT_REDACT_H
#define RDMADIAG_SNAPSHOT_REDACT_H

#include <stddef.h>

struct redactor;
struct redactor *redact_new(void);
/* Shows it one member: it learns the identities to hide (all members first). */
void redact_learn(struct redactor *r, const char *path, const unsigned char *data, size_t len);
/* Rewrites one member in place or into a new buffer; returns the new length. */
size_t redact_apply(struct redactor *r, const char *path, unsigned char **data, size_t len);
void redact_free(struct redactor *r);

#endif
