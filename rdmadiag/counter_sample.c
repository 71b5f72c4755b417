// SPDX-License-Identifier: GPL-2.0-or-later
/* Samples of port counters; see counter_sample.h. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../host/source.h"
#include "../util/clock.h"
#include "../netlink/nl.h"
#include "common.h"
#include "counter_sample.h"
#include "lower_err.h"

/* ---- listing ports ---- */

struct dev_ref {
	uint32_t index;
	char name[RD_NAME_LEN];
};

struct dev_list {
	struct dev_ref *d;
	int n;
};

static int collect_dev(const struct rd_dev *d, void *data)
{
	struct dev_list *l = data;
	struct dev_ref *n = realloc(l->d, (l->n + 1) * sizeof(*n));

	if (!n)
		return 1;
	l->d = n;
	l->d[l->n].index = d->index;
	snprintf(l->d[l->n].name, sizeof(l->d[l->n].name), "%s", d->name);
	l->n++;
	return 0;
}

static int collect_port(const struct rd_port *p, void *data)
{
	struct sample *s = data;
	struct port_ctr *n = realloc(s->p, (s->n + 1) * sizeof(*n));

	if (!n)
		return 1;
	s->p = n;
	memset(&s->p[s->n], 0, sizeof(s->p[s->n]));
	snprintf(s->p[s->n].dev, sizeof(s->p[s->n].dev), "%s", p->dev_name);
	s->p[s->n].dev_index = p->dev_index;
	s->p[s->n].port = p->port;
	snprintf(s->p[s->n].netdev, sizeof(s->p[s->n].netdev), "%s", p->ndev_name);
	s->n++;
	return 0;
}

int sample_ports(const char *dev, unsigned port, struct sample *s)
{
	struct dev_list l = { 0 };
	int err;

	memset(s, 0, sizeof(*s));
	/* Devices first, then ports: no netlink request is made while a dump is
	 * still streaming in. */
	err = rd_dev_each(dev, collect_dev, &l);
	for (int i = 0; !err && i < l.n; i++) {
		err = rd_port_each(l.d[i].index, port, collect_port, s);
		/* The port dump does not repeat the device name on every kernel. */
		for (int j = 0; j < s->n; j++)
			if (!s->p[j].dev[0] && s->p[j].dev_index == l.d[i].index)
				snprintf(s->p[j].dev, sizeof(s->p[j].dev), "%s", l.d[i].name);
	}
	free(l.d);
	if (err) {
		/* the ports of the devices before the failing one: callers free only on success */
		free(s->p);
		memset(s, 0, sizeof(*s));
		return report_dev_error(dev, err);
	}
	if (s->n == 0 && dev && port)
		return report_no_port(dev, port);
	if (s->n == 0) {
		s->no_devices = !dev;
		return report_no_devices();
	}
	return 0;
}

/* ---- reading ---- */

static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double mono_now(void)
{
	return source_clock("mono", mono_s());
}

void sample_read(struct sample *s, const struct sample *ports)
{
	if (ports) {
		s->n = ports->n;
		s->p = calloc(ports->n ? ports->n : 1, sizeof(*s->p));
		if (!s->p) {
			s->n = 0;
			return;
		}
		for (int i = 0; i < s->n; i++) {
			s->p[i] = ports->p[i];
			memset(&s->p[i].set, 0, sizeof(s->p[i].set));
		}
	}
	s->started = mono_s();
	/* through the source: a replay sees the recorded interval and time */
	s->mono = source_clock("mono", mono_s());
	s->wall = source_clock("wall", clock_seconds(CLOCK_REALTIME));
	for (int i = 0; i < s->n; i++) {
		struct port_ctr *p = &s->p[i];

		stat_set_free(&p->set);
		p->err = stat_port_read(p->dev, p->dev_index, p->port, p->netdev, &p->set);
		/* netlink is read first, and nothing after it in replay */
		p->not_recorded = p->err && p->set.nl_err == -ENOENT && nl_reply_not_recorded();
	}
}

void sample_free(struct sample *s)
{
	for (int i = 0; i < s->n; i++)
		stat_set_free(&s->p[i].set);
	free(s->p);
	memset(s, 0, sizeof(*s));
}

double sample_lifespan(const struct sample *s)
{
	unsigned ms = 0;

	for (int i = 0; i < s->n; i++)
		if (s->p[i].set.lifespan_ms > ms)
			ms = s->p[i].set.lifespan_ms;
	return ms / 1000.0;
}

/* ---- the map applied ---- */

enum ctr_kind ctr_kind_of(const struct stat_counter *c, unsigned *scale)
{
	const struct ctr_map_entry *e = ctr_lookup(c->name, c->src);

	*scale = e ? e->scale : 1;
	return e ? e->kind : K_NONE;
}

uint64_t ctr_kind_sum(const struct stat_set *set, enum ctr_kind k, bool *present)
{
	uint64_t sum = 0;
	unsigned scale;

	*present = false;
	for (int i = 0; i < set->n; i++) {
		if (ctr_kind_of(&set->c[i], &scale) != k)
			continue;
		*present = true;
		sum += set->c[i].value * scale;
	}
	return sum;
}

/* ---- time ---- */

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = 1;
	interrupt_note(sig);
}

void install_stop_handler(void)
{
	/* No SA_RESTART (stop_signals_catch): nanosleep returns at once, the
	 * command ends cleanly and closes its JSON. */
	stop_signals_catch(on_stop);
}

int sleep_seconds(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - floor(s)) * 1e9) };

	/* a replay with recorded clock readings has nothing to wait for */
	if (source_clock_replayed())
		return stop_requested;
	while (!stop_requested && nanosleep(&ts, &ts) && errno == EINTR)
		;
	return stop_requested;
}

int sleep_after_sample(const struct sample *s, double interval)
{
	double wait = s->started + interval - mono_s();

	return sleep_seconds(wait > 0 ? wait : 0);
}

int parse_seconds(const char *opt, const char *s, double min, double max, double *out)
{
	double v;

	/* plain decimals only: strtod would also take "0x2", "1e3", " 5" */
	if (parse_decimal(s, min, max, &v)) {
		usage_error("%s: '%s' is not a number of seconds in %g..%g", opt, s, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* ---- a command's samples ---- */

void counter_port_name(const struct port_ctr *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u", p->dev, p->port);
}

static void report_port_error(const struct port_ctr *p)
{
	char what[160], name[RD_NAME_LEN + 8];

	counter_port_name(p, name, sizeof(name));
	snprintf(what, sizeof(what), "cannot read the counters of %s: %s", name, strerror(-p->err));
	if (p->not_recorded) {
		report_replay_gap(what);
		return;
	}
	report_error(what, "the driver offers neither netlink statistics nor sysfs hw_counters/counters for it",
		     "check 'rdma statistic show link' and /sys/class/infiniband/DEV/ports/N/; some drivers have no counters");
}

int sample_take_first(const struct cmd_ctx *ctx, struct sample *s)
{
	int rc = sample_ports(ctx->argc ? ctx->sel.dev : NULL, ctx->sel.port, s);

	if (rc)
		return rc;
	sample_read(s, NULL);
	return 0;
}

int sample_port_errors(const struct sample *s)
{
	int rc = EXIT_OK;

	for (int i = 0; i < s->n; i++) {
		if (s->p[i].err && !s->p[i].set.n) {
			report_port_error(&s->p[i]);
			rc = EXIT_HOST;
		}
	}
	return rc;
}

/* ---- deltas ---- */

const struct stat_counter *sample_find_old(const struct sample *old, const struct port_ctr *p,
					   const struct stat_counter *c)
{
	for (int i = 0; i < old->n; i++)
		if (old->p[i].dev_index == p->dev_index && old->p[i].port == p->port)
			return stat_find(&old->p[i].set, c->name, c->src);
	return NULL;
}

uint64_t sample_delta_of(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

uint64_t sample_kind_delta(const struct sample *old, const struct port_ctr *p, enum ctr_kind k, bool *present)
{
	uint64_t d = 0;
	unsigned scale;

	*present = false;
	for (int i = 0; i < p->set.n; i++) {
		const struct stat_counter *c = &p->set.c[i], *o;

		if (ctr_kind_of(c, &scale) != k)
			continue;
		*present = true;
		o = sample_find_old(old, p, c);
		d += sample_delta_of(c->value, o ? o->value : c->value) * scale;
	}
	return d;
}

double sample_respect_lifespan(double interval, const struct sample *s)
{
	double life = sample_lifespan(s);

	if (interval >= life)
		return interval;
	fprintf(stderr, "rdmadiag: note: interval raised from %g s to %g s, the counters' cache lifespan "
			"(hw_counters/lifespan)\n", interval, life);
	return life;
}

int sample_interval_opt(struct cmd_ctx *ctx, double dflt, double *out)
{
	const struct opt_value *v = ctx_opt(ctx, O_INTERVAL);

	*out = dflt;
	/* the dispatcher checked it (OPT_SECONDS); system check hands its own on as text */
	if (v->set && parse_seconds(opt_names[O_INTERVAL], v->str, INTERVAL_MIN_S, 3600, out))
		return EXIT_USAGE;
	return 0;
}
