// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON lines (out_set_stream): one document per line, each with the schema,
 * also when the command switches to it after the dispatcher began output. */
#include <stdlib.h>
#include <string.h>

#include "../../rdmadiag/output.h"
#include "tap.h"

/* What out_init() is given: JSON; -p as the last case sets it. */
static struct out_mode mode = { .json = true };

static const struct field f_seq = { "seq", NULL, FT_U64, 0, NULL };
static const struct field f_name = { "name", NULL, FT_STR, 0, NULL };

static char *render(void (*body)(void))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	out_init(fp, mode);
	out_begin();		/* as cmd_dispatch() does before every handler */
	body();
	out_finish();
	fclose(fp);
	return buf;
}

static void two_intervals(void)
{
	out_set_stream(true);
	for (int i = 1; i <= 2; i++) {
		out_obj_begin(NULL);
		out_u64(&f_seq, i);
		out_list_begin("rows");
		out_obj_begin(NULL);
		out_str(&f_name, "tx_packets");
		out_obj_end();
		out_list_end();
		out_obj_end();
	}
}

static void cut_short(void)
{
	out_set_stream(true);
	out_obj_begin(NULL);
	out_u64(&f_seq, 1);
	out_obj_end();
	out_obj_begin(NULL);
	out_u64(&f_seq, 2);
	out_list_begin("rows");
	out_record_error("device rxe0 vanished");
	/* interrupted: nothing closed */
}

static void plain(void)
{
	out_u64(&f_seq, 7);
}

int main(void)
{
	char *s;

	s = render(two_intervals);
	is_str(s,
	       "{\"schema\":2,\"seq\":1,\"rows\":[{\"name\":\"tx_packets\"}]}\n"
	       "{\"schema\":2,\"seq\":2,\"rows\":[{\"name\":\"tx_packets\"}]}\n",
	       "stream: one object per line, each with the schema, nothing before the first line");
	free(s);
	s = render(cut_short);
	is_str(s,
	       "{\"schema\":2,\"seq\":1}\n"
	       "{\"schema\":2,\"seq\":2,\"rows\":[]}\n"
	       "{\"schema\":2,\"errors\":[\"device rxe0 vanished\"]}\n",
	       "stream: a line cut short is closed, errors follow on their own line");
	free(s);
	out_set_stream(false);
	s = render(plain);
	is_str(s, "{\"schema\":2,\"seq\":7}\n", "without stream: one document as before");
	free(s);
	mode.pretty = true;
	out_set_stream(false);
	s = render(two_intervals);
	ok(s && strchr(s, '\n') == s + strlen("{\"schema\":2,\"seq\":1,\"rows\":[{\"name\":\"tx_packets\"}]}"),
	   "stream ignores -p: each document stays on one line");
	free(s);
	return tap_done();
}
