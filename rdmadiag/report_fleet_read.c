// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading one per-node report into the fleet model (report_fleet.h): what
 * kind it is, whether it is whole, whether it repeats one read before, and
 * its failing checks or its pairs. See report_fleet_int.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "report_fleet_int.h"

/* ---- skipped files, verdicts ---- */

/* Names and reasons may quote bytes from the files: none reach the terminal raw. */
static void put_printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stderr);
}

/* Listed in the answer (text and -j), and said on stderr at once: with -j the
 * answer goes to a program, and the person running the merge should know. */
struct rf_skip *rf_skip_file(struct fleet_model *m, const char *file, const char *why)
{
	struct rf_skip *s = PUSH(m->skipped, m->nskipped, m->cap_skipped);

	if (s)
		s->dup_of = NULL;

	fputs("rdmadiag: report merge: skipped ", stderr);
	put_printable(file);
	fputs(": ", stderr);
	put_printable(why);
	fputc('\n', stderr);
	if (!s)
		return NULL;
	s->file = strdup(file);
	s->why = strdup(why);
	for (char *p = s->why; p && *p; p++)	/* it may quote a report's error text */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

/* pass, warn, fail or skip (what verdict_token() writes); -1 anything else. */
static int verdict_of(const char *tok)
{
	static const enum verdict all[] = { V_PASS, V_WARN, V_FAIL, V_SKIP };

	for (size_t i = 0; tok && i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(tok, verdict_token(all[i])))
			return (int)all[i];
	return -1;
}

/* Reports are checked by malformed() first: a verdict here is one of the four. */
static enum verdict parse_verdict(const char *tok)
{
	int v = verdict_of(tok);

	return v < 0 ? V_SKIP : (enum verdict)v;
}

/* ---- check reports (link check, system check) ---- */

static void add_check(struct fleet_model *m, uint32_t node, const char *id, enum verdict v)
{
	uint32_t idx = rf_id_index(m, id);
	struct rf_check *c;

	if (idx == RF_NONE)
		return;
	/* The same id on several ports of one node is one cell: keep the worst.
	 * (Cells of its other reports, read earlier, merge in fleet_resolve.) */
	for (size_t i = m->nchecks; i-- > 0 && m->checks[i].node == node;)
		if (m->checks[i].id == idx) {
			if (v == V_FAIL)
				m->checks[i].verdict = V_FAIL;
			return;
		}
	c = PUSH(m->checks, m->nchecks, m->cap_checks);
	if (c)
		*c = (struct rf_check){ node, idx, v };
}

/* Every object with "id" and "verdict" anywhere in the report is a finding:
 * link check's "checks", and the sub-reports of system check alike. */
static void walk_checks(struct fleet_model *m, uint32_t node, const struct json *v)
{
	if (v->type == JSON_OBJECT) {
		const char *id = json_get_str(v, "id");
		enum verdict vd = parse_verdict(json_get_str(v, "verdict"));

		if (id && (vd == V_FAIL || vd == V_WARN))
			add_check(m, node, id, vd);
		m->nodes[node].judged += id && json_get_str(v, "verdict") && vd != V_SKIP;
	}
	for (const struct json *c = json_first(v); c; c = c->next)
		if (c->type == JSON_OBJECT || c->type == JSON_ARRAY)
			walk_checks(m, node, c);
}

/* ---- path test reports ---- */

static double stage_num(const struct json *stages, const char *id, const char *key)
{
	double v = NAN;

	for (const struct json *s = json_first(stages); s; s = s->next)
		if (json_get_str(s, "id") && !strcmp(json_get_str(s, "id"), id) &&
		    parse_verdict(json_get_str(s, "verdict")) != V_SKIP && json_get_num(s, key, &v))
			return v;
	return NAN;
}

/* One peer's run: the many-peer row fields, or worked out from its stages. */
static void read_run(const struct json *run, struct rf_pair *p, const char **failed)
{
	const struct json *stages = json_get(run, "stages");
	double d;

	*failed = json_get_str(run, "failed_stage");
	p->verdict = parse_verdict(json_get_str(run, "verdict"));
	p->p50_us = json_get_num(run, "latency_p50_us", &d) ? (float)d
							     : (float)stage_num(stages, "path.rc_latency", "latency_p50_us");
	p->gbps = json_get_num(run, "bandwidth_gbps", &d) ? (float)d : NAN;
	for (const char *const *id = (const char *const[]){ "path.write_bw", "path.read_bw", "path.send_bw", NULL };
	     isnan(p->gbps) && *id; id++)
		p->gbps = (float)stage_num(stages, *id, "bandwidth_gbps");
	if (json_get_str(run, "verdict"))
		return;
	p->verdict = V_PASS;
	for (const struct json *s = json_first(stages); s; s = s->next) {
		enum verdict v = parse_verdict(json_get_str(s, "verdict"));

		if (v == V_FAIL && p->verdict != V_FAIL) {
			p->verdict = V_FAIL;
			*failed = json_get_str(s, "id");
		} else if (v == V_WARN && p->verdict == V_PASS) {
			p->verdict = V_WARN;
		}
	}
}

static void own_address(struct fleet_model *m, uint32_t node, const char *addr)
{
	uint32_t i = addr && *addr ? rf_addr_index(m, addr) : RF_NONE;

	if (i != RF_NONE)
		m->addrs[i].owner = node;
}

/* The files index of the report that held the pair of node and peer, or RF_NONE. */
static uint32_t pair_read(struct fleet_model *m, uint32_t node, const char *peer)
{
	char key[NAME_MAX_LEN + 1];
	uint32_t *slot;

	rf_clean_name(key, sizeof(key), peer);
	slot = strmap_slot(&m->addr_map, key, false, NULL);
	if (slot)
		slot = pairmap_slot(&m->pair_map, rf_pair_key(node, *slot), false);
	return slot ? *slot : RF_NONE;
}

static void add_pair(struct fleet_model *m, uint32_t node, const struct json *run, const char *peer)
{
	struct rf_pair *p;
	const char *failed = NULL;
	uint32_t ai = rf_addr_index(m, peer), *slot;

	if (ai == RF_NONE)
		return;
	slot = pairmap_slot(&m->pair_map, rf_pair_key(node, ai), true);
	/* a peer listed twice in one report: its first run counts */
	if (!slot || *slot != RF_NONE || !(p = PUSH(m->pairs, m->npairs, m->cap_pairs)))
		return;
	*slot = (uint32_t)(m->nfiles - 1);
	*p = (struct rf_pair){ .from = node, .to_addr = ai, .to = RF_NONE, .stage = RF_NONE };
	read_run(run, p, &failed);
	if (failed)
		p->stage = rf_id_index(m, failed);
}

/* ---- one document ---- */

static const char *const kind_name[] = {
	[RK_LINK] = "link check", [RK_COUNTER] = "counter check", [RK_SYSTEM] = "system check",
	[RK_LOOPBACK] = "path test (loopback)", [RK_PATH] = "path test",
};

static void read_path_report(struct fleet_model *m, uint32_t node, const struct json *root);

/* The file of a report merged before that root repeats: the same node's
 * report of the same kind, or for path test a pair (node, peer) that a report
 * held. why says what repeats. NULL: nothing repeats. */
static const char *read_before(struct fleet_model *m, const char *file, uint32_t node, enum rf_kind kind,
			       const struct json *root, char *why, size_t len)
{
	const struct rf_node *n = &m->nodes[node];
	const struct json *peers = json_get(root, "peers"), *r = json_first(peers);
	const char *first, *peer = NULL;
	uint32_t f = RF_NONE;
	char text[NAME_MAX_LEN + 1];

	if (kind != RK_PATH) {
		if (!n->read_from[kind])
			return NULL;
		first = m->files[n->read_from[kind] - 1];
		snprintf(why, len, "a second %s report of %s", kind_name[kind], n->name);
	} else {
		if (!peers && (peer = json_get_str(root, "peer")))	/* path test PEER */
			f = pair_read(m, node, peer);
		for (; r && f == RF_NONE; r = r->next)
			if ((peer = json_get_str(r, "peer")))
				f = pair_read(m, node, peer);
		if (f == RF_NONE)
			return NULL;
		first = m->files[f];
		rf_clean_name(text, sizeof(text), peer);
		snprintf(why, len, "a second path test report of the pair %s -> %s", n->name, text);
	}
	if (!strcmp(first, file))
		snprintf(why, len, "the same file again");
	return first;
}

/* Skipped, naming the file merged instead: a second copy, a stale report
 * beside the new one, or two hosts with one name; which it is, only the
 * operator can tell. */
static void skip_duplicate(struct fleet_model *m, const char *file, const char *why, const char *first)
{
	size_t len = strlen(why) + strlen(first) + 64;
	char *text = malloc(len);
	struct rf_skip *s;

	if (text)
		snprintf(text, len, "duplicate of %s: %s; only the first is merged", first, why);
	s = rf_skip_file(m, file, text ? text : why);
	free(text);
	if (s)
		s->dup_of = strdup(first);
}

static bool is_list(const struct json *v)
{
	return v && v->type == JSON_ARRAY;
}

/* What the document's top level says it is. Other -j documents (dev show,
 * counter show, ...) have schema too, and none of these lists. */
static enum rf_kind report_kind(const struct json *root)
{
	const char *first;

	if (is_list(json_get(root, "layers")))
		return RK_SYSTEM;
	if (is_list(json_get(root, "peers")))
		return RK_PATH;
	if (is_list(json_get(root, "stages")))
		return json_get_str(root, "peer") ? RK_PATH : RK_LOOPBACK;
	if (!is_list(json_get(root, "checks")))
		return RK_NONE;
	/* link check and counter check write the same form; counter check's ids are counter.* */
	first = json_get_str(json_first(json_get(root, "checks")), "id");
	return first && !strncmp(first, "counter.", 8) ? RK_COUNTER : RK_LINK;
}

/* Whether v holds what no rdmadiag report does: a verdict other than pass,
 * warn, fail and skip (a guess would make it a pass, or a failure nobody
 * had), or an element of a "checks" list without id and verdict. why says
 * which. Counts the checks met (objects with id and verdict). */
static bool malformed(const struct json *v, bool a_check, unsigned *nchecks, char *why, size_t len)
{
	const struct json *vd = json_get(v, "verdict");
	const char *id = json_get_str(v, "id"), *peer = json_get_str(v, "peer");
	char what[NAME_MAX_LEN + 32], tok[NAME_MAX_LEN + 1];

	if (a_check && (!id || !vd)) {
		snprintf(why, len, "malformed report: an element of \"checks\" %s", v->type != JSON_OBJECT ?
			 "is not an object" : !id ? "has no \"id\"" : "has no \"verdict\"");
		return true;
	}
	if (vd && (vd->type != JSON_STRING || verdict_of(vd->str) < 0)) {
		/* a check or stage has an id; a row of path test's peers its peer */
		rf_clean_name(tok, sizeof(tok), id ? id : peer ? peer : "");
		snprintf(what, sizeof(what), id ? "check \"%s\"" : peer ? "the run to %s" : "a result", tok);
		if (vd->type != JSON_STRING) {
			snprintf(why, len, "malformed report: %s has a verdict that is not a string", what);
		} else {
			rf_clean_name(tok, sizeof(tok), vd->str);
			snprintf(why, len, "malformed report: %s has verdict \"%s\" (pass, warn, fail or skip expected)",
				 what, tok);
		}
		return true;
	}
	*nchecks += vd && id;
	for (const struct json *c = json_first(v); c; c = c->next) {
		bool checks = c->type == JSON_ARRAY && c->key && !strcmp(c->key, "checks");

		if (checks) {
			for (const struct json *e = json_first(c); e; e = e->next)
				if (malformed(e, true, nchecks, why, len))
					return true;
		} else if ((c->type == JSON_OBJECT || c->type == JSON_ARRAY) && malformed(c, false, nchecks, why, len)) {
			return true;
		}
	}
	return false;
}

/* Whether root holds something to merge; why says what is missing. A check
 * report without checks (counter check where the driver has no counters)
 * tells nothing of the node: it is no pass. */
static bool holds_results(const struct json *root, enum rf_kind kind, unsigned nchecks, char *why, size_t len)
{
	const struct json *e = json_first(json_get(root, "errors"));
	const char *err = e && e->type == JSON_STRING ? e->str : NULL;
	size_t peers = 0;

	if (kind == RK_PATH && json_get(root, "peers")) {
		for (const struct json *r = json_first(json_get(root, "peers")); r; r = r->next)
			peers += json_get_str(r, "peer") != NULL;
		if (!peers)
			snprintf(why, len, "a path test report without peers: no pair was tested");
		return peers;
	}
	if (kind == RK_PATH || kind == RK_LOOPBACK || nchecks)
		return true;
	/* an empty list does not tell link check from counter check */
	snprintf(why, len, "%s without checks: nothing was checked there%s%.*s%s",
		 kind == RK_SYSTEM ? "a system check report" : "a check report", err ? " (its first error: " : "",
		 err ? (int)(strcspn(err, ";") < 160 ? strcspn(err, ";") : 160) : 0, err ? err : "", err ? ")" : "");
	return false;
}

void rf_read_report(struct fleet_model *m, const char *file, const struct json *root)
{
	double schema;
	const char *host = json_get_str(root, "host"), *base = strrchr(file, '/');
	char name[NAME_MAX_LEN + 1], why[320], **slot;
	const char *first;
	enum rf_kind kind;
	unsigned nchecks = 0;
	uint32_t node;

	if (!root || root->type != JSON_OBJECT || !json_get_num(root, "schema", &schema)) {
		rf_skip_file(m, file, "not an rdmadiag -j report (no \"schema\" member)");
		return;
	}
	if (schema != OUTPUT_SCHEMA) {
		snprintf(why, sizeof(why), "report schema %g; this rdmadiag reads schema %d", schema, OUTPUT_SCHEMA);
		rf_skip_file(m, file, why);
		return;
	}
	kind = report_kind(root);
	if (kind == RK_NONE) {
		rf_skip_file(m, file, "not a report of link check, counter check, system check or path test "
			  "(none of \"checks\", \"layers\", \"peers\" or \"stages\")");
		return;
	}
	if (malformed(root, false, &nchecks, why, sizeof(why)) || !holds_results(root, kind, nchecks, why,
										   sizeof(why))) {
		rf_skip_file(m, file, why);
		return;
	}
	if (!host) {	/* older reports: the file name (node17.json) names the node */
		snprintf(name, sizeof(name), "%s", base ? base + 1 : file);
		if (strrchr(name, '.') && strrchr(name, '.') != name)
			*strrchr(name, '.') = '\0';
		host = name;
	}
	node = rf_node_index(m, host);
	if (node == RF_NONE)
		return;
	if ((first = read_before(m, file, node, kind, root, why, sizeof(why)))) {
		skip_duplicate(m, file, why, first);
		return;
	}
	slot = PUSH(m->files, m->nfiles, m->cap_files);
	if (!slot || !(*slot = strdup(file))) {
		m->nfiles -= slot != NULL;
		return;
	}
	if (kind < RK_PATH)
		m->nodes[node].read_from[kind] = (uint32_t)m->nfiles;
	m->nodes[node].has_report = true;
	m->files_read++;
	if (kind == RK_PATH) {
		read_path_report(m, node, root);
	} else if (kind == RK_LOOPBACK) {
		m->loopback_reports++;	/* path test loopback: no pair to place */
	} else {
		m->check_reports++;
		m->nodes_checked += !m->nodes[node].checked;
		m->nodes[node].checked = true;
		walk_checks(m, node, root);
	}
}

static void read_path_report(struct fleet_model *m, uint32_t node, const struct json *root)
{
	const struct json *peers = json_get(root, "peers");

	m->path_reports++;
	for (const struct json *a = json_first(json_get(root, "addresses")); a; a = a->next)
		if (a->type == JSON_STRING)
			own_address(m, node, a->str);
	if (!peers) {
		own_address(m, node, json_get_str(root, "source"));
		add_pair(m, node, root, json_get_str(root, "peer"));
		return;
	}
	for (const struct json *r = json_first(peers); r; r = r->next) {
		own_address(m, node, json_get_str(r, "source"));
		if (json_get_str(r, "peer"))
			add_pair(m, node, r, json_get_str(r, "peer"));
	}
}
