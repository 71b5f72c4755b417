/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the fleet picture (report_svg.h): the drawing primitives and the
 * palette (report_svg_draw.c) and the two panels, each laid out first (its
 * size, so the document knows its own) and then drawn at a place.
 */
#ifndef RDMADIAG_REPORT_SVG_INT_H
#define RDMADIAG_REPORT_SVG_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "report_fleet.h"

#define SVG_MARGIN 16
#define SVG_FONT 12		/* px; text is monospace so its width is known here */
#define SVG_LINE 18		/* px between lines of text */
#define SVG_TEXT_MAX 160	/* characters of one line of free text (file names) */
#define SVG_WORST_SHOWN 10	/* marked nodes listed beside a matrix without names */

/* What a cell shows; the palette (report_svg_draw.c) gives each its colour. */
enum svg_class {
	SC_PASS,	/* passed, at or above 90 % of the fleet's median (the rows' ground) */
	SC_SLOW1,	/* passed, 75-90 % of the median */
	SC_SLOW2,	/* passed, 50-75 % */
	SC_SLOW3,	/* passed, below 50 % */
	SC_WARN,
	SC_FAIL,
	SC_NONE,	/* not tested (or skipped) */
	SC_SELF,	/* the diagonal: a node and itself */
	SC_COUNT
};

/* The whole picture, between head and tail (the XML declaration, or the
 * HTML page around it), written once it is laid out: 0, or -ENOMEM with
 * nothing written. */
int svg_write(FILE *fp, const struct merged *mg, const char *head, const char *tail);

const char *svg_color(enum svg_class c);
const char *svg_class_label(enum svg_class c);

/* Pixels that n characters of monospace text of size font take. */
int svg_text_w(size_t n, int font);
void svg_rect(FILE *fp, int x, int y, int w, int h, enum svg_class c);
/* A rect that holds a <title>: the caller writes the title text (escaped)
 * and then calls svg_titled_end(). */
void svg_titled_begin(FILE *fp, int x, int y, int w, int h, enum svg_class c);
void svg_titled_end(FILE *fp);
/* White lines between the cells of a rows x cols table at (x, y) whose cells
 * are big enough to spare them. */
void svg_grid(FILE *fp, int x, int y, size_t cols, size_t rows, int cell);
/* <text> at (x, y) of escaped s; anchor "start", "middle" or "end"; rotate
 * -90 writes it upwards from (x, y). */
void svg_text(FILE *fp, int x, int y, int font, const char *anchor, bool rotate, const char *s);

/* The pair matrix of path test reports (report_svg_pairs.c). */
struct pair_cell;

struct pair_panel {
	const struct merged *mg;
	uint32_t *nodes;	/* the nodes in the matrix (some pair), in rank order */
	uint32_t *pos_of;	/* node index -> row and column; RF_NONE not there */
	struct pair_cell *cells;	/* pairs by row, then column */
	unsigned char *row_class;	/* while drawing: enum svg_class of each cell of a row */
	size_t n, ncells;
	double median;		/* of bandwidth (Gb/s), else latency (us); NAN none */
	bool by_latency;
	bool names;		/* a name on each row and column; else rank ticks */
	unsigned usual_fail, usual_warn;	/* failed, warned pairs of the median node */
	uint32_t worst[SVG_WORST_SHOWN];	/* rows of the nodes marked (failing more than usual), worst first */
	size_t nworst;
	int cell, label_w, top_h, list_w, w, h;
};

int pairs_layout(struct pair_panel *p, const struct merged *mg);
void pairs_draw(FILE *fp, const struct pair_panel *p, int x, int y);
void pairs_free(struct pair_panel *p);

/* Nodes x failing check ids of check reports (report_svg_checks.c). */
struct check_panel {
	const struct merged *mg;
	uint32_t *col_of;	/* id index -> column + 1; 0 none */
	size_t rows, cols;
	int cell, label_w, top_h, w, h;
};

int checks_layout(struct check_panel *p, const struct merged *mg);
void checks_draw(FILE *fp, const struct check_panel *p, int x, int y);
void checks_free(struct check_panel *p);

#endif
