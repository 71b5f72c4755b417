// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer renders the same calls as text and as valid JSON. */
#include <stdlib.h>

#include "../../rdmadiag/check.h"
#include "../../rdmadiag/output.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"

/* What out_init() is given: render() sets json and details. */
static struct out_mode mode = { .color = COLOR_NEVER };

static const struct field f[] = {
	{ "name", NULL, FT_STR, FF_HEAD, NULL },
	{ "state", NULL, FT_TOKEN, 0, NULL },
	{ "mtu", NULL, FT_U64, 0, NULL },
	{ "rate_gbps", "rate", FT_DOUBLE, 0, "Gb/s" },
	{ "secret", NULL, FT_STR, FF_DETAIL, NULL },
	{ "node_guid", NULL, FT_GUID, 0, NULL },
};

/* Renders a fixed sequence of calls into a string. */
static char *render(bool json, bool details, void (*body)(void))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	mode.json = json;
	mode.details = details;
	out_init(fp, mode);
	out_begin();
	body();
	out_finish();
	fclose(fp);
	return buf;
}

static void two_ports(void)
{
	out_list_begin("links");
	out_obj_begin(NULL);
	out_str(&f[0], "rxe0/1");
	out_enum(&f[1], "active", "ACTIVE");
	out_u64(&f[2], 1024);
	out_double(&f[3], 2.5, 1);
	out_str(&f[4], "hidden");
	out_obj_end();
	out_obj_begin(NULL);
	out_str(&f[0], "quote\"\n\x01");
	out_guid(&f[5], 0x0002c90300a1b2c3ULL);
	out_obj_end();
	out_list_end();
}

static void unfinished(void)
{
	out_list_begin("links");
	out_obj_begin(NULL);
	out_u64(&f[2], 9000);
	out_record_error("netlink dump failed");
	/* no closing calls: out_finish must close everything */
}

static void one_check(void)
{
	struct check_result r;
	struct check_summary sum = { 0 };

	out_list_begin("checks");
	check_init(&r, "netdev.mtu", "rxenet0");
	check_measured(&r, "MTU %u", 1500);
	check_expected(&r, "MTU %u", 9000);
	check_verdict(&r, V_FAIL, "set MTU %u on %s and on the switch port", 9000, "rxenet0");
	check_emit(&r, &sum);
	out_list_end();
	check_print_summary(&sum);
	ok(check_exit_code(&sum, false) == EXIT_PROBLEM, "a failed check gives exit 1");
}

/* A field on the stack whose key a buffer holds, reused for each name (as
 * counter show prints counters): every line must carry its own name, and
 * the read-only table's field beside it its own label. */
static void reused_key(void)
{
	char key[32];

	out_list_begin("rows");
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "ctr%d", i);
		struct field dyn = { key, NULL, FT_U64, 0, NULL };

		out_obj_begin(NULL);
		out_u64(&dyn, (uint64_t)i);
		out_u64(&f[2], 1500);
		out_obj_end();
	}
	out_list_end();
}

/* What the layer buffers reaches the stream at out_flush() (a streamed event). */
static void flushed_before_finish(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	mode.json = false;
	out_init(fp, mode);
	out_begin();
	out_obj_begin(NULL);
	out_str(&f[1], "up");
	out_obj_end();
	fflush(fp);
	ok(len == 0, "text is held in the layer's buffer until a flush");
	out_flush();
	is_str(buf, "state up\n", "out_flush() hands the buffered line to the stream");
	out_finish();
	fclose(fp);
	free(buf);
}

/* Rows: out_row() must write what one call per value writes, in every mode. */
static const struct field rowf[] = {
	{ "ifname", NULL, FT_STR, FF_HEAD, NULL },
	{ "lqpn", NULL, FT_U64, 0, NULL },
	{ "state", NULL, FT_TOKEN, FF_GOODBAD, NULL },
	{ "type", NULL, FT_TOKEN, 0, NULL },
	{ "seconds", "after", FT_U64, 0, "s" },
	{ "comm", NULL, FT_STR, 0, NULL },
	{ "owner", NULL, FT_TOKEN, FF_DETAIL, NULL },
	{ "missing", NULL, FT_STR, 0, NULL },
	{ "head_num", NULL, FT_U64, FF_HEAD, NULL },
	{ "big", NULL, FT_U64, 0, NULL },
};
/* Numbers at the edges of their digit counts, written in place by out_row(). */
static const uint64_t row_big[] = { 0, UINT64_MAX, 10000000000000000000ull };
static const char *const row_states[] = { "rts", "init", "err" };
static const char *const row_names[] = { "RTS", "INIT", "ERR" };

/* Object i: the fields above, a key held in a buffer, a name from a buffer,
 * a control byte; the last object starts with a number as its head. */
static void row_values(int i, bool as_row)
{
	char key[16], comm[16], text[8];
	struct field dyn = { key, NULL, FT_U64, 0, NULL };
	struct out_row row;

	snprintf(key, sizeof(key), "ctr%d", i);
	snprintf(comm, sizeof(comm), "app%d\x1b\"", i);
	snprintf(text, sizeof(text), "T%d", i);
	row.n = 0;
	if (i == 2)
		row_u64(&row, &rowf[8], 7);
	row_str(&row, &rowf[0], "rxe0/1");
	row_u64(&row, &rowf[1], 17 + 1000000u * (unsigned)i);
	row_enum(&row, &rowf[2], row_states[i], row_names[i]);
	row_enum(&row, &rowf[3], "rc", text);
	row_u64(&row, &rowf[4], 99);
	row_u64(&row, &dyn, (uint64_t)i);
	row_str(&row, &rowf[5], comm);
	row_str(&row, &rowf[6], "user");
	row_str(&row, &rowf[7], NULL);
	row_u64(&row, &rowf[9], row_big[i]);
	if (as_row) {
		out_row(&row);
		return;
	}
	for (unsigned c = 0; c < row.n; c++) {
		const struct out_cell *cell = &row.cell[c];

		if (cell->type == CELL_U64)
			out_u64(cell->f, cell->num);
		else if (cell->type == CELL_ENUM)
			out_enum(cell->f, cell->str, cell->text);
		else
			out_str(cell->f, cell->str);
	}
}

static void some_rows(bool as_row)
{
	out_list_begin("qps");
	for (int i = 0; i < 3; i++) {
		out_obj_begin(NULL);
		row_values(i, as_row);
		out_obj_end();
	}
	row_values(0, as_row);	/* in a list: values without keys */
	out_list_end();
}

static void rows_by_row(void) { some_rows(true); }
static void rows_by_value(void) { some_rows(false); }

static void rows_match_values(void)
{
	static const struct {
		bool json, details, pretty;
		enum color_mode color;
		const char *what;
	} modes[] = {
		{ false, false, false, COLOR_NEVER, "text" },
		{ false, true, false, COLOR_NEVER, "text with -d" },
		{ false, false, false, COLOR_ALWAYS, "text in colour" },
		{ true, false, false, COLOR_NEVER, "JSON" },
		{ true, false, true, COLOR_NEVER, "pretty JSON" },
	};

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		char *a, *b;

		mode.pretty = modes[m].pretty;
		mode.color = modes[m].color;
		a = render(modes[m].json, modes[m].details, rows_by_value);
		b = render(modes[m].json, modes[m].details, rows_by_row);
		if (m == 0) {
			ok(!strncmp(a, "rxe0/1: lqpn 17 state RTS type T0 after 99 s ctr0 0 comm app0?\" big 0\n", 70),
			   "text: head, labels, enum names, unit, a key from a buffer, control bytes as '?'");
			ok(strstr(b, " big 0\n") && strstr(b, " big 18446744073709551615\n") &&
				   strstr(b, " big 10000000000000000000\n"),
			   "text: 0, 2^64 - 1 and 10^19 in full");
		}
		is_str(b, a, "out_row() writes what one call per value writes: %s", modes[m].what);
		free(a);
		free(b);
	}
	mode.pretty = false;
	mode.color = COLOR_NEVER;
}

int main(void)
{
	char *s;

	rows_match_values();

	s = render(false, false, two_ports);
	is_str(s, "rxe0/1: state ACTIVE mtu 1024 rate 2.5 Gb/s\nquote\"??: node_guid 0002:c903:00a1:b2c3\n",
	       "text: one line per object, labels, units, enum names; details hidden; "
	       "control bytes of a kernel string print as '?', never raw");
	free(s);
	s = render(false, true, two_ports);
	ok(strstr(s, "secret hidden") != NULL, "text with -d shows detail fields");
	free(s);
	s = render(true, false, two_ports);
	is_str(s,
	       "{\"schema\":2,\"links\":[{\"name\":\"rxe0/1\",\"state\":\"active\",\"mtu\":1024,\"rate_gbps\":2.5,"
	       "\"secret\":\"hidden\"},{\"name\":\"quote\\\"\\n\\u0001\",\"node_guid\":\"0002:c903:00a1:b2c3\"}]}\n",
	       "JSON: schema, tokens, numbers, escapes, details always present");
	free(s);
	s = render(true, false, unfinished);
	is_str(s, "{\"schema\":2,\"links\":[{\"mtu\":9000}],\"errors\":[\"netlink dump failed\"]}\n",
	       "JSON stays valid when a command stops part way, and carries its errors");
	free(s);
	s = render(true, false, one_check);
	is_str(s,
	       "{\"schema\":2,\"checks\":[{\"verdict\":\"fail\",\"id\":\"netdev.mtu\",\"subject\":\"rxenet0\","
	       "\"measured\":\"MTU 1500\",\"expected\":\"MTU 9000\",\"hint\":\"set MTU 9000 on rxenet0 and on the "
	       "switch port\"}],\"summary\":{\"pass\":0,\"warn\":0,\"fail\":1,\"skip\":0}}\n",
	       "a check result in JSON has verdict, id, subject, measured, expected, hint");
	free(s);
	s = render(false, false, one_check);
	ok(strstr(s, "FAIL  netdev.mtu") && strstr(s, "hint: set MTU 9000 on rxenet0") &&
		   strstr(s, "0 pass, 0 warn, 1 fail, 0 skip"),
	   "a check result in text has verdict, id, hint and totals");
	free(s);
	s = render(false, false, reused_key);
	is_str(s, "ctr0 0 mtu 1500\nctr1 1 mtu 1500\nctr2 2 mtu 1500\n",
	       "text: a key held in a reused buffer prints as it is at each call");
	free(s);
	s = render(true, false, reused_key);
	is_str(s,
	       "{\"schema\":2,\"rows\":[{\"ctr0\":0,\"mtu\":1500},{\"ctr1\":1,\"mtu\":1500},"
	       "{\"ctr2\":2,\"mtu\":1500}]}\n",
	       "JSON: a key held in a reused buffer is written as it is at each call");
	free(s);
	flushed_before_finish();
	mode.pretty = true;
	s = render(true, false, unfinished);
	ok(strstr(s, "\n  \"links\": [\n    {\n      \"mtu\": 9000\n    }\n  ]") != NULL, "pretty JSON is indented");
	free(s);
	return tap_done();
}
