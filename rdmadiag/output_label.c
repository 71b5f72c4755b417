// SPDX-License-Identifier: GPL-2.0-or-later
/* Labels and keys of read-only fields, rendered once; see output_int.h. */
#include "output_int.h"

extern const char __executable_start[];
extern const char __data_start[];	/* glibc's crt1: the first writable data */

bool read_only(const void *p)
{
	return (uintptr_t)p >= (uintptr_t)__executable_start && (uintptr_t)p < (uintptr_t)__data_start;
}

struct rendered label_slot[LABEL_SLOTS];

/* Renders the label or key of f, and v after it, with the writer itself, into
 * the slot: text values as out_enum() writes them, JSON as json_string(). */
static bool render_label(const struct field *f, const char *v, int mode, struct rendered *r)
{
	size_t at = out_buf.len;
	const char *text = mode || !f->label ? f->key : f->label;

	/* Escaped, a short key or value stays far below the room asked for here. */
	if (strnlen(text, LABEL_MAX) >= LABEL_MAX || (v && strnlen(v, LABEL_MAX) >= LABEL_MAX) ||
	    OUT_BUF_SIZE - at < LABEL_MAX * 16)
		return false;	/* rare: the buffer is about to go out; render next time */
	if (mode) {
		if (mode == 1)
			putch(',');
		json_key(f->key);
		if (v)
			json_string(v);
	} else {
		putch(' ');
		putstr(f->label ? f->label : f->key);
		putch(' ');
		if (v)
			putstr(v);
	}
	if (out_buf.len - at > LABEL_MAX) {
		out_buf.len = at;
		return false;
	}
	/* r is written only now: a slot that held another label stays whole when this one does not fit */
	r->len = out_buf.len - at;
	r->sep = mode == 2 ? 0 : 1;
	out_buf.len = at;
	memcpy(r->text, out_buf.buf + at, r->len);
	r->f = f;
	r->v = v;
	r->mode = mode;
	return true;
}

/* The slot of f (and v) rendered for this mode; false when it cannot be cached. */
static __attribute__((noinline)) bool fill_slot(const struct field *f, const char *v, int mode,
						struct rendered *r)
{
	if (!f->key || !read_only(f) || !read_only(f->key) || (f->label && !read_only(f->label)) ||
	    (v && !read_only(v)))
		return false;
	return render_label(f, v, mode, r);
}

/* The slot from the first probe on that holds f (and v) for mode, or an
 * empty one filled now, or the first probe again, rendered over; NULL when f
 * cannot be cached. Probing, not one slot per hash: the hash is of addresses,
 * which ASLR moves, and in 3 runs of 20 two labels hashed alike and rendered
 * each other out (at worst on every row: 13k renderings for 10k QPs instead
 * of 16). */
__attribute__((noinline)) struct rendered *probe_slot(const struct field *f, const char *v, int mode,
							     unsigned first)
{
	for (unsigned k = 0; k < LABEL_PROBES; k++) {
		struct rendered *r = &label_slot[(first + k) % LABEL_SLOTS];

		if (r->f == f && r->v == v && r->mode == mode)
			return r;
		if (!r->f)
			return fill_slot(f, v, mode, r) ? r : NULL;
	}
	return fill_slot(f, v, mode, &label_slot[first]) ? &label_slot[first] : NULL;
}
