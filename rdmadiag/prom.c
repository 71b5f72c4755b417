// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus and OpenMetrics text output; see prom.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "prom.h"

const char *const out_format_choices[] = { "text", "json", "prometheus", "openmetrics", NULL };

int out_format_get(const struct cmd_ctx *ctx, enum out_format *fmt)
{
	const struct opt_value *v = ctx_opt(ctx, "--format");

	*fmt = g_opts.json ? FMT_JSON : FMT_TEXT;
	if (!v || !v->set)
		return 0;
	for (int i = 0; out_format_choices[i]; i++)
		if (!strcmp(v->str, out_format_choices[i]))
			*fmt = (enum out_format)i;
	if (g_opts.json && *fmt != FMT_JSON) {
		usage_error("-j/--json and --format %s contradict each other; give one of them", v->str);
		return EXIT_USAGE;
	}
	if (*fmt == FMT_JSON && !g_opts.json) {
		/* The dispatcher began the document as text, which printed nothing;
		 * begin it again as JSON. */
		g_opts.json = true;
		out_begin();
	}
	return 0;
}

/* Label values and HELP text escape backslash, newline and (labels) quotes. */
static void put_escaped(FILE *fp, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (*s == '"' && quote)
			fputs("\\\"", fp);
		else
			fputc(*s, fp);
	}
}

void prom_family(FILE *fp, enum out_format f, const char *name, const char *type, const char *help)
{
	/* 0.0.4 names a counter family like its samples; OpenMetrics without _total. */
	const char *suffix = f == FMT_PROMETHEUS && !strcmp(type, "counter") ? "_total" : "";

	fprintf(fp, "# HELP %s%s ", name, suffix);
	put_escaped(fp, help, false);
	fprintf(fp, "\n# TYPE %s%s %s\n", name, suffix, type);
}

static void put_labels(FILE *fp, const struct prom_label *l, int nl)
{
	bool first = true;

	for (int i = 0; i < nl; i++) {
		if (!l[i].value)
			continue;
		fprintf(fp, "%s%s=\"", first ? "{" : ",", l[i].name);
		put_escaped(fp, l[i].value, true);
		fputc('"', fp);
		first = false;
	}
	if (!first)
		fputc('}', fp);
}

void prom_counter(FILE *fp, const char *name, const struct prom_label *l, int nl, uint64_t v)
{
	fprintf(fp, "%s_total", name);
	put_labels(fp, l, nl);
	fprintf(fp, " %llu\n", (unsigned long long)v);
}

void prom_gauge(FILE *fp, const char *name, const struct prom_label *l, int nl, double v)
{
	fputs(name, fp);
	put_labels(fp, l, nl);
	if (isnan(v))
		fputs(" NaN\n", fp);
	else
		fprintf(fp, " %.17g\n", v);
}

void prom_end(FILE *fp, enum out_format f)
{
	if (f == FMT_OPENMETRICS)
		fputs("# EOF\n", fp);
	fflush(fp);
}

/* ---- checks ---- */

static struct {
	struct check_result *r;
	int n, cap;
} pc;

void prom_check_add(const struct check_result *r, struct check_summary *sum)
{
	if (sum) {
		switch (r->verdict) {
		case V_PASS: sum->pass++; break;
		case V_WARN: sum->warn++; break;
		case V_FAIL: sum->fail++; break;
		default: sum->skip++; break;
		}
	}
	if (pc.n == pc.cap) {
		int cap = pc.cap ? pc.cap * 2 : 32;
		struct check_result *n = realloc(pc.r, cap * sizeof(*n));

		if (!n)
			return;
		pc.r = n;
		pc.cap = cap;
	}
	pc.r[pc.n++] = *r;
}

/* "rxe0/1" gives device rxe0 and port 1; other subjects give neither. */
static void split_subject(const char *subject, char *dev, size_t dlen, char *port, size_t plen)
{
	const char *slash = strchr(subject, '/');
	char *end;

	dev[0] = port[0] = '\0';
	if (!slash || slash == subject)
		return;
	strtoul(slash + 1, &end, 10);
	if (end == slash + 1 || *end)
		return;
	snprintf(dev, dlen, "%.*s", (int)(slash - subject), subject);
	snprintf(port, plen, "%s", slash + 1);
}

void prom_checks_flush(enum out_format f, const char *command)
{
	static const enum verdict all[] = { V_PASS, V_WARN, V_FAIL, V_SKIP };
	int count[4] = { 0 };
	FILE *fp = stdout;

	prom_family(fp, f, "rdmadiag_check_verdict", "gauge",
		    "1 for the verdict a check gave (pass, warn, fail, skip), 0 for the others");
	for (int i = 0; i < pc.n; i++) {
		const struct check_result *r = &pc.r[i];
		char dev[96], port[16];

		split_subject(r->subject, dev, sizeof(dev), port, sizeof(port));
		count[r->verdict]++;
		for (int v = 0; v < 4; v++) {
			struct prom_label l[] = {
				{ "command", command }, { "check", r->id }, { "subject", r->subject },
				{ "device", dev[0] ? dev : NULL }, { "port", port[0] ? port : NULL },
				{ "verdict", verdict_token(all[v]) },
			};

			prom_gauge(fp, "rdmadiag_check_verdict", l, 6, r->verdict == all[v]);
		}
	}
	prom_family(fp, f, "rdmadiag_checks", "gauge", "number of checks per verdict in the last run");
	for (int v = 0; v < 4; v++) {
		struct prom_label l[] = { { "command", command }, { "verdict", verdict_token(all[v]) } };

		prom_gauge(fp, "rdmadiag_checks", l, 2, count[all[v]]);
	}
	prom_end(fp, f);
	free(pc.r);
	memset(&pc, 0, sizeof(pc));
}
