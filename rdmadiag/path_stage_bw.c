// SPDX-License-Identifier: GPL-2.0-or-later
/* path.write_bw, path.read_bw and path.send_bw of `path test`: a window of RC
 * operations in flight for --duration (or --iters), and what they gave. */
#include <errno.h>
#include <infiniband/verbs.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "path_int.h"

#define BW_TAG (1ull << 62)

/* A wait this long between completions is a lost packet that nothing
 * after it reported (the last of a burst, or its ACK): the RC QP resends it
 * when its retransmit timer fires (PQ_RC_TRY_NS), again if the resent one
 * is lost. Such waits can be most of a lossy stage; the text counts them
 * apart. */
#define LONG_WAIT_MS 500

struct bw_run {
	uint64_t posted, completed, bytes;
	uint64_t signaled;	/* the last signaled operation posted */
	uint64_t each_from;	/* first operation signaled on its own (0: none yet) */
	unsigned stall_ops;	/* operations the stalled wait stood for */
	enum stall_heard stall_heard;
	uint64_t rx_pkts;	/* tester.retry_forever: the port's received packets */
	int64_t heard_ms;	/* when rx_pkts last moved */
	int64_t said_ms;	/* the last request on the control channel */
	double secs;
	unsigned long_waits;	/* waits of LONG_WAIT_MS or more for a completion */
	int64_t long_waits_ms;
	int wc_status;
	int err;
};

/* Posting goes on until --iters operations or the sampling time ran out;
 * asked once per operation, so the coarse clock (pp_now_ms()). */
static bool bw_more(const struct tester *t, const struct bw_run *b, int64_t end_ms)
{
	return (!t->iters || b->posted < t->iters) && pp_now_ms() < end_ms;
}

/* Posts one bandwidth operation; b->signaled is the last signaled one. */
static int bw_post(struct tester *t, int opcode, struct bw_run *b, bool sig)
{
	if (pq_post_rc(&t->q, opcode, t->size, t->rqp.addr, t->rqp.rkey, sig, BW_TAG | (b->posted + 1)))
		return -EIO;
	b->posted++;
	if (sig)
		b->signaled = b->posted;
	return 0;
}

/* Whether the next operation asks for a completion: one in PQ_SIGNAL_EVERY,
 * or each once the path made the stage wait (loss), since a completion is
 * the only progress the stage sees and the stall bound grows with the
 * operations a completion stands for; the last one of --iters. */
static bool bw_signal_next(const struct tester *t, const struct bw_run *b)
{
	uint64_t next = b->posted + 1;

	return b->each_from || next % PQ_SIGNAL_EVERY == 0 || (t->iters && next == t->iters);
}

/* Operations kept in flight: PQ_SIGNAL_EVERY at first and one more with
 * each that completes, up to PQ_WINDOW, perftest's tx depth, which a
 * healthy path has after 112 operations; BW_WINDOW_LOSSY once the path
 * made the stage wait. Under loss the QP resends all it sent after a lost
 * packet, and the peer drops all that follows it: a full window of 64 KiB
 * messages, posted in the first millisecond, took 20 s to drain at 1% loss
 * and 16 of them 35-70 s at 5% (lab, rxe), so a lossy stage keeps few in
 * flight and ends soon after its sampling time. (Asking for a completion
 * of each of the first 16 operations as well left rxe's QP silent, neither
 * retransmitting nor failing, after 16 or 128 messages in 7 of 10 default
 * runs at 1% loss; without that, none of 14 runs did, windows of 16 and
 * 128 alike.) */
#define BW_WINDOW_LOSSY 4

static uint64_t bw_window(const struct bw_run *b)
{
	if (b->each_from)
		return BW_WINDOW_LOSSY;
	return b->completed + PQ_SIGNAL_EVERY < PQ_WINDOW ? b->completed + PQ_SIGNAL_EVERY : PQ_WINDOW;
}

/* How many operations the next completion stands for: up to the next
 * signaled one in flight (the last one posted is signaled when the window
 * is waited on, see bw_loop()). */
static unsigned bw_ops_to_completion(const struct bw_run *b)
{
	uint64_t first = b->completed + 1;
	uint64_t next = (first + PQ_SIGNAL_EVERY - 1) / PQ_SIGNAL_EVERY * PQ_SIGNAL_EVERY;

	if (b->each_from && b->each_from < next)
		next = b->each_from > first ? b->each_from : first;
	if (b->posted < next)
		next = b->posted;
	return next > b->completed ? (unsigned)(next - b->completed) : 1;
}

/* Where the RC QP retries forever, notes when the port last received a
 * packet (an ACK, a NAK, a read response: the peer is there). Other traffic
 * of the port counts too; HEAVY_LOSS_CAP_FOR() bounds the wait then. */
static void bw_listen(const struct tester *t, struct bw_run *b, int64_t now)
{
	uint64_t rx;

	if (t->retry_forever && !pq_rx_packets(t->q.local.dev, t->q.local.port, &rx) && rx != b->rx_pkts) {
		b->rx_pkts = rx;
		b->heard_ms = now;
	}
}

/* When the wait for the next completion, which stands for OPS operations,
 * is a stall: past their retry budgets; where the QP retries forever, no
 * packet for one budget, or CAP_MS (HEAVY_LOSS_CAP_FOR(OPS)) without a
 * completion. */
static int64_t bw_stall_at(const struct tester *t, const struct bw_run *b, int64_t last_ms, unsigned ops,
			   int64_t cap_ms)
{
	int64_t at = last_ms + STALL_MS_FOR(ops);

	if (t->retry_forever) {
		at = (b->heard_ms > last_ms ? b->heard_ms : last_ms) + STALL_MS;
		at = at < last_ms + cap_ms ? at : last_ms + cap_ms;
	}
	return at < t->run_deadline ? at : t->run_deadline;
}

/* Waits for completions in slices of 1 s: a peer that is gone leaves
 * one-sided operations unanswered for long, and its closed control channel
 * ends the wait. No completion within the retry budgets of the operations
 * the awaited completion stands for is a stall (bw_stall_at()). A stage
 * that runs long keeps the peer's session (peer_keepalive()). Returns -1 at
 * the end of the stage (b->err or b->wc_status set), else 0; *last_ms is
 * the time of the last completion. */
static int bw_wait(struct tester *t, struct bw_run *b, int64_t *last_ms)
{
	struct ibv_wc wc[16];
	unsigned ops = bw_ops_to_completion(b);
	int64_t cap_ms = HEAVY_LOSS_CAP_FOR(ops), stall_at = bw_stall_at(t, b, *last_ms, ops, cap_ms);
	int64_t slice = pp_now_ms() + 1000, now;
	int n;

	n = pq_poll(&t->q, wc, 16, slice < stall_at ? slice : stall_at);
	now = pp_now_ms();
	if (!b->each_from && now - *last_ms >= LONG_WAIT_MS)
		b->each_from = b->posted + 1;
	if (t->peer_idle_ms && now - b->said_ms >= t->peer_idle_ms / 3) {
		peer_keepalive(t);
		b->said_ms = now;
	}
	if (n == -ETIMEDOUT && slice < stall_at) {
		bw_listen(t, b, now);
		n = peer_gone(t) ? -ECONNRESET : 0;
	}
	if (n < 0) {
		b->err = n;
		b->stall_ops = ops;
		b->stall_heard = !t->retry_forever ? STALL_UNHEARD :
				 now - *last_ms >= cap_ms ? STALL_HEARD : STALL_SILENT;
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS) {
			b->wc_status = wc[i].status;
			return -1;
		}
		/* A signaled completion means everything posted before it is done too;
		 * the tag keeps late completions of the latency stage out. */
		if (!(wc[i].opcode & IBV_WC_RECV) && (wc[i].wr_id & BW_TAG))
			b->completed = wc[i].wr_id & ~BW_TAG;
	}
	if (n > 0) {
		if (now - *last_ms >= LONG_WAIT_MS) {
			b->long_waits++;
			b->long_waits_ms += now - *last_ms;
		}
		*last_ms = now;
	}
	return 0;
}

/* Keeps a window of operations in flight (bw_window()), one completion per
 * PQ_SIGNAL_EVERY until a wait of LONG_WAIT_MS, then one per operation
 * (bw_signal_next()).
 * Whether to post more is decided once per operation, before posting it: the
 * operation posted last is always signaled (a closing one is added when the
 * time ran out after an unsignaled one), since only a signaled completion
 * says that the operations before it are done. Asking the clock again after
 * posting once let the duration end between the two readings, leaving the
 * last operation unsignaled and the loop waiting for a completion that never
 * comes (every run on two CPUs, where posting takes most of the loop). The
 * closing operation waits for room in the window like any other: a full
 * window holds a signaled operation, whose completion makes room. */
static void bw_loop(struct tester *t, int opcode, struct bw_run *b)
{
	int64_t sample_ms = t->iters ? SAMPLE_ITERS_MS : (int64_t)t->duration_s * 1000;
	int64_t last_ms = pp_now_ms(), sample_end = stage_deadline(t, sample_ms);
	uint64_t t0 = mono_ns();
	bool more = bw_more(t, b, sample_end);

	bw_listen(t, b, last_ms);
	b->said_ms = last_ms;
	while (more || b->completed < b->posted) {
		while (more && b->posted - b->completed < bw_window(b)) {
			if (bw_post(t, opcode, b, bw_signal_next(t, b))) {
				b->err = -EIO;
				return;
			}
			more = bw_more(t, b, sample_end);
		}
		more = more && bw_more(t, b, sample_end);
		if (!more && b->signaled < b->posted && b->posted - b->completed < bw_window(b) &&
		    bw_post(t, opcode, b, true)) {
			b->err = -EIO;
			return;
		}
		progress_update(&t->prog, b->completed, t->iters, "messages");
		if (bw_wait(t, b, &last_ms) < 0)
			return;
	}
	b->secs = (mono_ns() - t0) / 1e9;
	b->bytes = b->completed * t->size;
}

/* The long waits, and the rate outside them: the link's rate when it does
 * not lose the last packet of a burst. */
static void long_waits_text(struct stage *s, const struct bw_run *b)
{
	double waited = b->long_waits_ms / 1e3, rest = b->secs - waited;

	if (!b->long_waits)
		return;
	check_measured_add(&s->r, "; %u wait%s of %.1f s or more for a completion, %.2f s in all (a lost last packet "
			   "or ACK waits for the RC retransmit timer, %.2f s a try)", b->long_waits,
			   b->long_waits == 1 ? "" : "s", LONG_WAIT_MS / 1e3, waited, PQ_RC_TRY_NS / 1e9);
	if (rest > 0.1)
		check_measured_add(&s->r, ": %.3f Gb/s outside them", b->bytes * 8 / rest / 1e9);
}

static void bw_result(struct tester *t, struct stage *s, const struct bw_run *b, const char *what)
{
	double gbps = b->secs > 0 ? b->bytes * 8 / b->secs / 1e9 : 0;
	double msgs = b->secs > 0 ? b->completed / b->secs : 0;
	double rate = t->q.local.rate_mbps / 1000.0;

	/* a lossy Soft-RoCE stage moves a few messages a second: 0.000 Gb/s and
	 * 0 msgs/s would read as nothing moved */
	check_measured(&s->r, "%s %.*f Gb/s, %.*f msgs/s (%" PRIu64 " x %u bytes in %.2f s)%s", what,
		       gbps > 0 && gbps < 0.01 ? 6 : 3, gbps, msgs > 0 && msgs < 10 ? 1 : 0, msgs, b->completed,
		       t->size, b->secs, "");
	if (rate > 0)
		check_measured_add(&s->r, "; %.0f%% of the %g Gb/s port rate", 100 * gbps / rate, rate);
	long_waits_text(s, b);
	stage_num(s, "bandwidth_gbps", gbps);
	stage_num(s, "msgs_per_s", msgs);
	if (t->expect_bw > 0 && gbps < t->expect_bw) {
		check_expected(&s->r, ">= %g Gb/s", t->expect_bw);
		check_verdict(&s->r, V_FAIL, "bandwidth is below --expect-bw: check the port rate (rdmadiag link "
			      "show), PFC/ECN, and the counters stage for retransmissions");
	} else {
		check_verdict(&s->r, V_PASS, NULL);
	}
}

static void bw_fail(struct tester *t, struct stage *s, const struct bw_run *b)
{
	char done[64];

	snprintf(done, sizeof(done), "after %" PRIu64 " messages", b->completed);
	if (b->wc_status) {
		check_measured(&s->r, "%s: completion %s; RC QP now %s", done, pq_wc_status_str(b->wc_status),
			       pq_rc_state_str(&t->q));
		wc_hint(t, s, b->wc_status, true);
		return;
	}
	/* A peer that is gone leaves RDMA writes unanswered without an error
	 * completion until retries run out: the closed control channel says why. */
	if (b->err == -ETIMEDOUT || b->err == -ENETDOWN) {
		stall_verdict(t, s, done, b->err, "operations stopped completing", b->stall_ops, b->stall_heard);
		return;
	}
	check_measured(&s->r, "%s: %s; RC QP now %s", done, pp_strerror(b->err), pq_rc_state_str(&t->q));
	if (peer_gone(t))
		check_verdict(&s->r, V_FAIL, "%s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", peer_name(t));
	else
		check_verdict(&s->r, V_FAIL, "%s stopped completing operations: see the counters and the peer's log",
			      peer_name(t));
}

static void expect_bw_text(const struct tester *t, struct stage *s, const char *dflt)
{
	if (t->expect_bw > 0)
		check_expected(&s->r, ">= %g Gb/s", t->expect_bw);
	else
		check_expected(&s->r, "%s", dflt);
}

void stage_rdma_bw(struct tester *t, struct stage *s, int opcode)
{
	struct bw_run b = { 0 };

	expect_bw_text(t, s, "every operation completes");
	bw_loop(t, opcode, &b);
	if (b.err || b.wc_status)
		bw_fail(t, s, &b);
	else
		bw_result(t, s, &b, opcode == IBV_WR_RDMA_WRITE ? "RDMA WRITE" : "RDMA READ");
}

void stage_send_bw(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, CONTROL_BUDGET_MS);
	struct pp_phase_done d;
	struct bw_run b = { 0 };
	char why[256];

	expect_bw_text(t, s, "every message received");
	if (phase_begin(t, PH_SEND, t->size, 0, deadline, why, sizeof(why))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
		return;
	}
	bw_loop(t, IBV_WR_SEND, &b);
	if (b.err || b.wc_status) {
		bw_fail(t, s, &b);
		return;
	}
	if (phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
		return;
	}
	bw_result(t, s, &b, "SEND");
	if (d.received < b.completed) {
		check_verdict(&s->r, V_FAIL, "the peer received %u of %" PRIu64 " messages", d.received, b.completed);
	}
}
