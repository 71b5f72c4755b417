// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fleet picture as a document: a header (what was merged, what was
 * skipped), the check panel, the pair matrix and a legend, stacked. The
 * drawing primitives and the palette are report_svg_draw.c's. See
 * report_svg.h.
 */
#include <errno.h>
#include <string.h>

#include "report_svg.h"
#include "report_svg_int.h"
#include "xml_out.h"

#define SKIPPED_SHOWN 10	/* skipped files named in the picture; text and -j list all */
#define PANEL_GAP 24
#define SWATCH 12

/* ------------------------------------------------------------- layout */

struct doc {
	const struct merged *mg;
	struct check_panel checks;
	struct pair_panel pairs;
	bool has_checks, has_pairs;
	enum svg_class legend[SC_COUNT];
	size_t nlegend;
	int w, h, header_h, checks_y, pairs_y, legend_y, legend_w;
};

static size_t skipped_lines(const struct fleet_model *m)
{
	return m->nskipped > SKIPPED_SHOWN ? SKIPPED_SHOWN + 1 : m->nskipped;
}

static void header_title(const struct fleet_model *m, char *buf, size_t len)
{
	int k = snprintf(buf, len, "rdmadiag report merge: %u report%s merged", m->files_read,
			 m->files_read == 1 ? "" : "s");

	if (m->nskipped && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", %zu file%s skipped", m->nskipped, m->nskipped == 1 ? "" : "s");
}

static int header_width(const struct fleet_model *m)
{
	char title[128];
	int w;

	header_title(m, title, sizeof(title));
	w = svg_text_w(strlen(title), SVG_FONT + 2);
	for (size_t i = 0; i < m->nskipped && i < SKIPPED_SHOWN; i++) {
		size_t n = strlen("skipped : ") + strlen(m->skipped[i].file) + strlen(m->skipped[i].why);
		int lw = svg_text_w(n < SVG_TEXT_MAX ? n : SVG_TEXT_MAX, SVG_FONT);

		w = lw > w ? lw : w;
	}
	return w;
}

static void legend_layout(struct doc *d)
{
	static const enum svg_class pair_classes[] = { SC_PASS, SC_SLOW1, SC_SLOW2, SC_SLOW3, SC_WARN, SC_FAIL,
						       SC_NONE };
	static const enum svg_class check_classes[] = { SC_PASS, SC_WARN, SC_FAIL };
	const enum svg_class *c = d->has_pairs ? pair_classes : check_classes;
	size_t n = d->has_pairs ? sizeof(pair_classes) / sizeof(*c) : sizeof(check_classes) / sizeof(*c);

	d->legend_w = 0;
	for (size_t i = 0; i < n; i++) {
		d->legend[d->nlegend++] = c[i];
		d->legend_w += SWATCH + 4 + svg_text_w(strlen(svg_class_label(c[i])), SVG_FONT) + 16;
	}
}

static int widest(int a, int b)
{
	return a > b ? a : b;
}

static int doc_layout(struct doc *d, const struct merged *mg)
{
	int y;

	d->mg = mg;
	d->has_checks = mg->m.check_reports > 0;
	d->has_pairs = mg->m.npairs > 0;
	if ((d->has_checks && checks_layout(&d->checks, mg)) || (d->has_pairs && pairs_layout(&d->pairs, mg)))
		return -ENOMEM;
	legend_layout(d);
	d->header_h = (int)(1 + skipped_lines(&mg->m)) * SVG_LINE + 8;
	y = SVG_MARGIN + d->header_h;
	d->w = widest(header_width(&mg->m), d->legend_w);
	if (d->has_checks) {
		d->checks_y = y;
		y += d->checks.h + PANEL_GAP;
		d->w = widest(d->w, d->checks.w);
	}
	if (d->has_pairs) {
		d->pairs_y = y;
		y += d->pairs.h + PANEL_GAP;
		d->w = widest(d->w, d->pairs.w);
	}
	d->legend_y = y;
	d->w += 2 * SVG_MARGIN;
	d->h = y + SWATCH + SVG_MARGIN;
	return 0;
}

static void doc_free(struct doc *d)
{
	checks_free(&d->checks);
	pairs_free(&d->pairs);
}

/* --------------------------------------------------------------- draw */

static void draw_header(FILE *fp, const struct fleet_model *m)
{
	char title[128];
	int y = SVG_MARGIN + SVG_FONT + 2;

	header_title(m, title, sizeof(title));
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"bold\">", SVG_MARGIN, y, SVG_FONT + 2);
	xml_put(fp, title);
	fputs("</text>\n", fp);
	for (size_t i = 0; i < m->nskipped && i < SKIPPED_SHOWN; i++) {
		y += SVG_LINE;
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">skipped ", SVG_MARGIN, y, SVG_FONT);
		xml_put_max(fp, m->skipped[i].file, SVG_TEXT_MAX / 2);
		fputs(": ", fp);
		xml_put_max(fp, m->skipped[i].why, SVG_TEXT_MAX / 2);
		fputs("</text>\n", fp);
	}
	if (m->nskipped > SKIPPED_SHOWN)
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">and %zu more (rdmadiag report merge lists them "
			"all)</text>\n", SVG_MARGIN, y + SVG_LINE, SVG_FONT, m->nskipped - SKIPPED_SHOWN);
}

static void draw_legend(FILE *fp, const struct doc *d)
{
	int x = SVG_MARGIN;

	for (size_t i = 0; i < d->nlegend; i++) {
		const char *label = svg_class_label(d->legend[i]);

		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#808080\"/>\n", x,
			d->legend_y, SWATCH, SWATCH, svg_color(d->legend[i]));
		svg_text(fp, x + SWATCH + 4, d->legend_y + SWATCH - 1, SVG_FONT, "start", false, label);
		x += SWATCH + 4 + svg_text_w(strlen(label), SVG_FONT) + 16;
	}
}

int svg_write(FILE *fp, const struct merged *mg, const char *head, const char *tail)
{
	struct doc d = { 0 };

	if (doc_layout(&d, mg)) {
		doc_free(&d);
		return -ENOMEM;
	}
	fputs(head, fp);
	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\">\n", d.w, d.h, d.w, d.h);
	fputs("<title>rdmadiag report merge</title>\n", fp);
	fprintf(fp, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", d.w, d.h);
	draw_header(fp, &mg->m);
	if (d.has_checks)
		checks_draw(fp, &d.checks, SVG_MARGIN, d.checks_y);
	if (d.has_pairs)
		pairs_draw(fp, &d.pairs, SVG_MARGIN, d.pairs_y);
	draw_legend(fp, &d);
	fputs("</svg>\n", fp);
	fputs(tail, fp);
	doc_free(&d);
	return 0;
}

int svg_fleet(FILE *fp, const struct merged *mg)
{
	return svg_write(fp, mg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "");
}
