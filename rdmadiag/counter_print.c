// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How `rdmadiag counter show` prints counter sets: grouped by meaning in
 * text and JSON (with the driver's own names under -d), or as Prometheus and
 * OpenMetrics families; the per-QP counters (counter_qp.c) print the same
 * way. See counter_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_int.h"
#include "counter_qp.h"
#include "output.h"
#include "prom.h"

const struct field ctr_fields[] = {
	[F_IFNAME] = { "ifname", NULL, FT_STR, FF_HEAD, NULL },
	[F_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[F_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[F_NETDEV] = { "netdev", NULL, FT_STR, 0, NULL },
	[F_LIFESPAN] = { "lifespan_ms", NULL, FT_U64, FF_DETAIL, "ms" },
	[F_GROUP] = { "group", NULL, FT_TOKEN, FF_HEAD, NULL },
	[F_ERROR] = { "error", NULL, FT_STR, 0, NULL },
	[F_SEQ] = { "seq", NULL, FT_U64, 0, NULL },
	[F_TIME] = { "timestamp", NULL, FT_DOUBLE, 0, NULL },
	[F_CLOCK] = { "clock", NULL, FT_STR, FF_HEAD, NULL },
	[F_INTERVAL] = { "interval_s", NULL, FT_DOUBLE, 0, "s" },
	[F_ROWS] = { "changed", NULL, FT_U64, 0, NULL },
	[F_COUNTER] = { "counter", NULL, FT_STR, 0, NULL },
	[F_SOURCE] = { "source", NULL, FT_TOKEN, FF_DETAIL, NULL },
	[F_DELTA] = { "delta", NULL, FT_U64, 0, NULL },
	[F_RATE] = { "rate_per_s", NULL, FT_DOUBLE, 0, "/s" },
	[F_VALUE] = { "value", NULL, FT_U64, FF_DETAIL, NULL },
};

/* One field per kind, keyed by its vendor-neutral name. */
static struct field kind_field(enum ctr_kind k)
{
	return (struct field){ ctr_kinds[k].key, NULL, FT_U64, 0, NULL };
}

enum ctr_group counter_group(const struct stat_counter *c)
{
	unsigned scale;

	return ctr_kinds[ctr_kind_of(c, &scale)].group;
}

/* ---- show: text and JSON ---- */

/* The raw counters of one group: {"name": value}, the same name from two
 * sources kept apart as "name@source". */
static void print_raw(const struct stat_set *set, enum ctr_group g)
{
	out_obj_begin("counters");
	for (int i = 0; i < set->n; i++) {
		const struct stat_counter *c = &set->c[i];
		char key[STAT_NAME_LEN + 16];

		if (counter_group(c) != g)
			continue;
		snprintf(key, sizeof(key), "%s", c->name);
		for (int j = 0; j < i; j++)
			if (!strcmp(set->c[j].name, c->name))
				snprintf(key, sizeof(key), "%s@%s", c->name, stat_source_token(c->src));
		struct field f = { key, NULL, FT_U64, 0, NULL };

		out_u64(&f, c->value);
	}
	out_obj_end();
}

static bool group_has_counters(const struct stat_set *set, enum ctr_group g)
{
	for (int i = 0; i < set->n; i++)
		if (counter_group(&set->c[i]) == g)
			return true;
	return false;
}

static void print_group(const struct stat_set *set, enum ctr_group g)
{
	out_obj_begin(ctr_group_key(g));
	if (!out_is_json())
		out_token(&ctr_fields[F_GROUP], ctr_group_key(g));
	for (int k = 1; k < K_COUNT; k++) {
		bool present;
		uint64_t v;

		if (ctr_kinds[k].group != g)
			continue;
		v = ctr_kind_sum(set, k, &present);
		if (!present)
			continue;
		struct field f = kind_field(k);

		out_u64(&f, v);
	}
	/* Text shows the driver's own names only with -d; JSON always has them. */
	if (out_is_json() || g_opts.details)
		print_raw(set, g);
	out_obj_end();
}

void counter_print_groups(const struct stat_set *set)
{
	for (int g = 0; g < G_COUNT; g++) {
		if (g == G_OTHER && !out_is_json() && !g_opts.details)
			continue;
		if (group_has_counters(set, g))
			print_group(set, g);
	}
}

void counter_port_begin(const struct port_ctr *p)
{
	char name[RD_NAME_LEN + 8];

	counter_port_name(p, name, sizeof(name));
	out_obj_begin(NULL);
	out_str(&ctr_fields[F_IFNAME], name);
	if (out_is_json()) {
		out_str(&ctr_fields[F_DEV], p->dev);
		out_u64(&ctr_fields[F_PORT], p->port);
	}
}

void counter_print_port(const struct port_ctr *p)
{
	counter_port_begin(p);
	if (p->netdev[0])
		out_str(&ctr_fields[F_NETDEV], p->netdev);
	if (p->set.lifespan_ms)
		out_u64(&ctr_fields[F_LIFESPAN], p->set.lifespan_ms);
	/* a recording without the counters says nothing about the port: the
	 * replay-gap message (errors) says what is missing, not this key */
	if (p->err && !p->set.n && !p->not_recorded)
		out_str(&ctr_fields[F_ERROR], strerror(-p->err));
	counter_print_groups(&p->set);
	out_obj_end();
}

/* ---- show: Prometheus ---- */

/* Every series of one family must be adjacent: print kind by kind over all
 * the sets (a port's, or a per-QP counter's), then the raw counters. */
static void prom_kinds(const char *prefix, const struct prom_series *s, int n, enum out_format f)
{
	for (int k = 1; k < K_COUNT; k++) {
		char name[96];
		bool family = false;

		snprintf(name, sizeof(name), "%s_%s", prefix, ctr_kind_metric(k));
		for (int i = 0; i < n; i++) {
			bool present;
			uint64_t v = ctr_kind_sum(s[i].set, k, &present);

			if (!present)
				continue;
			if (!family)
				prom_family(stdout, f, name, "counter", ctr_kinds[k].help);
			family = true;
			prom_counter(stdout, name, s[i].l, s[i].nl, v);
		}
	}
}

static void prom_raw(const char *prefix, const char *help, const struct prom_series *s, int n, enum out_format f)
{
	char name[96];
	bool family = false;

	snprintf(name, sizeof(name), "%s_driver_stat", prefix);
	for (int i = 0; i < n; i++) {
		const struct stat_set *set = s[i].set;

		for (int j = 0; j < set->n; j++) {
			enum ctr_group g = counter_group(&set->c[j]);
			struct prom_label l[PROM_SERIES_LABELS + 3];

			if (g == G_OTHER && !g_opts.details)
				continue;
			if (!family)
				prom_family(stdout, f, name, "counter", help);
			family = true;
			memcpy(l, s[i].l, sizeof(s[i].l[0]) * s[i].nl);
			l[s[i].nl] = (struct prom_label){ "stat", set->c[j].name };
			l[s[i].nl + 1] = (struct prom_label){ "source", stat_source_token(set->c[j].src) };
			l[s[i].nl + 2] = (struct prom_label){ "group", ctr_group_key(g) };
			prom_counter(stdout, name, l, s[i].nl + 3, set->c[j].value);
		}
	}
}

void counter_prom_print(const char *prefix, const char *raw_help, const struct prom_series *s, int n,
			enum out_format f)
{
	prom_kinds(prefix, s, n, f);
	prom_raw(prefix, raw_help, s, n, f);
}

void counter_prom_ports(const struct sample *s, enum out_format f)
{
	struct prom_series *series = calloc(s->n ? s->n : 1, sizeof(*series));
	char (*port)[16] = calloc(s->n ? s->n : 1, sizeof(*port));

	if (!series || !port) {
		report_error("printing the counters", "out of memory", "free memory and run it again");
		free(series);
		free(port);
		return;
	}
	for (int i = 0; i < s->n; i++) {
		snprintf(port[i], sizeof(port[i]), "%u", s->p[i].port);
		series[i].l[0] = (struct prom_label){ "device", s->p[i].dev };
		series[i].l[1] = (struct prom_label){ "port", port[i] };
		series[i].l[2] = (struct prom_label){ "netdev", s->p[i].netdev };
		series[i].nl = 3;
		series[i].set = &s->p[i].set;
	}
	counter_prom_print("rdmadiag_port",
			   "a port counter under the driver's own name (see rdmadiag-counter(8) for the map)", series,
			   s->n, f);
	free(series);
	free(port);
}
