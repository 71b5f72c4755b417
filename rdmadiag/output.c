// SPDX-License-Identifier: GPL-2.0-or-later
/* The front of the output layer: fields, rows and the document, rendered as
 * text or JSON from the same calls; see output.h (its parts: output_int.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_int.h"

/* ---- document ---- */

void out_begin(void)
{
	if (!out_st.fp)
		out_redirect(stdout);
	out_st.begun = true;
	if (!out_st.mode.json || out_st.stream)
		return;
	/* Written on first use, so that a command may still choose JSON lines. */
	out_st.pending = true;
}

void out_finish(void)
{
	if (!out_st.fp)
		out_redirect(stdout);
	if (out_st.mode.json && out_st.stream) {
		stream_finish();
	} else if (out_st.mode.json) {
		if (!out_st.begun)
			out_begin();
		json_begin_pending();
		while (out_st.depth > 1)
			json_close();
		if (out_st.depth == 1) {
			if (out_st.nerrors)
				json_errors();
			json_close();
		}
	} else {
		text_end_line();
	}
	out_flush();
	for (int i = 0; i < out_st.nerrors; i++)
		free(out_st.errors[i]);
	out_st.nerrors = 0;
	out_st.begun = false;
}

void out_record_error(const char *msg)
{
	if (out_st.nerrors < MAX_ERRORS)
		out_st.errors[out_st.nerrors++] = strdup(msg);
}

void out_list_begin(const char *key)
{
	if (out_st.mode.json)
		json_open(key, true);
}

void out_list_end(void)
{
	if (out_st.mode.json)
		json_close();
}

void out_obj_begin(const char *key)
{
	if (out_st.mode.json) {
		json_open(key, false);
		return;
	}
	/* Every object starts its own line; nested ones are indented. */
	text_end_line();
	out_st.text_depth++;
}

void out_obj_end(void)
{
	if (out_st.mode.json) {
		json_close();
		return;
	}
	text_end_line();
	if (out_st.text_depth > 0)
		out_st.text_depth--;
}

/* ---- values ---- */

void out_str(const struct field *f, const char *v)
{
	if (!v)
		return;
	if (out_st.mode.json) {
		json_field(f);
		json_string(v);
	} else {
		text_value(f, v);
	}
}

void out_token(const struct field *f, const char *v)
{
	out_str(f, v);
}

void out_enum(const struct field *f, const char *token, const char *text)
{
	if (out_st.mode.json) {
		out_str(f, token);
		return;
	}
	const char *col = (f->flags & FF_GOODBAD) ? out_color(token) : "";
	const char *reset = *col ? out_color_reset() : "";

	if (!text || text_skips(f))
		return;
	text_label(f);
	putstr(col);
	putstr(text);
	putstr(reset);
}

/* "00" "01" ... "99": two digits per division (a PSN has up to 8 digits). */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v ending at end; returns where they start. */
static inline char *u64_digits(uint64_t v, char *end)
{
	char *p = end;

	while (v >= 100) {
		unsigned pair = (unsigned)(v % 100) * 2;

		v /= 100;
		p -= 2;
		memcpy(p, digit_pairs + pair, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + v * 2, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

void out_u64(const struct field *f, uint64_t v)
{
	char buf[24];
	char *end = buf + sizeof(buf);
	char *text = u64_digits(v, end);

	if (out_st.mode.json) {
		json_field(f);
		put(text, (size_t)(end - text));
		return;
	}
	/* Digits need no escaping; only a field with a head, colour or unit
	 * takes the general path. */
	if (f->flags & (FF_HEAD | FF_GOODBAD) || f->unit) {
		*--end = '\0';
		text_value(f, u64_digits(v, end));
		return;
	}
	if (text_skips(f))
		return;
	text_label(f);
	put(text, (size_t)(end - text));
}

/* ---- rows ---- */

/* Room a cell needs besides a string value: separator, indentation, label,
 * number, unit. Strings are copied by loops that make their own room. */
#define CELL_ROOM (LABEL_MAX + 160)

static const uint64_t pow10_u64[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
	1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
	1000000000000000000ull, 10000000000000000000ull,
};

/* The number of decimal digits of v, without a division: its bit length times
 * log10(2) (1233 / 4096) gives the power of ten at or just above it. v | 1 has
 * as many digits as v (10^k is even) and makes 0 count as one digit. */
static inline size_t u64_ndigits(uint64_t v)
{
	uint64_t w = v | 1;
	unsigned t = ((64u - (unsigned)__builtin_clzll(w)) * 1233u) >> 12;

	return t + 1 - (w < pow10_u64[t]);
}

/* The digits of v at the end of the buffer (room made by the caller), written
 * in place: a row has seven numbers, and under emulation (the lab's TCG) a
 * copy through a scratch buffer costs more than the digits. */
static inline void put_u64_digits(uint64_t v)
{
	size_t n = u64_ndigits(v);

	u64_digits(v, out_buf.buf + out_buf.len + n);
	out_buf.len += n;
}

/* The per-value path, for what a row does not take fast: colour. */
static void cell_slow(const struct out_cell *c)
{
	switch (c->type) {
	case CELL_STR: out_str(c->f, c->str); break;
	case CELL_U64: out_u64(c->f, c->num); break;
	case CELL_ENUM: out_enum(c->f, c->str, c->text); break;
	}
}

/* json_cell_head() where it cannot copy separator and key at once. */
static __attribute__((noinline)) bool json_cell_head_slow(const struct field *f, const char *v, int mode)
{
	if (!json_next_member() || !f->key)
		return false;
	if (put_slot(f, v, mode, false))
		return v != NULL;
	json_key(f->key);
	return false;
}

/* Separator, key and, when v is not NULL, the constant value v of a member;
 * returns whether v was written. `obj` is the object the row fills in compact
 * JSON (NULL otherwise): once it has members, one copy of ",\"key\":\"v\"". */
static inline bool json_cell_head(const struct field *f, const char *v, int mode, const struct level *obj)
{
	if (obj && obj->has_items && f->key && put_slot(f, v, 1, true))
		return v != NULL;
	return json_cell_head_slow(f, v, mode);
}

static void json_cell(const struct out_cell *c, int mode, const struct level *obj)
{
	if (c->type == CELL_U64) {
		json_cell_head(c->f, NULL, mode, obj);
		put_u64_digits(c->num);
		return;
	}
	if (!c->str)
		return;
	/* Constant strings (tokens) are cached with the key; names and the like are not. */
	if (!json_cell_head(c->f, read_only(c->str) ? c->str : NULL, mode, obj))
		json_string(c->str);	/* the value, or the enum's token */
}

/* "label " after the separator: on an open line one copy of " label ". */
static void text_cell_label(const struct field *f)
{
	if (out_st.line_open && put_slot(f, NULL, 0, true))
		return;
	text_label(f);
}

/* An enum's " label TEXT" as one copy on an open line. */
static void text_enum_cell(const struct out_cell *c)
{
	if (out_st.line_open && put_slot(c->f, c->text, 0, true))
		return;
	text_label(c->f);
	putstr(c->text);
}

/* A value's text: what text_value() and out_enum() write, without colour. */
static void text_cell(const struct out_cell *c)
{
	const struct field *f = c->f;

	if ((c->type == CELL_STR && !c->str) || (c->type == CELL_ENUM && !c->text) || text_skips(f))
		return;
	if ((f->flags & FF_HEAD) && c->type != CELL_ENUM) {
		text_start_item();
		if (c->type == CELL_U64)
			put_u64_digits(c->num);
		else
			text_put(c->str);
		putch(':');
		return;
	}
	if (c->type == CELL_ENUM) {
		text_enum_cell(c);	/* enums have no unit */
		return;
	}
	text_cell_label(f);
	if (c->type == CELL_STR)
		text_put(c->str);
	else
		put_u64_digits(c->num);
	if (f->unit) {
		putch(' ');
		putstr(f->unit);
	}
}

/* The object a row fills in compact JSON, where members take the fast path. */
static const struct level *row_object(int mode)
{
	const struct level *l = out_st.depth > 0 && out_st.depth <= MAX_DEPTH ? &out_st.stack[out_st.depth - 1] : NULL;

	return mode == 1 && !out_st.pending && l && !l->is_list ? l : NULL;
}

void out_row(const struct out_row *row)
{
	int mode = label_mode();
	bool color = !mode && use_color();
	const struct level *obj = row_object(mode);

	for (unsigned i = 0; i < row->n; i++) {
		const struct out_cell *c = &row->cell[i];

		if (OUT_BUF_SIZE - out_buf.len < CELL_ROOM)
			ob_drain();
		if (mode)
			json_cell(c, mode, obj);
		else if (color && (c->f->flags & FF_GOODBAD))
			cell_slow(c);
		else
			text_cell(c);
	}
}

void out_s64(const struct field *f, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	if (out_st.mode.json) {
		json_field(f);
		putstr(buf);
		return;
	}
	text_value(f, buf);
}

void out_bool(const struct field *f, bool v)
{
	if (out_st.mode.json) {
		json_field(f);
		putstr(v ? "true" : "false");
		return;
	}
	text_value(f, v ? "yes" : "no");
}

void out_double(const struct field *f, double v, int decimals)
{
	char buf[64];

	if (!isfinite(v)) {	/* JSON has no NaN or infinity */
		if (out_st.mode.json) {
			json_field(f);
			putstr("null");
		} else {
			text_value(f, "n/a");
		}
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (out_st.mode.json) {
		json_field(f);
		putstr(buf);
		return;
	}
	text_value(f, buf);
}

void format_guid(uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x", (unsigned)(v >> 48) & 0xffff,
		 (unsigned)(v >> 32) & 0xffff, (unsigned)(v >> 16) & 0xffff, (unsigned)v & 0xffff);
}

void format_measure(char *buf, size_t len, double v, int decimals)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

void out_guid(const struct field *f, uint64_t v)
{
	char buf[32];

	format_guid(v, buf, sizeof(buf));
	out_str(f, buf);
}

void out_hex(const struct field *f, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	out_str(f, buf);
}

