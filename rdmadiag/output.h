/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One output layer for text and JSON.
 *
 * A command describes what it prints with `struct field` tables (JSON key, text
 * label, type) and calls out_*() once per value; the layer renders text or JSON
 * from the same calls, so keys and labels cannot drift apart.
 *
 * Text follows iproute2: one line per object, "label value" pairs, nested
 * objects on indented lines. JSON is one document per command with a top-level
 * "schema" version; out_finish() closes whatever is still open, so stdout stays
 * valid JSON even when a command fails part way.
 */
#ifndef RDMADIAG_OUTPUT_H
#define RDMADIAG_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OUTPUT_SCHEMA 2

enum field_type {
	FT_STR,		/* free text, JSON string */
	FT_TOKEN,	/* stable enum token, JSON string ("active", "roce_v2") */
	FT_U64,
	FT_S64,
	FT_BOOL,
	FT_DOUBLE,
	FT_GUID,	/* u64 shown as xxxx:xxxx:xxxx:xxxx */
	FT_HEX,		/* u64 shown as 0x... */
};

enum field_flags {
	FF_DETAIL = 1u << 0,	/* text: only with -d (JSON always has it) */
	FF_HEAD = 1u << 1,	/* text: "value:" without label, starts a line */
	FF_GOODBAD = 1u << 2,	/* text: colour the token green/red/yellow */
};

struct field {
	const char *key;	/* JSON key, snake_case */
	const char *label;	/* text label; NULL: same as key */
	enum field_type type;
	unsigned flags;
	const char *unit;	/* text suffix, e.g. "Gb/s"; NULL for none */
};

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

/* How output looks, from the global options -j, -p, -d and --color. */
struct out_mode {
	bool json;
	bool pretty;		/* JSON: indented (JSON lines stay one line each) */
	bool details;		/* text: FF_DETAIL fields too */
	enum color_mode color;	/* text only */
};

/* Document */
/* Where output goes and how it looks (until then: stdout, text, colour as
 * --color auto). The mode is taken here only (out_set_json() aside). */
void out_init(FILE *fp, struct out_mode mode);
/* Another stream, the same mode (system check hides a sub-report's text). */
void out_redirect(FILE *fp);
/* --format json after the dispatcher began the document as text, which
 * printed nothing: JSON from here on (then out_begin() again). */
void out_set_json(void);
void out_begin(void);		/* opens the top-level JSON object */
void out_finish(void);		/* closes all, prints collected errors */
void out_set_stream(bool on);	/* JSON lines: each top-level object is one line */
/* Output is buffered by the layer (see output.c): a command that streams
 * (an event, a progress row) calls this where stdio's fflush(stdout) was. */
void out_flush(void);
/* Reports that fleets merge (link check, path test, system check) name their
 * node: "host" follows "schema" in the JSON header. Call before any output;
 * NULL or "" leaves it out. */
void out_set_host(const char *host);

/* Containers */
void out_list_begin(const char *key);	/* JSON "key": [  (key NULL inside a list) */
void out_list_end(void);
void out_obj_begin(const char *key);	/* JSON "key": {; text: a new record line */
void out_obj_end(void);

/* Values; a NULL string is skipped (absent in JSON and text). */
void out_str(const struct field *f, const char *v);
void out_token(const struct field *f, const char *v);
/* An enum: JSON gets the stable token, text the name people know ("ACTIVE"). */
void out_enum(const struct field *f, const char *token, const char *text);
void out_u64(const struct field *f, uint64_t v);
void out_s64(const struct field *f, int64_t v);
void out_bool(const struct field *f, bool v);
void out_double(const struct field *f, double v, int decimals);
void out_guid(const struct field *f, uint64_t v);
void out_hex(const struct field *f, uint64_t v);

/*
 * Rows: the values of one object in one call. out_row() writes the bytes that
 * out_str/out_u64/out_enum would write for each cell in order (same skips,
 * colours, labels), but decides the mode and makes room in the buffer once
 * per row instead of once per value: a list of 10k QPs is 130k values.
 */
enum cell_type { CELL_STR, CELL_U64, CELL_ENUM };

struct out_cell {
	const struct field *f;
	enum cell_type type;
	uint64_t num;		/* CELL_U64 */
	const char *str;	/* CELL_STR: the value (NULL: skipped); CELL_ENUM: the token */
	const char *text;	/* CELL_ENUM: the text name */
};

#define OUT_ROW_CELLS 24

struct out_row {
	unsigned n;
	struct out_cell cell[OUT_ROW_CELLS];
};

/* Cells past OUT_ROW_CELLS are dropped: a row is one object's fixed fields. */
static inline void row_add(struct out_row *row, const struct field *f, enum cell_type type, uint64_t num,
			   const char *str, const char *text)
{
	if (row->n < OUT_ROW_CELLS)
		row->cell[row->n++] = (struct out_cell){ f, type, num, str, text };
}

static inline void row_str(struct out_row *row, const struct field *f, const char *v)
{
	row_add(row, f, CELL_STR, 0, v, NULL);
}

static inline void row_u64(struct out_row *row, const struct field *f, uint64_t v)
{
	row_add(row, f, CELL_U64, v, NULL, NULL);
}

static inline void row_enum(struct out_row *row, const struct field *f, const char *token, const char *text)
{
	row_add(row, f, CELL_ENUM, 0, token, text);
}

void out_row(const struct out_row *row);

/* Text-only free text (headers, blank lines); ignored in JSON. */
__attribute__((format(printf, 1, 2))) void out_text(const char *fmt, ...);
void out_newline(void);

/* Errors met while printing: text goes to stderr at once, JSON collects them
 * into a top-level "errors" array as well. */
void out_record_error(const char *msg);

bool out_is_json(void);
/* JSON: whether members now go into the document's top-level object (not into
 * a sub-report another command nests, as system check nests path test). */
bool out_at_top_level(void);
/* ANSI colour for text mode ("" when colour is off). */
const char *out_color(const char *token);
const char *out_color_reset(void);

/* A JSON string, escaped as the documents escape it, straight to fp: for
 * what is printed past the layer (__tables, a developer interface). */
void json_fput_string(FILE *fp, const char *s);

/* Formatting helpers shared by objects. */
void format_guid(uint64_t v, char *buf, size_t len);
/* A measured number for a table cell: "%.*f", or "-" when not measured (NAN). */
void format_measure(char *buf, size_t len, double v, int decimals);

#endif
