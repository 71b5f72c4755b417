// SPDX-License-Identifier: GPL-2.0-or-later
/* GID tables from sysfs; see gid.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "gid.h"
#include "sysfs.h"

#define GID_MAX_ENTRIES 4096

int gid_parse(const char *text, uint8_t raw[16])
{
	unsigned v[8];
	char tail;

	if (sscanf(text, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
		   &v[7], &tail) != 8)
		return -EINVAL;
	for (int i = 0; i < 8; i++) {
		raw[2 * i] = (uint8_t)(v[i] >> 8);
		raw[2 * i + 1] = (uint8_t)v[i];
	}
	return 0;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The address a RoCE GID carries: IPv4-mapped (::ffff:a.b.c.d) or IPv6. */
static void decode_ip(struct gid_entry *g)
{
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (!memcmp(g->raw, v4mapped, sizeof(v4mapped))) {
		g->family = AF_INET;
		inet_ntop(AF_INET, g->raw + 12, g->ip, sizeof(g->ip));
		return;
	}
	g->family = AF_INET6;
	g->link_local = g->raw[0] == 0xfe && (g->raw[1] & 0xc0) == 0x80;
	inet_ntop(AF_INET6, g->raw, g->ip, sizeof(g->ip));
}

static enum gid_type parse_type(const char *s, bool ethernet)
{
	if (!strcmp(s, "RoCE v2"))
		return GID_TYPE_ROCE_V2;
	/* sysfs says "IB/RoCE v1" for both: the link layer tells them apart */
	if (!strcmp(s, "IB/RoCE v1") || !strcmp(s, "RoCE v1") || !strcmp(s, "IB"))
		return ethernet ? GID_TYPE_ROCE_V1 : GID_TYPE_IB;
	return GID_TYPE_UNKNOWN;
}

struct read_ctx {
	const char *base;	/* /sys/class/infiniband/DEV/ports/N */
	bool with_empty;
	struct gid_table *t;
};

/* Type, IP and the rest of a used slot, once raw/text/type/ndev are in. */
static void complete_entry(struct gid_entry *g, bool ethernet)
{
	if (g->type == GID_TYPE_UNKNOWN && !ethernet)
		g->type = GID_TYPE_IB;
	if (g->type == GID_TYPE_ROCE_V1 || g->type == GID_TYPE_ROCE_V2)
		decode_ip(g);
}

static int append(struct gid_table *t, const struct gid_entry *g)
{
	if (t->n == t->cap) {
		unsigned ncap = t->cap ? 2 * t->cap : 16;
		struct gid_entry *e = realloc(t->e, ncap * sizeof(*e));

		if (!e)
			return -1;
		t->e = e;
		t->cap = ncap;
	}
	t->e[t->n++] = *g;
	return 0;
}

static int add_entry(const char *name, void *data)
{
	struct read_ctx *c = data;
	struct gid_entry g = { 0 };
	char buf[64], *end;
	unsigned long idx = strtoul(name, &end, 10);

	if (*end || end == name || idx >= GID_MAX_ENTRIES)
		return 0;
	g.index = (unsigned)idx;
	if (fs_readf(buf, sizeof(buf), "%s/gids/%lu", c->base, idx) < 0 || gid_parse(buf, g.raw))
		return 0;
	snprintf(g.text, sizeof(g.text), "%s", buf);
	g.empty = all_zero(g.raw, sizeof(g.raw));
	if (g.empty && !c->with_empty)
		return 0;
	if (!g.empty) {
		/* both files fail with EINVAL for an unused slot */
		if (fs_readf(buf, sizeof(buf), "%s/gid_attrs/types/%lu", c->base, idx) >= 0)
			g.type = parse_type(buf, c->t->ethernet);
		if (fs_readf(buf, sizeof(buf), "%s/gid_attrs/ndevs/%lu", c->base, idx) >= 0)
			snprintf(g.ndev, sizeof(g.ndev), "%s", buf);
		complete_entry(&g, c->t->ethernet);
	}
	return append(c->t, &g);
}

int gid_table_add(struct gid_table *t, unsigned index, const char *text, enum gid_type type, const char *ndev)
{
	struct gid_entry g = { .index = index, .type = type };

	if (index >= GID_MAX_ENTRIES || gid_parse(text, g.raw) || all_zero(g.raw, sizeof(g.raw)))
		return 0;
	snprintf(g.text, sizeof(g.text), "%s", text);
	snprintf(g.ndev, sizeof(g.ndev), "%s", ndev);
	complete_entry(&g, t->ethernet);
	return append(t, &g) ? -ENOMEM : 0;
}

static int cmp_index(const void *a, const void *b)
{
	const struct gid_entry *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int gid_table_init(const char *dev, unsigned port, struct gid_table *t)
{
	char base[256], ll[32];

	memset(t, 0, sizeof(*t));
	if (!dev[0] || strchr(dev, '/'))
		return -EINVAL;
	snprintf(base, sizeof(base), "/sys/class/infiniband/%s/ports/%u", dev, port);
	if (fs_readf(ll, sizeof(ll), "%s/link_layer", base) >= 0)
		t->ethernet = !strcmp(ll, "Ethernet");
	return 0;
}

int gid_table_read_sysfs(const char *dev, unsigned port, bool with_empty, struct gid_table *t)
{
	char base[256], dir[300];
	struct read_ctx c = { .base = base, .with_empty = with_empty, .t = t };
	int n;

	snprintf(base, sizeof(base), "/sys/class/infiniband/%s/ports/%u", dev, port);
	snprintf(dir, sizeof(dir), "%s/gids", base);
	n = fs_list(dir, add_entry, &c);
	return n < 0 ? n : 0;
}

void gid_table_sort(struct gid_table *t)
{
	/* fs_list sorts by name ("10" < "2"): order by number */
	if (t->n > 1)
		qsort(t->e, t->n, sizeof(*t->e), cmp_index);
}

void gid_table_free(struct gid_table *t)
{
	free(t->e);
	t->e = NULL;
	t->n = t->cap = 0;
}

const struct gid_entry *gid_for_ip(const struct gid_table *t, const char *ip, enum gid_type want)
{
	const struct gid_entry *v1 = NULL;

	for (unsigned i = 0; i < t->n; i++) {
		const struct gid_entry *g = &t->e[i];

		if (g->empty || !g->ip[0] || strcmp(g->ip, ip))
			continue;
		if (want != GID_TYPE_UNKNOWN) {
			if (g->type == want)
				return g;
			continue;
		}
		if (g->type == GID_TYPE_ROCE_V2)
			return g;
		if (!v1)
			v1 = g;
	}
	return v1;
}

static const struct gid_entry *first_match(const struct gid_table *t, enum gid_type type, int family,
					   bool routable)
{
	for (unsigned i = 0; i < t->n; i++) {
		const struct gid_entry *g = &t->e[i];

		if (g->empty || g->type != type || (family && g->family != family) || (routable && g->link_local))
			continue;
		return g;
	}
	return NULL;
}

const struct gid_entry *gid_recommended(const struct gid_table *t)
{
	const struct gid_entry *g;

	if (!t->ethernet) {
		g = first_match(t, GID_TYPE_IB, 0, false);
		return g ? g : (t->n ? &t->e[0] : NULL);
	}
	if ((g = first_match(t, GID_TYPE_ROCE_V2, AF_INET, true)) ||
	    (g = first_match(t, GID_TYPE_ROCE_V2, AF_INET6, true)) ||
	    (g = first_match(t, GID_TYPE_ROCE_V2, 0, false)))
		return g;
	for (unsigned i = 0; i < t->n; i++)
		if (!t->e[i].empty)
			return &t->e[i];
	return NULL;
}

const char *gid_type_token(enum gid_type t)
{
	switch (t) {
	case GID_TYPE_IB: return "ib";
	case GID_TYPE_ROCE_V1: return "roce_v1";
	case GID_TYPE_ROCE_V2: return "roce_v2";
	default: return "unknown";
	}
}

const char *gid_type_text(enum gid_type t)
{
	switch (t) {
	case GID_TYPE_IB: return "IB";
	case GID_TYPE_ROCE_V1: return "RoCE v1";
	case GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "unknown";
	}
}

enum gid_type gid_type_from_token(const char *tok)
{
	if (!strcmp(tok, "ib"))
		return GID_TYPE_IB;
	if (!strcmp(tok, "roce_v1"))
		return GID_TYPE_ROCE_V1;
	if (!strcmp(tok, "roce_v2"))
		return GID_TYPE_ROCE_V2;
	return GID_TYPE_UNKNOWN;
}
