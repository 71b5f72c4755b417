// SPDX-License-Identifier: GPL-2.0-or-later
/* XML text of the fleet picture: markup characters become entities, what XML
 * cannot hold becomes '?', well-formed UTF-8 passes, and cuts end in "...". */
#include <stdlib.h>
#include <string.h>

#include "../../rdmadiag/xml_out.h"
#include "tap.h"

static char out[512];

static const char *xml(const char *s, size_t max, size_t *chars)
{
	FILE *fp = fmemopen(out, sizeof(out), "w");
	size_t n;

	if (!fp)
		return NULL;
	n = xml_put_max(fp, s, max);
	fclose(fp);
	if (chars)
		*chars = n;
	return out;
}

static void escapes(const char *in, const char *want, const char *what)
{
	is_str(xml(in, (size_t)-1, NULL), want, "%s", what);
}

int main(void)
{
	size_t n = 0;

	escapes("node017", "node017", "a plain name as it is");
	escapes("<b>&\"x'</b>", "&lt;b&gt;&amp;&quot;x&#39;&lt;/b&gt;", "the five markup characters");
	escapes("]]><!--", "]]&gt;&lt;!--", "no CDATA end or comment start survives");
	escapes("a\001b\tc\177d", "a?b?c?d", "control characters, tab included, and DEL");
	escapes("n\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "n\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80",
		"well-formed UTF-8 of 2, 3 and 4 bytes");
	escapes("a\xff" "b\xc3" "c\x80", "a?b?c?", "stray and truncated bytes");
	escapes("\xc0\xaf\xe0\x80\xaf", "?????", "overlong forms");
	escapes("\xed\xa0\x80", "???", "a UTF-16 surrogate");
	escapes("\xef\xbf\xbe\xef\xbf\xbf", "??????", "U+FFFE and U+FFFF, not XML characters");
	escapes("\xf4\x90\x80\x80", "????", "past U+10FFFF");
	escapes("end\xe2\x86", "end??", "a sequence cut at the end of the string");

	is_str(xml("abcdefghij", 8, &n), "abcde...", "cut at 8 characters ends in ...");
	ok(n == 8, "8 characters written (%zu)", n);
	is_str(xml("abcdefgh", 8, &n), "abcdefgh", "exactly 8 characters are not cut");
	is_str(xml("\xe2\x86\x92\xe2\x86\x92\xe2\x86\x92\xe2\x86\x92\xe2\x86\x92", 4, &n), "\xe2\x86\x92...",
	       "a cut counts characters, not bytes, and never splits one");
	is_str(xml("<<<<<", 4, &n), "&lt;...", "a cut counts the characters, not their entities");
	return tap_done();
}
