// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading per-node reports into the fleet model; see report_fleet.h. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_read.h"
#include "output.h"
#include "report_fleet.h"

#define NAME_MAX_LEN 63

/* ---- growable arrays ---- */

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 64;
	void *p = realloc(*arr, nc * elem);

	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

#define PUSH(arr, n, cap) (grow((void **)&(arr), &(cap), (n), sizeof(*(arr))) ? NULL : &(arr)[(n)++])

/* ---- string map ---- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int strmap_rehash(struct strmap *m)
{
	size_t nc = m->cap ? m->cap * 2 : 256;
	char **keys = calloc(nc, sizeof(*keys));
	uint32_t *vals = calloc(nc, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = hash_str(m->keys[i]) & (nc - 1);

		while (keys[j])
			j = (j + 1) & (nc - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = nc;
	return 0;
}

/* Slot of key; inserted with RF_NONE when absent and insert is set. NULL: absent or no memory. */
static uint32_t *strmap_slot(struct strmap *m, const char *key, bool insert, const char **stored)
{
	if (insert && (m->n + 1) * 2 > m->cap && strmap_rehash(m))
		return NULL;
	if (!m->cap)
		return NULL;
	size_t j = hash_str(key) & (m->cap - 1);

	while (m->keys[j] && strcmp(m->keys[j], key))
		j = (j + 1) & (m->cap - 1);
	if (!m->keys[j]) {
		if (!insert || !(m->keys[j] = strdup(key)))
			return NULL;
		m->vals[j] = RF_NONE;
		m->n++;
	}
	if (stored)
		*stored = m->keys[j];
	return &m->vals[j];
}

static void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- interned things ---- */

/* Names come from files: keep them short and printable for the terminal. */
static void clean_name(char *out, size_t len, const char *in)
{
	size_t i = 0;

	for (; in[i] && i + 1 < len && i < NAME_MAX_LEN; i++)
		out[i] = (unsigned char)in[i] > ' ' && (unsigned char)in[i] < 0x7f ? in[i] : '?';
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "?");
}

/* The map slot of raw's cleaned text, inserted if new; NULL without memory. */
static uint32_t *intern(struct strmap *map, const char *raw, const char **stored)
{
	char key[NAME_MAX_LEN + 1];

	clean_name(key, sizeof(key), raw);
	return strmap_slot(map, key, true, stored);
}

static uint32_t node_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	uint32_t *slot = intern(&m->node_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_node *n = PUSH(m->nodes, m->nnodes, m->cap_nodes);

		if (!n)
			return RF_NONE;
		memset(n, 0, sizeof(*n));
		n->name = stored;
		*slot = (uint32_t)(m->nnodes - 1);
	}
	return *slot;
}

static uint32_t id_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	uint32_t *slot = intern(&m->id_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_id *e = PUSH(m->ids, m->nids, m->cap_ids);

		if (!e)
			return RF_NONE;
		*e = (struct rf_id){ .id = stored };
		*slot = (uint32_t)(m->nids - 1);
	}
	return *slot;
}

/* Index of an address text; its owner is set by the report that lists it. */
static uint32_t addr_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	struct in6_addr a6;
	char canon[INET6_ADDRSTRLEN];
	uint32_t *slot;

	/* One IPv6 address has many spellings (fd00:0077::0002, FD00:77::2): a peer
	 * typed one way is the node whose addresses list it another way. */
	if (inet_pton(AF_INET6, raw, &a6) == 1 && inet_ntop(AF_INET6, &a6, canon, sizeof(canon)))
		raw = canon;
	slot = intern(&m->addr_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_addr *e = PUSH(m->addrs, m->naddrs, m->cap_addrs);

		if (!e)
			return RF_NONE;
		*e = (struct rf_addr){ stored, RF_NONE };
		*slot = (uint32_t)(m->naddrs - 1);
	}
	return *slot;
}

/* Names and reasons may quote bytes from the files: none reach the terminal raw. */
static void put_printable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, stderr);
}

/* Listed in the answer (text and -j), and said on stderr at once: with -j the
 * answer goes to a program, and the person running the merge should know. */
static struct rf_skip *skip_file(struct fleet_model *m, const char *file, const char *why)
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
	uint32_t idx = id_index(m, id);
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
	uint32_t i = addr && *addr ? addr_index(m, addr) : RF_NONE;

	if (i != RF_NONE)
		m->addrs[i].owner = node;
}

static uint64_t pair_key(uint32_t node, uint32_t addr)
{
	return (uint64_t)node << 32 | ((uint64_t)addr + 1);
}

static size_t pairmap_pos(const struct pairmap *pm, uint64_t key)
{
	size_t j = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (pm->cap - 1);

	while (pm->keys[j] && pm->keys[j] != key)
		j = (j + 1) & (pm->cap - 1);
	return j;
}

static int pairmap_grow(struct pairmap *pm)
{
	struct pairmap nm = { .cap = pm->cap ? pm->cap * 2 : 1024, .n = pm->n };

	nm.keys = calloc(nm.cap, sizeof(*nm.keys));
	nm.vals = malloc(nm.cap * sizeof(*nm.vals));
	if (!nm.keys || !nm.vals) {
		free(nm.keys);
		free(nm.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pm->cap; i++)
		if (pm->keys[i]) {
			size_t j = pairmap_pos(&nm, pm->keys[i]);

			nm.keys[j] = pm->keys[i];
			nm.vals[j] = pm->vals[i];
		}
	free(pm->keys);
	free(pm->vals);
	*pm = nm;
	return 0;
}

/* The value slot of key: RF_NONE when inserted now; NULL absent (insert
 * unset) or no memory. */
static uint32_t *pairmap_slot(struct pairmap *pm, uint64_t key, bool insert)
{
	size_t j;

	if (insert && (pm->n + 1) * 2 > pm->cap && pairmap_grow(pm))
		return NULL;
	if (!pm->cap)
		return NULL;
	j = pairmap_pos(pm, key);
	if (!pm->keys[j]) {
		if (!insert)
			return NULL;
		pm->keys[j] = key;
		pm->vals[j] = RF_NONE;
		pm->n++;
	}
	return &pm->vals[j];
}

/* The files index of the report that held the pair of node and peer, or RF_NONE. */
static uint32_t pair_read(struct fleet_model *m, uint32_t node, const char *peer)
{
	char key[NAME_MAX_LEN + 1];
	uint32_t *slot;

	clean_name(key, sizeof(key), peer);
	slot = strmap_slot(&m->addr_map, key, false, NULL);
	if (slot)
		slot = pairmap_slot(&m->pair_map, pair_key(node, *slot), false);
	return slot ? *slot : RF_NONE;
}

static void add_pair(struct fleet_model *m, uint32_t node, const struct json *run, const char *peer)
{
	struct rf_pair *p;
	const char *failed = NULL;
	uint32_t ai = addr_index(m, peer), *slot;

	if (ai == RF_NONE)
		return;
	slot = pairmap_slot(&m->pair_map, pair_key(node, ai), true);
	/* a peer listed twice in one report: its first run counts */
	if (!slot || *slot != RF_NONE || !(p = PUSH(m->pairs, m->npairs, m->cap_pairs)))
		return;
	*slot = (uint32_t)(m->nfiles - 1);
	*p = (struct rf_pair){ .from = node, .to_addr = ai, .to = RF_NONE, .stage = RF_NONE };
	read_run(run, p, &failed);
	if (failed)
		p->stage = id_index(m, failed);
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
		clean_name(text, sizeof(text), peer);
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
	s = skip_file(m, file, text ? text : why);
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
		clean_name(tok, sizeof(tok), id ? id : peer ? peer : "");
		snprintf(what, sizeof(what), id ? "check \"%s\"" : peer ? "the run to %s" : "a result", tok);
		if (vd->type != JSON_STRING) {
			snprintf(why, len, "malformed report: %s has a verdict that is not a string", what);
		} else {
			clean_name(tok, sizeof(tok), vd->str);
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

static void read_report(struct fleet_model *m, const char *file, const struct json *root)
{
	double schema;
	const char *host = json_get_str(root, "host"), *base = strrchr(file, '/');
	char name[NAME_MAX_LEN + 1], why[320], **slot;
	const char *first;
	enum rf_kind kind;
	unsigned nchecks = 0;
	uint32_t node;

	if (!root || root->type != JSON_OBJECT || !json_get_num(root, "schema", &schema)) {
		skip_file(m, file, "not an rdmadiag -j report (no \"schema\" member)");
		return;
	}
	if (schema != OUTPUT_SCHEMA) {
		snprintf(why, sizeof(why), "report schema %g; this rdmadiag reads schema %d", schema, OUTPUT_SCHEMA);
		skip_file(m, file, why);
		return;
	}
	kind = report_kind(root);
	if (kind == RK_NONE) {
		skip_file(m, file, "not a report of link check, counter check, system check or path test "
			  "(none of \"checks\", \"layers\", \"peers\" or \"stages\")");
		return;
	}
	if (malformed(root, false, &nchecks, why, sizeof(why)) || !holds_results(root, kind, nchecks, why,
										   sizeof(why))) {
		skip_file(m, file, why);
		return;
	}
	if (!host) {	/* older reports: the file name (node17.json) names the node */
		snprintf(name, sizeof(name), "%s", base ? base + 1 : file);
		if (strrchr(name, '.') && strrchr(name, '.') != name)
			*strrchr(name, '.') = '\0';
		host = name;
	}
	node = node_index(m, host);
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

/* ---- files ---- */

/* The read buffer of the model, grown to size bytes; it serves every file, so
 * memory follows the largest report, not the sum of them. NULL: no memory. */
static char *read_buffer(struct fleet_model *m, size_t size)
{
	if (size > m->read_cap) {
		char *p = realloc(m->read_buf, size);

		if (!p)
			return NULL;
		m->read_buf = p;
		m->read_cap = size;
	}
	return m->read_buf;
}

/* Reads a regular file of at most RF_MAX_FILE bytes into the model's read
 * buffer. NULL with why set. */
static char *slurp(struct fleet_model *m, const char *file, size_t *len, char *why, size_t wlen)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, wlen, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, wlen, "not a regular file");
		goto out;
	}
	if ((uintmax_t)st.st_size > RF_MAX_FILE) {
		snprintf(why, wlen, "%jd bytes: larger than the %u MiB a report may have", (intmax_t)st.st_size,
			 RF_MAX_FILE >> 20);
		goto out;
	}
	buf = read_buffer(m, (size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (!buf || got != (size_t)st.st_size) {
		snprintf(why, wlen, buf ? "short read" : "out of memory");
		buf = NULL;
	}
	*len = got;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

static void add_file(struct fleet_model *m, const char *file)
{
	char why[200];
	size_t len = 0;
	char *text = slurp(m, file, &len, why, sizeof(why));
	struct json_doc *doc = &m->read_doc;
	int rc;

	if (!text) {
		skip_file(m, file, why);
		return;
	}
	/* One arena for every document: the tree of the last file is dropped. */
	rc = m->read_docs++ ? json_parse_again(text, len, NULL, doc) : json_parse(text, len, NULL, doc);
	if (rc) {
		snprintf(why, sizeof(why), "not JSON at byte %zu: %s", doc->error_offset, doc->error);
		skip_file(m, file, why);
	} else {
		read_report(m, file, doc->root);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(struct fleet_model *m, const char *dir, DIR *d)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int rc = 0;

	while ((e = readdir(d))) {
		char **slot;

		if (e->d_name[0] == '.')
			continue;
		slot = PUSH(names, n, cap);
		if (!slot || !(*slot = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
			if (slot)
				n--;
			rc = -ENOMEM;
			break;
		}
		sprintf(*slot, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			add_file(m, names[i]);
		free(names[i]);
	}
	free(names);
	if (!rc && n == 0)
		skip_file(m, dir, "empty directory: no report in it");
	return rc;
}

int fleet_add_path(struct fleet_model *m, const char *path)
{
	struct stat st;
	DIR *d;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		d = opendir(path);
		if (!d) {
			char why[160];

			snprintf(why, sizeof(why), "cannot list the directory: %s", strerror(errno));
			skip_file(m, path, why);
			return 0;
		}
		return add_dir(m, path, d);
	}
	add_file(m, path);
	return 0;
}

/* ---- after reading ---- */

static void count_pair(struct fleet_model *m, const struct rf_pair *p)
{
	struct rf_node *from = &m->nodes[p->from], *to = &m->nodes[p->to];

	from->pairs++;
	if (p->to != p->from)
		to->pairs++;
	if (p->verdict == V_FAIL) {
		from->fail_from++;
		to->fail_to++;
	} else if (p->verdict == V_WARN) {
		from->warn_pairs++;
		to->warn_pairs++;
	}
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rf_check *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* One cell per node and check id, the worst verdict of all its reports: link
 * check and system check (which holds a link check) of one node name the same
 * failing port.state, and it is one failure of one node. */
static void merge_cells(struct fleet_model *m)
{
	size_t out = 0;

	if (!m->nchecks)
		return;
	qsort(m->checks, m->nchecks, sizeof(*m->checks), cmp_cell);
	for (size_t i = 0; i < m->nchecks; i++) {
		struct rf_check *last = out ? &m->checks[out - 1] : NULL;

		if (last && last->node == m->checks[i].node && last->id == m->checks[i].id) {
			if (m->checks[i].verdict == V_FAIL)
				last->verdict = V_FAIL;
			continue;
		}
		m->checks[out++] = m->checks[i];
	}
	m->nchecks = out;
}

void fleet_resolve(struct fleet_model *m)
{
	for (size_t i = 0; i < m->npairs; i++) {
		struct rf_pair *p = &m->pairs[i];
		struct rf_addr *a = &m->addrs[p->to_addr];

		/* A peer no report claims (its node wrote none) is named by its address. */
		if (a->owner == RF_NONE)
			a->owner = node_index(m, a->text);
		p->to = a->owner;
		if (p->to == RF_NONE) {
			p->to = p->from;	/* out of memory: keep the cell, count it once */
			continue;
		}
		count_pair(m, p);
	}
	merge_cells(m);
	for (size_t i = 0; i < m->nnodes; i++)	/* as empty as a report without checks (holds_results) */
		m->nodes_unchecked += m->nodes[i].checked && !m->nodes[i].judged;
	for (size_t i = 0; i < m->nchecks; i++) {
		struct rf_id *id = &m->ids[m->checks[i].id];
		struct rf_node *n = &m->nodes[m->checks[i].node];

		if (m->checks[i].verdict == V_FAIL) {
			id->fail_nodes++;
			n->check_fail++;
		} else {
			id->warn_nodes++;
			n->check_warn++;
		}
	}
}

void fleet_free(struct fleet_model *m)
{
	for (size_t i = 0; i < m->nskipped; i++) {
		free(m->skipped[i].file);
		free(m->skipped[i].why);
		free(m->skipped[i].dup_of);
	}
	free(m->skipped);
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	free(m->pair_map.keys);
	free(m->pair_map.vals);
	free(m->nodes);
	free(m->ids);
	free(m->checks);
	free(m->pairs);
	free(m->addrs);
	free(m->read_buf);
	if (m->read_docs)
		json_free(&m->read_doc);
	strmap_free(&m->node_map);
	strmap_free(&m->addr_map);
	strmap_free(&m->id_map);
	memset(m, 0, sizeof(*m));
}
