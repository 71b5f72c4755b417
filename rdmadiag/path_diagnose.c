// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why RDMA stopped answering during a `path test` stage, and what to do: the
 * link here went down, the peer's serve died, the whole peer is unreachable,
 * or RDMA traffic alone is lost while the control channel works; a bad
 * completion's meaning; a stall past the RC QP's retry budget.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../host/netdev.h"
#include "path_int.h"

/* Whether the peer closed the control channel: its serve died or was killed. */
bool peer_gone(struct tester *t)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	char c;

	ctl_collect(t);	/* keepalive replies would hide a close behind them */
	if (t->fd < 0 || poll(&p, 1, 100) <= 0)
		return false;
	return (p.revents & (POLLHUP | POLLERR)) || recv(t->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

enum reach { REACH_OK, REACH_GONE, REACH_SILENT };

/* RDMA stopped getting answers: does the peer's serve still answer on the
 * control channel? Ends a running phase (PHASE_END) or asks for counters,
 * whichever the responder expects now, with a short deadline. */
static enum reach control_probe(struct tester *t)
{
	struct pp_msg m = { .type = t->in_phase ? PP_PHASE_END : PP_COUNTERS_REQ };
	int64_t deadline = pp_now_ms() + 2000;
	char why[256];
	int rc;

	if (peer_gone(t))
		return REACH_GONE;
	rc = ctl_ask(t, &m, t->in_phase ? PP_PHASE_DONE : PP_COUNTERS, deadline, why, sizeof(why));
	if (!rc) {
		t->in_phase = false;
		return REACH_OK;
	}
	return rc == -ECONNRESET || peer_gone(t) ? REACH_GONE : REACH_SILENT;
}

/* Whether the port here is down, its state in state[]. rxe marks its port
 * down from its NETDEV_DOWN handler, and the error completion that the
 * netdev going down causes can come first (1 run in 40 of the lab's
 * local-link-down test): a netdev that is down or has no carrier counts at
 * once, and the port gets up to 1 s to follow it. */
static bool port_here_down(struct tester *t, char *state, size_t len)
{
	struct netdev_info nd;

	if (!pq_port_active(&t->q, state, len))
		return true;
	if (netdev_read(t->q.local.netdev, &nd) || (nd.admin_up != 0 && nd.carrier != 0))
		return false;
	for (int i = 0; i < 20 && pq_port_active(&t->q, state, len); i++)
		usleep(50 * 1000);
	return true;
}

/* Whether the local port went down during the run; if so that is the verdict. */
static bool link_here_down(struct tester *t, struct stage *s, const char *what)
{
	const char *netdev = t->q.local.netdev;
	char state[32], seen[160];

	if (!t->q_open || !port_here_down(t, state, sizeof(state)))
		return false;
	if (!strcmp(state, "ACTIVE"))	/* the port has not followed its netdev yet */
		snprintf(seen, sizeof(seen), "netdev %s is down, %s still ACTIVE", netdev, t->subject);
	else
		snprintf(seen, sizeof(seen), "%s is %s%s%s", t->subject, state, netdev[0] ? ", netdev " : "", netdev);
	check_verdict(&s->r, V_FAIL, "%s: the link here went down (%s): bring it up and check the cable and switch "
		      "port (rdmadiag link check %s)", what, seen, t->subject);
	return true;
}

/* RDMA operations got no answer (retries exceeded, or a timeout): the local
 * link, the peer's serve, the whole peer, or only RoCE traffic. With
 * GOT_THROUGH (RDMA got through on this QP before: every stage after
 * path.rc_connect's first round trip) retries that ran out while the
 * control channel works are heavy loss, or RDMA cut off mid-test: a
 * firewall or a wrong GID would have stopped the first round trip. */
void no_answer_verdict(struct tester *t, struct stage *s, const char *what, bool got_through)
{
	char extra[512];

	if (link_here_down(t, s, what))
		return;
	switch (control_probe(t)) {
	case REACH_GONE:
		check_verdict(&s->r, V_FAIL, "%s: %s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", what, peer_name(t));
		break;
	case REACH_SILENT:
		check_verdict(&s->r, V_FAIL, "%s: %s is unreachable: it answers neither RDMA nor the control channel "
			      "(TCP port %u): its link is down, the host is down or hung, or the network between you "
			      "failed; check the link on both hosts (rdmadiag link check) and the route (ping %s)",
			      what, peer_name(t), t->port, peer_name(t));
		break;
	default:
		if (got_through && t->retry_forever)
			check_verdict(&s->r, V_FAIL, "%s after RDMA got through on this connection: operations stayed "
				      "unanswered while packets still arrived and the control channel works, so the "
				      "path loses packets heavily (see the retransmissions); %s", what,
				      hint_heavy_loss(&t->prov, extra, sizeof(extra)));
		else if (got_through)
			check_verdict(&s->r, V_FAIL, "%s after RDMA got through on this connection: one operation stayed "
				      "unanswered through the RC QP's %u tries while the control channel works, so the "
				      "path loses packets heavily (see the retransmissions) or stopped carrying RDMA "
				      "during the test; %s", what, PQ_RC_RETRY + 1,
				      hint_heavy_loss(&t->prov, extra, sizeof(extra)));
		else if (t->q.local.link_layer == 2)
			check_verdict(&s->r, V_FAIL, "%s: RoCE traffic (UDP 4791) is not getting through while the "
				      "control channel works: a firewall drops UDP 4791, the GID index is wrong (GID "
				      "index %u here), or the peer's RDMA stack does not answer%s", what,
				      t->q.local.gid_index, hint_stall_extra(&t->prov, extra, sizeof(extra)));
		else
			check_verdict(&s->r, V_FAIL, "%s: RDMA packets get no answer while the control channel works: "
				      "check the LIDs and the subnet manager (rdmadiag link check on both hosts)%s",
				      what, hint_stall_extra(&t->prov, extra, sizeof(extra)));
	}
}

void wc_hint(struct tester *t, struct stage *s, int status, bool got_through)
{
	if (status == IBV_WC_RETRY_EXC_ERR)
		no_answer_verdict(t, s, "transport retries exceeded", got_through);
	else if (link_here_down(t, s, pq_wc_status_str(status)))
		return;
	else if (peer_gone(t))
		check_verdict(&s->r, V_FAIL, "%s: %s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", pq_wc_status_str(status), peer_name(t));
	else
		check_verdict(&s->r, V_FAIL, "%s: %s", pq_wc_status_str(status), pq_wc_meaning(status));
}

/* OPS: the operations the missing completion stood for (STALL_MS_FOR()). */
static const char *stall_text(char *buf, size_t len, unsigned ops)
{
	int n = snprintf(buf, len, "no completion for %.1f s, past the RC QP's retry budget (%u tries of %.2f s)",
			 STALL_MS_FOR(ops) / 1e3, PQ_RC_RETRY + 1, PQ_RC_TRY_NS / 1e9);

	if (ops > 1 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " for each of the %u operations it waited for", ops);
	return buf;
}

/* The same where the RC QP retries forever. HEARD: STALL_HEARD, packets
 * still arrived until HEAVY_LOSS_CAP_FOR(OPS) ran out; STALL_SILENT, none
 * came for STALL_MS; STALL_UNHEARD, no completion for STALL_MS (not
 * listened). */
static const char *stall_forever_text(char *buf, size_t len, unsigned ops, enum stall_heard heard)
{
	char why[160];

	snprintf(why, sizeof(why), "the RC QP resends every %.3g s and, with retry count 7 as perftest, NCCL and UCX "
		 "set it, forever on rxe", PQ_RC_TRY_NS / 1e9);
	if (heard == STALL_HEARD)
		snprintf(buf, len, "no completion for %.0f s while packets still arrived (%s)",
			 HEAVY_LOSS_CAP_FOR(ops) / 1e3, why);
	else
		snprintf(buf, len, "no completion%s for %.1f s (%s)", heard == STALL_SILENT ?
			 " and no packet received" : "", STALL_MS / 1e3, why);
	return buf;
}

/* A wait ended without a completion: the --timeout of the whole run, or a
 * stall of the wait for OPS operations' completion; HEARD: where the QP
 * retries forever, whether packets still arrived (STALL_HEARD: heavy loss,
 * not a dead path). */
void stall_verdict(struct tester *t, struct stage *s, const char *done, int rc, const char *what, unsigned ops,
		   enum stall_heard heard)
{
	char stall[256];

	if (rc == -ETIMEDOUT && timed_out_overall(t)) {
		check_measured(&s->r, "%s when the --timeout of the whole run (%u s) expired; RC QP now %s", done,
			       t->timeout_s, pq_rc_state_str(&t->q));
		check_verdict(&s->r, V_FAIL, "the --timeout of the whole run expired while operations still "
			      "completed: raise --timeout, or leave it out to let each stage end in its own bound");
		return;
	}
	if (rc == -ENETDOWN)
		snprintf(stall, sizeof(stall), "%s", pp_strerror(rc));
	else if (t->retry_forever)
		stall_forever_text(stall, sizeof(stall), ops, heard);
	else
		stall_text(stall, sizeof(stall), ops);
	check_measured(&s->r, "%s; then %s; RC QP now %s", done, stall, pq_rc_state_str(&t->q));
	no_answer_verdict(t, s, what, heard == STALL_HEARD);
}
