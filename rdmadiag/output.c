// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and JSON rendering from one set of calls; see output.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "rdmadiag.h"

/* The writer is used by one thread at a time (fleet workers of path test
 * print under their lock), so stdio's per-call lock, an atomic operation
 * that costs much under emulation and shows at 10k QPs, is not needed. */
#define fputc fputc_unlocked
#define fputs fputs_unlocked
#define fwrite fwrite_unlocked

#define MAX_DEPTH 32
#define MAX_ERRORS 64

struct level {
	bool is_list;
	bool has_items;
};

static struct {
	FILE *fp;
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
} o;

void out_init(FILE *fp)
{
	o.fp = fp;
}

bool out_is_json(void)
{
	return g_opts.json;
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
	if (g_opts.json || g_opts.color == COLOR_NEVER)
		return false;
	if (g_opts.color == COLOR_ALWAYS)
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
	if (!g_opts.pretty || o.stream)
		return;
	fputc('\n', o.fp);
	for (int i = 0; i < o.depth; i++)
		fputs("  ", o.fp);
}

/* Bytes a JSON string or a text value cannot carry as they are. */
static bool json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static void json_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', o.fp);
	while (*p) {
		/* Runs of plain bytes in one write: 10k QPs make a million bytes. */
		const unsigned char *run = p;

		while (*p && json_plain(*p))
			p++;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), o.fp);
		if (!*p)
			break;
		switch (*p) {
		case '"': fputs("\\\"", o.fp); break;
		case '\\': fputs("\\\\", o.fp); break;
		case '\n': fputs("\\n", o.fp); break;
		case '\t': fputs("\\t", o.fp); break;
		case '\r': fputs("\\r", o.fp); break;
		default:
			/* Control bytes and bytes that are not ASCII are escaped so the
			 * document stays valid whatever a kernel or peer sent us. */
			fprintf(o.fp, "\\u%04x", *p);
		}
		p++;
	}
	fputc('"', o.fp);
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
	fprintf(o.fp, "%d", OUTPUT_SCHEMA);
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
static void json_member(const char *key)
{
	json_begin_pending();
	if (o.depth > 0) {
		struct level *l = &o.stack[o.depth - 1];

		if (l->has_items)
			fputc(',', o.fp);
		l->has_items = true;
		json_indent();
		if (!l->is_list && key) {
			json_string(key);
			fputs(g_opts.pretty && !o.stream ? ": " : ":", o.fp);
		}
	}
}

static void json_open(const char *key, bool is_list)
{
	json_member(key);
	fputc(is_list ? '[' : '{', o.fp);
	if (o.depth < MAX_DEPTH)
		o.stack[o.depth] = (struct level){ .is_list = is_list };
	o.depth++;
	/* In JSON lines every line is a document of its own: it carries the schema. */
	if (o.stream && o.depth == 1 && !is_list) {
		json_member("schema");
		fprintf(o.fp, "%d", OUTPUT_SCHEMA);
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
	fputc(l->is_list ? ']' : '}', o.fp);
	if (o.depth == 0) {
		fputc('\n', o.fp);
		fflush(o.fp);
	}
}

/* ---- text writer ---- */

static void text_end_line(void)
{
	if (o.line_open) {
		fputc('\n', o.fp);
		o.line_open = false;
	}
}

static void text_start_item(void)
{
	if (!o.line_open) {
		for (int i = 1; i < o.text_depth; i++)
			fputs("    ", o.fp);
		o.line_open = true;
	} else {
		fputc(' ', o.fp);
	}
}

/* ---- document ---- */

void out_begin(void)
{
	if (!o.fp)
		o.fp = stdout;
	o.begun = true;
	if (!g_opts.json || o.stream)
		return;
	/* Written on first use, so that a command may still choose JSON lines. */
	o.pending = true;
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
	json_open("errors", true);
	for (int i = 0; i < o.nerrors; i++) {
		json_member(NULL);
		json_string(o.errors[i]);
	}
	json_close();
	json_close();
}

void out_finish(void)
{
	if (!o.fp)
		o.fp = stdout;
	if (g_opts.json && o.stream) {
		stream_finish();
	} else if (g_opts.json) {
		if (!o.begun)
			out_begin();
		json_begin_pending();
		while (o.depth > 1)
			json_close();
		if (o.depth == 1) {
			if (o.nerrors) {
				json_open("errors", true);
				for (int i = 0; i < o.nerrors; i++) {
					json_member(NULL);
					json_string(o.errors[i]);
				}
				json_close();
			}
			json_close();
		}
	} else {
		text_end_line();
	}
	fflush(o.fp);
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
	if (g_opts.json)
		json_open(key, true);
}

void out_list_end(void)
{
	if (g_opts.json)
		json_close();
}

void out_obj_begin(const char *key)
{
	if (g_opts.json) {
		json_open(key, false);
		return;
	}
	/* Every object starts its own line; nested ones are indented. */
	text_end_line();
	o.text_depth++;
}

void out_obj_end(void)
{
	if (g_opts.json) {
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
	return (f->flags & FF_DETAIL) && !g_opts.details;
}

/* A value as text: control bytes (a hostile kernel reply or peer could send
 * terminal escape sequences) become '?'. */
static void text_put(const char *v)
{
	const unsigned char *p = (const unsigned char *)v;

	while (*p) {
		const unsigned char *run = p;

		while (*p >= 0x20 && *p != 0x7f)
			p++;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), o.fp);
		if (!*p)
			break;
		fputc('?', o.fp);
		p++;
	}
}

static void text_value(const struct field *f, const char *v)
{
	const char *col = (f->flags & FF_GOODBAD) ? out_color(v) : "";
	const char *reset = *col ? out_color_reset() : "";

	if (text_skips(f))
		return;
	text_start_item();
	if (f->flags & FF_HEAD) {
		fputs(col, o.fp);
		text_put(v);
		fputs(reset, o.fp);
		fputc(':', o.fp);
		return;
	}
	/* fputs, not fprintf: a QP list is a hundred thousand of these */
	fputs(f->label ? f->label : f->key, o.fp);
	fputc(' ', o.fp);
	fputs(col, o.fp);
	text_put(v);
	fputs(reset, o.fp);
	if (f->unit) {
		fputc(' ', o.fp);
		fputs(f->unit, o.fp);
	}
}

void out_str(const struct field *f, const char *v)
{
	if (!v)
		return;
	if (g_opts.json) {
		json_member(f->key);
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
	if (g_opts.json) {
		out_str(f, token);
		return;
	}
	const char *col = (f->flags & FF_GOODBAD) ? out_color(token) : "";
	const char *reset = *col ? out_color_reset() : "";

	if (!text || text_skips(f))
		return;
	text_start_item();
	fputs(f->label ? f->label : f->key, o.fp);
	fputc(' ', o.fp);
	fputs(col, o.fp);
	fputs(text, o.fp);
	fputs(reset, o.fp);
}

/* Decimal digits of v at the end of buf[32]; returns where they start. */
static const char *u64_text(uint64_t v, char buf[32])
{
	char *p = buf + 31;

	*p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return p;
}

void out_u64(const struct field *f, uint64_t v)
{
	char buf[32];
	const char *text = u64_text(v, buf);

	if (g_opts.json) {
		json_member(f->key);
		fputs(text, o.fp);
		return;
	}
	text_value(f, text);
}

void out_s64(const struct field *f, int64_t v)
{
	char buf[32];

	if (g_opts.json) {
		json_member(f->key);
		fprintf(o.fp, "%" PRId64, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	text_value(f, buf);
}

void out_bool(const struct field *f, bool v)
{
	if (g_opts.json) {
		json_member(f->key);
		fputs(v ? "true" : "false", o.fp);
		return;
	}
	text_value(f, v ? "yes" : "no");
}

void out_double(const struct field *f, double v, int decimals)
{
	char buf[64];

	if (!isfinite(v)) {	/* JSON has no NaN or infinity */
		if (g_opts.json) {
			json_member(f->key);
			fputs("null", o.fp);
		} else {
			text_value(f, "n/a");
		}
		return;
	}
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (g_opts.json) {
		json_member(f->key);
		fputs(buf, o.fp);
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

	if (g_opts.json)
		return;
	text_end_line();
	va_start(ap, fmt);
	vfprintf(o.fp, fmt, ap);
	va_end(ap);
}

void out_newline(void)
{
	if (!g_opts.json)
		text_end_line();
}
