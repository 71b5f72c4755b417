// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON lines (out_set_stream): each top-level object is one complete line, and
 * OPT_DECIMAL values (watch intervals) parse strictly. */
#include <stdlib.h>
#include <string.h>

#include "../../rdmadiag/output.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"


static const struct field f[] = {
	{ "event", NULL, FT_TOKEN, FF_HEAD, NULL },
	{ "lqpn", NULL, FT_U64, 0, NULL },
	{ "state", NULL, FT_TOKEN, 0, NULL },
};

static void two_events(void)
{
	out_obj_begin(NULL);
	out_token(&f[0], "created");
	out_u64(&f[1], 17);
	out_obj_end();
	out_obj_begin(NULL);
	out_token(&f[0], "state");
	out_u64(&f[1], 17);
	out_enum(&f[2], "rts", "RTS");
	out_obj_end();
}

static void cut_short(void)
{
	out_obj_begin(NULL);
	out_token(&f[0], "created");
	out_record_error("netlink dump failed");
}

static char *render_stream(bool json, bool pretty, void (*body)(void))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	out_init(fp, (struct out_mode){ .json = json, .pretty = pretty, .color = COLOR_NEVER });
	out_set_stream(true);
	out_begin();
	body();
	out_finish();
	out_set_stream(false);
	fclose(fp);
	return buf;
}

int main(void)
{
	char *s;
	double d = -1;

	s = render_stream(true, false, two_events);
	is_str(s, "{\"schema\":2,\"event\":\"created\",\"lqpn\":17}\n"
		  "{\"schema\":2,\"event\":\"state\",\"lqpn\":17,\"state\":\"rts\"}\n",
	       "stream: one JSON object per line, each with its schema, no enclosing document");
	free(s);
	s = render_stream(true, true, two_events);
	ok(s && strchr(s, '\n') == strstr(s, "}\n") + 1, "stream: -p does not split a line");
	free(s);
	s = render_stream(true, false, cut_short);
	is_str(s, "{\"schema\":2,\"event\":\"created\"}\n{\"schema\":2,\"errors\":[\"netlink dump failed\"]}\n",
	       "stream: an open line is closed at the end, errors follow as a line of their own");
	free(s);
	s = render_stream(false, false, two_events);
	is_str(s, "created: lqpn 17\nstate: lqpn 17 state RTS\n", "stream in text mode: one line per event");
	free(s);

	ok(parse_decimal("0.25", 0, 10, &d) == 0 && d == 0.25, "decimal: 0.25");
	ok(parse_decimal("3", 0, 10, &d) == 0 && d == 3, "decimal: whole number");
	ok(parse_decimal("2.", 0, 10, &d) == 0 && d == 2, "decimal: trailing dot");
	ok(parse_decimal("11", 0, 10, &d) < 0, "decimal: above max refused");
	ok(parse_decimal("-1", 0, 10, &d) < 0, "decimal: sign refused");
	ok(parse_decimal("1e3", 0, 10000, &d) < 0, "decimal: exponent refused");
	ok(parse_decimal("nan", 0, 10, &d) < 0 && parse_decimal("inf", 0, 10, &d) < 0, "decimal: nan/inf refused");
	ok(parse_decimal("1.2.3", 0, 10, &d) < 0 && parse_decimal(".", 0, 10, &d) < 0 &&
		   parse_decimal("", 0, 10, &d) < 0,
	   "decimal: malformed refused");
	return tap_done();
}
