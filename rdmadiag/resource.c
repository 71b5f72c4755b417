// SPDX-License-Identifier: GPL-2.0-or-later
/* Filters, owners and the per-device dump loop of resource objects; see resource.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/sysfs.h"
#include "../netlink/rdma.h"
#include "common.h"
#include "lower_err.h"
#include "output.h"
#include "resource.h"

/* ---- filters ---- */

static const struct rfilter_key *find_key(const struct rfilter_key *keys, const char *word)
{
	for (; keys->name; keys++)
		if (!strcmp(keys->name, word))
			return keys;
	return NULL;
}


/* "lqpn rqpn type": the filter names, for a one-line usage error. */
static const char *keys_text(const struct rfilter_key *keys)
{
	static char text[256];
	size_t n = 0;

	text[0] = '\0';
	for (; keys->name && n < sizeof(text); keys++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", n ? " " : "", keys->name);
	return text;
}

static int parse_u32(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);

	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = v;
	return 0;
}

/* "7" or "5-9" */
static int parse_range(const char *item, uint64_t *lo, uint64_t *hi)
{
	char buf[32];
	char *dash;

	if (strlen(item) >= sizeof(buf))
		return -1;
	strcpy(buf, item);
	dash = strchr(buf, '-');
	if (!dash)
		return parse_u32(buf, lo) ? -1 : (*hi = *lo, 0);
	*dash = '\0';
	if (parse_u32(buf, lo) || parse_u32(dash + 1, hi) || *lo > *hi)
		return -1;
	return 0;
}

static int parse_item(struct rfilter_term *t, char *item)
{
	const struct rfilter_key *k = t->key;
	int v;

	if (t->n >= RFILTER_MAX_VALS) {
		usage_error("%s: at most %d values", k->name, RFILTER_MAX_VALS);
		return -1;
	}
	switch (k->kind) {
	case RFK_NUM:
		if (parse_range(item, &t->range[t->n].lo, &t->range[t->n].hi)) {
			usage_error("%s: '%s' is not a number or a range N-M (as in '%s 5' or '%s 5-9')", k->name,
				    item, k->name, k->name);
			return -1;
		}
		break;
	case RFK_ENUM:
		v = k->parse(item);
		if (v < 0) {
			usage_error("%s: unknown value '%s' (expected one of: %s)", k->name, item, k->values);
			return -1;
		}
		t->range[t->n].lo = t->range[t->n].hi = (uint64_t)v;
		break;
	case RFK_COMM:
		t->str[t->n] = item;
		break;
	}
	t->n++;
	return 0;
}

static int parse_term(const struct rfilter_key *k, char *value, struct rfilter_term *t)
{
	char *save = NULL;
	size_t len = strlen(value);

	t->key = k;
	t->n = 0;
	if (!len) {
		usage_error("%s: empty value", k->name);
		return -1;
	}
	/* "1,,2", "17,", ",17": a slip, not a wildcard */
	if (value[0] == ',' || value[len - 1] == ',' || strstr(value, ",,")) {
		usage_error("%s: empty item in '%s' (items are separated by single commas)", k->name, value);
		return -1;
	}
	/* The words live in argv for the whole command, so splitting in place is safe. */
	for (char *item = strtok_r(value, ",", &save); item; item = strtok_r(NULL, ",", &save))
		if (parse_item(t, item))
			return -1;
	return 0;
}

/* The words from argv[i] on (KEY VALUE pairs) give key k again: filters are
 * ANDed, so a second "lqpn 18" after "lqpn 17" could only select nothing. */
static int repeated_key(const struct cmd_ctx *ctx, int i, const struct rfilter_key *k)
{
	for (int j = i + 2; j + 1 < ctx->argc; j += 2)
		if (!strcmp(ctx->argv[j], k->name)) {
			usage_error("filter '%s' given twice: give its values as one list, as in '%s %s,%s'", k->name,
				    k->name, ctx->argv[i + 1], ctx->argv[j + 1]);
			return -1;
		}
	return 0;
}

int res_query_parse(const struct cmd_ctx *ctx, const struct rfilter_key *keys, struct res_query *q)
{
	int i = 0;

	memset(q, 0, sizeof(*q));
	if (ctx->argc > 0 && !find_key(keys, ctx->argv[0])) {
		if (parse_dev_port(ctx->argv[0], &q->sel))
			return -1;
		q->has_dev = true;
		i = 1;
	}
	for (; i < ctx->argc; i += 2) {
		const struct rfilter_key *k = find_key(keys, ctx->argv[i]);

		if (!k) {
			usage_error("unknown filter '%s' for '%s %s' (filters: %s)", ctx->argv[i], ctx->object->name,
				    ctx->action->name, keys_text(keys));
			return -1;
		}
		if (i + 1 >= ctx->argc) {
			usage_error("filter '%s' needs a value", k->name);
			return -1;
		}
		if (repeated_key(ctx, i, k))
			return -1;
		if (q->nterms >= RFILTER_MAX_TERMS) {
			usage_error("at most %d filters", RFILTER_MAX_TERMS);
			return -1;
		}
		if (parse_term(k, ctx->argv[i + 1], &q->term[q->nterms]))
			return -1;
		if (k->kind == RFK_COMM)
			q->needs_comm = true;
		q->nterms++;
	}
	return 0;
}

static struct res_query checked;	/* what the running action's check_args parsed */

int res_args_with(const struct cmd_ctx *ctx, const struct rfilter_key *keys)
{
	return res_query_parse(ctx, keys, &checked) ? EXIT_USAGE : ARGS_VALID;
}

int res_args(struct cmd_ctx *ctx)
{
	return res_args_with(ctx, ctx->action->filters);
}

const struct res_query *res_checked(void)
{
	return &checked;
}

bool res_query_single_id(const struct res_query *q, const char *id_key, uint32_t *id)
{
	const struct rfilter_term *found = NULL;

	for (int i = 0; i < q->nterms && !found; i++)	/* a key is given once (repeated_key()) */
		if (!strcmp(q->term[i].key->name, id_key))
			found = &q->term[i];
	if (!found || found->n != 1 || found->range[0].lo != found->range[0].hi)
		return false;
	*id = (uint32_t)found->range[0].lo;
	return true;
}

bool rfilter_term_has(const struct rfilter_term *t, uint64_t v)
{
	for (int i = 0; i < t->n; i++)
		if (v >= t->range[i].lo && v <= t->range[i].hi)
			return true;
	return false;
}

static bool term_match(const struct rfilter_term *t, const struct rd_res *r)
{
	uint64_t v;

	if (t->key->kind == RFK_COMM) {
		const char *comm = res_comm(r);

		for (int i = 0; comm && i < t->n; i++)
			if (!strcmp(comm, t->str[i]))
				return true;
		return false;
	}
	return rd_res_num(r, t->key->field, &v) && rfilter_term_has(t, v);
}

/* Whether res_query_match() can turn anything down: kept beside it, so that
 * a walk skips the per-object match only when it would pass everything. */
static bool res_query_filters(const struct res_query *q)
{
	return q->sel.port || q->nterms;
}

bool res_query_match(const struct res_query *q, const struct rd_res *r)
{
	/* An object the kernel gives no port (every CQ, MR, PD and SRQ; a QP
	 * still in RESET; a CM id listening on every port) belongs to the
	 * whole device, this port included: only another port rules it out. */
	if (q->sel.port && rd_res_has(r, RF_PORT) && r->port != q->sel.port)
		return false;
	for (int i = 0; i < q->nterms; i++)
		if (!term_match(&q->term[i], r))
			return false;
	return true;
}

/* ---- owners ---- */

#define COMM_CACHE 64

/* Objects of one process come in runs, so a small cache makes one /proc read
 * per process, not per object, and stays the same size at any object count. */
static struct {
	bool valid, found;
	uint32_t pid;
	char comm[64];
} comm_cache[COMM_CACHE];

const char *res_comm(const struct rd_res *r)
{
	if (r->kern_name)
		return r->kern_name;
	if (!rd_res_has(r, RF_PID))
		return NULL;

	typeof(comm_cache[0]) *c = &comm_cache[r->pid % COMM_CACHE];

	if (!c->valid || c->pid != r->pid) {
		c->valid = true;
		c->pid = r->pid;
		c->found = fs_readf(c->comm, sizeof(c->comm), "/proc/%u/comm", r->pid) > 0;
	}
	return c->found ? c->comm : NULL;
}

/* ---- the dump loop ---- */

#define MAX_DEVS 64

struct dev_list {
	int n;
	uint32_t index[MAX_DEVS];
	uint32_t nports[MAX_DEVS];
};

static int collect_dev(const struct rd_dev *d, void *data)
{
	struct dev_list *l = data;

	if (l->n < MAX_DEVS) {
		l->nports[l->n] = d->nports;
		l->index[l->n++] = d->index;
	}
	return 0;
}

/* The selected port is past the last port of the device (devs: the selected
 * device). A device reply without a port count (0) is given the benefit of
 * the doubt. */
static bool port_missing(const struct res_query *q, const struct dev_list *devs)
{
	return q->sel.port && devs->n && devs->nports[0] && q->sel.port > devs->nports[0];
}

int res_query_check_port(const struct res_query *q)
{
	struct dev_list devs = { 0 };
	int err;

	if (!q->sel.port)
		return EXIT_OK;
	err = rd_dev_each(q->sel.dev, collect_dev, &devs);
	if (err)
		return report_dev_error(q->sel.dev, err);
	return port_missing(q, &devs) ? report_no_port(q->sel.dev, q->sel.port) : EXIT_OK;
}

struct filtered {
	const struct res_query *q;
	rd_res_cb cb;
	void *data;
};

static int filtered_cb(const struct rd_res *r, void *data)
{
	struct filtered *f = data;

	return res_query_match(f->q, r) ? f->cb(r, f->data) : 0;
}

int res_walk_dev(const struct res_query *q, enum rd_res_kind kind, const char *id_key, uint32_t dev_index,
		 rd_res_cb cb, void *data)
{
	struct filtered f = { q, cb, data };
	uint32_t id = 0;
	bool one = id_key && res_query_single_id(q, id_key, &id);

	if (!res_query_filters(q))	/* no detour per object */
		return rd_res_each(kind, dev_index, one, id, cb, data);
	return rd_res_each(kind, dev_index, one, id, filtered_cb, &f);
}

int res_walk(const struct res_query *q, enum rd_res_kind kind, const char *id_key, rd_res_cb cb, void *data,
	     int *ndevs)
{
	struct dev_list devs = { 0 };
	const char *dev = q->has_dev ? q->sel.dev : NULL;
	int err;

	err = rd_dev_each(dev, collect_dev, &devs);
	if (err)
		return report_dev_error(dev, err);
	if (port_missing(q, &devs))
		return report_no_port(q->sel.dev, q->sel.port);
	if (ndevs)
		*ndevs = devs.n;
	if (devs.n == 0)
		return report_no_devices();
	for (int i = 0; i < devs.n; i++) {
		err = res_walk_dev(q, kind, id_key, devs.index[i], cb, data);
		if (err) {
			report_nl_error("reading RDMA resources from the kernel failed", err);
			return EXIT_RUNTIME;
		}
	}
	return EXIT_OK;
}

/* ---- shared fields ---- */

static const struct field link_fields[] = {
	{ "ifname", NULL, FT_STR, FF_HEAD, NULL },
	{ "dev", NULL, FT_STR, 0, NULL },
	{ "port", NULL, FT_U64, 0, NULL },
	{ "link", NULL, FT_STR, 0, NULL },
};

static const struct field owner_fields[] = {
	{ "pid", NULL, FT_U64, 0, NULL },
	{ "comm", NULL, FT_STR, 0, NULL },
	{ "owner", NULL, FT_TOKEN, FF_DETAIL, NULL },
};

/* "/PORT" at dst (room for 12 bytes) */
static void res_append_port(char *dst, uint32_t port)
{
	char digits[11];
	int n = 0;

	do {
		digits[n++] = (char)('0' + port % 10);
		port /= 10;
	} while (port);
	*dst++ = '/';
	while (n)
		*dst++ = digits[--n];
	*dst = '\0';
}

void res_row_link(struct out_row *row, const struct rd_res *r, bool as_head, struct res_row_text *t)
{
	if (!out_is_json()) {
		/* "DEV/PORT" once per object: without snprintf, which shows at 10k objects */
		size_t n = strnlen(r->dev_name, sizeof(t->link) - 12);

		memcpy(t->link, r->dev_name, n);
		t->link[n] = '\0';
		if (rd_res_has(r, RF_PORT))
			res_append_port(t->link + n, r->port);
		row_str(row, &link_fields[as_head ? 0 : 3], t->link);
		return;
	}
	row_str(row, &link_fields[1], r->dev_name);
	if (rd_res_has(r, RF_PORT))
		row_u64(row, &link_fields[2], r->port);
}

void res_row_owner(struct out_row *row, const struct rd_res *r, struct res_row_text *t)
{
	const char *comm = res_comm(r);

	if (rd_res_has(r, RF_PID))
		row_u64(row, &owner_fields[0], r->pid);
	if (r->kern_name && !out_is_json()) {
		/* As iproute2 prints it: brackets tell a kernel owner from a process. */
		snprintf(t->owner, sizeof(t->owner), "[%s]", r->kern_name);
		row_str(row, &owner_fields[1], t->owner);
	} else {
		row_str(row, &owner_fields[1], comm);
	}
	row_str(row, &owner_fields[2], r->kern_name ? "kernel" : "user");
}

void res_out_link(const struct rd_res *r, bool as_head)
{
	struct out_row row;	/* not zeroed: only row.n is read before a cell is set */
	struct res_row_text t;

	row.n = 0;
	res_row_link(&row, r, as_head, &t);
	out_row(&row);
}

void res_out_owner(const struct rd_res *r)
{
	struct out_row row;	/* not zeroed: only row.n is read before a cell is set */
	struct res_row_text t;

	row.n = 0;
	res_row_owner(&row, r, &t);
	out_row(&row);
}
