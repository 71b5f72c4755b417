// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one JSON string writer: strings and keys into the output buffer (the
 * JSON emitter and the label cache), and to a stdio stream (the __tables
 * dump); see output_int.h.
 */
#include <stdio.h>

#include "output_int.h"

/* Bytes a JSON string carries as they are: printable ASCII but '"' and '\\'. */
static const bool json_plain[256] = {
	[0x20 ... 0x21] = true,	/* '"' is 0x22 */
	[0x23 ... 0x5b] = true,	/* '\\' is 0x5c */
	[0x5d ... 0x7e] = true,
};

/* The escape of a byte that is not carried as it is (not json_plain). */
static const char *escape_of(unsigned char c, char buf[8])
{
	switch (c) {
	case '"': return "\\\"";
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\t': return "\\t";
	case '\r': return "\\r";
	default:
		/* Control bytes and bytes that are not ASCII are escaped so the
		 * document stays valid whatever a kernel or peer sent us. */
		snprintf(buf, 8, "\\u%04x", c);
		return buf;
	}
}

static void json_escape(unsigned char c)
{
	char buf[8];

	putstr(escape_of(c, buf));
}

void json_fput_string(FILE *fp, const char *s)
{
	char buf[8];

	fputc('"', fp);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (json_plain[*p])
			fputc(*p, fp);
		else
			fputs(escape_of(*p, buf), fp);
	}
	fputc('"', fp);
}

void json_string(const char *s)
{
	size_t len = out_buf.len;

	/* 10k QPs make a million bytes: plain ones are copied in one loop. */
	if (len == OUT_BUF_SIZE) {
		ob_drain();
		len = 0;
	}
	out_buf.buf[len++] = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (len == OUT_BUF_SIZE) {
			out_buf.len = len;
			ob_drain();
			len = 0;
		}
		if (json_plain[*p]) {
			out_buf.buf[len++] = (char)*p;
			continue;
		}
		out_buf.len = len;
		json_escape(*p);
		len = out_buf.len;
	}
	out_buf.len = len;
	putch('"');
}

void json_key(const char *key)
{
	json_string(key);
	putstr(out_st.mode.pretty && !out_st.stream ? ": " : ":");
}
