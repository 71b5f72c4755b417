// SPDX-License-Identifier: GPL-2.0-or-later
/* Posting work requests and waiting for their completions in `rdmadiag path`,
 * and what the QP, the port or a completion says after a failure; see pathq.h. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>

#include "pathq.h"

/* ---- posting ---- */

int pq_post_recv(struct pq *q, bool ud, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf, .length = (uint32_t)q->region, .lkey = q->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(ud ? q->ud : q->rc, &wr, &bad);
}

int pq_post_rc(struct pq *q, int opcode, size_t len, uint64_t raddr, uint32_t rkey, bool signaled, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf + q->region, .length = (uint32_t)len, .lkey = q->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = opcode }, *bad;

	if (signaled)
		wr.send_flags |= IBV_SEND_SIGNALED;
	if (opcode != IBV_WR_RDMA_READ && len <= q->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(q->rc, &wr, &bad);
}

int pq_post_ud(struct pq *q, size_t len, uint32_t remote_qpn, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf + q->region, .length = (uint32_t)len, .lkey = q->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	wr.wr.ud.ah = q->ah;
	wr.wr.ud.remote_qpn = remote_qpn;
	wr.wr.ud.remote_qkey = PQ_QKEY;
	return ibv_post_send(q->ud, &wr, &bad);
}

/* ---- waiting ---- */

/* The control channel has something to read; asked at most every PQ_CTRL_EVERY_MS. */
static bool ctrl_ready(struct pq *q, int fd, int64_t now_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (fd < 0 || now_ms - q->ctrl_checked_ms < PQ_CTRL_EVERY_MS)
		return false;
	q->ctrl_checked_ms = now_ms;
	return poll(&p, 1, 0) > 0;
}

_Static_assert(PQ_LINK_GRACE_MS > PQ_RC_RETRY_BUDGET_MS, "the grace must outlast the QP's own retries");

/* A wait for a receive never ends in an error completion: when the link goes
 * down after our send was acknowledged but before the peer's answer came, the
 * RC QP has nothing to retry and stays in RTS (4 runs in 25 of the lab's
 * local-link-down test). A port down past the QP's whole retry budget will not
 * bring an error completion any more: stop waiting. The port is queried at
 * most every 250 ms, as waits are short and many. */
static bool link_gave_up(struct pq *q, int64_t now_ms)
{
	char state[16];

	if (q->link_grace_ms <= 0 || now_ms - q->link_checked_ms < 250)
		return false;
	q->link_checked_ms = now_ms;
	if (pq_port_active(q, state, sizeof(state))) {	/* a port it cannot query counts as up */
		q->link_down_since_ms = 0;
		return false;
	}
	if (!q->link_down_since_ms)
		q->link_down_since_ms = now_ms;
	return now_ms - q->link_down_since_ms >= q->link_grace_ms;
}

/* First call arms the CQ and asks the caller to poll once more (a completion
 * that arrived before arming raises no event); the next one sleeps. */
static int wait_event(struct pq *q, int ctrl_fd, int64_t deadline_ms)
{
	struct pollfd p[2] = { { .fd = q->ch->fd, .events = POLLIN }, { .fd = ctrl_fd, .events = POLLIN } };
	struct ibv_cq *cq;
	void *ctx;
	int64_t now, left;

	if (!q->armed) {
		if (ibv_req_notify_cq(q->cq, 0))
			return -errno;
		q->armed = true;
		return 1;
	}
	now = pp_now_ms();
	left = deadline_ms - now;
	if (left <= 0)
		return -ETIMEDOUT;
	if (link_gave_up(q, now))
		return -ENETDOWN;
	if (poll(p, ctrl_fd >= 0 ? 2 : 1, (int)(left > 200 ? 200 : left)) < 0 && errno != EINTR)
		return -errno;
	if (p[0].revents & POLLIN) {
		if (ibv_get_cq_event(q->ch, &cq, &ctx) == 0) {
			ibv_ack_cq_events(cq, 1);
			q->armed = false;
		}
		return 1;
	}
	if (ctrl_fd >= 0 && p[1].revents)
		return 2;
	return 1;	/* time to re-check the deadline and poll again */
}

int pq_wait(struct pq *q, int ctrl_fd, int64_t deadline_ms)
{
	int64_t now;

	if (q->stop && *q->stop)
		return -EINTR;
	if (q->mode == PQ_EVENT)
		return wait_event(q, ctrl_fd, deadline_ms);
	/* The spin is timed with the precise clock, read once per 16 empty
	 * polls: on an hpet clocksource a read per poll cost more than the
	 * poll. */
	if (q->mode == PQ_HYBRID && !(q->spins % 16)) {
		uint64_t now = pp_now_us();

		if (!q->idle_since_us)
			q->idle_since_us = now;
		if (now - q->idle_since_us >= PQ_SPIN_US)
			return wait_event(q, ctrl_fd, deadline_ms);
	}
	if (q->mode == PQ_YIELD)
		sched_yield();
	/* deadlines, the link and the control channel: the coarse clock */
	if (++q->spins % 1024)
		return 1;
	now = pp_now_ms();
	if (now >= deadline_ms)
		return -ETIMEDOUT;
	if (link_gave_up(q, now))
		return -ENETDOWN;
	return ctrl_ready(q, ctrl_fd, now) ? 2 : 1;
}

int pq_poll(struct pq *q, struct ibv_wc *wc, int max, int64_t deadline_ms)
{
	for (;;) {
		int n = ibv_poll_cq(q->cq, max, wc), w;

		if (n != 0) {
			pq_progress(q);
			return n < 0 ? -EIO : n;
		}
		w = pq_wait(q, -1, deadline_ms);
		if (w < 0)
			return w;
	}
}

const char *pq_rc_state_str(struct pq *q)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (!q->rc || ibv_query_qp(q->rc, &a, IBV_QP_STATE, &ia))
		return "unknown";
	return (unsigned)a.qp_state < sizeof(names) / sizeof(names[0]) ? names[a.qp_state] : "unknown";
}

bool pq_port_active(struct pq *q, char *state, size_t len)
{
	struct ibv_port_attr pa;

	if (!q->ctx || ibv_query_port(q->ctx, (uint8_t)q->local.port, &pa)) {
		snprintf(state, len, "unknown");
		return true;	/* cannot tell: do not blame the link */
	}
	/* as rdma link show says it */
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };

	snprintf(state, len, "%s", (unsigned)pa.state < sizeof(names) / sizeof(names[0]) ? names[pa.state] : "unknown");
	return pa.state == IBV_PORT_ACTIVE;
}

const char *pq_wc_status_str(int status)
{
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

const char *pq_wc_meaning(int status)
{
	switch (status) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer did not acknowledge: packets are lost on the way (firewall on UDP 4791, link down, "
		       "wrong GID/route) or the peer's QP is gone";
	case IBV_WC_RNR_RETRY_EXC_ERR: return "the receiver posted no receive buffers in time";
	case IBV_WC_REM_ACCESS_ERR: return "the peer refused the access: wrong rkey or outside its registered memory";
	case IBV_WC_REM_INV_REQ_ERR: return "the peer found the request invalid (message larger than its buffer?)";
	case IBV_WC_WR_FLUSH_ERR: return "the QP was already in the error state because of an earlier failure";
	case IBV_WC_LOC_LEN_ERR: return "a message was larger than the posted receive buffer";
	case IBV_WC_LOC_PROT_ERR: return "a local buffer was outside its memory registration";
	case IBV_WC_REM_OP_ERR: return "the peer could not complete the operation";
	default: return "see ibv_poll_cq(3)";
	}
}
