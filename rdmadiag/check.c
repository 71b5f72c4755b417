// SPDX-License-Identifier: GPL-2.0-or-later
/* Verdicts, their text and JSON form; see check.h. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "output.h"
#include "rdmadiag.h"

static const struct field check_fields[] = {
	{ "verdict", NULL, FT_TOKEN, 0, NULL },
	{ "id", NULL, FT_STR, 0, NULL },
	{ "subject", NULL, FT_STR, 0, NULL },
	{ "measured", NULL, FT_STR, 0, NULL },
	{ "expected", NULL, FT_STR, 0, NULL },
	{ "hint", NULL, FT_STR, 0, NULL },
};

static const struct field summary_fields[] = {
	{ "pass", NULL, FT_U64, 0, NULL },
	{ "warn", NULL, FT_U64, 0, NULL },
	{ "fail", NULL, FT_U64, 0, NULL },
	{ "skip", NULL, FT_U64, 0, NULL },
};

const char *verdict_token(enum verdict v)
{
	switch (v) {
	case V_PASS: return "pass";
	case V_WARN: return "warn";
	case V_FAIL: return "fail";
	default: return "skip";
	}
}

const char *verdict_label(enum verdict v)
{
	switch (v) {
	case V_PASS: return "PASS";
	case V_WARN: return "WARN";
	case V_FAIL: return "FAIL";
	default: return "SKIP";
	}
}

/* Subjects and measurements carry names from kernel replies: a terminal
 * must never get their control bytes (escape sequences). */
static void strip_controls(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

void check_init(struct check_result *r, const char *id, const char *subject)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->verdict = V_SKIP;
	snprintf(r->subject, sizeof(r->subject), "%s", subject ? subject : "host");
	strip_controls(r->subject);
}

void check_measured(struct check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->measured, sizeof(r->measured), fmt, ap);
	strip_controls(r->measured);
	va_end(ap);
}

void check_measured_add(struct check_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->measured);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->measured + used, sizeof(r->measured) - used, fmt, ap);
	strip_controls(r->measured);
	va_end(ap);
}

void check_expected(struct check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->expected, sizeof(r->expected), fmt, ap);
	strip_controls(r->expected);
	va_end(ap);
}

void check_verdict(struct check_result *r, enum verdict v, const char *hint_fmt, ...)
{
	va_list ap;

	r->verdict = v;
	r->hint[0] = '\0';
	if (!hint_fmt)
		return;
	va_start(ap, hint_fmt);
	vsnprintf(r->hint, sizeof(r->hint), hint_fmt, ap);
	strip_controls(r->hint);
	va_end(ap);
}

void check_tally(struct check_summary *sum, enum verdict v)
{
	if (!sum)
		return;
	switch (v) {
	case V_PASS: sum->pass++; break;
	case V_WARN: sum->warn++; break;
	case V_FAIL: sum->fail++; break;
	default: sum->skip++; break;
	}
}

static void emit_text(const struct check_result *r)
{
	const char *tok = verdict_token(r->verdict);

	out_text("%s%-4s%s  %-22s %-12s", out_color(tok), verdict_label(r->verdict), out_color_reset(), r->id,
		 r->subject);
	check_print_text_details(r);
}

void check_print_text_details(const struct check_result *r)
{
	if (r->measured[0])
		out_text("  %s", r->measured);
	if (r->expected[0] && r->verdict != V_PASS)
		out_text(" (expected %s)", r->expected);
	out_text("\n");
	if (r->hint[0] && r->verdict != V_PASS)
		out_text("      hint: %s\n", r->hint);
}

static check_observer_fn observer;
static void *observer_data;

void check_set_observer(check_observer_fn fn, void *data)
{
	observer = fn;
	observer_data = data;
}

void check_observe(const struct check_result *r)
{
	if (observer)
		observer(r, observer_data);
}

void check_emit(const struct check_result *r, struct check_summary *sum)
{
	check_tally(sum, r->verdict);
	check_observe(r);
	if (!out_is_json()) {
		emit_text(r);
		return;
	}
	out_obj_begin(NULL);
	out_token(&check_fields[0], verdict_token(r->verdict));
	out_str(&check_fields[1], r->id);
	out_str(&check_fields[2], r->subject);
	out_str(&check_fields[3], r->measured);
	out_str(&check_fields[4], r->expected);
	if (r->hint[0])
		out_str(&check_fields[5], r->hint);
	out_obj_end();
}

void check_print_summary(const struct check_summary *sum)
{
	if (!out_is_json()) {
		out_text("%d pass, %d warn, %d fail, %d skip\n", sum->pass, sum->warn, sum->fail, sum->skip);
		return;
	}
	out_obj_begin("summary");
	out_u64(&summary_fields[0], sum->pass);
	out_u64(&summary_fields[1], sum->warn);
	out_u64(&summary_fields[2], sum->fail);
	out_u64(&summary_fields[3], sum->skip);
	out_obj_end();
}

void check_kernel_rdma_failed(struct check_result *r, bool netlink)
{
	check_init(r, "kernel.rdma", "host");
	if (!netlink) {
		check_measured(r, "no RDMA netlink (NETLINK_RDMA unavailable)");
		check_expected(r, "the RDMA core (ib_core) loaded");
		check_verdict(r, V_FAIL, "modprobe ib_core and a device driver (mlx5_ib, irdma, rdma_rxe, ...), or boot "
					 "a kernel with CONFIG_INFINIBAND; no other check can run");
		return;
	}
	check_measured(r, "RDMA netlink answers; 0 devices");
	check_expected(r, "at least one RDMA device");
	check_verdict(r, V_FAIL, "load the driver of your NIC (mlx5_ib, irdma, bnxt_re, ...) or create a "
				 "Soft-RoCE device: modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IFACE");
}

int check_exit_code(const struct check_summary *sum, bool strict)
{
	if (sum->fail || (strict && sum->warn))
		return EXIT_PROBLEM;
	return EXIT_OK;
}
