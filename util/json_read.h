/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small, strict JSON reader for the reports rdmadiag writes itself
 * (`report merge` reads the -j documents of many nodes).
 *
 * RFC 8259 grammar, nothing more: no comments, no trailing commas, no NaN, no
 * duplicate-key checks. Bounded: the text length, the nesting depth and the
 * number of values are limited, and every allocation comes from one arena that
 * json_free() releases at once, so a hostile file costs at most its limits.
 * Errors name the byte offset where reading stopped.
 */
#ifndef RDMADIAG_JSON_READ_H
#define RDMADIAG_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	const char *key;	/* member name inside an object, else NULL */
	struct json *child;	/* first element or member */
	struct json *next;	/* next sibling */
	const char *str;	/* JSON_STRING: decoded UTF-8, NUL terminated */
	double num;		/* JSON_NUMBER */
	bool b;			/* JSON_BOOL */
};

struct json_limits {
	size_t max_depth;	/* nesting of arrays and objects */
	size_t max_values;	/* every value counts one */
};

#define JSON_DEFAULT_DEPTH 64
#define JSON_DEFAULT_VALUES 4000000

struct json_doc {
	struct json *root;
	void *arena;		/* private */
	size_t error_offset;	/* where reading stopped, when root is NULL */
	char error[128];
};

/* Parses text[0..len) (no NUL needed). Returns 0 and doc->root, or -1 with
 * doc->error and doc->error_offset set. Call json_free() in both cases.
 * lim NULL: the defaults. */
int json_parse(const char *text, size_t len, const struct json_limits *lim, struct json_doc *doc);
/* json_parse for the next of many documents: doc holds an earlier one (from
 * json_parse or json_parse_again, parsed or refused), whose tree this drops
 * and whose memory it reuses. json_free() once at the end. */
int json_parse_again(const char *text, size_t len, const struct json_limits *lim, struct json_doc *doc);
void json_free(struct json_doc *doc);

/* Accessors; each accepts NULL and returns NULL/false when the type differs. */
const struct json *json_get(const struct json *obj, const char *key);
const char *json_get_str(const struct json *obj, const char *key);
bool json_get_num(const struct json *obj, const char *key, double *out);
/* Iteration: for (const struct json *e = json_first(arr); e; e = e->next) */
const struct json *json_first(const struct json *container);

#endif
