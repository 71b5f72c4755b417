// SPDX-License-Identifier: GPL-2.0-or-later
/* Redaction of snapshots; see snapshot_int.h. */
#include <stdlib.h>

#include "snapshot_int.h"

struct redactor {
	int unused;
};

struct redactor *redact_new(const char *work)
{
	(void)work;
	return calloc(1, sizeof(struct redactor));
}

size_t redact_apply(struct redactor *r, const char *path, unsigned char **data, size_t len)
{
	(void)r, (void)path, (void)data;
	return len;
}

void redact_free(struct redactor *r)
{
	free(r);
}
