// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict, bounded recursive-descent JSON reader; see json_read.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

#define CHUNK_MIN (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	max_align_t data[];
};

struct reader {
	const char *p, *start, *end;
	struct json_limits lim;
	size_t values;
	struct json_doc *doc;
	bool failed;
};

/* ---- arena: one free() per document whatever its shape ---- */

static void *arena_alloc(struct json_doc *doc, size_t n)
{
	struct chunk *c = doc->arena;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;

		c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = doc->arena;
		c->used = 0;
		c->size = size;
		doc->arena = c;
	}
	void *p = (char *)c->data + c->used;

	c->used += n;
	return p;
}

void json_free(struct json_doc *doc)
{
	struct chunk *c = doc->arena;

	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
	doc->arena = NULL;
	doc->root = NULL;
}

/* Empties the arena for the next document, keeping its memory as one chunk
 * as large as all it held: reading many files then costs no allocation per
 * file once the largest has been read, and no page faults on fresh memory. */
static void arena_recycle(struct json_doc *doc)
{
	struct chunk *c = doc->arena;
	size_t total = 0;

	if (c && !c->next) {
		c->used = 0;
		return;
	}
	for (; c; c = c->next)
		total += c->size;
	json_free(doc);
	if (!total)
		return;
	c = malloc(sizeof(*c) + total);
	if (!c)
		return;	/* arena_alloc tries again, chunk by chunk */
	*c = (struct chunk){ .next = NULL, .used = 0, .size = total };
	doc->arena = c;
}

/* ---- errors ---- */

__attribute__((format(printf, 2, 3))) static void fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	r->doc->error_offset = (size_t)(r->p - r->start);
	va_start(ap, fmt);
	vsnprintf(r->doc->error, sizeof(r->doc->error), fmt, ap);
	va_end(ap);
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static struct json *new_value(struct reader *r, enum json_type type)
{
	struct json *v;

	if (++r->values > r->lim.max_values) {
		fail(r, "more than %zu values", r->lim.max_values);
		return NULL;
	}
	v = arena_alloc(r->doc, sizeof(*v));
	if (!v) {
		fail(r, "out of memory");
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	v->type = type;
	return v;
}

/* ---- literals and numbers ---- */

static struct json *parse_literal(struct reader *r)
{
	static const struct { const char *word; enum json_type type; bool b; } lits[] = {
		{ "true", JSON_BOOL, true }, { "false", JSON_BOOL, false }, { "null", JSON_NULL, false },
	};

	for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
		size_t n = strlen(lits[i].word);

		if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, lits[i].word, n)) {
			struct json *v = new_value(r, lits[i].type);

			if (v)
				v->b = lits[i].b;
			r->p += n;
			return v;
		}
	}
	fail(r, "unexpected character '%c'", *r->p >= 0x20 && *r->p < 0x7f ? *r->p : '?');
	return NULL;
}

static bool is_digit(const struct reader *r, const char *q)
{
	return q < r->end && *q >= '0' && *q <= '9';
}

static struct json *num_fail(struct reader *r, const char *at, const char *msg)
{
	r->p = at;	/* the offset names the offending character */
	fail(r, "%s", msg);
	return NULL;
}

/* Reports are full of numbers like 33796.001: up to 15 digits and no
 * exponent. Their digits are an integer below 2^53 and the power of ten is
 * exact as a double, so one division is correctly rounded and gives the very
 * value strtod would, much faster. false: leave it to strtod. */
static bool exact_decimal(const char *text, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
					 1e12, 1e13, 1e14, 1e15 };
	const char *c = text + (*text == '-');
	uint64_t mant = 0;
	unsigned digits = 0, frac = 0;
	bool point = false;

	for (; *c; c++) {
		if (*c == '.') {
			point = true;
			continue;
		}
		if (*c < '0' || *c > '9' || ++digits > 15)
			return false;	/* an exponent, or too many digits */
		mant = mant * 10 + (uint64_t)(*c - '0');
		frac += point;
	}
	*out = (double)mant / pow10[frac];
	if (*text == '-')
		*out = -*out;
	return true;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static struct json *parse_number(struct reader *r)
{
	const char *q = r->p;
	char buf[64];
	struct json *v;

	if (q < r->end && *q == '-')
		q++;
	if (!is_digit(r, q))
		return num_fail(r, q, "a number needs a digit");
	if (*q == '0')
		q++;
	else
		while (is_digit(r, q))
			q++;
	if (q < r->end && *q == '.') {
		if (!is_digit(r, ++q))
			return num_fail(r, q, "a digit must follow the decimal point");
		while (is_digit(r, q))
			q++;
	}
	if (q < r->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < r->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(r, q))
			return num_fail(r, q, "a digit must follow the exponent");
		while (is_digit(r, q))
			q++;
	}
	if ((size_t)(q - r->p) >= sizeof(buf))
		return fail(r, "number longer than %zu characters", sizeof(buf) - 1), NULL;
	memcpy(buf, r->p, (size_t)(q - r->p));
	buf[q - r->p] = '\0';
	v = new_value(r, JSON_NUMBER);
	if (v && !exact_decimal(buf, &v->num))
		v->num = strtod(buf, NULL);
	r->p = q;
	return v;
}

/* ---- strings ---- */

static int hex4(const char *q)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = q[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static char *put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* \uXXXX, with a surrogate pair as one code point; r->p is at the 'u'. */
static bool unicode_escape(struct reader *r, uint32_t *cp)
{
	int hi, lo;

	if (r->end - r->p < 5 || (hi = hex4(r->p + 1)) < 0)
		return fail(r, "\\u needs four hex digits"), false;
	r->p += 5;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail(r, "lone low surrogate \\u%04x", hi), false;
	if (hi >= 0xd800 && hi <= 0xdbff) {
		if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u' || (lo = hex4(r->p + 2)) < 0 ||
		    lo < 0xdc00 || lo > 0xdfff)
			return fail(r, "high surrogate \\u%04x without its low half", hi), false;
		r->p += 6;
		*cp = 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
		return true;
	}
	if (hi == 0)
		return fail(r, "\\u0000 is not accepted"), false;
	*cp = (uint32_t)hi;
	return true;
}

static bool escape(struct reader *r, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	uint32_t cp;

	r->p++;	/* the backslash */
	if (r->p >= r->end)
		return fail(r, "string ends inside an escape"), false;
	if (*r->p == 'u') {
		if (!unicode_escape(r, &cp))
			return false;
		*o = put_utf8(*o, cp);
		return true;
	}
	e = memchr(from, *r->p, sizeof(from) - 1);
	if (!e)
		return fail(r, "unknown escape '\\%c'", *r->p >= 0x20 && *r->p < 0x7f ? *r->p : '?'), false;
	*(*o)++ = to[e - from];
	r->p++;
	return true;
}

/* Length of a valid UTF-8 sequence at q, or 0. */
static size_t utf8_len(const struct reader *r, const unsigned char *q)
{
	size_t n = *q >= 0xf0 && *q <= 0xf4 ? 4 : *q >= 0xe0 ? 3 : *q >= 0xc2 && *q < 0xe0 ? 2 : 0;

	if (!n || (size_t)(r->end - (const char *)q) < n)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((q[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Bytes a string holds as they are: ASCII but controls, '"' and '\\'. */
static const bool plain_byte[256] = {
	[0x20 ... 0x21] = true, /* '"' */ [0x23 ... 0x5b] = true, /* '\\' */ [0x5d ... 0x7f] = true,
};

/* The common case: printable ASCII up to the closing quote, copied at once.
 * NULL when the string needs decoding (escape, UTF-8, control, no end). */
static const char *plain_chars(struct reader *r)
{
	const unsigned char *q = (const unsigned char *)r->p + 1, *end = (const unsigned char *)r->end;
	size_t n;
	char *out;

	while (q < end && plain_byte[*q])
		q++;
	if (q >= end || *q != '"')
		return NULL;
	n = (size_t)(q - (const unsigned char *)r->p) - 1;
	out = arena_alloc(r->doc, n + 1);
	if (!out)
		return fail(r, "out of memory"), NULL;
	memcpy(out, r->p + 1, n);
	out[n] = '\0';
	r->p = (const char *)q + 1;
	return out;
}

/* Decodes the string at r->p (on the opening quote) into the arena. */
static const char *parse_chars(struct reader *r)
{
	const char *close, *plain = plain_chars(r);
	char *out, *o;

	if (plain || r->failed)
		return plain;
	r->p++;
	/* The raw text up to the closing quote bounds the decoded length. */
	for (close = r->p; close < r->end && *close != '"'; close += *close == '\\' ? 2 : 1)
		;
	if (close >= r->end)
		return fail(r, "string not terminated"), NULL;
	out = arena_alloc(r->doc, (size_t)(close - r->p) + 1);
	if (!out)
		return fail(r, "out of memory"), NULL;
	o = out;
	for (;;) {
		unsigned char c;

		if (r->p >= r->end)
			return fail(r, "string not terminated"), NULL;
		c = (unsigned char)*r->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(r, "control character 0x%02x inside a string", c), NULL;
		if (c == '\\') {
			if (!escape(r, &o))
				return NULL;
			continue;
		}
		if (c < 0x80) {
			*o++ = (char)c;
			r->p++;
			continue;
		}
		size_t n = utf8_len(r, (const unsigned char *)r->p);

		if (!n)
			return fail(r, "invalid UTF-8 inside a string"), NULL;
		memcpy(o, r->p, n);
		o += n;
		r->p += n;
	}
	*o = '\0';
	r->p++;
	return out;
}

static struct json *parse_value(struct reader *r, size_t depth);

static struct json *parse_string(struct reader *r)
{
	const char *s = parse_chars(r);
	struct json *v = s ? new_value(r, JSON_STRING) : NULL;

	if (v)
		v->str = s;
	return v;
}

/* ---- containers ---- */

static bool expect_char(struct reader *r, char c, const char *what)
{
	skip_ws(r);
	if (r->p < r->end && *r->p == c) {
		r->p++;
		return true;
	}
	if (r->p >= r->end)
		fail(r, "text ends where %s was expected", what);
	else
		fail(r, "expected %s", what);
	return false;
}

static struct json *parse_container(struct reader *r, size_t depth, bool is_object)
{
	char close = is_object ? '}' : ']';
	struct json *v, **tail;

	if (depth >= r->lim.max_depth)
		return fail(r, "nested deeper than %zu levels", r->lim.max_depth), NULL;
	v = new_value(r, is_object ? JSON_OBJECT : JSON_ARRAY);
	if (!v)
		return NULL;
	tail = &v->child;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return v;
	}
	for (;;) {
		const char *key = NULL;
		struct json *item;

		skip_ws(r);
		if (is_object) {
			if (r->p >= r->end || *r->p != '"')
				return fail(r, "expected a member name in quotes"), NULL;
			key = parse_chars(r);
			if (!key || !expect_char(r, ':', "':' after a member name"))
				return NULL;
		}
		item = parse_value(r, depth + 1);
		if (!item)
			return NULL;
		item->key = key;
		*tail = item;
		tail = &item->next;
		skip_ws(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (!expect_char(r, close, is_object ? "',' or '}'" : "',' or ']'"))
			return NULL;
		return v;
	}
}

static struct json *parse_value(struct reader *r, size_t depth)
{
	skip_ws(r);
	if (r->p >= r->end)
		return fail(r, "text ends where a value was expected"), NULL;
	switch (*r->p) {
	case '{': return parse_container(r, depth, true);
	case '[': return parse_container(r, depth, false);
	case '"': return parse_string(r);
	case '-': case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return parse_number(r);
	default: return parse_literal(r);
	}
}

static int parse_document(const char *text, size_t len, const struct json_limits *lim, struct json_doc *doc)
{
	struct reader r = { .p = text, .start = text, .end = text + len, .doc = doc };
	struct json *root;

	r.lim = lim ? *lim : (struct json_limits){ JSON_DEFAULT_DEPTH, JSON_DEFAULT_VALUES };
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		r.p += 3;	/* a BOM some editors add */
	}
	root = parse_value(&r, 0);
	if (root) {
		skip_ws(&r);
		if (r.p < r.end)
			fail(&r, "text after the end of the document");
	}
	if (r.failed)
		return -1;
	doc->root = root;
	return 0;
}

int json_parse(const char *text, size_t len, const struct json_limits *lim, struct json_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	return parse_document(text, len, lim, doc);
}

int json_parse_again(const char *text, size_t len, const struct json_limits *lim, struct json_doc *doc)
{
	void *arena;

	arena_recycle(doc);
	arena = doc->arena;
	memset(doc, 0, sizeof(*doc));
	doc->arena = arena;
	return parse_document(text, len, lim, doc);
}

/* ---- accessors ---- */

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (const struct json *m = obj->child; m; m = m->next)
		if (!strcmp(m->key, key))
			return m;
	return NULL;
}

const char *json_get_str(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->str : NULL;
}

bool json_get_num(const struct json *obj, const char *key, double *out)
{
	const struct json *v = json_get(obj, key);

	if (!v || v->type != JSON_NUMBER)
		return false;
	*out = v->num;
	return true;
}

const struct json *json_first(const struct json *container)
{
	if (!container || (container->type != JSON_ARRAY && container->type != JSON_OBJECT))
		return NULL;
	return container->child;
}
