// SPDX-License-Identifier: GPL-2.0-or-later
/* The buffered writer of the output layer; see output_int.h. */
#include <stdlib.h>
#include <unistd.h>

#include "output_int.h"

struct out_state out_st;
struct out_buf out_buf;

/* Hands what is buffered to stdio (which writes it: a chunk this large
 * bypasses its own buffer). */
void ob_drain(void)
{
	if (out_buf.len)
		fwrite_unlocked(out_buf.buf, 1, out_buf.len, out_fp());
	out_buf.len = 0;
}

/* printf-style into the buffer, for the rare formatted piece. */
__attribute__((format(printf, 1, 0))) void put_vfmt(const char *fmt, va_list ap)
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

__attribute__((format(printf, 1, 2))) void put_fmt(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put_vfmt(fmt, ap);
	va_end(ap);
}

/* A line ended: on a terminal the user sees it now, as stdio would show it. */
void line_done(void)
{
	if (out_st.interactive)
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
	out_st.fp = fp;
	out_st.interactive = fp && fp_interactive(fp);
}

void out_init(FILE *fp, struct out_mode mode)
{
	out_redirect(fp);
	out_st.mode = mode;
}

void out_set_json(void)
{
	out_st.mode.json = true;
}

bool out_is_json(void)
{
	return out_st.mode.json;
}

bool out_at_top_level(void)
{
	return out_st.pending || out_st.depth <= 1;
}

/* A command switches to JSON lines after the dispatcher began the document;
 * nothing of it was written yet, so the single document is simply dropped. */
void out_set_stream(bool on)
{
	out_st.stream = on;
	if (on)
		out_st.pending = false;
}
