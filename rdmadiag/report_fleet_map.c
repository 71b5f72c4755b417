// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The indexes of the fleet model (report_fleet.h): growable arrays, the
 * string map that interns node names, check ids and addresses, and the map
 * of the pairs read. See report_fleet_int.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_fleet_int.h"

/* ---- growable arrays ---- */

int rf_grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 64;
	void *p = realloc(*arr, nc * elem);

	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

/* ---- string map ---- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int strmap_rehash(struct strmap *m)
{
	size_t nc = m->cap ? m->cap * 2 : 256;
	char **keys = calloc(nc, sizeof(*keys));
	uint32_t *vals = calloc(nc, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = hash_str(m->keys[i]) & (nc - 1);

		while (keys[j])
			j = (j + 1) & (nc - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = nc;
	return 0;
}

/* Slot of key; inserted with RF_NONE when absent and insert is set. NULL: absent or no memory. */
uint32_t *strmap_slot(struct strmap *m, const char *key, bool insert, const char **stored)
{
	if (insert && (m->n + 1) * 2 > m->cap && strmap_rehash(m))
		return NULL;
	if (!m->cap)
		return NULL;
	size_t j = hash_str(key) & (m->cap - 1);

	while (m->keys[j] && strcmp(m->keys[j], key))
		j = (j + 1) & (m->cap - 1);
	if (!m->keys[j]) {
		if (!insert || !(m->keys[j] = strdup(key)))
			return NULL;
		m->vals[j] = RF_NONE;
		m->n++;
	}
	if (stored)
		*stored = m->keys[j];
	return &m->vals[j];
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- interned things ---- */

/* Names come from files: keep them short and printable for the terminal. */
void rf_clean_name(char *out, size_t len, const char *in)
{
	size_t i = 0;

	for (; in[i] && i + 1 < len && i < NAME_MAX_LEN; i++)
		out[i] = (unsigned char)in[i] > ' ' && (unsigned char)in[i] < 0x7f ? in[i] : '?';
	out[i] = '\0';
	if (!i)
		snprintf(out, len, "?");
}

/* The map slot of raw's cleaned text, inserted if new; NULL without memory. */
static uint32_t *intern(struct strmap *map, const char *raw, const char **stored)
{
	char key[NAME_MAX_LEN + 1];

	rf_clean_name(key, sizeof(key), raw);
	return strmap_slot(map, key, true, stored);
}

uint32_t rf_node_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	uint32_t *slot = intern(&m->node_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_node *n = PUSH(m->nodes, m->nnodes, m->cap_nodes);

		if (!n)
			return RF_NONE;
		memset(n, 0, sizeof(*n));
		n->name = stored;
		*slot = (uint32_t)(m->nnodes - 1);
	}
	return *slot;
}

uint32_t rf_id_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	uint32_t *slot = intern(&m->id_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_id *e = PUSH(m->ids, m->nids, m->cap_ids);

		if (!e)
			return RF_NONE;
		*e = (struct rf_id){ .id = stored };
		*slot = (uint32_t)(m->nids - 1);
	}
	return *slot;
}

/* Index of an address text; its owner is set by the report that lists it. */
uint32_t rf_addr_index(struct fleet_model *m, const char *raw)
{
	const char *stored;
	struct in6_addr a6;
	char canon[INET6_ADDRSTRLEN];
	uint32_t *slot;

	/* One IPv6 address has many spellings (fd00:0077::0002, FD00:77::2): a peer
	 * typed one way is the node whose addresses list it another way. */
	if (inet_pton(AF_INET6, raw, &a6) == 1 && inet_ntop(AF_INET6, &a6, canon, sizeof(canon)))
		raw = canon;
	slot = intern(&m->addr_map, raw, &stored);

	if (!slot)
		return RF_NONE;
	if (*slot == RF_NONE) {
		struct rf_addr *e = PUSH(m->addrs, m->naddrs, m->cap_addrs);

		if (!e)
			return RF_NONE;
		*e = (struct rf_addr){ stored, RF_NONE };
		*slot = (uint32_t)(m->naddrs - 1);
	}
	return *slot;
}

/* ---- pair map ---- */

uint64_t rf_pair_key(uint32_t node, uint32_t addr)
{
	return (uint64_t)node << 32 | ((uint64_t)addr + 1);
}

static size_t pairmap_pos(const struct pairmap *pm, uint64_t key)
{
	size_t j = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (pm->cap - 1);

	while (pm->keys[j] && pm->keys[j] != key)
		j = (j + 1) & (pm->cap - 1);
	return j;
}

static int pairmap_grow(struct pairmap *pm)
{
	struct pairmap nm = { .cap = pm->cap ? pm->cap * 2 : 1024, .n = pm->n };

	nm.keys = calloc(nm.cap, sizeof(*nm.keys));
	nm.vals = malloc(nm.cap * sizeof(*nm.vals));
	if (!nm.keys || !nm.vals) {
		free(nm.keys);
		free(nm.vals);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pm->cap; i++)
		if (pm->keys[i]) {
			size_t j = pairmap_pos(&nm, pm->keys[i]);

			nm.keys[j] = pm->keys[i];
			nm.vals[j] = pm->vals[i];
		}
	free(pm->keys);
	free(pm->vals);
	*pm = nm;
	return 0;
}

/* The value slot of key: RF_NONE when inserted now; NULL absent (insert
 * unset) or no memory. */
uint32_t *pairmap_slot(struct pairmap *pm, uint64_t key, bool insert)
{
	size_t j;

	if (insert && (pm->n + 1) * 2 > pm->cap && pairmap_grow(pm))
		return NULL;
	if (!pm->cap)
		return NULL;
	j = pairmap_pos(pm, key);
	if (!pm->keys[j]) {
		if (!insert)
			return NULL;
		pm->keys[j] = key;
		pm->vals[j] = RF_NONE;
		pm->n++;
	}
	return &pm->vals[j];
}
