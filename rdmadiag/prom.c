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
	const struct opt_value *v = ctx_opt(ctx, O_FORMAT);

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
		out_set_json();
		out_begin();
	}
	return 0;
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * form, no surrogate, at most U+10FFFF), 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
	      : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	for (int i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/* Label values and HELP text escape backslash, newline and (labels) quotes.
 * Both must be UTF-8 (Prometheus rejects the whole scrape otherwise): a
 * byte that starts no valid sequence, as a device name a driver or a hostile
 * recording made up may hold, is written as U+FFFD. */
static void put_escaped(FILE *fp, const char *s, bool quote)
{
	while (*s) {
		int n = utf8_len((const unsigned char *)s);

		if (!n) {
			fputs("\xef\xbf\xbd", fp);
			s++;
			continue;
		}
		if (*s == '\\')
			fputs("\\\\", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (*s == '"' && quote)
			fputs("\\\"", fp);
		else
			fwrite(s, 1, (size_t)n, fp);
		s += n;
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

struct prom_check {
	struct check_result r;
	const char *layer, *peer;	/* system check's; NULL: label left out */
};

static struct {
	struct prom_check *c;
	int n, cap;
} pc;

void prom_check_add_in(const struct check_result *r, const char *layer, const char *peer)
{
	if (pc.n == pc.cap) {
		int cap = pc.cap ? pc.cap * 2 : 32;
		struct prom_check *n = realloc(pc.c, cap * sizeof(*n));

		if (!n)
			return;
		pc.c = n;
		pc.cap = cap;
	}
	pc.c[pc.n++] = (struct prom_check){ *r, layer, peer };
}

void prom_check_add(const struct check_result *r, struct check_summary *sum)
{
	check_tally(sum, r->verdict);
	prom_check_add_in(r, NULL, NULL);
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

void prom_checks_print(enum out_format f, const char *command)
{
	static const enum verdict all[] = { V_PASS, V_WARN, V_FAIL, V_SKIP };
	int count[4] = { 0 };
	FILE *fp = stdout;

	prom_family(fp, f, "rdmadiag_check_verdict", "gauge",
		    "1 for the verdict a check gave (pass, warn, fail, skip), 0 for the others");
	for (int i = 0; i < pc.n; i++) {
		const struct prom_check *c = &pc.c[i];
		char dev[96], port[16];

		split_subject(c->r.subject, dev, sizeof(dev), port, sizeof(port));
		count[c->r.verdict]++;
		for (int v = 0; v < 4; v++) {
			struct prom_label l[] = {
				{ "command", command }, { "layer", c->layer }, { "peer", c->peer },
				{ "check", c->r.id }, { "subject", c->r.subject },
				{ "device", dev[0] ? dev : NULL }, { "port", port[0] ? port : NULL },
				{ "verdict", verdict_token(all[v]) },
			};

			prom_gauge(fp, "rdmadiag_check_verdict", l, 8, c->r.verdict == all[v]);
		}
	}
	prom_family(fp, f, "rdmadiag_checks", "gauge", "number of checks per verdict in the last run");
	for (int v = 0; v < 4; v++) {
		struct prom_label l[] = { { "command", command }, { "verdict", verdict_token(all[v]) } };

		prom_gauge(fp, "rdmadiag_checks", l, 2, count[all[v]]);
	}
	free(pc.c);
	memset(&pc, 0, sizeof(pc));
}

void prom_checks_flush(enum out_format f, const char *command)
{
	prom_checks_print(f, command);
	prom_end(stdout, f);
}
