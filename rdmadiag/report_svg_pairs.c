// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pair matrix of the fleet picture (report_svg_int.h): rows testers,
 * columns peers, both in the nodes' rank, so a bad node is the top row and
 * the left column, and a bad cable two cells mirrored across the diagonal.
 *
 * Size: each row is one rect in the colour of a pass at the fleet's median,
 * with the node's tooltip; only cells that differ from it are drawn on top,
 * and neighbours of one colour without a tooltip as one subpath. All pairs
 * of 1,000 nodes (a million cells) are then 0.5 MB with a bad node and a bad
 * cable, 2.6 MB where a third of the pairs are shaded, not 60 MB of rects.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_svg_int.h"
#include "xml_out.h"

#define MATRIX_PX 960		/* the matrix aims at this width... */
#define CELL_MAX 24		/* ...with cells of at most */
#define CELL_MIN 3		/* and at least this many pixels */
#define NAMES_MIN_CELL 10	/* cells this tall fit a name on each row */
#define DETAIL_MAX 64		/* up to this many nodes every cell has a tooltip */
#define TITLES_MAX 20000	/* beyond, the failing and warning cells have, worst rows first */
#define TICK_PX 40		/* between rank numbers on the axes */
#define MARK_PX 4		/* the strip beside the matrix that marks nodes with failed pairs */
#define GUTTER (MARK_PX + 4)	/* from the matrix to the labels */

struct pair_cell {
	uint32_t row, col, pair;
	int severity;	/* within one cell (two addresses of a peer) the worst wins */
};

static int severity(enum verdict v)
{
	return v == V_FAIL ? 3 : v == V_WARN ? 2 : v == V_PASS ? 1 : 0;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct pair_cell *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return y->severity - x->severity;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return x < y ? -1 : x > y;
}

/* The median over the pairs that passed or warned: bandwidth when any pair
 * measured it, else latency. What shades a pass is its distance from it. */
static int fleet_median(struct pair_panel *p)
{
	const struct fleet_model *m = &p->mg->m;
	float *v = malloc((m->npairs + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (int pass = 0; pass < 2 && !n; pass++) {
		p->by_latency = pass;
		for (size_t i = 0; i < m->npairs; i++) {
			const struct rf_pair *r = &m->pairs[i];
			float x = pass ? r->p50_us : r->gbps;

			if ((r->verdict == V_PASS || r->verdict == V_WARN) && !isnan(x) && x > 0)
				v[n++] = x;
		}
	}
	p->median = NAN;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_float);
		p->median = n % 2 ? v[n / 2] : ((double)v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return 0;
}

/* The nodes that are part of some pair, in rank order. */
static int matrix_nodes(struct pair_panel *p)
{
	const struct merged *mg = p->mg;
	size_t nn = mg->m.nnodes;

	p->nodes = malloc((nn + 1) * sizeof(*p->nodes));
	p->pos_of = malloc((nn + 1) * sizeof(*p->pos_of));
	if (!p->nodes || !p->pos_of)
		return -ENOMEM;
	for (size_t i = 0; i < nn; i++)
		p->pos_of[i] = RF_NONE;
	for (size_t i = 0; i < nn; i++) {
		uint32_t node = mg->order[i];

		if (mg->m.nodes[node].pairs) {
			p->pos_of[node] = (uint32_t)p->n;
			p->nodes[p->n++] = node;
		}
	}
	return 0;
}

static int matrix_cells(struct pair_panel *p)
{
	const struct fleet_model *m = &p->mg->m;

	p->cells = malloc((m->npairs + 1) * sizeof(*p->cells));
	p->row_class = malloc(p->n + 1);
	if (!p->cells || !p->row_class)
		return -ENOMEM;
	for (size_t i = 0; i < m->npairs; i++) {
		const struct rf_pair *r = &m->pairs[i];
		uint32_t row = p->pos_of[r->from], col = p->pos_of[r->to];

		if (row != RF_NONE && col != RF_NONE)
			p->cells[p->ncells++] = (struct pair_cell){ row, col, (uint32_t)i, severity(r->verdict) };
	}
	if (p->ncells)
		qsort(p->cells, p->ncells, sizeof(*p->cells), cmp_cell);
	return 0;
}

static size_t name_len(const struct pair_panel *p, size_t pos)
{
	return strlen(p->mg->m.nodes[p->nodes[pos]].name);
}

static int row_font(const struct pair_panel *p)
{
	return p->cell - 2 < SVG_FONT ? p->cell - 2 : SVG_FONT;
}

static unsigned failed_pairs(const struct rf_node *n)
{
	return n->fail_from + n->fail_to;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* A node is marked when it fails (warns) in more pairs than the median node:
 * with one bad node every other node has one or two failed pairs, all with
 * it, and marking them all would mark nothing. */
static enum svg_class node_mark(const struct pair_panel *p, const struct rf_node *n)
{
	if (failed_pairs(n) > p->usual_fail)
		return SC_FAIL;
	return n->warn_pairs > p->usual_warn ? SC_WARN : SC_PASS;
}

static int marked_nodes(struct pair_panel *p)
{
	unsigned *f = malloc((p->n + 1) * sizeof(*f)), *w = malloc((p->n + 1) * sizeof(*w));

	if (!f || !w) {
		free(f);
		free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n; i++) {
		f[i] = failed_pairs(&p->mg->m.nodes[p->nodes[i]]);
		w[i] = p->mg->m.nodes[p->nodes[i]].warn_pairs;
	}
	qsort(f, p->n, sizeof(*f), cmp_unsigned);
	qsort(w, p->n, sizeof(*w), cmp_unsigned);
	p->usual_fail = p->n ? f[p->n / 2] : 0;
	p->usual_warn = p->n ? w[p->n / 2] : 0;
	free(f);
	free(w);
	for (size_t i = 0; i < p->n && p->nworst < SVG_WORST_SHOWN; i++)
		if (node_mark(p, &p->mg->m.nodes[p->nodes[i]]) != SC_PASS)
			p->worst[p->nworst++] = (uint32_t)i;
	return 0;
}

static void axis_layout(struct pair_panel *p)
{
	size_t longest = 0;

	p->names = p->cell >= NAMES_MIN_CELL;
	if (p->names) {
		for (size_t i = 0; i < p->n; i++)
			longest = name_len(p, i) > longest ? name_len(p, i) : longest;
		p->label_w = svg_text_w(longest, row_font(p)) + GUTTER + 2;
		p->top_h = p->label_w;
		return;
	}
	p->label_w = svg_text_w(snprintf(NULL, 0, "%zu", p->n), SVG_FONT) + GUTTER + 4;
	p->top_h = SVG_FONT + GUTTER + 4;
	for (size_t i = 0; i < p->nworst; i++)
		longest = name_len(p, p->worst[i]) > longest ? name_len(p, p->worst[i]) : longest;
	/* "1234 name 123456 failed, 123456 warn" */
	p->list_w = p->nworst ? svg_text_w(longest + 32, SVG_FONT) : 0;
}

static void panel_heading(const struct pair_panel *p, char *l1, char *l2, size_t len)
{
	const struct merged *mg = p->mg;

	snprintf(l1, len, "path test: %zu nodes, %zu pairs: %u fail, %u warn", p->n, mg->m.npairs, mg->pairs_fail,
		 mg->pairs_warn);
	if (isnan(p->median))
		snprintf(l2, len, "row: tester, column: peer, worst nodes first; no bandwidth or latency measured");
	else
		snprintf(l2, len, "row: tester, column: peer, worst nodes first; a pass is shaded by its %s against "
			 "the fleet median of %.3f %s", p->by_latency ? "latency (p50)" : "bandwidth", p->median,
			 p->by_latency ? "us" : "Gb/s");
}

int pairs_layout(struct pair_panel *p, const struct merged *mg)
{
	char l1[200], l2[200];
	int text_w;

	memset(p, 0, sizeof(*p));
	p->mg = mg;
	if (matrix_nodes(p) || matrix_cells(p) || fleet_median(p) || marked_nodes(p))
		return -ENOMEM;
	p->cell = p->n ? MATRIX_PX / (int)(p->n < MATRIX_PX ? p->n : MATRIX_PX) : CELL_MAX;
	p->cell = p->cell > CELL_MAX ? CELL_MAX : p->cell < CELL_MIN ? CELL_MIN : p->cell;
	axis_layout(p);
	panel_heading(p, l1, l2, sizeof(l1));
	text_w = svg_text_w(strlen(l2) > strlen(l1) ? strlen(l2) : strlen(l1), SVG_FONT);
	p->w = p->label_w + (int)p->n * p->cell + (p->list_w ? 16 + p->list_w : 0);
	p->w = p->w > text_w ? p->w : text_w;
	p->h = 2 * SVG_LINE + p->top_h + (int)p->n * p->cell + 4;
	if (p->list_w && p->h < 2 * SVG_LINE + p->top_h + (int)(p->nworst + 1) * SVG_LINE)
		p->h = 2 * SVG_LINE + p->top_h + (int)(p->nworst + 1) * SVG_LINE;
	return 0;
}

void pairs_free(struct pair_panel *p)
{
	free(p->nodes);
	free(p->pos_of);
	free(p->cells);
	free(p->row_class);
	memset(p, 0, sizeof(*p));
}

/* ---------------------------------------------------------------- cells */

/* A pass's value against the median: above 1 better; NAN not measured. */
static double pair_ratio(const struct pair_panel *p, const struct rf_pair *r)
{
	float v = p->by_latency ? r->p50_us : r->gbps;

	if (isnan(p->median) || isnan(v) || v <= 0)
		return NAN;
	return p->by_latency ? p->median / v : v / p->median;
}

static enum svg_class pair_class(const struct pair_panel *p, const struct rf_pair *r)
{
	double ratio;

	if (r->verdict == V_FAIL)
		return SC_FAIL;
	if (r->verdict == V_WARN)
		return SC_WARN;
	if (r->verdict != V_PASS)
		return SC_NONE;
	ratio = pair_ratio(p, r);
	if (isnan(ratio) || ratio >= 0.9)
		return SC_PASS;
	return ratio >= 0.75 ? SC_SLOW1 : ratio >= 0.5 ? SC_SLOW2 : SC_SLOW3;
}

static void pair_title(FILE *fp, const struct pair_panel *p, const struct rf_pair *r)
{
	const struct fleet_model *m = &p->mg->m;
	double ratio = pair_ratio(p, r);

	xml_put(fp, m->nodes[r->from].name);
	fputs(" \xe2\x86\x92 ", fp);	/* U+2192 RIGHTWARDS ARROW */
	xml_put(fp, m->nodes[r->to].name);
	fprintf(fp, ": %s", verdict_token(r->verdict));
	if (r->stage != RF_NONE) {
		fputs(" at ", fp);
		xml_put(fp, m->ids[r->stage].id);
	}
	if (!isnan(r->gbps))
		fprintf(fp, ", %.3f Gb/s", r->gbps);
	if (!isnan(r->p50_us))
		fprintf(fp, ", p50 %.2f us", r->p50_us);
	if (!isnan(ratio) && r->verdict != V_FAIL)
		fprintf(fp, " (%.0f%% of the median)", 100 * ratio);
}

/* The untitled cells of class c in a row, one path of a subpath a run of
 * neighbours: "h w v cell h -w z" and a relative move to the next run, some
 * 16 bytes a run where a rect takes 60. */
static void draw_row_runs(FILE *fp, const struct pair_panel *p, enum svg_class c, int mx, int y)
{
	int last_x = 0;
	bool open = false;

	for (uint32_t col = 0; col < p->n; col++) {
		uint32_t end = col;

		if (p->row_class[col] != c)
			continue;
		while (end + 1 < p->n && p->row_class[end + 1] == c)
			end++;
		if (!open)
			fprintf(fp, "<path fill=\"%s\" d=\"M%d %d", svg_color(c), mx + (int)col * p->cell, y);
		else
			fprintf(fp, "m%d 0", mx + (int)col * p->cell - last_x);
		fprintf(fp, "h%dv%dh-%dz", (int)(end - col + 1) * p->cell, p->cell, (int)(end - col + 1) * p->cell);
		last_x = mx + (int)col * p->cell;
		open = true;
		col = end;
	}
	if (open)
		fputs("\"/>\n", fp);
}

/* Draws the cells of row r that differ from its ground: those with a
 * tooltip one by one, the others by colour (draw_row_runs). *k walks
 * p->cells, *titles is what is left of the tooltip budget. */
static void draw_row_cells(FILE *fp, const struct pair_panel *p, uint32_t r, int mx, int y, size_t *k,
			   unsigned *titles)
{
	for (uint32_t c = 0; c < p->n; c++) {
		const struct rf_pair *pr = NULL;
		enum svg_class cls;

		for (; *k < p->ncells && p->cells[*k].row == r && p->cells[*k].col < c; (*k)++)
			;	/* a second pair of the cell: the first is the worst */
		if (*k < p->ncells && p->cells[*k].row == r && p->cells[*k].col == c)
			pr = &p->mg->m.pairs[p->cells[(*k)++].pair];
		cls = pr ? pair_class(p, pr) : c == r ? SC_SELF : SC_NONE;
		p->row_class[c] = (unsigned char)cls;
		if (pr && (p->n <= DETAIL_MAX || ((cls == SC_FAIL || cls == SC_WARN) && *titles))) {
			*titles -= p->n > DETAIL_MAX;
			svg_titled_begin(fp, mx + (int)c * p->cell, y, p->cell, p->cell, cls);
			pair_title(fp, p, pr);
			svg_titled_end(fp);
			p->row_class[c] = SC_PASS;	/* drawn: no run */
		}
	}
	for (; *k < p->ncells && p->cells[*k].row == r; (*k)++)
		;
	for (int c = SC_PASS + 1; c < SC_COUNT; c++)
		draw_row_runs(fp, p, (enum svg_class)c, mx, y);
}

/* The row's ground: the colour of a healthy pass, the tooltip of its node. */
static void draw_row_ground(FILE *fp, const struct pair_panel *p, uint32_t r, int mx, int y)
{
	const struct rf_node *n = &p->mg->m.nodes[p->nodes[r]];

	svg_titled_begin(fp, mx, y, (int)p->n * p->cell, p->cell, SC_PASS);
	fprintf(fp, "%u: ", r);
	xml_put(fp, n->name);
	fprintf(fp, ": %u failed pairs (%u as tester, %u as peer), %u warn, of %u pairs%s", failed_pairs(n),
		n->fail_from, n->fail_to, n->warn_pairs, n->pairs, n->has_report ? "" : "; no report from it");
	svg_titled_end(fp);
}

/* ----------------------------------------------------------------- axes */

/* Beside its row and above its column, a node that fails more than usual
 * (node_mark) gets a mark: a cell of 3 pixels is easy to miss, a mark on the
 * axis is not. */
static void draw_marks(FILE *fp, const struct pair_panel *p, int mx, int my)
{
	for (size_t i = 0; i < p->n; i++) {
		enum svg_class mark = node_mark(p, &p->mg->m.nodes[p->nodes[i]]);
		int at = (int)i * p->cell;

		if (mark == SC_PASS)
			continue;
		svg_rect(fp, mx - MARK_PX - 1, my + at, MARK_PX, p->cell, mark);
		svg_rect(fp, mx + at, my - MARK_PX - 1, p->cell, MARK_PX, mark);
	}
}

static void draw_names(FILE *fp, const struct pair_panel *p, int mx, int my)
{
	int font = row_font(p);

	for (size_t i = 0; i < p->n; i++) {
		const char *name = p->mg->m.nodes[p->nodes[i]].name;
		int mid = (int)i * p->cell + p->cell / 2 + font * 7 / 20;	/* baseline of centred text */

		svg_text(fp, mx - GUTTER, my + mid, font, "end", false, name);
		svg_text(fp, mx + mid, my - GUTTER, font, "start", true, name);
	}
}

static void draw_ticks(FILE *fp, const struct pair_panel *p, int mx, int my)
{
	static const size_t steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };
	size_t step = steps[0];
	char num[24];

	for (size_t i = 0; i < sizeof(steps) / sizeof(*steps) && (int)step * p->cell < TICK_PX; i++)
		step = steps[i];
	for (size_t i = 0; i < p->n; i += step) {
		int at = (int)i * p->cell + p->cell / 2;

		snprintf(num, sizeof(num), "%zu", i);
		svg_text(fp, mx - GUTTER, my + at + SVG_FONT * 7 / 20, SVG_FONT, "end", false, num);
		svg_text(fp, mx + at, my - GUTTER - 2, SVG_FONT, "middle", false, num);
	}
}

static void draw_worst(FILE *fp, const struct pair_panel *p, int x, int y)
{
	char line[128];

	svg_text(fp, x, y + SVG_FONT, SVG_FONT, "start", false, "marked nodes (row: name, pairs):");
	for (size_t i = 0; i < p->nworst; i++) {
		const struct rf_node *n = &p->mg->m.nodes[p->nodes[p->worst[i]]];

		snprintf(line, sizeof(line), "%4u: %s %u failed, %u warn", p->worst[i], n->name, failed_pairs(n),
			 n->warn_pairs);
		svg_text(fp, x, y + SVG_FONT + (int)(i + 1) * SVG_LINE, SVG_FONT, "start", false, line);
	}
}

void pairs_draw(FILE *fp, const struct pair_panel *p, int x, int y)
{
	char l1[200], l2[200];
	int mx = x + p->label_w, my = y + 2 * SVG_LINE + p->top_h;
	unsigned titles = TITLES_MAX;
	size_t k = 0;

	panel_heading(p, l1, l2, sizeof(l1));
	svg_text(fp, x, y + SVG_FONT, SVG_FONT, "start", false, l1);
	svg_text(fp, x, y + SVG_FONT + SVG_LINE, SVG_FONT, "start", false, l2);
	fputs("<g id=\"pairs\">\n", fp);
	for (uint32_t r = 0; r < p->n; r++) {
		draw_row_ground(fp, p, r, mx, my + (int)r * p->cell);
		draw_row_cells(fp, p, r, mx, my + (int)r * p->cell, &k, &titles);
	}
	fputs("</g>\n", fp);
	svg_grid(fp, mx, my, p->n, p->n, p->cell);
	draw_marks(fp, p, mx, my);
	if (p->names)
		draw_names(fp, p, mx, my);
	else
		draw_ticks(fp, p, mx, my);
	if (p->list_w)
		draw_worst(fp, p, mx + (int)p->n * p->cell + 16, my);
}
