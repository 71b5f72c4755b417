/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A minimal TAP producer for the C unit tests; tests/run-all.sh counts its lines. */
#ifndef RDMADIAG_TAP_H
#define RDMADIAG_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;
/* where TAP goes; a test that prints to stdout itself may point it elsewhere */
static FILE *tap_out;
#define TAP_FP (tap_out ? tap_out : stdout)

#define ok(cond, ...)                                                                   \
	do {                                                                            \
		int ok_ = !!(cond);                                                     \
		fprintf(TAP_FP, "%sok %d - ", ok_ ? "" : "not ", ++tap_n);                       \
		fprintf(TAP_FP, __VA_ARGS__);                                           \
		fprintf(TAP_FP, "\n");                                                  \
		if (!ok_) {                                                             \
			tap_failed++;                                                   \
			fprintf(TAP_FP, "#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                       \
	} while (0)

#define is_str(got, want, ...)                                                          \
	do {                                                                            \
		const char *g_ = (got), *w_ = (want);                                   \
		ok(g_ && w_ && !strcmp(g_, w_), __VA_ARGS__);                           \
		if (!(g_ && w_ && !strcmp(g_, w_)))                                     \
			fprintf(TAP_FP, "#   got:  '%s'\n#   want: '%s'\n", g_ ? g_ : "(null)", \
			       w_ ? w_ : "(null)");                                     \
	} while (0)

static inline int tap_done(void)
{
	fprintf(TAP_FP, "1..%d\n", tap_n);
	fflush(TAP_FP);
	return tap_failed ? 1 : 0;
}

#endif
