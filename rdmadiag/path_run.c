// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One run of `path test` against one peer: the selected stages in order, each
 * timed and skipped after the first failure; the report of a single peer, and
 * what a run leaves to clean up.
 */
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common.h"
#include "output.h"
#include "path.h"
#include "path_int.h"
#include "rdmadiag.h"

/* The stages in order: each a check (check.h) that --tests may leave out. */
static const struct {
	struct check_def def;	/* id, title */
	unsigned test_bit;	/* 0: always */
} stages[ST_COUNT] = {
	[ST_CONTROL] = { { "path.control", "the control connection (TCP) reaches path serve, which answers" }, 0 },
	[ST_RESOLVE] = { { "path.resolve", "rdma_cm resolves the address and route: device, port, GID, source" }, 0 },
	[ST_CONFIG] = { { "path.config", "both hosts' link layer and GID type match; MTU and rate agree" }, 0 },
	[ST_CONNECT] = { { "path.rc_connect", "an RC QP reaches RTS on both hosts and a first message crosses" }, 0 },
	[ST_LAT] = { { "path.rc_latency", "send/receive ping-pong latency (against --expect-lat)" }, T_LAT },
	[ST_WRITE] = { { "path.write_bw", "RDMA WRITE bandwidth against the port rate (and --expect-bw)" }, T_WRITE },
	[ST_READ] = { { "path.read_bw", "RDMA READ bandwidth against the port rate (and --expect-bw)" }, T_READ },
	[ST_SEND] = { { "path.send_bw", "SEND bandwidth against the port rate (and --expect-bw)" }, T_SEND },
	[ST_UD] = { { "path.ud", "UD datagrams of the path MTU, each echoed by the peer" }, T_UD },
	[ST_MTU] = { { "path.mtu", "the largest UD payload that crosses, against both hosts' MTUs" }, T_MTU },
	[ST_COUNTERS] = { { "path.counters", "no error, retry or RNR counter moved on either host during the run" },
			  T_COUNTERS },
};

const struct check_def *path_stage_def(size_t i)
{
	return i < ST_COUNT ? &stages[i].def : NULL;
}

static void run_stage(struct tester *t, enum stage_id id, struct stage *s)
{
	struct stage_ctrs c;
	bool measuring = id == ST_LAT || id == ST_WRITE || id == ST_READ || id == ST_SEND;

	if (measuring)
		ctrs_begin(t, &c);
	progress_begin(&t->prog, stages[id].def.id, t->show_progress);
	switch (id) {
	case ST_CONTROL: stage_control(t, s); break;
	case ST_RESOLVE: stage_resolve(t, s); break;
	case ST_CONFIG:
		stage_config(t, s);
		if (pq_counters_read(t->q.local.dev, t->q.local.port, &t->before))
			t->before.n = 0;
		break;
	case ST_CONNECT: stage_connect(t, s); break;
	case ST_LAT: stage_latency(t, s); break;
	case ST_WRITE: stage_rdma_bw(t, s, IBV_WR_RDMA_WRITE); break;
	case ST_READ: stage_rdma_bw(t, s, IBV_WR_RDMA_READ); break;
	case ST_SEND: stage_send_bw(t, s); break;
	case ST_UD: stage_ud(t, s); break;
	case ST_MTU: stage_mtu(t, s); break;
	case ST_COUNTERS: stage_counters(t, s); break;
	default: break;
	}
	progress_end(&t->prog);
	if (measuring)
		ctrs_end(t, s, &c);
}

/* Runs every selected stage in order; with emit_now each is printed as soon
 * as it ends (one peer: the operator sees progress). */
void run_stages_into(struct tester *t, struct peer_run *pr, bool emit_now)
{
	for (int i = 0; i < ST_COUNT; i++) {
		struct stage *s = &pr->st[pr->nst];
		uint64_t t0 = pp_now_us();

		if (stages[i].test_bit && !(t->tests & stages[i].test_bit))
			continue;
		memset(s, 0, sizeof(*s));
		check_init(&s->r, stages[i].def.id, t->subject[0] ? t->subject : (t->peer ? t->peer : "loopback"));
		if (pr->failed) {
			check_measured(&s->r, "skipped: %s failed%s", pr->failed,
				       i == ST_RESOLVE && t->no_rdma ? "; this host has no RDMA device either" : "");
		} else {
			run_stage(t, i, s);
			s->ms = (pp_now_us() - t0) / 1e3;
			if (s->r.verdict == V_SKIP && !s->r.measured[0])
				check_verdict(&s->r, V_FAIL, "internal: the stage gave no verdict");
			if (s->r.verdict == V_FAIL)
				pr->failed = stages[i].def.id;
			if (path_stop && s->r.verdict == V_FAIL)
				check_verdict(&s->r, V_FAIL, "interrupted");
			else if (timed_out_overall(t) && s->r.verdict == V_FAIL && !s->r.hint[0])
				check_verdict(&s->r, V_FAIL, "the --timeout of the whole run expired");
		}
		check_tally(&pr->sum, s->r.verdict);
		pr->nst++;
		if (emit_now)
			emit_stage(s);
	}
	snprintf(pr->source, sizeof(pr->source), "%s", t->route.src);
	pr->rc = t->no_rdma ? EXIT_HOST : pr->sum.fail ? EXIT_PROBLEM : EXIT_OK;
	pr->done = true;
}

void tester_cleanup(struct tester *t)
{
	if (t->fd >= 0) {
		struct pp_msg m = { .type = PP_BYE };

		pp_send(t->fd, &m, pp_now_ms() + 500);
		/* Loopback: the responder leaves when we close; join before freeing our QPs. */
		shutdown(t->fd, SHUT_RDWR);
	}
	if (t->thread_running)
		pthread_join(t->thread, NULL);
	if (t->fd >= 0)
		close(t->fd);
	if (t->q_open)
		pq_close(&t->q);
}

void report_no_rdma_host(void)
{
	/* no device at all: the words of every command for that situation */
	if (!path_host_has_rdma_device()) {
		report_no_rdma();
		return;
	}
	report_error("this host cannot run the RDMA stages of path test", "no usable RDMA device or port",
		     "run it on a host with RDMA (rdmadiag dev show), or create Soft-RoCE: "
		     "rdma link add rxe0 type rxe netdev IFACE");
}

int test_one_peer(struct tester *t)
{
	struct peer_run *pr = calloc(1, sizeof(*pr));

	if (!pr) {
		report_error("out of memory", NULL, NULL);
		return EXIT_RUNTIME;
	}
	/* Who and where, for report merge; a command nesting this report
	 * (system check) names the peer itself. */
	bool header = out_is_json() && t->peer && out_at_top_level();

	if (header) {
		out_str(&run_fields[RF_PEER], t->peer);
		emit_local_addresses();
	}
	out_list_begin("stages");
	t->show_progress = true;
	run_stages_into(t, pr, true);
	out_list_end();
	check_print_summary(&pr->sum);
	if (header && pr->source[0])
		out_str(&run_fields[RF_SOURCE], pr->source);	/* text has it in the resolve stage */
	tester_cleanup(t);
	int rc = pr->rc;

	free(pr);
	if (rc == EXIT_HOST)
		report_no_rdma_host();
	return path_stop ? EXIT_PROBLEM : rc;
}
