// SPDX-License-Identifier: GPL-2.0-or-later
/* The strict JSON reader of report merge: accepts what the writer produces,
 * refuses everything else with an offset, and stays within its limits. */
#include <stdlib.h>
#include <string.h>

#include "../../util/json_read.h"
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

/* The fast path for short decimals must give strtod's very double. */
static void test_numbers_as_strtod(void)
{
	static const char *const fixed[] = { "0", "-0", "1", "-1", "0.1", "0.3", "33796.001", "118643.031", "1.17",
					     "999999999999999", "9999999999999999", "0.000000000000001",
					     "123456789.012345", "-42.5", "1e3", "2.5E-3", "17976931348623157" };
	char text[64];
	unsigned bad = 0, n = 0;
	struct json_doc d;

	srand(7);
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) + 20000; i++) {
		const char *t = text;

		if (i < sizeof(fixed) / sizeof(fixed[0]))
			t = fixed[i];
		else	/* 1 to 17 digits with the point anywhere */
			snprintf(text, sizeof(text), "%s%llu.%0*u", rand() % 2 ? "-" : "",
				 (unsigned long long)rand() * (unsigned long long)rand() % 100000000000ull,
				 rand() % 7 + 1, (unsigned)rand() % 1000000u);
		n++;
		if (json_parse(t, strlen(t), NULL, &d) || d.root->type != JSON_NUMBER ||
		    memcmp(&d.root->num, &(double){ strtod(t, NULL) }, sizeof(double)))
			if (bad++ < 5)
				fprintf(TAP_FP, "# %s read as %.17g, strtod %.17g\n", t, d.root ? d.root->num : 0,
					strtod(t, NULL));
		json_free(&d);
	}
	ok(bad == 0, "%u numbers read bit for bit as strtod reads them (%u differ)", n, bad);
	ok(json_parse("\"plain ascii\"", 13, NULL, &d) == 0 && !strcmp(d.root->str, "plain ascii"),
	   "plain string copied");
	json_free(&d);
}

/* json_parse_again reuses the arena: earlier documents, parsed or refused,
 * leave nothing behind in the next tree. */
static void test_parse_again(void)
{
	struct json_doc d;
	char big[20000];
	size_t n = 0;
	double num = 0;

	big[n++] = '[';
	while (n < sizeof(big) - 10)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "\"s%zu\",", n);
	big[n - 1] = ']';
	ok(json_parse(big, n, NULL, &d) == 0 && d.root->type == JSON_ARRAY, "a document of many chunks");
	ok(json_parse_again("[1,", 3, NULL, &d) == -1 && !d.root && strstr(d.error, "text ends"),
	   "the next refused: %s", d.error);
	ok(json_parse_again("{\"a\":2.5}", 9, NULL, &d) == 0 && json_get_num(d.root, "a", &num) && num == 2.5 &&
	   !d.root->next && !d.error[0], "the next parsed, nothing left of the earlier ones");
	ok(json_parse_again(big, n, NULL, &d) == 0 && json_first(d.root) && !strcmp(json_first(d.root)->str, "s1"),
	   "the large one again in the reused memory");
	json_free(&d);
}

int main(void)
{
	test_document();
	test_refusals();
	test_limits();
	test_numbers_as_strtod();
	test_parse_again();
	return tap_done();
}
