// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON emitter of the output layer; see output_int.h. */
#include <stdio.h>

#include "output_int.h"

static void json_indent(void)
{
	if (!out_st.mode.pretty || out_st.stream)
		return;
	line_done();
	putch('\n');
	for (int i = 0; i < out_st.depth; i++)
		put("  ", 2);
}

/* Writes the top-level object that out_begin() announced. */
void json_begin_pending(void)
{
	if (!out_st.pending)
		return;
	out_st.pending = false;
	json_open(NULL, false);
	json_member("schema");
	put_fmt("%d", OUTPUT_SCHEMA);
	if (out_st.host[0]) {
		json_member("host");
		json_string(out_st.host);
	}
}

void out_set_host(const char *host)
{
	snprintf(out_st.host, sizeof(out_st.host), "%s", host ? host : "");
}

/* Separator and key before a new member of the current container. */
/* Separator (and indentation) before a new member; whether it takes a key. */
bool json_next_member(void)
{
	json_begin_pending();
	if (out_st.depth > 0) {
		struct level *l = &out_st.stack[out_st.depth - 1];

		if (l->has_items)
			putch(',');
		l->has_items = true;
		json_indent();
		return !l->is_list;
	}
	return false;
}

void json_member(const char *key)
{
	if (json_next_member() && key)
		json_key(key);
}

/* The member of field f: separator, then its key. */
void json_field(const struct field *f)
{
	if (json_next_member() && f->key && !put_label(f))
		json_key(f->key);
}

void json_open(const char *key, bool is_list)
{
	json_member(key);
	putch(is_list ? '[' : '{');
	if (out_st.depth < MAX_DEPTH)
		out_st.stack[out_st.depth] = (struct level){ .is_list = is_list };
	out_st.depth++;
	/* In JSON lines every line is a document of its own: it carries the schema. */
	if (out_st.stream && out_st.depth == 1 && !is_list) {
		json_member("schema");
		put_fmt("%d", OUTPUT_SCHEMA);
	}
}

void json_close(void)
{
	if (out_st.depth == 0)
		return;
	struct level *l = &out_st.stack[out_st.depth - 1];

	out_st.depth--;
	if (l->has_items)
		json_indent();
	putch(l->is_list ? ']' : '}');
	if (out_st.depth == 0) {
		putch('\n');
		out_flush();	/* a JSON line or document is complete: it goes out now */
	}
}

/* The member "errors": [...] of the collected errors, in the open object. */
void json_errors(void)
{
	json_open("errors", true);
	for (int i = 0; i < out_st.nerrors; i++) {
		json_member(NULL);
		json_string(out_st.errors[i]);
	}
	json_close();
}

/* JSON lines: close a line cut short (so it still parses), then put the
 * errors on a line of their own. */
void stream_finish(void)
{
	while (out_st.depth > 0)
		json_close();
	if (!out_st.nerrors)
		return;
	json_open(NULL, false);
	json_errors();
	json_close();
}
