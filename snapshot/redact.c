// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Redaction of snapshots (--redact); see redact.h.
 *
 * First every member is shown to redact_learn(), which collects the
 * identities the host's files hold: MACs (sysfs net/X/address), node and
 * system image GUIDs, GIDs (sysfs gids/N), IP addresses (host.txt, from the
 * rtnetlink dump) and the host name. Each gets a placeholder of the same
 * kind, derived so that related values stay related: a MAC's EUI-64 GUID
 * becomes the placeholder MAC's EUI-64, an IPv4-mapped GID holds the
 * placeholder IPv4, a link-local GID the placeholder interface id. Then
 * redact_apply() rewrites every form the values appear in: text (sysfs,
 * inet_ntop, JSON output) everywhere, and the raw bytes (both byte orders
 * for GUIDs) in the binary netlink replies, where lengths must not change.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "redact.h"

enum id_kind { ID_MAC, ID_GUID, ID_IP4, ID_ADDR16, ID_NAME };

struct ident {
	enum id_kind kind;
	unsigned char from[64], to[64];	/* raw bytes; ID_NAME: the text */
	size_t len;
	bool mapped;		/* to holds the placeholder */
};

/* One textual or binary form of an identity to replace. */
struct form {
	char *from, *to;
	size_t flen, tlen;
	enum { B_NONE, B_HEXFULL, B_HEXSHORT, B_IP4, B_NAME } boundary;
	bool binary;		/* raw bytes: only in binary members, same length */
};

struct redactor {
	struct ident *id;
	int nid;
	int count[ID_NAME + 1];	/* placeholders given, per kind */
	struct form *f;
	int nf;
	bool finished;
};

/* ---- identities ---- */

static struct ident *find_ident(struct redactor *r, enum id_kind k, const unsigned char *v, size_t len)
{
	for (int i = 0; i < r->nid; i++)
		if (r->id[i].kind == k && r->id[i].len == len && !memcmp(r->id[i].from, v, len))
			return &r->id[i];
	return NULL;
}

static void eui64_of_mac(const unsigned char *mac, unsigned char *out)
{
	out[0] = mac[0] ^ 0x02;
	out[1] = mac[1];
	out[2] = mac[2];
	out[3] = 0xff;
	out[4] = 0xfe;
	memcpy(out + 5, mac + 3, 3);
}

/* The placeholder of the nth value of a kind (n from 1). */
static void placeholder(struct redactor *r, enum id_kind k, const unsigned char *v, unsigned char *to, int n);

/* The identity for v, added when new; NULL when out of memory. */
static struct ident *learn_value(struct redactor *r, enum id_kind k, const unsigned char *v, size_t len)
{
	struct ident *id = find_ident(r, k, v, len);
	struct ident *grown;

	if (id)
		return id;
	grown = realloc(r->id, (r->nid + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	r->id = grown;
	id = &r->id[r->nid++];
	memset(id, 0, sizeof(*id));
	id->kind = k;
	id->len = len;
	memcpy(id->from, v, len);
	return id;
}

/* The placeholder of v, given now if it has none yet. */
static const unsigned char *map_value(struct redactor *r, enum id_kind k, const unsigned char *v, size_t len)
{
	struct ident *id = learn_value(r, k, v, len);
	unsigned char to[64] = { 0 };
	size_t at;

	if (!id)
		return v;
	if (!id->mapped) {
		at = (size_t)(id - r->id);
		placeholder(r, k, v, to, ++r->count[k]);	/* may grow r->id */
		id = &r->id[at];
		memcpy(id->to, to, sizeof(to));
		id->mapped = true;
	}
	return id->to;
}

static bool is_v4_mapped(const unsigned char *a)
{
	static const unsigned char prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(a, prefix, 12);
}

static void placeholder(struct redactor *r, enum id_kind k, const unsigned char *v, unsigned char *to, int n)
{
	switch (k) {
	case ID_MAC: {
		unsigned char mac[6] = { 0x02, 0, 0, 0, (unsigned char)(n >> 8), (unsigned char)n };

		memcpy(to, mac, 6);
		break;
	}
	case ID_GUID: {
		/* the EUI-64 of a known MAC follows that MAC's placeholder */
		for (int i = 0; i < r->nid; i++) {
			unsigned char eui[8];

			if (r->id[i].kind != ID_MAC || !r->id[i].mapped)
				continue;
			eui64_of_mac(r->id[i].from, eui);
			if (!memcmp(eui, v, 8)) {
				eui64_of_mac(r->id[i].to, to);
				return;
			}
		}
		unsigned char g[8] = { 0, 0, 0, 0, 0, 0x01, (unsigned char)(n >> 8), (unsigned char)n };

		memcpy(to, g, 8);
		break;
	}
	case ID_IP4: {
		unsigned char ip[4] = { 10, 0, (unsigned char)((n - 1) / 254), (unsigned char)((n - 1) % 254 + 1) };

		memcpy(to, ip, 4);
		break;
	}
	case ID_ADDR16:
		if (is_v4_mapped(v)) {
			memcpy(to, v, 12);
			memcpy(to + 12, map_value(r, ID_IP4, v + 12, 4), 4);
		} else if (v[0] == 0xfe && (v[1] & 0xc0) == 0x80) {
			memcpy(to, v, 8);	/* link-local (and IB default subnet) prefix */
			memcpy(to + 8, map_value(r, ID_GUID, v + 8, 8), 8);
		} else {
			static const unsigned char doc[16] = { 0x20, 0x01, 0x0d, 0xb8 };

			memcpy(to, doc, 16);
			to[14] = (unsigned char)(n >> 8);
			to[15] = (unsigned char)n;
		}
		break;
	case ID_NAME:
		snprintf((char *)to, sizeof(((struct ident *)0)->to), "host-%d", n);
		break;
	}
}

/* ---- learning ---- */

static bool all_zero(const unsigned char *v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (v[i])
			return false;
	return true;
}

/* "aa:bb:..." bytes, or "xxxx:xxxx:..." groups; returns the byte count. */
static size_t parse_colon_hex(const char *s, unsigned char *out, size_t max, int digits)
{
	size_t n = 0;

	while (n + (size_t)digits / 2 <= max) {
		unsigned v;
		int used = 0;

		if (!isxdigit((unsigned char)s[0]) || sscanf(s, "%x%n", &v, &used) != 1 || used != digits)
			return 0;
		for (int i = digits / 2 - 1; i >= 0; i--)
			out[n++] = (unsigned char)(v >> (8 * i));
		s += used;
		if (*s != ':')
			return *s == '\0' || *s == '\n' ? n : 0;
		s++;
	}
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

static void learn_addr16(struct redactor *r, const unsigned char *a)
{
	if (!all_zero(a, 16) && !(all_zero(a, 15) && a[15] == 1))	/* ::, ::1 */
		learn_value(r, ID_ADDR16, a, 16);
}

static void learn_ip_text(struct redactor *r, const char *text)
{
	unsigned char a[16];
	char ip[INET6_ADDRSTRLEN];

	snprintf(ip, sizeof(ip), "%.*s", (int)strcspn(text, "/ \n"), text);
	if (inet_pton(AF_INET, ip, a) == 1) {
		if (a[0] != 127)
			learn_value(r, ID_IP4, a, 4);
	} else if (inet_pton(AF_INET6, ip, a) == 1) {
		learn_addr16(r, a);
	}
}

static void learn_host_txt(struct redactor *r, const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char ifname[64], ip[128];

		if (sscanf(l, "address %63s %127s", ifname, ip) == 2)
			learn_ip_text(r, ip);
	}
}

static void learn_hw_address(struct redactor *r, const char *text)
{
	unsigned char b[32];
	size_t n = parse_colon_hex(text, b, sizeof(b), 2);

	if (n == 6 && !all_zero(b, 6) && memcmp(b, "\xff\xff\xff\xff\xff\xff", 6))
		learn_value(r, ID_MAC, b, 6);
	else if (n == 20)
		learn_addr16(r, b + 4);	/* IPoIB: QPN, then the port GID */
}

/* verbs/DEV.portN.gids: "INDEX GID TYPE NDEV" lines (verbs.c), the GIDs a
 * GID table query gave instead of sysfs gids/N. */
static void learn_verbs_gids(struct redactor *r, const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned char b[16];
		char gid[64];

		if (sscanf(l, "%*u %63s", gid) == 1 && parse_colon_hex(gid, b, 16, 4) == 16)
			learn_addr16(r, b);
	}
}

void redact_learn(struct redactor *r, const char *path, const unsigned char *data, size_t len)
{
	const char *text = (const char *)data;
	unsigned char b[16];

	if (strlen(text) != len)
		return;		/* binary: values are learnt from the text files */
	if (!strcmp(path, "host.txt"))
		learn_host_txt(r, text);
	else if (strstr(path, "/fs/sys/class/net/") && ends_with(path, "/address"))
		learn_hw_address(r, text);
	else if (strstr(path, "/fs/sys/class/infiniband/") &&
		 (ends_with(path, "/node_guid") || ends_with(path, "/sys_image_guid")) &&
		 parse_colon_hex(text, b, 8, 4) == 8 && !all_zero(b, 8))
		learn_value(r, ID_GUID, b, 8);
	else if (strstr(path, "/fs/sys/class/infiniband/") && strstr(path, "/gids/") &&
		 parse_colon_hex(text, b, 16, 4) == 16)
		learn_addr16(r, b);
	else if (strstr(path, "/verbs/") && ends_with(path, ".gids"))
		learn_verbs_gids(r, text);
}

struct redactor *redact_new(void)
{
	struct redactor *r = calloc(1, sizeof(*r));
	char host[256] = "";

	if (r && !gethostname(host, sizeof(host) - 1) && host[0]) {
		learn_value(r, ID_NAME, (const unsigned char *)host, strlen(host));
		if (strchr(host, '.')) {
			*strchr(host, '.') = '\0';
			learn_value(r, ID_NAME, (const unsigned char *)host, strlen(host));
		}
	}
	return r;
}

/* ---- forms ---- */

static void add_form(struct redactor *r, const void *from, size_t flen, const void *to, size_t tlen, int boundary,
		     bool binary)
{
	struct form *n = realloc(r->f, (r->nf + 1) * sizeof(*n));

	if (!n)
		return;
	r->f = n;
	n = &r->f[r->nf];
	n->from = malloc(flen);
	n->to = malloc(tlen ? tlen : 1);
	if (!n->from || !n->to) {
		free(n->from);
		free(n->to);
		return;
	}
	memcpy(n->from, from, flen);
	memcpy(n->to, to, tlen);
	n->flen = flen;
	n->tlen = tlen;
	n->boundary = boundary;
	n->binary = binary;
	r->nf++;
}

static void add_text(struct redactor *r, const char *from, const char *to, int boundary)
{
	if (strcmp(from, to))
		add_form(r, from, strlen(from), to, strlen(to), boundary, false);
}

static void colon_text(const unsigned char *v, size_t len, size_t group, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += (size_t)sprintf(out + n, "%s%02x", i && i % group == 0 ? ":" : "", v[i]);
}

static void reversed(const unsigned char *v, size_t len, unsigned char *out)
{
	for (size_t i = 0; i < len; i++)
		out[i] = v[len - 1 - i];
}

static void ident_forms(struct redactor *r, const struct ident *id)
{
	char a[128], b[128];
	unsigned char ra[16], rb[16];

	switch (id->kind) {
	case ID_MAC:
	case ID_GUID:
		colon_text(id->from, id->len, id->kind == ID_MAC ? 1 : 2, a);
		colon_text(id->to, id->len, id->kind == ID_MAC ? 1 : 2, b);
		add_text(r, a, b, B_HEXFULL);
		add_form(r, id->from, id->len, id->to, id->len, B_NONE, true);
		reversed(id->from, id->len, ra);
		reversed(id->to, id->len, rb);
		add_form(r, ra, id->len, rb, id->len, B_NONE, true);	/* netlink u64 on little endian */
		break;
	case ID_IP4:
		inet_ntop(AF_INET, id->from, a, sizeof(a));
		inet_ntop(AF_INET, id->to, b, sizeof(b));
		add_text(r, a, b, B_IP4);
		add_form(r, id->from, 4, id->to, 4, B_NONE, true);
		break;
	case ID_ADDR16:
		colon_text(id->from, 16, 2, a);		/* sysfs gids/N */
		colon_text(id->to, 16, 2, b);
		add_text(r, a, b, B_HEXFULL);
		colon_text(id->from, 16, 1, a);		/* IPoIB hardware address */
		colon_text(id->to, 16, 1, b);
		add_text(r, a, b, B_HEXFULL);
		inet_ntop(AF_INET6, id->from, a, sizeof(a));
		inet_ntop(AF_INET6, id->to, b, sizeof(b));
		add_text(r, a, b, B_HEXSHORT);
		add_form(r, id->from, 16, id->to, 16, B_NONE, true);
		break;
	case ID_NAME:
		add_text(r, (const char *)id->from, (const char *)id->to, B_NAME);
		break;
	}
}

static int longer_first(const void *a, const void *b)
{
	const struct form *x = a, *y = b;

	return (x->flen < y->flen) - (x->flen > y->flen);
}

/* Placeholders in kind order: MACs first, as GUIDs derived from them and
 * addresses holding those follow their placeholders. */
static void finish(struct redactor *r)
{
	static const enum id_kind order[] = { ID_MAC, ID_NAME, ID_IP4, ID_GUID, ID_ADDR16 };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (int i = 0; i < r->nid; i++)
			if (r->id[i].kind == order[k] && !r->id[i].mapped)
				map_value(r, order[k], r->id[i].from, r->id[i].len);
	for (int i = 0; i < r->nid; i++)
		ident_forms(r, &r->id[i]);
	qsort(r->f, r->nf, sizeof(*r->f), longer_first);
	r->finished = true;
}

/* ---- applying ---- */

static bool hexish(int c)
{
	return isxdigit(c) || c == ':';
}

static bool at_boundary(const struct form *f, const unsigned char *d, size_t len, size_t at)
{
	int before = at ? d[at - 1] : 0;
	int after = at + f->flen < len ? d[at + f->flen] : 0;
	int after2 = at + f->flen + 1 < len ? d[at + f->flen + 1] : 0;

	switch (f->boundary) {
	case B_HEXFULL:
		return !isxdigit(before) && !isxdigit(after);
	case B_HEXSHORT:
		return !hexish(before) && !hexish(after);
	case B_IP4:
		return !isdigit(before) && before != '.' && !isdigit(after) && !(after == '.' && isdigit(after2));
	case B_NAME:
		return !isalnum(before) && before != '-' && before != '_' && !isalnum(after) && after != '-' &&
		       after != '_';
	default:
		return true;
	}
}

/* Replaces every occurrence of one form; returns the new length. */
static size_t replace_form(const struct form *f, unsigned char **data, size_t len)
{
	unsigned char *d = *data, *out = NULL;
	size_t olen = 0, cap = 0, last = 0;

	for (size_t i = 0; i + f->flen <= len; i++) {
		if (d[i] != (unsigned char)f->from[0] || memcmp(d + i, f->from, f->flen) || !at_boundary(f, d, len, i))
			continue;
		size_t need = olen + (i - last) + f->tlen + (len - i) + 1;

		if (need > cap) {
			unsigned char *n = realloc(out, need * 2);

			if (!n) {
				free(out);
				return len;
			}
			out = n;
			cap = need * 2;
		}
		memcpy(out + olen, d + last, i - last);
		olen += i - last;
		memcpy(out + olen, f->to, f->tlen);
		olen += f->tlen;
		i += f->flen - 1;
		last = i + 1;
	}
	if (!out)
		return len;
	memcpy(out + olen, d + last, len - last);
	olen += len - last;
	out[olen] = '\0';
	free(d);
	*data = out;
	return olen;
}

/* netlink replies (netlink/...bin and its generations ~N) are binary. */
static bool binary_member(const char *path)
{
	const char *bin = strstr(path, ".bin");

	return bin && (bin[4] == '\0' || bin[4] == '~');
}

size_t redact_apply(struct redactor *r, const char *path, unsigned char **data, size_t len)
{
	bool binary = binary_member(path);

	if (!r->finished)
		finish(r);
	for (int i = 0; i < r->nf; i++)
		if (r->f[i].binary == binary)
			len = replace_form(&r->f[i], data, len);
	return len;
}

void redact_free(struct redactor *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nf; i++) {
		free(r->f[i].from);
		free(r->f[i].to);
	}
	free(r->f);
	free(r->id);
	free(r);
}
