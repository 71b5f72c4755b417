// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON rendering from one set of calls; see output.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

#define MAX_DEPTH 32
#define MAX_ERRORS 64

struct level {
	bool is_list;
	bool has_items;
};

static struct {
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
	bool interactive;	/* o.fp is a terminal: every line goes out as it ends */
} o;

/*
 * Output is assembled in one buffer of our own and handed to stdio in large
 * chunks: a QP list is a hundred thousand small pieces, and stdio's cost per
 * call (even unlocked) was a fifth of `qp show` at 10k QPs. The writer is used
 * by one thread at a time (fleet workers of path test print under their lock).
 * The buffer goes out when full, when a top-level JSON document or the command
 * ends, at each line on a terminal, and on out_flush() (streamed events).
 */
#define OUT_BUF_SIZE (64 * 1024)

static struct {
	size_t len;
	char buf[OUT_BUF_SIZE];
} ob;

static FILE *out_fp(void)
{
	return o.fp ? o.fp : stdout;
}

/* Hands what is buffered to stdio (which writes it: a chunk this large
 * bypasses its own buffer). */
static void ob_drain(void)
{
	if (ob.len)
		fwrite_unlocked(ob.buf, 1, ob.len, out_fp());
	ob.len = 0;
}

static inline void put(const char *s, size_t n)
{
	if (n > OUT_BUF_SIZE - ob.len) {
		ob_drain();
		if (n > OUT_BUF_SIZE) {
			fwrite_unlocked(s, 1, n, out_fp());
			return;
		}
	}
	memcpy(ob.buf + ob.len, s, n);
	ob.len += n;
}

static inline void putch(char c)
{
	if (ob.len == OUT_BUF_SIZE)
		ob_drain();
	ob.buf[ob.len++] = c;
}

/* Byte by byte: labels and values are a few bytes, shorter than what
 * strlen and memcpy cost to set up. */
static inline void putstr(const char *s)
{
	size_t len = ob.len;

	for (; *s; s++) {
		if (len == OUT_BUF_SIZE) {
			ob.len = len;
			ob_drain();
			len = 0;
		}
		ob.buf[len++] = *s;
	}
	ob.len = len;
}

/* printf-style into the buffer, for the rare formatted piece. */
__attribute__((format(printf, 1, 0))) static void put_vfmt(const char *fmt, va_list ap)
{
	char small[256];
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(again);
		return;
	}
	if ((size_t)n < sizeof(small)) {
		put(small, (size_t)n);
	} else {
		char *big = malloc((size_t)n + 1);

		if (big && vsnprintf(big, (size_t)n + 1, fmt, again) == n)
			put(big, (size_t)n);
		free(big);
	}
	va_end(again);
}

__attribute__((format(printf, 1, 2))) static void put_fmt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_vfmt(fmt, ap);
	va_end(ap);
}

/* A line ended: on a terminal the user sees it now, as stdio would show it. */
static void line_done(void)
{
	if (o.interactive)
		ob_drain();
}

void out_flush(void)
{
	ob_drain();
	fflush(out_fp());
}

static bool fp_interactive(FILE *fp)
{
	int fd = fileno(fp);

	return fd >= 0 && isatty(fd);
}

void out_redirect(FILE *fp)
{
	ob_drain();	/* what was written so far belongs to the stream it was meant for */
	o.fp = fp;
	o.interactive = fp && fp_interactive(fp);
}

void out_init(FILE *fp, struct out_mode mode)
{
	out_redirect(fp);
	o.mode = mode;
}

void out_set_json(void)
{
	o.mode.json = true;
}

bool out_is_json(void)
{
	return o.mode.json;
}

bool out_at_top_level(void)
{
	return o.pending || o.depth <= 1;
}

/* A command switches to JSON lines after the dispatcher began the document;
 * nothing of it was written yet, so the single document is simply dropped. */
void out_set_stream(bool on)
{
	o.stream = on;
	if (on)
		o.pending = false;
}

static bool use_color(void)
{
	if (o.mode.json || o.mode.color == COLOR_NEVER)
		return false;
	if (o.mode.color == COLOR_ALWAYS)
		return true;
	/* Asked once per stream: a syscall per coloured field shows at 10k lines. */
	static FILE *asked;
	static bool tty;

	if (asked != o.fp) {
		asked = o.fp;
		tty = isatty(fileno(o.fp)) && !getenv("NO_COLOR");
	}
	return tty;
}

const char *out_color(const char *token)
{
	static const char *const good[] = { "pass", "active", "link_up", "up", "rts", "ok", NULL };
	static const char *const bad[] = { "fail", "down", "disabled", "error", "polling", "err", NULL };
	static const char *const warn[] = { "warn", "init", "rtr", "sqd", "sqe", "skip", "unknown", NULL };

	if (!token || !use_color())
		return "";
	for (int i = 0; good[i]; i++)
		if (!strcasecmp(token, good[i]))
			return "\033[32m";
	for (int i = 0; bad[i]; i++)
		if (!strcasecmp(token, bad[i]))
			return "\033[31m";
	for (int i = 0; warn[i]; i++)
		if (!strcasecmp(token, warn[i]))
			return "\033[33m";
	return "";
}

const char *out_color_reset(void)
{
	return use_color() ? "\033[0m" : "";
}

/* ---- JSON writer ---- */

static void json_indent(void)
{
	if (!o.mode.pretty || o.stream)
		return;
	line_done();
	putch('\n');
	for (int i = 0; i < o.depth; i++)
		put("  ", 2);
}

/* Bytes a JSON string carries as they are: printable ASCII but '"' and '\\'. */
static const bool json_plain[256] = {
	[0x20 ... 0x21] = true,	/* '"' is 0x22 */
	[0x23 ... 0x5b] = true,	/* '\\' is 0x5c */
	[0x5d ... 0x7e] = true,
};

static void json_escape(unsigned char c)
{
	switch (c) {
	case '"': put("\\\"", 2); break;
	case '\\': put("\\\\", 2); break;
	case '\n': put("\\n", 2); break;
	case '\t': put("\\t", 2); break;
	case '\r': put("\\r", 2); break;
	default:
		/* Control bytes and bytes that are not ASCII are escaped so the
		 * document stays valid whatever a kernel or peer sent us. */
		put_fmt("\\u%04x", c);
	}
}

static void json_string(const char *s)
{
	size_t len = ob.len;

	/* 10k QPs make a million bytes: plain ones are copied in one loop. */
	if (len == OUT_BUF_SIZE) {
		ob_drain();
		len = 0;
	}
	ob.buf[len++] = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (len == OUT_BUF_SIZE) {
			ob.len = len;
			ob_drain();
			len = 0;
		}
		if (json_plain[*p]) {
			ob.buf[len++] = (char)*p;
			continue;
		}
		ob.len = len;
		json_escape(*p);
		len = ob.len;
	}
	ob.len = len;
	putch('"');
}

static void json_open(const char *key, bool is_list);
static void json_member(const char *key);

/* Writes the top-level object that out_begin() announced. */
static void json_begin_pending(void)
{
	if (!o.pending)
		return;
	o.pending = false;
	json_open(NULL, false);
	json_member("schema");
	put_fmt("%d", OUTPUT_SCHEMA);
	if (o.host[0]) {
		json_member("host");
		json_string(o.host);
	}
}

void out_set_host(const char *host)
{
	snprintf(o.host, sizeof(o.host), "%s", host ? host : "");
}

/* Separator and key before a new member of the current container. */
/* Separator (and indentation) before a new member; whether it takes a key. */
static bool json_next_member(void)
{
	json_begin_pending();
	if (o.depth > 0) {
		struct level *l = &o.stack[o.depth - 1];

		if (l->has_items)
			putch(',');
		l->has_items = true;
		json_indent();
		return !l->is_list;
	}
	return false;
}

static void json_key(const char *key)
{
	json_string(key);
	putstr(o.mode.pretty && !o.stream ? ": " : ":");
}

static void json_member(const char *key)
{
	if (json_next_member() && key)
		json_key(key);
}

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
extern const char __executable_start[];
extern const char __data_start[];	/* glibc's crt1: the first writable data */

static bool read_only(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)__executable_start && (uintptr_t)p < (uintptr_t)__data_start;
}

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

static struct rendered label_slot[LABEL_SLOTS];

static int label_mode(void)
{
	if (!o.mode.json)
		return 0;
	return o.mode.pretty && !o.stream ? 2 : 1;
}

/* Renders the label or key of f, and v after it, with the writer itself, into
 * the slot: text values as out_enum() writes them, JSON as json_string(). */
static bool render_label(const struct field *f, const char *v, int mode, struct rendered *r)
{
	size_t at = ob.len;
	const char *text = mode || !f->label ? f->key : f->label;

	/* Escaped, a short key or value stays far below the room asked for here. */
	if (strnlen(text, LABEL_MAX) >= LABEL_MAX || (v && strnlen(v, LABEL_MAX) >= LABEL_MAX) ||
	    OUT_BUF_SIZE - at < LABEL_MAX * 16)
		return false;	/* rare: the buffer is about to go out; render next time */
	if (mode) {
		if (mode == 1)
			putch(',');
		json_key(f->key);
		if (v)
			json_string(v);
	} else {
		putch(' ');
		putstr(f->label ? f->label : f->key);
		putch(' ');
		if (v)
			putstr(v);
	}
	if (ob.len - at > LABEL_MAX) {
		ob.len = at;
		return false;
	}
	/* r is written only now: a slot that held another label stays whole when this one does not fit */
	r->len = ob.len - at;
	r->sep = mode == 2 ? 0 : 1;
	ob.len = at;
	memcpy(r->text, ob.buf + at, r->len);
	r->f = f;
	r->v = v;
	r->mode = mode;
	return true;
}

/* The slot of f (and v) rendered for this mode; false when it cannot be cached. */
static __attribute__((noinline)) bool fill_slot(const struct field *f, const char *v, int mode,
						struct rendered *r)
{
	if (!f->key || !read_only(f) || !read_only(f->key) || (f->label && !read_only(f->label)) ||
	    (v && !read_only(v)))
		return false;
	return render_label(f, v, mode, r);
}

/* The slot from the first probe on that holds f (and v) for mode, or an
 * empty one filled now, or the first probe again, rendered over; NULL when f
 * cannot be cached. Probing, not one slot per hash: the hash is of addresses,
 * which ASLR moves, and in 3 runs of 20 two labels hashed alike and rendered
 * each other out (at worst on every row: 13k renderings for 10k QPs instead
 * of 16). */
static __attribute__((noinline)) struct rendered *probe_slot(const struct field *f, const char *v, int mode,
							     unsigned first)
{
	for (unsigned k = 0; k < LABEL_PROBES; k++) {
		struct rendered *r = &label_slot[(first + k) % LABEL_SLOTS];

		if (r->f == f && r->v == v && r->mode == mode)
			return r;
		if (!r->f)
			return fill_slot(f, v, mode, r) ? r : NULL;
	}
	return fill_slot(f, v, mode, &label_slot[first]) ? &label_slot[first] : NULL;
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
	if (OUT_BUF_SIZE - ob.len < LABEL_MAX)
		ob_drain();
	/* fixed-size copies, no length loop: 16 bytes hold most labels, the slot's
	 * remaining 32 the few longer ones (" path_mig_state MIGRATED") */
	memcpy(ob.buf + ob.len, r->text + skip, 16);
	if (r->len - skip > 16)
		memcpy(ob.buf + ob.len + 16, r->text + skip + 16, LABEL_MAX - 16);
	ob.len += r->len - skip;
	return true;
}

static bool put_label(const struct field *f)
{
	return put_slot(f, NULL, label_mode(), false);
}

/* The member of field f: separator, then its key. */
static void json_field(const struct field *f)
{
	if (json_next_member() && f->key && !put_label(f))
		json_key(f->key);
}

static void json_open(const char *key, bool is_list)
{
	json_member(key);
	putch(is_list ? '[' : '{');
	if (o.depth < MAX_DEPTH)
		o.stack[o.depth] = (struct level){ .is_list = is_list };
	o.depth++;
	/* In JSON lines every line is a document of its own: it carries the schema. */
	if (o.stream && o.depth == 1 && !is_list) {
		json_member("schema");
		put_fmt("%d", OUTPUT_SCHEMA);
	}
}

static void json_close(void)
{
	if (o.depth == 0)
		return;
	struct level *l = &o.stack[o.depth - 1];

	o.depth--;
	if (l->has_items)
		json_indent();
	putch(l->is_list ? ']' : '}');
	if (o.depth == 0) {
		putch('\n');
		out_flush();	/* a JSON line or document is complete: it goes out now */
	}
}

/* ---- text writer ---- */

static void text_end_line(void)
{
	if (o.line_open) {
		putch('\n');
		o.line_open = false;
		line_done();
	}
}

static void text_start_item(void)
{
	if (!o.line_open) {
		for (int i = 1; i < o.text_depth; i++)
			put("    ", 4);
		o.line_open = true;
	} else {
		putch(' ');
	}
}

/* ---- document ---- */

void out_begin(void)
{
	if (!o.fp)
		out_redirect(stdout);
	o.begun = true;
	if (!o.mode.json || o.stream)
		return;
	/* Written on first use, so that a command may still choose JSON lines. */
	o.pending = true;
}

/* The member "errors": [...] of the collected errors, in the open object. */
static void json_errors(void)
{
	json_open("errors", true);
	for (int i = 0; i < o.nerrors; i++) {
		json_member(NULL);
		json_string(o.errors[i]);
	}
	json_close();
}

/* JSON lines: close a line cut short (so it still parses), then put the
 * errors on a line of their own. */
static void stream_finish(void)
{
	while (o.depth > 0)
		json_close();
	if (!o.nerrors)
		return;
	json_open(NULL, false);
	json_errors();
	json_close();
}

void out_finish(void)
{
	if (!o.fp)
		out_redirect(stdout);
	if (o.mode.json && o.stream) {
		stream_finish();
	} else if (o.mode.json) {
		if (!o.begun)
			out_begin();
		json_begin_pending();
		while (o.depth > 1)
			json_close();
		if (o.depth == 1) {
			if (o.nerrors)
				json_errors();
			json_close();
		}
	} else {
		text_end_line();
	}
	out_flush();
	for (int i = 0; i < o.nerrors; i++)
		free(o.errors[i]);
	o.nerrors = 0;
	o.begun = false;
}

void out_record_error(const char *msg)
{
	if (o.nerrors < MAX_ERRORS)
		o.errors[o.nerrors++] = strdup(msg);
}

void out_list_begin(const char *key)
{
	if (o.mode.json)
		json_open(key, true);
}

void out_list_end(void)
{
	if (o.mode.json)
		json_close();
}

void out_obj_begin(const char *key)
{
	if (o.mode.json) {
		json_open(key, false);
		return;
	}
	/* Every object starts its own line; nested ones are indented. */
	text_end_line();
	o.text_depth++;
}

void out_obj_end(void)
{
	if (o.mode.json) {
		json_close();
		return;
	}
	text_end_line();
	if (o.text_depth > 0)
		o.text_depth--;
}

/* ---- values ---- */

static bool text_skips(const struct field *f)
{
	return (f->flags & FF_DETAIL) && !o.mode.details;
}

/* A value as text: control bytes (a hostile kernel reply or peer could send
 * terminal escape sequences) become '?'. */
static void text_put(const char *v)
{
	size_t len = ob.len;

	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (len == OUT_BUF_SIZE) {
			ob.len = len;
			ob_drain();
			len = 0;
		}
		ob.buf[len++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	}
	ob.len = len;
}

/* "label " of a value that follows on the current line. */
static void text_label(const struct field *f)
{
	text_start_item();
	if (!put_label(f)) {
		putstr(f->label ? f->label : f->key);
		putch(' ');
	}
}

static void text_value(const struct field *f, const char *v)
{
	const char *col = (f->flags & FF_GOODBAD) ? out_color(v) : "";
	const char *reset = *col ? out_color_reset() : "";

	if (text_skips(f))
		return;
	if (f->flags & FF_HEAD) {
		text_start_item();
		putstr(col);
		text_put(v);
		putstr(reset);
		putch(':');
		return;
	}
	text_label(f);
	putstr(col);
	text_put(v);
	putstr(reset);
	if (f->unit) {
		putch(' ');
		putstr(f->unit);
	}
}

void out_str(const struct field *f, const char *v)
{
	if (!v)
		return;
	if (o.mode.json) {
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
	if (o.mode.json) {
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

	if (o.mode.json) {
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

	u64_digits(v, ob.buf + ob.len + n);
	ob.len += n;
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
	if (o.line_open && put_slot(f, NULL, 0, true))
		return;
	text_label(f);
}

/* An enum's " label TEXT" as one copy on an open line. */
static void text_enum_cell(const struct out_cell *c)
{
	if (o.line_open && put_slot(c->f, c->text, 0, true))
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
	const struct level *l = o.depth > 0 && o.depth <= MAX_DEPTH ? &o.stack[o.depth - 1] : NULL;

	return mode == 1 && !o.pending && l && !l->is_list ? l : NULL;
}

void out_row(const struct out_row *row)
{
	int mode = label_mode();
	bool color = !mode && use_color();
	const struct level *obj = row_object(mode);

	for (unsigned i = 0; i < row->n; i++) {
		const struct out_cell *c = &row->cell[i];

		if (OUT_BUF_SIZE - ob.len < CELL_ROOM)
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
	if (o.mode.json) {
		json_field(f);
		putstr(buf);
		return;
	}
	text_value(f, buf);
}

void out_bool(const struct field *f, bool v)
{
	if (o.mode.json) {
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
		if (o.mode.json) {
			json_field(f);
			putstr("null");
		} else {
			text_value(f, "n/a");
		}
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (o.mode.json) {
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

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (o.mode.json)
		return;
	text_end_line();
	va_start(ap, fmt);
	put_vfmt(fmt, ap);
	va_end(ap);
	line_done();
}

void out_newline(void)
{
	if (!o.mode.json)
		text_end_line();
}
