/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside `path test`, shared by its parts and by nothing else (path.h has
 * what path test and path serve share):
 *   path.c              the command: its arguments and its table rows
 *   path_run.c          one peer: every selected stage in order, one peer's report
 *   path_many_peers.c   many peers, tested in parallel, and their table
 *   path_results.c      how a stage and a peer's run print, text and JSON
 *   path_stage_setup.c  the stages that set a test up: control, resolve,
 *                       config, rc_connect, and the control channel's phases
 *   path_stage_lat.c    path.rc_latency
 *   path_stage_bw.c     path.write_bw, path.read_bw and path.send_bw
 *   path_stage_ud.c     path.ud and path.mtu
 *   path_counters.c     transport counters around a measuring stage, path.counters
 *   path_diagnose.c     why RDMA stopped answering: the verdict of a failed or
 *                       stalled stage
 * What every part asks of a tester (deadlines, the peer's name, the clock) is
 * inline here.
 */
#ifndef RDMADIAG_PATH_INT_H
#define RDMADIAG_PATH_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../path/pathproto.h"
#include "../path/pathq.h"
#include "../path/pathsrv.h"
#include "../util/clock.h"
#include "check.h"
#include "counter_map.h"
#include "output.h"
#include "path_hints.h"
#include "path_progress.h"

struct peer_list;

/* ------------------------------------------------------------------ stages */

enum stage_id {
	ST_CONTROL, ST_RESOLVE, ST_CONFIG, ST_CONNECT, ST_LAT, ST_WRITE, ST_READ, ST_SEND, ST_UD, ST_MTU,
	ST_COUNTERS, ST_COUNT,
};

/* The definition (id, title) of stage i, NULL past the last (struct
 * action's checks; path test --list). */
const struct check_def *path_stage_def(size_t i);

/* Bits of --tests; the first four stages always run. */
enum { T_LAT = 1, T_WRITE = 2, T_READ = 4, T_SEND = 8, T_UD = 16, T_MTU = 32, T_COUNTERS = 64, T_ALL = 127 };

#define MAX_NUMS 8
#define MAX_MOVED 16

/* A transport counter that moved during a stage, on this host or the peer. */
struct moved_ctr {
	const char *host;	/* "here" or "peer" */
	char name[40];		/* the driver's name */
	enum ctr_kind kind;	/* vendor-neutral meaning, K_NONE when the map does not know it */
	uint64_t delta;
};

struct stage {
	struct check_result r;
	double ms;
	unsigned nnum;
	struct {
		const char *key;
		double v;
	} num[MAX_NUMS];
	unsigned nmoved;
	struct moved_ctr moved[MAX_MOVED];
};

static inline void stage_num(struct stage *s, const char *key, double v)
{
	if (s->nnum < MAX_NUMS)
		s->num[s->nnum++] = (typeof(s->num[0])){ key, v };
}

/* ------------------------------------------------------------------ tester */

struct tester {
	const char *peer;		/* NULL in loopback */
	const char *dev_arg;		/* --dev or the loopback DEV */
	unsigned dev_port;
	unsigned port;			/* control TCP port */
	int gid_index;			/* -1 auto */
	unsigned tests, size, lat_size, iters, duration_s;
	double expect_bw, expect_lat;
	int64_t run_deadline;		/* --timeout; INT64_MAX none */
	unsigned timeout_s;		/* --timeout; 0 none (per peer in many-peer runs) */

	int fd;
	bool no_rdma;			/* this host cannot run it: exit 3 */
	struct pq q;
	bool q_open;
	struct pq_route route;
	struct pp_config remote;
	struct pp_qp rqp;
	struct pq_counters before;
	bool in_phase;			/* the responder runs a phase: it expects PHASE_END next */
	unsigned peer_idle_ms;		/* the peer's serve ends a session silent this long; 0 never */
	unsigned counters_owed;		/* replies to keepalives not read yet (path_control.c) */
	unsigned recv_posted;
	char subject[96];
	char loop_dev[64];
	struct provider prov;		/* who drives the local device: the hints depend on it */
	bool retry_forever;		/* the RC QP retries forever (rxe, PQ_RC_RETRY_FOREVER) */
	bool show_progress;		/* one peer: a long stage draws its progress on a terminal */
	struct progress prog;		/* of the stage running now */

	/* loopback: the responder thread */
	pthread_t thread;
	bool thread_running;
	int thread_fd;
	struct ps_opts ps;
	char ps_summary[256];
};

static inline int64_t stage_deadline(const struct tester *t, int64_t budget_ms)
{
	int64_t d = pp_now_ms() + budget_ms;

	return d < t->run_deadline ? d : t->run_deadline;
}

static inline bool timed_out_overall(const struct tester *t)
{
	return pp_now_ms() >= t->run_deadline;
}

static inline const char *peer_name(const struct tester *t)
{
	return t->peer ? t->peer : "the loopback responder";
}

/* Connect + HELLO. Linux sends a lost SYN again after 1 s and 3 s: 4 s lets
 * the third SYN answer, so a lossy path (the case being diagnosed) is not
 * called "host down" when two handshakes were dropped. */
#define CONTROL_BUDGET_MS 4000

/* How long the latency stage samples by default: 1000 round trips take a
 * fraction of a second on hardware, 40 s on a 20 ms path; the stage reports
 * what this much time gave. --iters raises it to SAMPLE_ITERS_MS. */
#define LAT_SAMPLE_MS 3000
#define SAMPLE_ITERS_MS 120000
/* No completion for this long while the RC QP stays in RTS is a stall: the
 * QP's own retry budget (PQ_RC_RETRY + 1 tries of 4.096 us << PQ_RC_TIMEOUT)
 * has then run out without an error completion, plus a second of slack. A
 * lossy path that the QP recovers from completes within it. The budget
 * restarts with each operation the QP completes (rxe: each work request;
 * hardware: each ACK that moves on), so a wait for a completion that stands
 * for OPS operations (unsignaled ones before a signaled one) gets OPS
 * budgets. */
#define STALL_MS_FOR(ops) (PQ_RC_RETRY_BUDGET_MS * (int64_t)(ops) + 1000)
#define STALL_MS STALL_MS_FOR(1)
/* Where the RC QP retries forever (tester.retry_forever) it never gives up
 * on a lossy path by itself: a stall is then no completion and no packet
 * received for STALL_MS, and no completion for HEAVY_LOSS_CAP_FOR(ops)
 * while packets still arrive is a path too lossy for operations to get
 * through. At 5% loss on Soft-RoCE (lab) a completion that stood for 16
 * messages of 64 KiB took up to 54 s, 3.4 s a message. */
#define HEAVY_LOSS_CAP_FOR(ops) (60000 + 10000 * ((int64_t)(ops) - 1))

/* What one run against one peer gave: every stage, kept for reports that are
 * printed after the run (many peers) or printed as they come (one peer). */
struct peer_run {
	const char *peer;
	struct stage st[ST_COUNT];
	unsigned nst;
	struct check_summary sum;
	const char *failed;		/* id of the first failing stage */
	int rc;				/* EXIT_* of this peer */
	bool done;
	char source[64];		/* local address the route chose */
};

/* Transport counters at the start of a measuring stage (path_counters.c). */
struct stage_ctrs {
	struct pq_counters here;
	struct pp_counters peer;	/* the peer's deltas since CONFIG */
	bool have_here, have_peer;
};

/* The most --parallel peers tested at once. */
#define PATH_PARALLEL_MAX 64

/* The keys of a peer's run in JSON (path_results.c); one peer's report
 * writes its peer and source too (path_run.c). */
enum { RF_PEER, RF_VERDICT, RF_FAILED, RF_P50, RF_GBPS, RF_SOURCE, RF_ADDRESS };
extern const struct field run_fields[];

/* path_stage_setup.c: the stages, and the control channel's phases */
void stage_control(struct tester *t, struct stage *s);
void stage_resolve(struct tester *t, struct stage *s);
void stage_config(struct tester *t, struct stage *s);
void stage_connect(struct tester *t, struct stage *s);
int phase_begin(struct tester *t, uint32_t phase, uint32_t size, uint32_t count, int64_t deadline,
		char *why, size_t len);
int phase_end(struct tester *t, struct pp_phase_done *d, int64_t deadline, char *why, size_t len);
int rc_round_trip(struct tester *t, unsigned size, int64_t deadline);

/* path_rtt_clock.c: the clock of round trips. CLOCK_MONOTONIC, or where the
 * kernel's clocksource is a device (hpet, acpi_pm: a read costs a trip to
 * it, serialised with every vCPU under qemu) the TSC as perftest reads it,
 * at the rate measured against CLOCK_MONOTONIC over the stage. */
struct rtt_clock {
	bool tsc;		/* stamps are TSC ticks until rtt_clock_to_ns() */
	uint64_t start_ns, start_tsc;
	unsigned cpu;		/* of the last TSC stamp */
	unsigned moved;		/* round trips stamped on two CPUs: not timed */
	char slow_source[32];	/* the clocksource when it is a device, else "" */
};
/* The first stamp. */
uint64_t rtt_clock_start(struct rtt_clock *c);
/* The next stamp; *same_cpu false when the span since the last stamp cannot
 * be timed (two CPUs' counters need not agree). */
uint64_t rtt_clock_stamp(struct rtt_clock *c, bool *same_cpu);
/* Spans between stamps, to nanoseconds, in place. */
void rtt_clock_to_ns(struct rtt_clock *c, uint64_t *v, unsigned n);
/* What the measured text says of the clock ("" when nothing). */
void rtt_clock_note(const struct rtt_clock *c, char *buf, size_t len);

/* path_stage_lat.c, path_stage_bw.c, path_stage_ud.c */
void stage_latency(struct tester *t, struct stage *s);
void stage_rdma_bw(struct tester *t, struct stage *s, int opcode);
void stage_send_bw(struct tester *t, struct stage *s);
void stage_ud(struct tester *t, struct stage *s);
void stage_mtu(struct tester *t, struct stage *s);

/* path_counters.c */
void ctrs_begin(struct tester *t, struct stage_ctrs *c);
void ctrs_end(struct tester *t, struct stage *s, const struct stage_ctrs *c);
void stage_counters(struct tester *t, struct stage *s);

/* path_control.c */
/* Sends request m and reads its reply of type reply into m, past the
 * replies owed to keepalives. 0, or a negative errno with why[] set. */
int ctl_ask(struct tester *t, struct pp_msg *m, uint8_t reply, int64_t deadline, char *why, size_t len);
/* Reads the keepalive replies that have arrived, so that a closed control
 * channel shows behind them (peer_gone()). */
void ctl_collect(struct tester *t);
void peer_keepalive(struct tester *t);

/* path_diagnose.c */
bool peer_gone(struct tester *t);
void no_answer_verdict(struct tester *t, struct stage *s, const char *what, bool got_through);
void wc_hint(struct tester *t, struct stage *s, int status, bool got_through);
/* Where the RC QP retries forever: did packets arrive while no completion did? */
enum stall_heard { STALL_UNHEARD, STALL_SILENT, STALL_HEARD };
void stall_verdict(struct tester *t, struct stage *s, const char *done, int rc, const char *what, unsigned ops,
		   enum stall_heard heard);

/* path_results.c */
void emit_stage(const struct stage *s);
void emit_local_addresses(void);
enum verdict run_verdict(const struct peer_run *pr);
void text_row_header(void);
void text_row(const struct peer_run *pr);
void json_run(const struct peer_run *pr);

/* path_run.c */
void run_stages_into(struct tester *t, struct peer_run *pr, bool emit_now);
void tester_cleanup(struct tester *t);
void report_no_rdma_host(void);
int test_one_peer(struct tester *t);

/* path_many_peers.c */
int test_many_peers(const struct tester *tmpl, const struct peer_list *pl, unsigned parallel);

#endif
