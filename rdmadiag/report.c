// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag report merge FILE...|DIR: one answer for a fleet from the -j
 * reports every node wrote (srun, clush, pdsh, ansible). Check reports give a
 * table of nodes x failing check ids; path test reports give the N x N matrix
 * of pairs. Nodes common to most failures come first: one bad node or cable
 * shows as a full row and column at the top.
 *
 * Exit: 0 every report read and clean; 1 a report holds a failure, a file
 * could not be used (a node without a usable report is a finding too), or a
 * node's checks all skipped (nothing was checked there: no pass);
 * 2 usage; 4 out of memory.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "objects.h"
#include "output.h"
#include "report_fleet.h"
#include "report_svg.h"

#define TEXT_TOP 10		/* nodes and pairs listed in text */
#define WIDE_MATRIX_MAX 8	/* nodes: cells with verdict and Gb/s */
#define CHAR_MATRIX_MAX 200	/* nodes: one character per cell */

/* Sorting needs the model; qsort has no context argument. */
static const struct fleet_model *g_model;

static unsigned node_failures(const struct rf_node *n)
{
	return n->fail_from + n->fail_to + n->check_fail;
}

static int cmp_node_rank(const void *a, const void *b)
{
	const struct rf_node *x = &g_model->nodes[*(const uint32_t *)a], *y = &g_model->nodes[*(const uint32_t *)b];
	unsigned fx = node_failures(x), fy = node_failures(y);

	if (fx != fy)
		return fx > fy ? -1 : 1;
	if (x->warn_pairs + x->check_warn != y->warn_pairs + y->check_warn)
		return x->warn_pairs + x->check_warn > y->warn_pairs + y->check_warn ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int severity(enum verdict v)
{
	return v == V_FAIL ? 3 : v == V_WARN ? 2 : v == V_SKIP ? 1 : 0;
}

/* Worst first: fails, warns, then the slowest; ties by the nodes' rank. */
static const uint32_t *g_rank_of;

static int cmp_pair(const void *a, const void *b)
{
	const struct rf_pair *x = a, *y = b;
	float gx = isnan(x->gbps) ? INFINITY : x->gbps, gy = isnan(y->gbps) ? INFINITY : y->gbps;

	if (severity(x->verdict) != severity(y->verdict))
		return severity(x->verdict) > severity(y->verdict) ? -1 : 1;
	if (gx != gy)
		return gx < gy ? -1 : 1;
	if (g_rank_of[x->from] != g_rank_of[y->from])
		return g_rank_of[x->from] < g_rank_of[y->from] ? -1 : 1;
	return g_rank_of[x->to] < g_rank_of[y->to] ? -1 : g_rank_of[x->to] > g_rank_of[y->to];
}

static int cmp_check(const void *a, const void *b)
{
	const struct rf_check *x = a, *y = b;

	if (x->node != y->node)
		return g_rank_of[x->node] < g_rank_of[y->node] ? -1 : 1;
	return strcmp(g_model->ids[x->id].id, g_model->ids[y->id].id);
}

/* A node whose check reports hold checks that all skipped: nothing was
 * checked there, which is no pass (as a report without checks is none). */
static bool nothing_checked(const struct rf_node *n)
{
	return n->checked && !n->judged;
}

/* Nodes checked with no failing or warning cell, and something checked. */
static unsigned nodes_passed(const struct merged *mg)
{
	return mg->m.nodes_checked - mg->nodes_check_cells - mg->m.nodes_unchecked;
}

static int rank_nodes(struct merged *mg)
{
	struct fleet_model *m = &mg->m;

	mg->order = malloc((m->nnodes + 1) * sizeof(*mg->order));
	mg->rank_of = malloc((m->nnodes + 1) * sizeof(*mg->rank_of));
	if (!mg->order || !mg->rank_of)
		return -ENOMEM;
	for (size_t i = 0; i < m->nnodes; i++)
		mg->order[i] = (uint32_t)i;
	g_model = m;
	if (m->nnodes)
		qsort(mg->order, m->nnodes, sizeof(*mg->order), cmp_node_rank);
	for (size_t i = 0; i < m->nnodes; i++)
		mg->rank_of[mg->order[i]] = (uint32_t)i;
	g_rank_of = mg->rank_of;
	if (m->npairs)	/* qsort wants a base even for 0 elements */
		qsort(m->pairs, m->npairs, sizeof(*m->pairs), cmp_pair);
	if (m->nchecks)
		qsort(m->checks, m->nchecks, sizeof(*m->checks), cmp_check);
	for (size_t i = 0; i < m->npairs; i++) {
		mg->pairs_fail += m->pairs[i].verdict == V_FAIL;
		mg->pairs_warn += m->pairs[i].verdict == V_WARN;
	}
	for (size_t i = 0; i < m->nnodes; i++) {
		mg->nodes_check_fail += m->nodes[i].check_fail > 0;
		mg->nodes_check_cells += m->nodes[i].check_fail || m->nodes[i].check_warn;
	}
	return 0;
}

/* ------------------------------------------------------------------ JSON */

enum {
	J_FILE, J_ERROR, J_READ, J_PATH, J_CHECKS, J_LOOPBACK, J_SKIPPED, J_ID, J_FAIL_NODES, J_WARN_NODES, J_NODE,
	J_FAIL, J_WARN, J_VERDICT, J_FAILED_PAIRS, J_AS_TESTER, J_AS_PEER, J_WARN_PAIRS, J_PAIRS, J_REPORT, J_FROM,
	J_TO, J_STAGE, J_P50, J_GBPS, J_NODES, J_PAIRS_FAILED, J_NODES_FAILING, J_DUP_OF, J_NODES_CHECKED,
	J_NODES_PASSED, J_NODES_UNCHECKED,
};
static const struct field jf[] = {
	[J_FILE] = { "file", NULL, FT_STR, 0, NULL },
	[J_ERROR] = { "error", NULL, FT_STR, 0, NULL },
	[J_READ] = { "read", NULL, FT_U64, 0, NULL },
	[J_PATH] = { "path_test", NULL, FT_U64, 0, NULL },
	[J_CHECKS] = { "checks", NULL, FT_U64, 0, NULL },
	[J_LOOPBACK] = { "loopback", NULL, FT_U64, 0, NULL },
	[J_SKIPPED] = { "skipped", NULL, FT_U64, 0, NULL },
	[J_ID] = { "id", NULL, FT_STR, 0, NULL },
	[J_FAIL_NODES] = { "fail_nodes", NULL, FT_U64, 0, NULL },
	[J_WARN_NODES] = { "warn_nodes", NULL, FT_U64, 0, NULL },
	[J_NODE] = { "node", NULL, FT_STR, 0, NULL },
	[J_FAIL] = { "fail", NULL, FT_U64, 0, NULL },
	[J_WARN] = { "warn", NULL, FT_U64, 0, NULL },
	[J_VERDICT] = { "verdict", NULL, FT_TOKEN, 0, NULL },
	[J_FAILED_PAIRS] = { "failed_pairs", NULL, FT_U64, 0, NULL },
	[J_AS_TESTER] = { "failed_as_tester", NULL, FT_U64, 0, NULL },
	[J_AS_PEER] = { "failed_as_peer", NULL, FT_U64, 0, NULL },
	[J_WARN_PAIRS] = { "warn_pairs", NULL, FT_U64, 0, NULL },
	[J_PAIRS] = { "pairs", NULL, FT_U64, 0, NULL },
	[J_REPORT] = { "report", NULL, FT_BOOL, 0, NULL },
	[J_FROM] = { "from", NULL, FT_STR, 0, NULL },
	[J_TO] = { "to", NULL, FT_STR, 0, NULL },
	[J_STAGE] = { "failed_stage", NULL, FT_STR, 0, NULL },
	[J_P50] = { "latency_p50_us", NULL, FT_DOUBLE, 0, NULL },
	[J_GBPS] = { "bandwidth_gbps", NULL, FT_DOUBLE, 0, NULL },
	[J_NODES] = { "nodes", NULL, FT_U64, 0, NULL },
	[J_PAIRS_FAILED] = { "pairs_failed", NULL, FT_U64, 0, NULL },
	[J_NODES_FAILING] = { "nodes_failing_checks", NULL, FT_U64, 0, NULL },
	[J_DUP_OF] = { "duplicate_of", NULL, FT_STR, 0, NULL },
	[J_NODES_CHECKED] = { "nodes_checked", NULL, FT_U64, 0, NULL },
	[J_NODES_PASSED] = { "nodes_passed", NULL, FT_U64, 0, NULL },
	[J_NODES_UNCHECKED] = { "nodes_nothing_checked", NULL, FT_U64, 0, NULL },
};

static void json_files(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;

	out_obj_begin("reports");
	out_u64(&jf[J_READ], m->files_read);
	out_u64(&jf[J_PATH], m->path_reports);
	out_u64(&jf[J_CHECKS], m->check_reports);
	out_u64(&jf[J_LOOPBACK], m->loopback_reports);
	out_u64(&jf[J_SKIPPED], m->nskipped);
	out_obj_end();
	out_list_begin("skipped");
	for (size_t i = 0; i < m->nskipped; i++) {
		out_obj_begin(NULL);
		out_str(&jf[J_FILE], m->skipped[i].file);
		out_str(&jf[J_ERROR], m->skipped[i].why);
		if (m->skipped[i].dup_of)
			out_str(&jf[J_DUP_OF], m->skipped[i].dup_of);
		out_obj_end();
	}
	out_list_end();
}

static void json_checks(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	size_t c = 0;

	out_obj_begin("checks");
	out_u64(&jf[J_NODES_CHECKED], m->nodes_checked);
	out_u64(&jf[J_NODES_PASSED], nodes_passed(mg));
	out_u64(&jf[J_NODES_UNCHECKED], m->nodes_unchecked);
	out_list_begin("nothing_checked");
	for (size_t i = 0; i < m->nnodes; i++)
		if (nothing_checked(&m->nodes[mg->order[i]])) {
			out_obj_begin(NULL);
			out_str(&jf[J_NODE], m->nodes[mg->order[i]].name);
			out_obj_end();
		}
	out_list_end();
	out_list_begin("ids");
	for (size_t i = 0; i < m->nids; i++) {
		if (!m->ids[i].fail_nodes && !m->ids[i].warn_nodes)
			continue;	/* a failed stage of a pair, not a check */
		out_obj_begin(NULL);
		out_str(&jf[J_ID], m->ids[i].id);
		out_u64(&jf[J_FAIL_NODES], m->ids[i].fail_nodes);
		out_u64(&jf[J_WARN_NODES], m->ids[i].warn_nodes);
		out_obj_end();
	}
	out_list_end();
	out_list_begin("nodes");
	while (c < m->nchecks) {
		const struct rf_node *n = &m->nodes[m->checks[c].node];
		uint32_t node = m->checks[c].node;

		out_obj_begin(NULL);
		out_str(&jf[J_NODE], n->name);
		out_u64(&jf[J_FAIL], n->check_fail);
		out_u64(&jf[J_WARN], n->check_warn);
		out_list_begin("failing");
		for (; c < m->nchecks && m->checks[c].node == node; c++) {
			out_obj_begin(NULL);
			out_str(&jf[J_ID], m->ids[m->checks[c].id].id);
			out_token(&jf[J_VERDICT], verdict_token(m->checks[c].verdict));
			out_obj_end();
		}
		out_list_end();
		out_obj_end();
	}
	out_list_end();
	out_obj_end();
}

static void json_pair(const struct fleet_model *m, const struct rf_pair *p)
{
	out_obj_begin(NULL);
	out_str(&jf[J_FROM], m->nodes[p->from].name);
	out_str(&jf[J_TO], m->nodes[p->to].name);
	out_token(&jf[J_VERDICT], verdict_token(p->verdict));
	if (p->stage != RF_NONE)
		out_str(&jf[J_STAGE], m->ids[p->stage].id);
	out_double(&jf[J_P50], p->p50_us, 3);
	out_double(&jf[J_GBPS], p->gbps, 3);
	out_obj_end();
}

static void json_path(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;

	out_obj_begin("path");
	out_list_begin("nodes");
	for (size_t i = 0; i < m->nnodes; i++) {
		const struct rf_node *n = &m->nodes[mg->order[i]];

		if (!n->pairs)
			continue;
		out_obj_begin(NULL);
		out_str(&jf[J_NODE], n->name);
		out_u64(&jf[J_FAILED_PAIRS], n->fail_from + n->fail_to);
		out_u64(&jf[J_AS_TESTER], n->fail_from);
		out_u64(&jf[J_AS_PEER], n->fail_to);
		out_u64(&jf[J_WARN_PAIRS], n->warn_pairs);
		out_u64(&jf[J_PAIRS], n->pairs);
		out_bool(&jf[J_REPORT], n->has_report);
		out_obj_end();
	}
	out_list_end();
	out_list_begin("pairs");
	for (size_t i = 0; i < m->npairs; i++)
		json_pair(m, &m->pairs[i]);
	out_list_end();
	out_obj_end();
}

static void json_report(const struct merged *mg)
{
	json_files(mg);
	if (mg->m.check_reports)
		json_checks(mg);
	if (mg->m.npairs)
		json_path(mg);
	out_obj_begin("summary");
	out_u64(&jf[J_NODES], mg->m.nnodes);
	out_u64(&jf[J_PAIRS_FAILED], mg->pairs_fail);
	out_u64(&jf[J_NODES_FAILING], mg->nodes_check_fail);
	out_u64(&jf[J_SKIPPED], mg->m.nskipped);
	out_obj_end();
}

/* ------------------------------------------------------------------ text */

/* "2 nodes: nothing checked (every check skipped): node3 node9", the first
 * TEXT_TOP names. */
static void text_nothing_checked(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	unsigned shown = 0;

	if (!m->nodes_unchecked)
		return;
	out_text("%u node%s: nothing checked (every check skipped):", m->nodes_unchecked,
		 m->nodes_unchecked == 1 ? "" : "s");
	for (size_t i = 0; i < m->nnodes && shown < TEXT_TOP; i++)
		if (nothing_checked(&m->nodes[mg->order[i]])) {
			out_text(" %s", m->nodes[mg->order[i]].name);
			shown++;
		}
	out_text("%s\n", m->nodes_unchecked > shown ? " ..." : "");
}

static void text_checks(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	uint32_t *col = calloc(m->nids + 1, sizeof(*col));
	unsigned ncol = 0, passed = nodes_passed(mg);
	size_t c = 0;

	if (!col)
		return;
	out_text("check reports: %u, %u node%s with failing checks\n", m->check_reports, mg->nodes_check_fail,
		 mg->nodes_check_fail == 1 ? "" : "s");
	for (size_t i = 0; i < m->nids; i++)
		if (m->ids[i].fail_nodes || m->ids[i].warn_nodes) {
			col[i] = ++ncol;
			out_text("  [%u] %-28s fail on %u node%s, warn on %u\n", ncol, m->ids[i].id, m->ids[i].fail_nodes,
				 m->ids[i].fail_nodes == 1 ? "" : "s", m->ids[i].warn_nodes);
		}
	if (ncol) {
		out_text("%-28s %4s %4s ", "NODE", "FAIL", "WARN");
		for (unsigned k = 1; k <= ncol; k++)
			out_text(" %2u", k);
		out_text("\n");
	}
	while (c < m->nchecks) {
		uint32_t node = m->checks[c].node;
		char cells[3 * 256 + 1] = "";

		for (; c < m->nchecks && m->checks[c].node == node; c++) {
			unsigned k = col[m->checks[c].id];

			if (k <= 256)
				memcpy(cells + 3 * (k - 1), m->checks[c].verdict == V_FAIL ? "  F" : "  W", 3);
		}
		for (unsigned k = 0; k < ncol && k < 256; k++)
			if (!cells[3 * k])
				memcpy(cells + 3 * k, "  .", 3);
		cells[3 * (ncol < 256 ? ncol : 256)] = '\0';
		out_text("%-28s %4u %4u %s\n", m->nodes[node].name, m->nodes[node].check_fail,
			 m->nodes[node].check_warn, cells);
	}
	if (passed)	/* nodes, not reports: a node may have sent link check and system check */
		out_text("%u other node%s: every check passed\n", passed, passed == 1 ? "" : "s");
	text_nothing_checked(mg);
	out_text("\n");
	free(col);
}

static void text_path_nodes(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	unsigned shown = 0;

	out_text("nodes, most failures first:\n%-28s %12s %10s %8s %6s\n", "NODE", "FAILED PAIRS", "AS TESTER",
		 "AS PEER", "PAIRS");
	for (size_t i = 0; i < m->nnodes && shown < TEXT_TOP; i++) {
		const struct rf_node *n = &m->nodes[mg->order[i]];

		if (!n->pairs || (shown && !n->fail_from && !n->fail_to && !n->warn_pairs))
			continue;
		out_text("%-28s %12u %10u %8u %6u%s\n", n->name, n->fail_from + n->fail_to, n->fail_from, n->fail_to,
			 n->pairs, n->has_report ? "" : "  (no report from it)");
		shown++;
	}
}

static void text_worst_pairs(const struct fleet_model *m)
{
	out_text("worst pairs:\n%-24s %-24s %-7s %-16s %9s %9s\n", "FROM", "TO", "VERDICT", "FAILED STAGE", "P50 us",
		 "BW Gb/s");
	for (size_t i = 0; i < m->npairs && i < TEXT_TOP; i++) {
		const struct rf_pair *p = &m->pairs[i];
		const char *tok = verdict_token(p->verdict);
		char p50[24], bw[24];

		format_measure(p50, sizeof(p50), p->p50_us, 2);
		format_measure(bw, sizeof(bw), p->gbps, 3);
		out_text("%-24s %-24s %s%-7s%s %-16s %9s %9s\n", m->nodes[p->from].name, m->nodes[p->to].name,
			 out_color(tok), tok, out_color_reset(), p->stage != RF_NONE ? m->ids[p->stage].id : "-", p50, bw);
	}
}

/* Dense cell lookup for printing: pair index + 1 by (row, column) rank, 0 none. */
static uint32_t *cell_index(const struct merged *mg, size_t n)
{
	uint32_t *cells = calloc(n * n, sizeof(*cells));

	for (size_t i = 0; cells && i < mg->m.npairs; i++) {
		const struct rf_pair *p = &mg->m.pairs[i];

		if (mg->rank_of[p->from] < n && mg->rank_of[p->to] < n)
			cells[mg->rank_of[p->from] * n + mg->rank_of[p->to]] = (uint32_t)i + 1;
	}
	return cells;
}

static void wide_cell(const struct fleet_model *m, uint32_t ci, bool diag)
{
	const struct rf_pair *p = ci ? &m->pairs[ci - 1] : NULL;
	char buf[32];

	if (!p) {
		out_text(" %-16s", diag ? "\\" : "-");
		return;
	}
	if (p->verdict == V_FAIL && p->stage != RF_NONE)
		snprintf(buf, sizeof(buf), "FAIL %s", m->ids[p->stage].id + (strncmp(m->ids[p->stage].id, "path.", 5) ?
									     0 : 5));
	else if (!isnan(p->gbps))
		snprintf(buf, sizeof(buf), "%s %.2f", verdict_label(p->verdict), p->gbps);
	else
		snprintf(buf, sizeof(buf), "%s", verdict_label(p->verdict));
	out_text(" %s%-16.16s%s", out_color(verdict_token(p->verdict)), buf, out_color_reset());
}

static void text_matrix(const struct merged *mg, size_t n)
{
	const struct fleet_model *m = &mg->m;
	uint32_t *cells = cell_index(mg, n);
	bool wide = n <= WIDE_MATRIX_MAX;

	if (!cells)
		return;
	out_text("matrix (row: tester, column: peer; %s):\n", wide ? "verdict and bandwidth in Gb/s, or the failed stage" :
		 "'.' pass, W warn, F fail, - not tested; columns in row order");
	out_text("%-20s", "");
	for (size_t c = 0; c < n; c++)
		if (wide)
			out_text(" %-16.16s", m->nodes[mg->order[c]].name);
		else
			out_text("%c", (int)('0' + c % 10));
	out_text("\n");
	for (size_t r = 0; r < n; r++) {
		out_text("%4zu %-15.15s", r, m->nodes[mg->order[r]].name);
		for (size_t c = 0; c < n; c++) {
			uint32_t ci = cells[r * n + c];

			if (wide)
				wide_cell(m, ci, r == c);
			else
				out_text("%c", !ci ? (r == c ? '\\' : '-') : m->pairs[ci - 1].verdict == V_FAIL ? 'F' :
					 m->pairs[ci - 1].verdict == V_WARN ? 'W' : '.');
		}
		out_text("\n");
	}
	free(cells);
}

static void text_path(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;
	size_t n = 0;

	for (size_t i = 0; i < m->nnodes; i++)
		n += m->nodes[i].pairs > 0;
	out_text("path test reports: %u; %zu nodes, %zu pairs: %u fail, %u warn\n", m->path_reports, n, m->npairs,
		 mg->pairs_fail, mg->pairs_warn);
	text_path_nodes(mg);
	out_text("\n");
	text_worst_pairs(m);
	out_text("\n");
	if (m->nnodes <= CHAR_MATRIX_MAX)
		text_matrix(mg, m->nnodes);
	else
		out_text("matrix of %zu nodes left out of the text; rdmadiag -j report merge lists every pair\n",
			 m->nnodes);
}

static void text_report(const struct merged *mg)
{
	const struct fleet_model *m = &mg->m;

	out_text("merged %u report%s", m->files_read, m->files_read == 1 ? "" : "s");
	out_text(m->nskipped ? ", %zu file%s skipped:\n" : "\n", m->nskipped, m->nskipped == 1 ? "" : "s");
	for (size_t i = 0; i < m->nskipped; i++)
		out_text("  skipped %s: %s\n", m->skipped[i].file, m->skipped[i].why);
	if (m->nskipped)
		out_text("  (report merge reads the files nodes wrote with rdmadiag -j link check, counter check, "
			 "system check or path test)\n");
	out_text("\n");
	if (m->check_reports)
		text_checks(mg);
	if (m->npairs)
		text_path(mg);
}

/* ------------------------------------------------------------- command */

/* report merge's --format: the picture forms come in place of text, -j stays. */
enum merge_format { MF_TEXT, MF_JSON, MF_SVG, MF_HTML };
static const char *const merge_format_choices[] = { "text", "json", "svg", "html", NULL };

/* Like out_format_get() (prom.h), over report merge's own choices. */
static int merge_format_get(const struct cmd_ctx *ctx, enum merge_format *fmt)
{
	const struct opt_value *v = ctx_opt(ctx, O_FORMAT);

	*fmt = g_opts.json ? MF_JSON : MF_TEXT;
	if (!v || !v->set)
		return 0;
	for (int i = 0; merge_format_choices[i]; i++)
		if (!strcmp(v->str, merge_format_choices[i]))
			*fmt = (enum merge_format)i;
	if (g_opts.json && *fmt != MF_JSON) {
		usage_error("-j/--json and --format %s contradict each other; give one of them", v->str);
		return EXIT_USAGE;
	}
	if (*fmt == MF_JSON && !g_opts.json) {
		g_opts.json = true;	/* the dispatcher began a text document, which printed nothing */
		out_set_json();
		out_begin();
	}
	return 0;
}

static int print_merged(const struct merged *mg, enum merge_format fmt)
{
	if (fmt == MF_SVG)
		return svg_fleet(stdout, mg);
	if (fmt == MF_HTML)
		return html_fleet(stdout, mg);
	if (fmt == MF_JSON)
		json_report(mg);
	else
		text_report(mg);
	return 0;
}

static int report_merge(struct cmd_ctx *ctx)
{
	struct merged mg = { 0 };
	enum merge_format fmt;
	int rc = merge_format_get(ctx, &fmt);

	if (rc)
		return rc;
	if (ctx->argc < 1) {
		usage_error("report merge needs the report files, or a directory holding them");
		return EXIT_USAGE;
	}
	for (int i = 0; i < ctx->argc && rc == EXIT_OK; i++)
		if (fleet_add_path(&mg.m, ctx->argv[i]))
			rc = EXIT_RUNTIME;
	fleet_resolve(&mg.m);
	if (rc == EXIT_OK && (rank_nodes(&mg) || print_merged(&mg, fmt)))
		rc = EXIT_RUNTIME;
	if (rc == EXIT_RUNTIME)
		report_error("out of memory while merging the reports", NULL, "merge fewer reports at once");
	else if (mg.pairs_fail || mg.nodes_check_fail || mg.m.nskipped || mg.m.nodes_unchecked)
		rc = EXIT_PROBLEM;
	free(mg.order);
	free(mg.rank_of);
	fleet_free(&mg.m);
	return rc;
}

static const struct cmd_opt merge_opts[] = {
	{ .id = O_FORMAT, .kind = OPT_CHOICE, .metavar = "FMT",
	  .help = "output format; svg and html draw the fleet as a heatmap", .choices = merge_format_choices },
	{ 0 },
};

static const struct action report_actions[] = {
	{ .name = "merge", .synopsis = "FILE...|DIR",
	  .summary = "merge the -j reports of many nodes: failing checks by node, the N x N path matrix",
	  .run = report_merge, .opts = merge_opts, .positional = COMPLETE_FILE },
	{ 0 },
};

const struct object obj_report = { .name = "report",
	.summary = "merge reports of many nodes (fleet runs with srun, clush, pdsh)", .actions = report_actions };
