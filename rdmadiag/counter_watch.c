// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `rdmadiag counter watch`: deltas and rates per interval of the counters
 * that changed (JSON lines with -j). See counter_int.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "counter_int.h"
#include "output.h"

/* ---- watch ---- */

struct watch_opts {
	double interval;
	unsigned long long count;	/* 0: until interrupted */
	bool all;			/* rows that did not change too */
};

static void print_row(const struct port_ctr *p, const char *group, const char *counter, const char *source,
		      uint64_t delta, double secs, uint64_t value)
{
	counter_port_begin(p);
	if (out_is_json()) {
		if (p->netdev[0])
			out_str(&ctr_fields[F_NETDEV], p->netdev);
		out_token(&ctr_fields[F_GROUP], group);
	}
	out_str(&ctr_fields[F_COUNTER], counter);
	if (source)
		out_token(&ctr_fields[F_SOURCE], source);
	out_u64(&ctr_fields[F_DELTA], delta);
	out_double(&ctr_fields[F_RATE], secs > 0 ? delta / secs : 0, 1);
	out_u64(&ctr_fields[F_VALUE], value);
	out_obj_end();
}

/* Rows of one port: vendor-neutral kinds, or with -d every raw counter. */
static int port_rows(const struct sample *old, const struct port_ctr *p, double secs, bool all)
{
	int rows = 0;

	if (g_opts.details) {
		for (int i = 0; i < p->set.n; i++) {
			const struct stat_counter *c = &p->set.c[i], *o = sample_find_old(old, p, c);
			uint64_t d = sample_delta_of(c->value, o ? o->value : c->value);

			if (!d && !all)
				continue;
			print_row(p, ctr_group_key(counter_group(c)), c->name, stat_source_token(c->src), d, secs,
				  c->value);
			rows++;
		}
		return rows;
	}
	for (int k = 1; k < K_COUNT; k++) {
		bool present;
		uint64_t d = sample_kind_delta(old, p, k, &present);

		if (!present || (!d && !all))
			continue;
		print_row(p, ctr_group_key(ctr_kinds[k].group), ctr_kinds[k].key, NULL, d, secs,
			  ctr_kind_sum(&p->set, k, &present));
		rows++;
	}
	return rows;
}

/* Rows whose counters changed, whether or not --all shows the others. */
static int count_rows(const struct sample *old, const struct sample *now)
{
	int rows = 0;

	for (int i = 0; i < now->n; i++) {
		const struct port_ctr *p = &now->p[i];

		if (g_opts.details) {
			for (int j = 0; j < p->set.n; j++) {
				const struct stat_counter *o = sample_find_old(old, p, &p->set.c[j]);

				rows += sample_delta_of(p->set.c[j].value, o ? o->value : p->set.c[j].value) != 0;
			}
			continue;
		}
		for (int k = 1; k < K_COUNT; k++) {
			bool present;
			uint64_t d = sample_kind_delta(old, p, k, &present);

			rows += present && d;
		}
	}
	return rows;
}

static void print_interval(unsigned long long seq, const struct sample *old, const struct sample *now, bool all)
{
	double secs = now->mono - old->mono;
	time_t t = (time_t)now->wall;
	char clock[16];

	strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&t));
	out_obj_begin(NULL);
	if (out_is_json()) {
		out_u64(&ctr_fields[F_SEQ], seq);
		out_double(&ctr_fields[F_TIME], now->wall, 3);
	} else {
		out_str(&ctr_fields[F_CLOCK], clock);
	}
	out_double(&ctr_fields[F_INTERVAL], secs, 3);
	out_u64(&ctr_fields[F_ROWS], count_rows(old, now));
	out_list_begin("rows");
	for (int i = 0; i < now->n; i++)
		port_rows(old, &now->p[i], secs, all);
	out_list_end();
	out_obj_end();
}

int counter_watch_args(struct cmd_ctx *ctx)
{
	double interval;

	if (sample_interval_opt(ctx, 1, &interval))
		return EXIT_USAGE;
	return args_dev_port(ctx);
}

int counter_watch(struct cmd_ctx *ctx)
{
	struct watch_opts w = { .all = ctx_opt(ctx, O_ALL)->set };
	struct sample old, now;
	int rc;

	if (sample_interval_opt(ctx, 1, &w.interval))	/* checked before: says nothing */
		return EXIT_USAGE;
	w.count = ctx_opt_uint(ctx, O_COUNT, 0);
	rc = sample_take_first(ctx, &old);
	if (rc)
		return rc;
	rc = sample_port_errors(&old);
	if (rc) {
		sample_free(&old);
		return rc;
	}
	w.interval = sample_respect_lifespan(w.interval, &old);
	if (out_is_json())
		out_set_stream(true);
	install_stop_handler();
	double start = old.mono;

	for (unsigned long long seq = 1; !w.count || seq <= w.count; seq++) {
		/* Sleep to the next tick counted from the first sample, so slow reads
		 * do not make the intervals drift. */
		double wait = start + seq * w.interval - mono_now();

		/* Far behind (slow reads, a stopped terminal): start the ticks anew
		 * rather than take samples closer than the cache lifespan. */
		if (wait < w.interval / 2) {
			start += w.interval - wait;
			wait = w.interval;
		}
		if (sleep_seconds(wait))
			break;
		memset(&now, 0, sizeof(now));
		sample_read(&now, &old);
		print_interval(seq, &old, &now, w.all);
		out_flush();	/* each interval reaches a pipe or log now, not when a buffer fills */
		sample_free(&old);
		old = now;
	}
	sample_free(&old);
	return EXIT_OK;
}

const struct cmd_opt counter_watch_opts[] = {
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between samples (default 1; at least the counters' cache lifespan)", .max = 3600 },
	{ .id = O_COUNT, .kind = OPT_UINT, .metavar = "N",
	  .help = "stop after N intervals (default: until interrupted)", .min = 1, .max = 1000000000 },
	{ .id = O_ALL, .kind = OPT_FLAG, .help = "also rows that did not change" },
	{ 0 },
};
