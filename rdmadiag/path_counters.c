// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Transport counters in `path test`: those that moved during a measuring
 * stage, on this host and the peer, with what they say about it; and the
 * path.counters stage over the whole test.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "counter_map.h"
#include "path_int.h"

/* --- transport counters around one measuring stage --- */

static int peer_counters(struct tester *t, struct pp_counters *out)
{
	struct pp_msg m = { .type = PP_COUNTERS_REQ };
	char why[256];
	int rc;

	if (!t->peer || t->fd < 0 || t->in_phase)
		return -ENOENT;	/* loopback: the peer's port is ours */
	rc = ctl_ask(t, &m, PP_COUNTERS, pp_now_ms() + 2000, why, sizeof(why));
	if (!rc)
		*out = m.u.counters;
	return rc;
}

void ctrs_begin(struct tester *t, struct stage_ctrs *c)
{
	c->have_here = t->q_open && !pq_counters_read(t->q.local.dev, t->q.local.port, &c->here) && c->here.n;
	c->have_peer = !peer_counters(t, &c->peer);
}

static void add_moved_ctr(struct stage *s, const char *host, const char *name, uint64_t delta)
{
	const struct ctr_map_entry *e = ctr_lookup(name, STAT_SRC_HW_SYSFS);
	struct moved_ctr *m;

	if (s->nmoved >= MAX_MOVED || !delta)
		return;
	m = &s->moved[s->nmoved++];
	m->host = host;
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = e ? e->kind : K_NONE;
	m->delta = delta * (e && e->scale ? e->scale : 1);
}

/* Each counter of a list of deltas, as one host's moves. */
static void add_moved_ctrs(struct stage *s, const char *host, const struct pp_counter *c, unsigned n)
{
	for (unsigned i = 0; i < n && i < PP_MAX_COUNTERS; i++)
		add_moved_ctr(s, host, c[i].name, c[i].delta);
}

/* The peer's counters now minus at the start of the stage (both are deltas since CONFIG). */
static void add_peer_moved(struct stage *s, const struct pp_counters *a, const struct pp_counters *b)
{
	for (unsigned i = 0; i < b->n && i < PP_MAX_COUNTERS; i++) {
		uint64_t before = 0;

		for (unsigned j = 0; j < a->n && j < PP_MAX_COUNTERS; j++)
			if (!strcmp(a->c[j].name, b->c[i].name))
				before = a->c[j].delta;
		if (b->c[i].delta > before)
			add_moved_ctr(s, "peer", b->c[i].name, b->c[i].delta - before);
	}
}

static const char *moved_label(const struct moved_ctr *m)
{
	return m->kind != K_NONE ? ctr_kinds[m->kind].key : m->name;
}

/* "here retransmissions +7, sequence_errors +2; peer duplicate_requests +3" */
static void moved_text(const struct stage *s, char *buf, size_t len)
{
	const char *host = NULL;

	buf[0] = '\0';
	for (unsigned i = 0; i < s->nmoved; i++) {
		const struct moved_ctr *m = &s->moved[i];
		size_t used = strlen(buf);

		if (!host || strcmp(host, m->host))
			snprintf(buf + used, len - used, "%s%s ", host ? "; " : "", m->host);
		else
			snprintf(buf + used, len - used, ", ");
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s +%" PRIu64, moved_label(m), m->delta);
		host = m->host;
	}
}

static bool moved_group(const struct stage *s, enum ctr_group g)
{
	for (unsigned i = 0; i < s->nmoved; i++)
		if (s->moved[i].kind != K_NONE && ctr_kinds[s->moved[i].kind].group == g)
			return true;
	return false;
}

/* What the counters that moved say about a stage that otherwise passed, and
 * what to do; `when` is "during this stage" or, for path.counters, "during
 * the test". The worst group decides, in this order: loss, the link,
 * congestion, RNR. */
static void moved_verdict(const struct tester *t, struct stage *s, const char *when)
{
	char hint[512];

	if (moved_group(s, G_RETRANS) || moved_group(s, G_TIMEOUT))
		check_verdict(&s->r, V_WARN, "%s", hint_loss(&t->prov, when, hint, sizeof(hint)));
	else if (moved_group(s, G_LINK))
		check_verdict(&s->r, V_WARN, "the link went down or saw errors %s: check the cable, transceiver "
			      "and switch port, and rdmadiag counter show on both hosts", when);
	else if (moved_group(s, G_CONGESTION) || moved_group(s, G_PAUSE))
		check_verdict(&s->r, V_WARN, "the path was congested %s (ECN marks, congestion notifications or "
			      "pause frames): flow control is working, but if bandwidth is short check the DCQCN "
			      "and PFC settings and what else the path carries", when);
	else if (moved_group(s, G_RNR))
		check_verdict(&s->r, V_WARN, "receiver-not-ready NAKs %s: a receiver had no buffer posted in time; "
			      "the application's receive queue runs dry", when);
	else
		check_verdict(&s->r, V_WARN, "error counters moved %s: see rdmadiag counter show on both hosts",
			      when);
}

void ctrs_end(struct tester *t, struct stage *s, const struct stage_ctrs *c)
{
	struct pq_counters now;
	struct pp_counter here[PP_MAX_COUNTERS];
	struct pp_counters peer;
	char text[160];
	unsigned n;

	if (c->have_here && !pq_counters_read(t->q.local.dev, t->q.local.port, &now)) {
		n = pq_counters_delta(&c->here, &now, here, PP_MAX_COUNTERS);
		add_moved_ctrs(s, "here", here, n);
	}
	/* After a failure the peer may be unreachable or mid-phase: only our side then. */
	if (c->have_peer && s->r.verdict != V_FAIL && !peer_counters(t, &peer))
		add_peer_moved(s, &c->peer, &peer);
	if (!s->nmoved)
		return;
	moved_text(s, text, sizeof(text));
	check_measured_add(&s->r, "; counters: %s", text);
	if (s->r.verdict == V_PASS)
		moved_verdict(t, s, "during this stage");
}

/* --- counters --- */

static void add_moved(char *buf, size_t len, const char *who, const struct pp_counter *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %s +%" PRIu64, buf[0] ? ", " : "", who,
			 c[i].name, c[i].delta);
}

void stage_counters(struct tester *t, struct stage *s)
{
	struct pq_counters now;
	struct pp_counter here[PP_MAX_COUNTERS];
	struct pp_msg m = { .type = PP_COUNTERS_REQ };
	int64_t deadline = stage_deadline(t, 3000);
	unsigned nh = 0;
	char why[256], moved[256] = "";

	check_expected(&s->r, "no error, retry or sequence counter moves during the test");
	if (!t->before.n || pq_counters_read(t->q.local.dev, t->q.local.port, &now)) {
		check_measured(&s->r, "%s/%u has no hw_counters in sysfs", t->q.local.dev, t->q.local.port);
		check_verdict(&s->r, V_SKIP, NULL);
		return;
	}
	nh = pq_counters_delta(&t->before, &now, here, PP_MAX_COUNTERS);
	if (ctl_ask(t, &m, PP_COUNTERS, deadline, why, sizeof(why)))
		m.u.counters.n = 0;
	add_moved(moved, sizeof(moved), "here", here, nh);
	if (t->peer)
		add_moved(moved, sizeof(moved), "peer", m.u.counters.c, m.u.counters.n);
	stage_num(s, "moved", nh + (t->peer ? m.u.counters.n : 0));
	if (!moved[0]) {
		check_measured(&s->r, "no error, retry or sequence counter moved on %s", t->peer ? "either host" :
			       "this host");
		check_verdict(&s->r, V_PASS, NULL);
		return;
	}
	check_measured(&s->r, "%s", moved);
	/* the same list and hint as a stage's counters (JSON counters_moved) */
	add_moved_ctrs(s, "here", here, nh);
	if (t->peer)
		add_moved_ctrs(s, "peer", m.u.counters.c, m.u.counters.n);
	moved_verdict(t, s, "during the test");
}
