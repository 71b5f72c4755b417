// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The drawing primitives and the palette that the fleet picture's document
 * (report_svg.c) and its panels share; see report_svg_int.h.
 */
#include <stdio.h>

#include "report_svg_int.h"
#include "xml_out.h"

#define GRID_MIN_CELL 8		/* px: smaller cells get no grid, it would hide them */

/* Blue for a healthy pass, lighter blue, lavender and purple the slower a
 * pass is than the fleet, orange warn, red fail: hues apart from each other
 * (and from the grey of what was not tested), so a slow pass never passes for
 * a verdict, and the verdicts keep ColorBrewer's orange and red. */
static const char *const palette[SC_COUNT] = {
	[SC_PASS] = "#2166ac", [SC_SLOW1] = "#67a9cf", [SC_SLOW2] = "#c2a5cf", [SC_SLOW3] = "#7b3294",
	[SC_WARN] = "#fdae61", [SC_FAIL] = "#d7191c", [SC_NONE] = "#d9d9d9", [SC_SELF] = "#ffffff",
};

static const char *const class_label[SC_COUNT] = {
	[SC_PASS] = "pass", [SC_SLOW1] = "pass, 75-90% of the median", [SC_SLOW2] = "pass, 50-75%",
	[SC_SLOW3] = "pass, below 50%", [SC_WARN] = "warn", [SC_FAIL] = "fail", [SC_NONE] = "not tested",
	[SC_SELF] = "self",
};

const char *svg_color(enum svg_class c)
{
	return palette[c];
}

const char *svg_class_label(enum svg_class c)
{
	return class_label[c];
}

int svg_text_w(size_t n, int font)
{
	return (int)((n * (size_t)font * 3 + 4) / 5);	/* monospace: 0.6 em a character */
}

void svg_rect(FILE *fp, int x, int y, int w, int h, enum svg_class c)
{
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x, y, w, h, palette[c]);
}

void svg_titled_begin(FILE *fp, int x, int y, int w, int h, enum svg_class c)
{
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>", x, y, w, h, palette[c]);
}

void svg_titled_end(FILE *fp)
{
	fputs("</title></rect>\n", fp);
}

void svg_grid(FILE *fp, int x, int y, size_t cols, size_t rows, int cell)
{
	if (cell < GRID_MIN_CELL || !rows || !cols)
		return;
	fputs("<path fill=\"none\" stroke=\"#ffffff\" stroke-width=\"1\" d=\"", fp);
	for (size_t r = 1; r < rows; r++)
		fprintf(fp, "M%d %zuh%zu", x, y + r * (size_t)cell, cols * (size_t)cell);
	for (size_t c = 1; c < cols; c++)
		fprintf(fp, "M%zu %dv%zu", x + c * (size_t)cell, y, rows * (size_t)cell);
	fputs("\"/>\n", fp);
}

void svg_text(FILE *fp, int x, int y, int font, const char *anchor, bool rotate, const char *s)
{
	if (rotate)
		fprintf(fp, "<text transform=\"translate(%d,%d) rotate(-90)\" font-size=\"%d\" text-anchor=\"%s\">", x,
			y, font, anchor);
	else
		fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\">", x, y, font, anchor);
	xml_put_max(fp, s, SVG_TEXT_MAX);
	fputs("</text>\n", fp);
}
