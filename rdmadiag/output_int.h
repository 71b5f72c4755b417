/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the output layer (output.h), shared by its parts and by nothing else:
 *   output_buf.c        the buffered writer: one buffer, handed to stdio in chunks
 *   output_json_str.c   the one JSON string writer (emitter, labels, __tables)
 *   output_json.c       the JSON emitter
 *   output_text.c       the text renderer and its colours
 *   output_label.c      labels and keys of read-only fields, rendered once
 *   output.c            the front: fields, rows and the document, text or JSON
 * What every byte goes through (put, putch, putstr, the label copy) is inline
 * here: a QP list is a hundred thousand small pieces.
 */
#ifndef RDMADIAG_OUTPUT_INT_H
#define RDMADIAG_OUTPUT_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "output.h"

#define MAX_DEPTH 32
#define MAX_ERRORS 64

struct level {
	bool is_list;
	bool has_items;
};

struct out_state {
	FILE *fp;
	struct out_mode mode;	/* from out_init(): no global option is read here */
	bool stream;		/* JSON lines mode */
	int depth;
	struct level stack[MAX_DEPTH];
	/* text state */
	bool line_open;
	int text_depth;
	char *errors[MAX_ERRORS];
	int nerrors;
	bool begun;
	bool pending;		/* the top-level JSON object is begun but not yet written */
	char host[256];		/* "host" of the header; "" none */
	bool interactive;	/* out_st.fp is a terminal: every line goes out as it ends */
};
extern struct out_state out_st;

/*
 * Output is assembled in one buffer of our own and handed to stdio in large
 * chunks: a QP list is a hundred thousand small pieces, and stdio's cost per
 * call (even unlocked) was a fifth of `qp show` at 10k QPs. The writer is used
 * by one thread at a time (fleet workers of path test print under their lock).
 * The buffer goes out when full, when a top-level JSON document or the command
 * ends, at each line on a terminal, and on out_flush() (streamed events).
 */
#define OUT_BUF_SIZE (64 * 1024)

struct out_buf {
	size_t len;
	char buf[OUT_BUF_SIZE];
};
extern struct out_buf out_buf;

static inline FILE *out_fp(void)
{
	return out_st.fp ? out_st.fp : stdout;
}

/* Hands what is buffered to stdio. */
void ob_drain(void);
/* printf-style into the buffer, for the rare formatted piece. */
__attribute__((format(printf, 1, 0))) void put_vfmt(const char *fmt, va_list ap);
__attribute__((format(printf, 1, 2))) void put_fmt(const char *fmt, ...);
/* A line ended: on a terminal the user sees it now. */
void line_done(void);

static inline void put(const char *s, size_t n)
{
	if (n > OUT_BUF_SIZE - out_buf.len) {
		ob_drain();
		if (n > OUT_BUF_SIZE) {
			fwrite_unlocked(s, 1, n, out_fp());
			return;
		}
	}
	memcpy(out_buf.buf + out_buf.len, s, n);
	out_buf.len += n;
}

static inline void putch(char c)
{
	if (out_buf.len == OUT_BUF_SIZE)
		ob_drain();
	out_buf.buf[out_buf.len++] = c;
}

/* Byte by byte: labels and values are a few bytes, shorter than what
 * strlen and memcpy cost to set up. */
static inline void putstr(const char *s)
{
	size_t len = out_buf.len;

	for (; *s; s++) {
		if (len == OUT_BUF_SIZE) {
			out_buf.len = len;
			ob_drain();
			len = 0;
		}
		out_buf.buf[len++] = *s;
	}
	out_buf.len = len;
}

/* ---- JSON string writer (output_json_str.c) ---- */
void json_string(const char *s);
void json_key(const char *key);

/* ---- JSON emitter (output_json.c) ---- */
void json_begin_pending(void);
bool json_next_member(void);
void json_member(const char *key);
void json_field(const struct field *f);
void json_open(const char *key, bool is_list);
void json_close(void);
void json_errors(void);
void stream_finish(void);

/* ---- text renderer (output_text.c) ---- */
bool use_color(void);
void text_end_line(void);
void text_start_item(void);
bool text_skips(const struct field *f);
void text_put(const char *v);
void text_label(const struct field *f);
void text_value(const struct field *f, const char *v);

/* ---- labels and keys of read-only fields, rendered once ---- */

/*
 * A QP line has ten labels and a JSON QP thirteen keys: rendered once per
 * field (" lqpn " and ",\"lqpn\":", the separator in front for rows, see
 * out_row()) and copied with their length known, they cost a fraction of a
 * byte-by-byte copy. Only fields that cannot change are
 * cached: the field and its strings in the program's read-only data (the
 * tables of the object files), not a struct on the stack with a key that a
 * buffer holds (counter names, path measurements).
 */
/* Whether p lies in the program's read-only data (output_label.c). */
bool read_only(const void *p);

#define LABEL_SLOT_BITS 7
#define LABEL_SLOTS (1u << LABEL_SLOT_BITS)
/* Slots looked at from the hashed one on: a row's twenty labels never run out of them. */
#define LABEL_PROBES 8
#define LABEL_MAX 48

/* A rendered label, or label and constant value (an enum: " state RTS",
 * ",\"state\":\"rts\""). */
struct rendered {
	const struct field *f;
	const char *v;		/* the value rendered after the label; NULL: the label alone */
	int mode;		/* 0 text, 1 JSON compact, 2 JSON pretty */
	size_t len;		/* with the separator */
	size_t sep;		/* bytes of separator in front: ' ' or ','; 0 in pretty JSON */
	char text[LABEL_MAX + 1];	/* + 1: a copy without the separator stays inside */
};

extern struct rendered label_slot[LABEL_SLOTS];
struct rendered *probe_slot(const struct field *f, const char *v, int mode, unsigned first);

static inline int label_mode(void)
{
	if (!out_st.mode.json)
		return 0;
	return out_st.mode.pretty && !out_st.stream ? 2 : 1;
}

/* Writes the cached rendering of f's label or key (and v) for mode
 * (label_mode()), with the separator in front or not; false when there is none. */
static inline bool put_slot(const struct field *f, const char *v, int mode, bool with_sep)
{
	/* mixed well: fields are neighbours in a table, tokens in a string pool */
	uint64_t h = ((uintptr_t)f ^ (uintptr_t)v * 0x9e3779b97f4a7c15u) * 0xff51afd7ed558ccdu;
	unsigned first = (unsigned)(h >> (64 - LABEL_SLOT_BITS));
	struct rendered *r = &label_slot[first];
	size_t skip;

	if ((r->f != f || r->v != v || r->mode != mode) && !(r = probe_slot(f, v, mode, first)))
		return false;
	skip = with_sep ? 0 : r->sep;
	if (OUT_BUF_SIZE - out_buf.len < LABEL_MAX)
		ob_drain();
	/* fixed-size copies, no length loop: 16 bytes hold most labels, the slot's
	 * remaining 32 the few longer ones (" path_mig_state MIGRATED") */
	memcpy(out_buf.buf + out_buf.len, r->text + skip, 16);
	if (r->len - skip > 16)
		memcpy(out_buf.buf + out_buf.len + 16, r->text + skip + 16, LABEL_MAX - 16);
	out_buf.len += r->len - skip;
	return true;
}

static inline bool put_label(const struct field *f)
{
	return put_slot(f, NULL, label_mode(), false);
}

#endif
