// SPDX-License-Identifier: GPL-2.0-or-later
/* The strict JSON reader of report merge: accepts what the writer produces,
 * refuses everything else with an offset, and stays within its limits. */
#include <stdlib.h>
#include <string.h>

#include "../../rdmadiag/json_read.h"
#include "tap.h"

static int parse(const char *text, struct json_doc *doc)
{
	return json_parse(text, strlen(text), NULL, doc);
}

static void refused(const char *text, size_t want_off, const char *want_msg)
{
	struct json_doc d;
	int rc = parse(text, &d);

	ok(rc == -1 && d.error_offset == want_off && strstr(d.error, want_msg),
	   "refuses %s at %zu (%s)", text, d.error_offset, d.error);
	json_free(&d);
}

static void test_document(void)
{
	struct json_doc d;
	const char *t = "{\"schema\":1,\"host\":\"n\\u00e9\\ud83d\\ude00\\\"x\",\"stages\":[{\"verdict\":\"pass\","
			"\"gbps\":-1.5e2},{}],\"ok\":true,\"no\":null}";
	double num = 0;

	ok(parse(t, &d) == 0 && d.root, "parses a report-like document");
	ok(json_get_num(d.root, "schema", &num) && num == 1, "schema is 1");
	is_str(json_get_str(d.root, "host"), "n\xc3\xa9\xf0\x9f\x98\x80\"x", "escapes decode to UTF-8");
	const struct json *st = json_first(json_get(d.root, "stages"));
	ok(st && json_get_num(st, "gbps", &num) && num == -150, "number with exponent");
	ok(st && st->next && !st->next->next && st->next->type == JSON_OBJECT, "two array elements");
	ok(json_get(d.root, "ok")->b && json_get(d.root, "no")->type == JSON_NULL, "literals");
	ok(!json_get_str(d.root, "schema") && !json_get(d.root, "missing"), "type-checked accessors");
	json_free(&d);
}

static void test_refusals(void)
{
	refused("", 0, "text ends");
	refused("{\"a\":1,}", 7, "member name");
	refused("[1,2", 4, "text ends");
	refused("[01]", 2, "',' or ']'");
	refused("{\"a\" 1}", 5, "':'");
	refused("\"abc", 1, "not terminated");
	refused("\"a\tb\"", 2, "control character");
	refused("\"\\x\"", 2, "unknown escape");
	refused("\"\\ud800\"", 7, "low half");
	refused("\"\xff\"", 1, "UTF-8");
	refused("[1] x", 4, "after the end");
	refused("nul", 0, "unexpected character");
	refused("1.", 2, "decimal point");
	refused("-", 1, "digit");
	refused("NaN", 0, "unexpected");
}

static void test_limits(void)
{
	struct json_limits lim = { .max_depth = 64, .max_values = 10 };
	struct json_doc d;
	char deep[400];
	int n = 0;

	for (int i = 0; i < 100; i++)
		deep[n++] = '[';
	deep[n] = '\0';
	ok(parse(deep, &d) == -1 && strstr(d.error, "deeper") && d.error_offset == 64, "depth bounded: %s", d.error);
	json_free(&d);
	ok(json_parse("[1,2,3,4,5,6,7,8,9,10,11]", 25, &lim, &d) == -1 && strstr(d.error, "values"),
	   "value count bounded: %s", d.error);
	json_free(&d);
	ok(json_parse("[1,2]garbage", 5, NULL, &d) == 0, "reads only len bytes");
	json_free(&d);
}

int main(void)
{
	test_document();
	test_refusals();
	test_limits();
	return tap_done();
}
