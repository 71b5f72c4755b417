// SPDX-License-Identifier: GPL-2.0-or-later
/* path.ud and path.mtu of `path test`: UD datagrams echoed by the peer, and
 * the largest that crosses. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

#include "path_int.h"

/* Each datagram waits 500 ms for its echo: 100 of them fit on a 20 ms path. */
#define UD_BUDGET_MS 8000

/* Sends up to count datagrams of size, one at a time, each echoed, until the
 * deadline; *sent says how many went out, *back how many came back. */
static int ud_echo(struct tester *t, unsigned size, unsigned count, int64_t deadline, unsigned *sent,
		   unsigned *back, int *wcs)
{
	struct ibv_wc wc[8];

	*back = *sent = 0;
	for (unsigned i = 0; i < count && pp_now_ms() < deadline; i++) {
		int64_t d = pp_now_ms() + 500;
		bool got = false;

		if (d > deadline)
			d = deadline;
		if (pq_post_ud(&t->q, size, t->rqp.ud_qpn, 2))
			return -EIO;
		(*sent)++;
		while (!got) {
			int n = pq_poll(&t->q, wc, 8, d);

			if (n == -ETIMEDOUT)
				break;	/* lost: UD does not retransmit */
			if (n < 0)
				return n;
			for (int k = 0; k < n; k++) {
				if (wc[k].status != IBV_WC_SUCCESS) {
					*wcs = wc[k].status;
					return -EIO;
				}
				if ((wc[k].opcode & IBV_WC_RECV) && wc[k].qp_num == t->q.ud->qp_num) {
					got = true;
					(*back)++;
					pq_post_recv(&t->q, true, wc[k].wr_id);
				}
			}
		}
		progress_update(&t->prog, *sent, count, "datagrams");
	}
	return 0;
}

static unsigned path_mtu_expected(const struct tester *t)
{
	return t->q.local.active_mtu < t->remote.active_mtu ? t->q.local.active_mtu : t->remote.active_mtu;
}

void stage_ud(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, UD_BUDGET_MS);
	unsigned size = path_mtu_expected(t), count = t->iters && t->iters < 100 ? t->iters : 100, back = 0, sent;
	struct pp_phase_done d;
	char why[256], extra[192];
	int wcs = 0, rc;

	check_expected(&s->r, "%u datagrams of %u bytes back", count, size);
	rc = phase_begin(t, PH_UD, size, count, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why));
	if (!rc)
		rc = ud_echo(t, size, count, deadline, &sent, &back, &wcs);
	if (!rc)
		rc = phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why));
	if (rc) {
		check_measured(&s->r, "%s", wcs ? pq_wc_status_str(wcs) : why);
		check_verdict(&s->r, V_FAIL, "%s", wcs ? pq_wc_meaning(wcs) : "the peer stopped answering");
		return;
	}
	/* A slow path sends fewer in the bound: those not sent are not lost. */
	check_measured(&s->r, "%u of %u datagrams of %u bytes came back (peer received %u)", back, sent, size,
		       d.received);
	if (sent < count)
		check_measured_add(&s->r, "; %u of %u sent in the %.0f s bound", sent, count, UD_BUDGET_MS / 1e3);
	stage_num(s, "sent", sent);
	stage_num(s, "returned", back);
	if (back == sent)
		check_verdict(&s->r, V_PASS, NULL);
	else if (back > 0)
		check_verdict(&s->r, V_WARN, "%u datagrams lost: loss on the path (see the counters stage)%s",
			      sent - back, hint_stall_extra(&t->prov, extra, sizeof(extra)));
	else
		check_verdict(&s->r, V_FAIL, "no datagram of %u bytes crosses: an MTU smaller than the ports' on the "
			      "path, or UD traffic is filtered", size);
}

void stage_mtu(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, 8000);
	unsigned largest = 0, expect = path_mtu_expected(t), back, sent;
	struct pp_phase_done d;
	char why[256];
	int wcs = 0, rc = 0;

	check_expected(&s->r, "datagrams of %u bytes (the smaller active MTU) cross", expect);
	for (unsigned size = 256; size <= t->q.local.active_mtu && !rc; size *= 2) {
		rc = phase_begin(t, PH_UD, size, 3, deadline, why, sizeof(why));
		if (!rc)
			rc = ud_echo(t, size, 3, deadline, &sent, &back, &wcs);
		if (!rc)
			rc = phase_end(t, &d, deadline, why, sizeof(why));
		if (!rc && back > 0)
			largest = size;
	}
	if (rc) {
		check_measured(&s->r, "%s", wcs ? pq_wc_status_str(wcs) : why);
		check_verdict(&s->r, V_FAIL, "%s", wcs ? pq_wc_meaning(wcs) : "the peer stopped answering");
		return;
	}
	check_measured(&s->r, "largest UD payload that crosses: %u; RC path MTU %u; active MTU %u here, %u on "
		       "the peer; netdev MTU %u here, %u on the peer", largest, t->q.path_mtu, t->q.local.active_mtu,
		       t->remote.active_mtu, t->q.local.netdev_mtu, t->remote.netdev_mtu);
	stage_num(s, "largest_ud_bytes", largest);
	stage_num(s, "rc_path_mtu", t->q.path_mtu);
	if (largest >= expect)
		check_verdict(&s->r, V_PASS, NULL);
	else
		check_verdict(&s->r, V_FAIL, "datagrams above %u bytes do not cross although both ports say %u: a "
			      "switch or netdev on the path has a smaller MTU", largest, expect);
}
