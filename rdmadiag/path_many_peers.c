// SPDX-License-Identifier: GPL-2.0-or-later
/* `path test` against many peers (peer A peer B ..., --peers FILE): workers
 * test --parallel peers at once, each with a tester of its own; the table or
 * the JSON list of peers follows. */
#include <pthread.h>
#include <stdlib.h>

#include "common.h"
#include "output.h"
#include "path.h"
#include "path_int.h"
#include "path_peers.h"
#include "rdmadiag.h"

/* Workers take the next peer from a shared index; each peer gets its own
 * tester (socket, QPs, CQs, MRs): nothing of a run is shared but the output,
 * which one lock serialises. */
struct fleet {
	const struct tester *tmpl;
	struct peer_run *runs;
	unsigned n, next;
	pthread_mutex_t lock;
	bool stream_text;	/* text: print each peer as it ends */
};

static void print_finished(struct fleet *f, const struct peer_run *pr)
{
	if (!f->stream_text)
		return;
	if (g_opts.details) {
		out_text("peer %s:\n", pr->peer);
		for (unsigned i = 0; i < pr->nst; i++)
			emit_stage(&pr->st[i]);
		check_print_summary(&pr->sum);
		out_text("\n");
	} else {
		text_row(pr);
	}
	out_flush();
}

static void test_peer_into(const struct tester *tmpl, struct peer_run *pr)
{
	struct tester t = *tmpl;

	t.fd = -1;
	t.peer = pr->peer;
	t.run_deadline = t.timeout_s ? pp_now_ms() + (int64_t)t.timeout_s * 1000 : INT64_MAX;
	run_stages_into(&t, pr, false);
	tester_cleanup(&t);
}

static void *fleet_worker(void *arg)
{
	struct fleet *f = arg;

	for (;;) {
		pthread_mutex_lock(&f->lock);
		unsigned i = f->next < f->n && !path_stop ? f->next++ : f->n;
		pthread_mutex_unlock(&f->lock);
		if (i >= f->n)
			return NULL;
		test_peer_into(f->tmpl, &f->runs[i]);
		pthread_mutex_lock(&f->lock);
		print_finished(f, &f->runs[i]);
		pthread_mutex_unlock(&f->lock);
	}
}

static void fleet_report(const struct fleet *f, struct check_summary *peers)
{
	for (unsigned i = 0; i < f->n; i++)
		check_tally(peers, f->runs[i].done ? run_verdict(&f->runs[i]) : V_SKIP);
	if (out_is_json()) {
		emit_local_addresses();
		out_list_begin("peers");
		for (unsigned i = 0; i < f->n; i++)
			json_run(&f->runs[i]);
		out_list_end();
		check_print_summary(peers);	/* of the peers, not of their stages */
		return;
	}
	if (g_opts.details) {
		text_row_header();
		for (unsigned i = 0; i < f->n; i++)
			text_row(&f->runs[i]);
	} else {
		for (unsigned i = 0; i < f->n; i++)
			if (!f->runs[i].done)
				text_row(&f->runs[i]);
	}
	out_text("%u peers: %d pass, %d warn, %d fail%s\n", f->n, peers->pass, peers->warn, peers->fail,
		 peers->skip ? ", some not run (interrupted)" : "");
}

static int start_workers(struct fleet *f, pthread_t *th, unsigned parallel)
{
	unsigned started = 0;

	for (unsigned i = 0; i < parallel && i < f->n; i++) {
		if (pthread_create(&th[i], NULL, fleet_worker, f))
			break;
		started++;
	}
	if (!started)
		fleet_worker(f);	/* no thread at all: run them here, one by one */
	return (int)started;
}

int test_many_peers(const struct tester *tmpl, const struct peer_list *pl, unsigned parallel)
{
	struct fleet f = { .tmpl = tmpl, .n = pl->n, .stream_text = !out_is_json() };
	struct check_summary peers = { 0 };
	pthread_t th[PATH_PARALLEL_MAX];
	int started, rc = EXIT_OK;

	f.runs = calloc(pl->n, sizeof(*f.runs));
	if (!f.runs) {
		report_error("out of memory for the peer results", NULL, "test fewer peers at once");
		return EXIT_RUNTIME;
	}
	for (unsigned i = 0; i < pl->n; i++)
		f.runs[i].peer = pl->addr[i];
	pthread_mutex_init(&f.lock, NULL);
	if (f.stream_text && !g_opts.details)
		text_row_header();
	started = start_workers(&f, th, parallel);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&f.lock);
	fleet_report(&f, &peers);
	for (unsigned i = 0; i < pl->n; i++) {
		if (f.runs[i].rc == EXIT_HOST)
			rc = EXIT_HOST;
		else if (rc == EXIT_OK && run_verdict(&f.runs[i]) == V_FAIL)
			rc = EXIT_PROBLEM;
	}
	free(f.runs);
	if (rc == EXIT_HOST)
		report_no_rdma_host();
	return rc == EXIT_OK && path_stop ? EXIT_PROBLEM : rc;
}
