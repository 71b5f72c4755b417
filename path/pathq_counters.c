// SPDX-License-Identifier: GPL-2.0-or-later
/* Port counters (hw_counters) before and after a `rdmadiag path` test; see pathq.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../host/sysfs.h"
#include "pathq.h"

/* ---- counters ---- */

struct counters_walk {
	const char *dir;
	struct pq_counters *c;
};

static int read_counter(const char *name, void *data)
{
	struct counters_walk *w = data;
	char path[512];
	uint64_t v;

	if (w->c->n >= PQ_MAX_COUNTERS)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	if (fs_read_u64(path, &v))
		return 0;
	snprintf(w->c->name[w->c->n], sizeof(w->c->name[0]), "%s", name);
	w->c->val[w->c->n++] = v;
	return 0;
}

int pq_counters_read(const char *dev, unsigned port, struct pq_counters *out)
{
	char dir[256];
	struct counters_walk w = { dir, out };
	int n;

	out->n = 0;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/hw_counters", dev, port);
	n = fs_list(dir, read_counter, &w);
	if (n < 0)
		return n;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/counters", dev, port);
	fs_list(dir, read_counter, &w);	/* IB standard counters, when the driver has them */
	return 0;
}

int pq_rx_packets(const char *dev, unsigned port, uint64_t *out)
{
	static const char *const where[] = { "hw_counters/rcvd_pkts", "counters/port_rcv_packets" };
	char path[256];

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s", dev, port, where[i]);
		if (!fs_read_u64(path, out))
			return 0;
	}
	return -ENOENT;
}

unsigned pq_counters_delta(const struct pq_counters *a, const struct pq_counters *b, struct pp_counter *out,
			   unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < b->n && n < max; i++)
		for (unsigned j = 0; j < a->n; j++)
			if (!strcmp(a->name[j], b->name[i]) && b->val[i] > a->val[j] && pq_counter_meaning(b->name[i])) {
				snprintf(out[n].name, sizeof(out[n].name), "%s", b->name[i]);
				out[n++].delta = b->val[i] - a->val[j];
				break;
			}
	return n;
}

const char *pq_counter_meaning(const char *name)
{
	static const struct { const char *pat, *meaning; } m[] = {
		{ "rnr", "receiver not ready: a receiver had no buffer posted" },
		{ "retry", "retransmissions: packets or acknowledgements were lost" },
		{ "seq", "out-of-sequence packets: loss or reordering on the path" },
		{ "duplicate", "duplicate requests: the sender retransmitted, acks were lost or late" },
		{ "timeout", "transport timeouts: packets lost" },
		{ "implied_nak", "implied NAKs: lost packets" },
		{ "discard", "discarded packets" },
		{ "error", "errors" },
		{ "_err", "errors" },
		{ "cnp", "congestion notification packets: ECN marks on the path" },
		{ "ecn", "ECN marked packets: congestion on the path" },
		{ "link_downed", "the link went down" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strstr(name, m[i].pat))
			return m[i].meaning;
	return NULL;
}
