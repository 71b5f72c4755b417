// SPDX-License-Identifier: GPL-2.0-or-later
/* XML character data; see xml_out.h. */
#include <stdbool.h>

#include "xml_out.h"

static bool in_range(unsigned char c, unsigned char lo, unsigned char hi)
{
	return c >= lo && c <= hi;
}

/* Bytes of the well-formed UTF-8 sequence of a character XML allows that
 * starts at p (2 to 4), or 0: overlong forms, surrogates, U+FFFE/U+FFFF and
 * past U+10FFFF are refused like stray bytes. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (in_range(c, 0xc2, 0xdf))
		n = 2;
	else if (in_range(c, 0xe0, 0xef))
		n = 3;
	else if (in_range(c, 0xf0, 0xf4))
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (!in_range(p[1], lo, hi))
		return 0;
	for (size_t i = 2; i < n; i++)
		if (!in_range(p[i], 0x80, 0xbf))
			return 0;
	if (c == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf))
		return 0;
	return n;
}

static void put_ascii(FILE *fp, unsigned char c)
{
	switch (c) {
	case '&':
		fputs("&amp;", fp);
		break;
	case '<':
		fputs("&lt;", fp);
		break;
	case '>':
		fputs("&gt;", fp);
		break;
	case '"':
		fputs("&quot;", fp);
		break;
	case '\'':
		fputs("&#39;", fp);
		break;
	default:
		fputc(c < 0x20 || c == 0x7f ? '?' : c, fp);
	}
}

/* Bytes of the character at p as written: a sequence, or one stray byte. */
static size_t char_bytes(const unsigned char *p)
{
	size_t n = *p < 0x80 ? 1 : utf8_len(p);

	return n ? n : 1;
}

static size_t count_chars(const unsigned char *p)
{
	size_t chars = 0;

	for (; *p; chars++)
		p += char_bytes(p);
	return chars;
}

size_t xml_put_max(FILE *fp, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t keep = count_chars(p), chars;
	bool cut = keep > max;

	if (cut)
		keep = max > 3 ? max - 3 : 0;
	for (chars = 0; chars < keep; chars++) {
		size_t n = *p < 0x80 ? 1 : utf8_len(p);

		if (n == 1)
			put_ascii(fp, *p);
		else if (n)
			fwrite(p, 1, n, fp);
		else
			fputc('?', fp);
		p += n ? n : 1;
	}
	if (cut)
		fputs("...", fp);
	return chars + (cut ? 3 : 0);
}
