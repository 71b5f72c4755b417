// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check panel of the fleet picture (report_svg_int.h): nodes with a
 * failing or warning check (rows, most failures first) x the check ids that
 * fail or warn anywhere (columns), as report merge's text table. Nodes where
 * every check passed are counted, not drawn: a thousand blue rows would hide
 * the one red one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_svg_int.h"
#include "xml_out.h"

#define CHECK_CELL 16
#define CHECK_FONT 11

static void panel_heading(const struct check_panel *p, char *l1, char *l2, size_t len)
{
	const struct merged *mg = p->mg;
	/* a node whose checks all skipped is no pass (report merge's text says the same) */
	unsigned passed = mg->m.nodes_checked - mg->nodes_check_cells - mg->m.nodes_unchecked;

	snprintf(l1, len, "check reports: %u, %u node%s with failing checks", mg->m.check_reports,
		 mg->nodes_check_fail, mg->nodes_check_fail == 1 ? "" : "s");
	if (passed)
		snprintf(l2, len, "%u other node%s: every check passed", passed, passed == 1 ? "" : "s");
	else
		snprintf(l2, len, "rows: nodes, most failures first; columns: check ids that fail or warn");
}

int checks_layout(struct check_panel *p, const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	size_t name_max = 0, id_max = 0;
	char l1[160], l2[160];

	memset(p, 0, sizeof(*p));
	p->mg = mg;
	p->col_of = calloc(m->nids + 1, sizeof(*p->col_of));
	if (!p->col_of)
		return -ENOMEM;
	for (size_t i = 0; i < m->nids; i++)
		if (m->ids[i].fail_nodes || m->ids[i].warn_nodes) {
			p->col_of[i] = (uint32_t)++p->cols;
			id_max = strlen(m->ids[i].id) > id_max ? strlen(m->ids[i].id) : id_max;
		}
	for (size_t c = 0; c < m->nchecks; c++)
		if (!c || m->checks[c].node != m->checks[c - 1].node) {
			size_t len = strlen(m->nodes[m->checks[c].node].name);

			p->rows++;
			name_max = len > name_max ? len : name_max;
		}
	p->cell = CHECK_CELL;
	p->label_w = svg_text_w(name_max, CHECK_FONT) + 6;
	p->top_h = svg_text_w(id_max, CHECK_FONT) + 6;
	panel_heading(p, l1, l2, sizeof(l1));
	p->w = p->label_w + (int)p->cols * p->cell;
	if (p->w < svg_text_w(strlen(l1) > strlen(l2) ? strlen(l1) : strlen(l2), SVG_FONT))
		p->w = svg_text_w(strlen(l1) > strlen(l2) ? strlen(l1) : strlen(l2), SVG_FONT);
	p->h = 2 * SVG_LINE + (p->rows ? p->top_h + (int)p->rows * p->cell + 4 : 0);
	return 0;
}

void checks_free(struct check_panel *p)
{
	free(p->col_of);
	memset(p, 0, sizeof(*p));
}

static void draw_columns(FILE *fp, const struct check_panel *p, int mx, int my)
{
	const struct fleet_model *m = &p->mg->m;

	for (size_t i = 0; i < m->nids; i++) {
		int at = (int)(p->col_of[i] - 1) * p->cell + p->cell / 2 + CHECK_FONT * 7 / 20;

		if (p->col_of[i])
			svg_text(fp, mx + at, my - 4, CHECK_FONT, "start", true, m->ids[i].id);
	}
}

/* The row of one node: ground (every id passed) with the node's tooltip,
 * then its failing and warning cells with theirs. Returns the next check. */
static size_t draw_row(FILE *fp, const struct check_panel *p, size_t c, int mx, int y)
{
	const struct fleet_model *m = &p->mg->m;
	uint32_t node = m->checks[c].node;
	const struct rf_node *n = &m->nodes[node];

	svg_titled_begin(fp, mx, y, (int)p->cols * p->cell, p->cell, SC_PASS);
	xml_put(fp, n->name);
	fprintf(fp, ": %u failing, %u warning checks", n->check_fail, n->check_warn);
	svg_titled_end(fp);
	svg_text(fp, mx - 4, y + p->cell / 2 + CHECK_FONT * 7 / 20, CHECK_FONT, "end", false, n->name);
	for (; c < m->nchecks && m->checks[c].node == node; c++) {
		const struct rf_check *k = &m->checks[c];

		svg_titled_begin(fp, mx + (int)(p->col_of[k->id] - 1) * p->cell, y, p->cell, p->cell,
				 k->verdict == V_FAIL ? SC_FAIL : SC_WARN);
		xml_put(fp, n->name);
		fputs(": ", fp);
		xml_put(fp, m->ids[k->id].id);
		fprintf(fp, " %s", verdict_token(k->verdict));
		svg_titled_end(fp);
	}
	return c;
}

void checks_draw(FILE *fp, const struct check_panel *p, int x, int y)
{
	const struct fleet_model *m = &p->mg->m;
	int mx = x + p->label_w, my = y + 2 * SVG_LINE + p->top_h;
	char l1[160], l2[160];
	size_t c = 0;

	panel_heading(p, l1, l2, sizeof(l1));
	svg_text(fp, x, y + SVG_FONT, SVG_FONT, "start", false, l1);
	svg_text(fp, x, y + SVG_FONT + SVG_LINE, SVG_FONT, "start", false, l2);
	if (!p->rows)
		return;
	draw_columns(fp, p, mx, my);
	fputs("<g id=\"checks\">\n", fp);
	for (size_t r = 0; c < m->nchecks; r++)
		c = draw_row(fp, p, c, mx, my + (int)r * p->cell);
	fputs("</g>\n", fp);
	svg_grid(fp, mx, my, p->cols, p->rows, p->cell);
}
