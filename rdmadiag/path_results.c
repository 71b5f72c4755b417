// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How `path test` prints: a stage as a text line or a JSON object (with the
 * counters that moved), and a peer's run as a row of the many-peer table or
 * a JSON object, with this host's addresses for report merge.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "output.h"
#include "path_int.h"

enum { SF_VERDICT, SF_ID, SF_SUBJECT, SF_MS, SF_MEASURED, SF_EXPECTED, SF_HINT, SF_HOST, SF_COUNTER, SF_KIND,
       SF_DELTA };
static const struct field stage_fields[] = {
	[SF_VERDICT] = { "verdict", NULL, FT_TOKEN, 0, NULL },
	[SF_ID] = { "id", NULL, FT_STR, 0, NULL },
	[SF_SUBJECT] = { "subject", NULL, FT_STR, 0, NULL },
	[SF_MS] = { "duration_ms", NULL, FT_DOUBLE, 0, NULL },
	[SF_MEASURED] = { "measured", NULL, FT_STR, 0, NULL },
	[SF_EXPECTED] = { "expected", NULL, FT_STR, 0, NULL },
	[SF_HINT] = { "hint", NULL, FT_STR, 0, NULL },
	[SF_HOST] = { "host", NULL, FT_TOKEN, 0, NULL },
	[SF_COUNTER] = { "hw_counter", NULL, FT_STR, 0, NULL },
	[SF_KIND] = { "kind", NULL, FT_TOKEN, 0, NULL },
	[SF_DELTA] = { "delta", NULL, FT_U64, 0, NULL },
};

/* JSON: "counters_moved": [{host, hw_counter, kind, delta}], only when something moved. */
static void emit_moved(const struct stage *s)
{
	if (!s->nmoved)
		return;
	out_list_begin("counters_moved");
	for (unsigned i = 0; i < s->nmoved; i++) {
		out_obj_begin(NULL);
		out_token(&stage_fields[SF_HOST], s->moved[i].host);
		out_str(&stage_fields[SF_COUNTER], s->moved[i].name);
		out_token(&stage_fields[SF_KIND], ctr_kinds[s->moved[i].kind].key);
		out_u64(&stage_fields[SF_DELTA], s->moved[i].delta);
		out_obj_end();
	}
	out_list_end();
}

static void emit_stage_text(const struct stage *s)
{
	const struct check_result *r = &s->r;
	const char *tok = verdict_token(r->verdict);
	char ms[24] = "";
	if (r->verdict != V_SKIP)
		snprintf(ms, sizeof(ms), "%.1f ms", s->ms);
	out_text("%s%-4s%s  %-16s %10s", out_color(tok), verdict_label(r->verdict), out_color_reset(), r->id, ms);
	check_print_text_details(r);
}

void emit_stage(const struct stage *s)
{
	static const struct field num_field_proto = { NULL, NULL, FT_DOUBLE, 0, NULL };

	check_observe(&s->r);
	if (!out_is_json()) {
		emit_stage_text(s);
		out_flush();
		return;
	}
	out_obj_begin(NULL);
	out_token(&stage_fields[SF_VERDICT], verdict_token(s->r.verdict));
	out_str(&stage_fields[SF_ID], s->r.id);
	out_str(&stage_fields[SF_SUBJECT], s->r.subject);
	out_double(&stage_fields[SF_MS], s->ms, 3);
	out_str(&stage_fields[SF_MEASURED], s->r.measured);
	out_str(&stage_fields[SF_EXPECTED], s->r.expected);
	if (s->r.hint[0])
		out_str(&stage_fields[SF_HINT], s->r.hint);
	for (unsigned i = 0; i < s->nnum; i++) {
		struct field f = num_field_proto;

		f.key = s->num[i].key;
		out_double(&f, s->num[i].v, s->num[i].v == floor(s->num[i].v) ? 0 : 3);
	}
	emit_moved(s);
	out_obj_end();
}

static void emit_stages(const struct peer_run *pr)
{
	out_list_begin("stages");
	for (unsigned i = 0; i < pr->nst; i++)
		emit_stage(&pr->st[i]);
	out_list_end();
	check_print_summary(&pr->sum);
}

const struct field run_fields[] = {
	[RF_PEER] = { "peer", NULL, FT_STR, 0, NULL },
	[RF_VERDICT] = { "verdict", NULL, FT_TOKEN, 0, NULL },
	[RF_FAILED] = { "failed_stage", NULL, FT_STR, 0, NULL },
	[RF_P50] = { "latency_p50_us", NULL, FT_DOUBLE, 0, NULL },
	[RF_GBPS] = { "bandwidth_gbps", NULL, FT_DOUBLE, 0, NULL },
	[RF_SOURCE] = { "source", NULL, FT_STR, 0, NULL },
	[RF_ADDRESS] = { "address", NULL, FT_STR, 0, NULL },
};

/* JSON "addresses": this host's IPs, so that a merge of many hosts' reports
 * can tell which host a peer address belongs to. */
void emit_local_addresses(void)
{
	struct ifaddrs *ifa = NULL;
	char buf[INET6_ADDRSTRLEN];

	if (getifaddrs(&ifa))
		return;
	out_list_begin("addresses");
	for (struct ifaddrs *i = ifa; i; i = i->ifa_next) {
		const struct sockaddr *sa = i->ifa_addr;
		const void *a;

		if (!sa || (i->ifa_flags & IFF_LOOPBACK) || (sa->sa_family != AF_INET && sa->sa_family != AF_INET6))
			continue;
		a = sa->sa_family == AF_INET ? (const void *)&((const struct sockaddr_in *)sa)->sin_addr :
					       (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr;
		if (sa->sa_family == AF_INET6 && IN6_IS_ADDR_LINKLOCAL((const struct in6_addr *)a))
			continue;
		if (inet_ntop(sa->sa_family, a, buf, sizeof(buf)))
			out_str(&run_fields[RF_ADDRESS], buf);
	}
	out_list_end();
	freeifaddrs(ifa);
}

enum verdict run_verdict(const struct peer_run *pr)
{
	if (!pr->done || pr->sum.fail)
		return V_FAIL;
	return pr->sum.warn ? V_WARN : V_PASS;
}

/* A number a stage reported ("latency_p50_us" of path.rc_latency); NAN when absent. */
static double stage_value(const struct peer_run *pr, const char *id, const char *key)
{
	for (unsigned i = 0; i < pr->nst; i++) {
		if (strcmp(pr->st[i].r.id, id) || pr->st[i].r.verdict == V_SKIP)
			continue;
		for (unsigned k = 0; k < pr->st[i].nnum; k++)
			if (!strcmp(pr->st[i].num[k].key, key))
				return pr->st[i].num[k].v;
	}
	return NAN;
}

/* The bandwidth of the row: RDMA WRITE, else READ, else SEND. */
static double run_gbps(const struct peer_run *pr)
{
	static const char *const ids[] = { "path.write_bw", "path.read_bw", "path.send_bw" };
	double v = NAN;

	for (size_t i = 0; i < 3 && isnan(v); i++)
		v = stage_value(pr, ids[i], "bandwidth_gbps");
	return v;
}

static const struct stage *failed_stage(const struct peer_run *pr)
{
	for (unsigned i = 0; pr->failed && i < pr->nst; i++)
		if (!strcmp(pr->st[i].r.id, pr->failed))
			return &pr->st[i];
	return NULL;
}

void text_row_header(void)
{
	out_text("%-39s %-7s %-16s %9s %10s\n", "PEER", "VERDICT", "FAILED STAGE", "P50 us", "BW Gb/s");
}

/* The first stage that warned: what a warn row explains. */
static const struct stage *warned_stage(const struct peer_run *pr)
{
	for (unsigned i = 0; i < pr->nst; i++)
		if (pr->st[i].r.verdict == V_WARN)
			return &pr->st[i];
	return NULL;
}

/* One summary row; a failed peer gets what its failing stage measured and the
 * hint, a peer that only warned the same for its first warning (its stage id
 * too, since the FAILED STAGE column is empty), so a fleet table says why. */
void text_row(const struct peer_run *pr)
{
	const char *tok = pr->done ? verdict_token(run_verdict(pr)) : "skip";
	const struct stage *fs = failed_stage(pr);
	const struct stage *ws = fs ? NULL : warned_stage(pr);
	char p50[32], bw[32];

	format_measure(p50, sizeof(p50), stage_value(pr, "path.rc_latency", "latency_p50_us"), 2);
	format_measure(bw, sizeof(bw), run_gbps(pr), 3);
	out_text("%-39s %s%-7s%s %-16s %9s %10s\n", pr->peer, out_color(tok), pr->done ? tok : "not run",
		 out_color_reset(), pr->failed ? pr->failed : "-", p50, bw);
	if (ws)
		out_text("    %s: ", ws->r.id);
	else if (fs)
		out_text("    ");
	if (ws || fs) {
		fs = fs ? fs : ws;
		out_text("%s\n%s%s%s", fs->r.measured, fs->r.hint[0] ? "    hint: " : "", fs->r.hint,
			 fs->r.hint[0] ? "\n" : "");
	}
}

void json_run(const struct peer_run *pr)
{
	out_obj_begin(NULL);
	out_str(&run_fields[RF_PEER], pr->peer);
	out_token(&run_fields[RF_VERDICT], pr->done ? verdict_token(run_verdict(pr)) : "skip");
	if (pr->failed)
		out_str(&run_fields[RF_FAILED], pr->failed);
	out_double(&run_fields[RF_P50], stage_value(pr, "path.rc_latency", "latency_p50_us"), 3);
	out_double(&run_fields[RF_GBPS], run_gbps(pr), 3);
	if (pr->source[0])
		out_str(&run_fields[RF_SOURCE], pr->source);
	emit_stages(pr);
	out_obj_end();
}
