// SPDX-License-Identifier: GPL-2.0-or-later
/* The text renderer of the output layer and its colours; see output_int.h. */
#include <stdlib.h>
#include <unistd.h>

#include "output_int.h"

bool use_color(void)
{
	if (out_st.mode.json || out_st.mode.color == COLOR_NEVER)
		return false;
	if (out_st.mode.color == COLOR_ALWAYS)
		return true;
	/* Asked once per stream: a syscall per coloured field shows at 10k lines. */
	static FILE *asked;
	static bool tty;

	if (asked != out_st.fp) {
		asked = out_st.fp;
		tty = isatty(fileno(out_st.fp)) && !getenv("NO_COLOR");
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

void text_end_line(void)
{
	if (out_st.line_open) {
		putch('\n');
		out_st.line_open = false;
		line_done();
	}
}

void text_start_item(void)
{
	if (!out_st.line_open) {
		for (int i = 1; i < out_st.text_depth; i++)
			put("    ", 4);
		out_st.line_open = true;
	} else {
		putch(' ');
	}
}

bool text_skips(const struct field *f)
{
	return (f->flags & FF_DETAIL) && !out_st.mode.details;
}

/* A value as text: control bytes (a hostile kernel reply or peer could send
 * terminal escape sequences) become '?'. */
void text_put(const char *v)
{
	size_t len = out_buf.len;

	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (len == OUT_BUF_SIZE) {
			out_buf.len = len;
			ob_drain();
			len = 0;
		}
		out_buf.buf[len++] = *p < 0x20 || *p == 0x7f ? '?' : (char)*p;
	}
	out_buf.len = len;
}

/* "label " of a value that follows on the current line. */
void text_label(const struct field *f)
{
	text_start_item();
	if (!put_label(f)) {
		putstr(f->label ? f->label : f->key);
		putch(' ');
	}
}

void text_value(const struct field *f, const char *v)
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

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (out_st.mode.json)
		return;
	text_end_line();
	va_start(ap, fmt);
	put_vfmt(fmt, ap);
	va_end(ap);
	line_done();
}

void out_newline(void)
{
	if (!out_st.mode.json)
		text_end_line();
}
