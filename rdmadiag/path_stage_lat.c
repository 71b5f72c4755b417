// SPDX-License-Identifier: GPL-2.0-or-later
/* path.rc_latency of `path test`: RC send round trips, one way in percentiles. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "path_int.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(const uint64_t *v, unsigned n, double p)
{
	unsigned i = (unsigned)ceil(p * n) - 1;

	return v[i < n ? i : n - 1] / 2e3;	/* ns of a round trip -> one-way us */
}

/* n timed of done round trips (the others moved between CPUs) */
static void latency_result(struct tester *t, struct stage *s, uint64_t *rtt, unsigned n, unsigned done,
			   unsigned asked, double secs, const char *clock_note)
{
	double p50;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	p50 = pct(rtt, n, 0.5);
	check_measured(&s->r, "%u round trips of %u bytes, one way: min %.2f p50 %.2f p99 %.2f p99.9 %.2f max %.2f us",
		       n, t->lat_size, rtt[0] / 2e3, p50, pct(rtt, n, 0.99), pct(rtt, n, 0.999), rtt[n - 1] / 2e3);
	if (done < asked)
		check_measured_add(&s->r, " (%u of %u asked: sampled for %.1f s)", done, asked, secs);
	check_measured_add(&s->r, "%s", clock_note);
	stage_num(s, "round_trips", n);
	stage_num(s, "latency_min_us", rtt[0] / 2e3);
	stage_num(s, "latency_p50_us", p50);
	stage_num(s, "latency_p99_us", pct(rtt, n, 0.99));
	stage_num(s, "latency_p999_us", pct(rtt, n, 0.999));
	stage_num(s, "latency_max_us", rtt[n - 1] / 2e3);
	if (t->expect_lat > 0 && p50 > t->expect_lat) {
		check_expected(&s->r, "p50 <= %g us", t->expect_lat);
		check_verdict(&s->r, V_FAIL, "latency is above --expect-lat: check CPU frequency scaling, interrupt "
			      "moderation, and the counters stage for retransmissions");
	} else {
		check_verdict(&s->r, V_PASS, NULL);
	}
}

void stage_latency(struct tester *t, struct stage *s)
{
	int64_t start = pp_now_ms(), sample_end = stage_deadline(t, t->iters ? SAMPLE_ITERS_MS : LAT_SAMPLE_MS);
	unsigned n = 0, iters = t->iters ? t->iters : 1000;
	uint64_t *rtt = calloc(iters, sizeof(*rtt));
	struct pp_phase_done d;
	char why[256], done[96], clock_note[160];
	struct rtt_clock clock;
	uint64_t posted;
	int rc = rtt ? phase_begin(t, PH_LAT, t->lat_size, iters, stage_deadline(t, CONTROL_BUDGET_MS), why,
				   sizeof(why)) : -ENOMEM;

	enum pq_poll_mode between = t->q.mode;

	if (t->expect_lat > 0)
		check_expected(&s->r, "p50 <= %g us", t->expect_lat);
	else
		check_expected(&s->r, "round trips complete");
	/* Round trips are timed the way perftest times them: both ends spin on
	 * the CQ (the peer's serve does so in this phase). Sleeping on the
	 * completion channel, as the other stages do between hosts, would add
	 * a wake-up to every one. Loopback keeps yielding: one CPU may hold both
	 * ends. */
	if (t->peer)
		t->q.mode = path_poll_mode(PQ_BUSY);
	/* One clock read per round trip, as perftest takes one cycle count:
	 * the reading before a send is the end of the round trip before it, so
	 * a round trip is post to post (the answer's completion, the receive
	 * buffer posted again, the next post), perftest's span. On a device
	 * clocksource that read is the TSC (path_rtt_clock.c); the deadlines
	 * read the coarse clock. A round trip started in time may take up to
	 * the stall bound. */
	posted = rtt_clock_start(&clock);
	while (!rc && n < iters && pp_now_ms() < sample_end) {
		rc = rc_round_trip(t, t->lat_size, stage_deadline(t, STALL_MS));
		if (!rc) {
			bool timed;
			uint64_t now = rtt_clock_stamp(&clock, &timed);

			if (timed)
				rtt[n++] = now - posted;
			posted = now;
		}
		progress_update(&t->prog, n, iters, "round trips");
	}
	rtt_clock_to_ns(&clock, rtt, n);
	rtt_clock_note(&clock, clock_note, sizeof(clock_note));
	t->q.mode = between;
	snprintf(done, sizeof(done), "after %u of %u round trips", n + clock.moved, iters);
	if (rc > 0) {
		check_measured(&s->r, "%s: %s; RC QP now %s", done, pq_wc_status_str(rc), pq_rc_state_str(&t->q));
		wc_hint(t, s, rc, true);
	} else if (rc == -ETIMEDOUT || rc == -ENETDOWN) {
		stall_verdict(t, s, done, rc, "round trips stopped", 1, STALL_UNHEARD);
	} else if (rc) {
		check_measured(&s->r, "%s: %s", done, rc == -ENOMEM ? "out of memory" : rc == -EINTR ? "interrupted" :
			       why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering: see the peer's log and the counters",
			      peer_name(t));
	} else if ((rc = phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why)))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
	} else if (!n && clock.moved) {
		check_measured(&s->r, "%u round trips, each moved between CPUs: none could be timed with the TSC",
			       clock.moved);
		check_verdict(&s->r, V_SKIP, "run it on one CPU: taskset -c 0 rdmadiag path test ...");
	} else if (!n) {
		check_measured(&s->r, "no round trip was started: the --timeout of the whole run expired first");
		check_verdict(&s->r, V_FAIL, "raise --timeout, or leave it out");
	} else {
		latency_result(t, s, rtt, n, n + clock.moved, iters, (pp_now_ms() - start) / 1e3, clock_note);
	}
	free(rtt);
}
