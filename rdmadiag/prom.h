/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format for commands that feed monitoring: text and JSON go through the
 * output layer (output.h); "prometheus" is the text exposition format 0.0.4
 * that node_exporter's textfile collector reads, "openmetrics" the
 * OpenMetrics 1.0 text (counter families without "_total", "# EOF" at the end).
 * Metric names start with "rdmadiag_"; ports carry device/port/netdev labels.
 *
 * Samples of one family must be adjacent, so commands collect everything
 * first and then print family by family.
 *
 * For a check command (link check, counter check):
 *   enum out_format fmt;
 *   rc = out_format_get(ctx, &fmt);             // in the handler, first thing
 *   ... for each result: if (out_format_is_prom(fmt)) prom_check_add(&r, &sum);
 *                        else check_emit(&r, &sum);
 *   if (out_format_is_prom(fmt)) prom_checks_flush(fmt, "link check");
 *   else check_print_summary(&sum);
 * with OUT_FORMAT_OPT in the action's option table.
 */
#ifndef RDMADIAG_PROM_H
#define RDMADIAG_PROM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "rdmadiag.h"

enum out_format { FMT_TEXT, FMT_JSON, FMT_PROMETHEUS, FMT_OPENMETRICS };

extern const char *const out_format_choices[];	/* "text", "json", "prometheus", "openmetrics" */
#define OUT_FORMAT_OPT \
	{ .id = O_FORMAT, .kind = OPT_CHOICE, .metavar = "FMT", \
	  .help = "output format; prometheus is for node_exporter's textfile collector", \
	  .choices = out_format_choices }

/* Reads --format of the action (text when absent). "json" switches the
 * output layer to JSON; -j with prometheus/openmetrics is a usage error.
 * Returns 0 or EXIT_USAGE. */
int out_format_get(const struct cmd_ctx *ctx, enum out_format *fmt);
static inline bool out_format_is_prom(enum out_format f)
{
	return f == FMT_PROMETHEUS || f == FMT_OPENMETRICS;
}

struct prom_label {
	const char *name;
	const char *value;	/* NULL: label left out */
};

/* HELP and TYPE lines of a family; type is "counter" or "gauge". */
void prom_family(FILE *fp, enum out_format f, const char *name, const char *type, const char *help);
/* One sample; counters get the "_total" suffix here. */
void prom_counter(FILE *fp, const char *name, const struct prom_label *l, int nl, uint64_t v);
void prom_gauge(FILE *fp, const char *name, const struct prom_label *l, int nl, double v);
/* "# EOF" for OpenMetrics; nothing for 0.0.4. */
void prom_end(FILE *fp, enum out_format f);

/* Checks as metrics: rdmadiag_check_verdict{command,[layer,peer,]check,subject,[device,port,]verdict}
 * 0/1 for each of pass/warn/fail/skip, and rdmadiag_checks{command,verdict} totals.
 * prom_check_add() also counts the result in sum (may be NULL); system check
 * adds with the layer (and peer) that ran the check, so that two layers'
 * results of one id and subject stay two series. */
void prom_check_add(const struct check_result *r, struct check_summary *sum);
void prom_check_add_in(const struct check_result *r, const char *layer, const char *peer);
/* Both families; prom_checks_flush() adds prom_end(). */
void prom_checks_print(enum out_format f, const char *command);
void prom_checks_flush(enum out_format f, const char *command);

#endif
