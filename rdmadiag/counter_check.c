// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `rdmadiag counter check`: two samples turned into verdicts (check.h), one
 * rule per kind of trouble that rising counters mean. See counter_int.h.
 */

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_select.h"
#include "common.h"
#include "counter_int.h"
#include "output.h"
#include "prom.h"

/* ---- check ---- */

struct check_rule {
	struct check_def def;		/* id, title (check.h) */
	enum ctr_kind kinds[5];		/* K_NONE ends */
	enum verdict when_rising;
	const char *what;		/* "retransmissions" for the measured text */
	const char *hint;
};

static const char loss_hint[] =
	"loss on the path; check PFC/ECN: RoCE needs a lossless class (PFC on the RDMA priority end to end) "
	"or ECN marking on every switch; look for drops with 'ethtool -S' on both hosts and on the switch "
	"ports, and for a tc qdisc (netem) on the netdev";

static const struct check_rule rules[] = {
	{ { "counter.retrans", "retransmissions or exceeded retries rose: packets are lost on the path" },
	  { K_RETRANS, K_RETRY_EXCEEDED }, V_FAIL, "retransmissions", loss_hint },
	{ { "counter.seq_err", "sequence errors or duplicate requests rose: packets are lost or reordered" },
	  { K_SEQ_ERR, K_DUPLICATE }, V_FAIL, "sequence errors", loss_hint },
	{ { "counter.timeout", "ACK timeouts rose: packets or ACKs are lost, or the peer stopped answering" },
	  { K_ACK_TIMEOUT }, V_FAIL, "ACK timeouts",
	  "packets or their ACKs are lost, or the peer stopped answering; check PFC/ECN and the peer's state" },
	{ { "counter.rnr", "RNR NAKs or out-of-buffer drops rose: a receiver posts too few receive buffers" },
	  { K_RNR, K_RNR_EXCEEDED, K_OUT_OF_BUFFER }, V_WARN, "RNR NAKs or drops for lack of receive buffers",
	  "the receiver is not posting receive buffers fast enough: the application must post more receives "
	  "(or use an SRQ); raising min_rnr_timer/rnr_retry only hides it" },
	{ { "counter.cnp", "congestion notifications (CNP, ECN marks) rose: the fabric is congested" },
	  { K_CNP_SENT, K_CNP_HANDLED, K_ECN_MARKED }, V_WARN, "congestion notifications",
	  "congestion is being handled: switches mark ECN and DCQCN slows the senders; if throughput is low, "
	  "look at incast patterns and the switches' ECN thresholds and buffers" },
	{ { "counter.link_downed", "the link went down: a flapping cable, transceiver or switch port" },
	  { K_LINK_DOWNED }, V_FAIL, "link down events",
	  "the link is flapping: check the cable, transceiver and switch port (switch logs, 'ethtool' link state)" },
	{ { "counter.symbol_err", "physical errors (symbol errors, link recoveries, receive errors) rose" },
	  { K_SYMBOL_ERR, K_LINK_RECOVERY, K_RX_ERRORS }, V_WARN, "physical errors",
	  "physical layer errors: reseat or replace the cable or transceiver, check the switch port" },
	{ { "counter.pause", "pause or PFC frames rose: a congested or slow receiver pushes back" },
	  { K_PAUSE_RX, K_PAUSE_TX, K_PFC_RX, K_PFC_TX }, V_WARN, "pause/PFC frames",
	  "the fabric is pushing back with pause frames: a congested or slow receiver; sustained pauses can "
	  "spread (head-of-line blocking, PFC storms)" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

const struct check_def *counter_check_def(size_t i)
{
	return i < NRULES ? &rules[i].def : NULL;
}

/* --only/--skip accept exactly the ids of the rules: filled from them at
 * start-up, as link check's (system check reads the rules through
 * counter_check_def(), not this list, from a constructor of its own). */
static const char *check_ids[NRULES + 1];

__attribute__((constructor)) static void fill_check_ids(void)
{
	for (size_t i = 0; i < NRULES; i++)
		check_ids[i] = rules[i].def.id;
}

static void check_rule(const struct check_rule *rule, const struct sample *old, const struct port_ctr *p,
		       double secs, bool idle, struct check_summary *sum, enum out_format fmt)
{
	struct check_result r;
	char name[RD_NAME_LEN + 8];
	uint64_t delta = 0, total = 0;
	int nkinds = 0;
	bool many = rule->kinds[1] != K_NONE;	/* the total sums kinds: name them */
	char kinds[256] = "";
	size_t klen = 0;

	counter_port_name(p, name, sizeof(name));
	check_init(&r, rule->def.id, name);
	for (int i = 0; rule->kinds[i] != K_NONE && i < 5; i++) {
		bool present;
		uint64_t v;

		delta += sample_kind_delta(old, p, rule->kinds[i], &present);
		v = ctr_kind_sum(&p->set, rule->kinds[i], &present);
		if (!present)
			continue;
		total += v;
		/* each kind summed, by counter show's name for it, so that the
		 * total reads against counter show (sequence_errors 47 and
		 * duplicate_requests 11 make 58) */
		if (klen < sizeof(kinds))
			klen += (size_t)snprintf(kinds + klen, sizeof(kinds) - klen, "%s%s %llu", nkinds ? ", " : "",
						 ctr_kinds[rule->kinds[i]].key, (unsigned long long)v);
		nkinds++;
	}
	if (!nkinds) {
		check_measured(&r, "the driver has no counter for %s", rule->what);
		check_verdict(&r, V_SKIP, NULL);
	} else {
		check_measured(&r, "%s +%llu in %.1f s (%.1f/s), %llu since reset%s%s%s%s", rule->what,
			       (unsigned long long)delta, secs, secs > 0 ? delta / secs : 0, (unsigned long long)total,
			       many ? " (" : "", many ? kinds : "", many ? ")" : "",
			       idle && !delta ? "; the port was idle" : "");
		check_expected(&r, "no increase");
		if (delta)
			check_verdict(&r, rule->when_rising, "%s", rule->hint);
		else
			check_verdict(&r, V_PASS, NULL);
	}
	if (out_format_is_prom(fmt))
		prom_check_add(&r, sum);
	else
		check_emit(&r, sum);
}

static bool port_idle(const struct sample *old, const struct port_ctr *p)
{
	static const enum ctr_kind traffic[] = { K_TX_PACKETS, K_RX_PACKETS, K_TX_BYTES, K_RX_BYTES };
	bool present;

	for (size_t i = 0; i < sizeof(traffic) / sizeof(traffic[0]); i++)
		if (sample_kind_delta(old, p, traffic[i], &present))
			return false;
	return true;
}

/* A host without RDMA netlink, or without a device: kernel.rdma fails, as in
 * link check, so that the document has its checks and summary. Exit 3 for
 * no netlink, 1 (a failed check) for no device, as link check. */
static int check_no_rdma(const struct sample *s, int rc, enum out_format fmt)
{
	struct check_summary sum = { 0 };
	struct check_result r;

	out_list_begin("checks");
	check_kernel_rdma_failed(&r, s->no_devices);
	if (out_format_is_prom(fmt))
		prom_check_add(&r, &sum);
	else
		check_emit(&r, &sum);
	out_list_end();
	if (out_format_is_prom(fmt))
		prom_checks_flush(fmt, "counter check");
	else
		check_print_summary(&sum);
	return s->no_devices ? check_exit_code(&sum, false) : rc;
}

static enum out_format check_fmt;	/* --format, read by counter_check_args */

int counter_check_args(struct cmd_ctx *ctx)
{
	double interval;
	int rc = out_format_get(ctx, &check_fmt);

	if (rc)
		return rc;
	if (ctx_opt(ctx, O_LIST)->set)
		return check_list(counter_check_def, "port", "any");	/* the devices are not read */
	if (sample_interval_opt(ctx, 2, &interval) ||
	    check_only_skip_conflict(ctx_opt_str(ctx, O_ONLY, NULL), ctx_opt_str(ctx, O_SKIP, NULL), check_ids))
		return EXIT_USAGE;
	/* report merge names the node by it, as for link check (netlink or not) */
	out_set_host(local_host_name());
	return args_dev_port(ctx);
}

int counter_check_no_netlink(struct cmd_ctx *ctx, int rc)
{
	(void)ctx;
	return check_no_rdma(&(struct sample){ 0 }, rc, check_fmt);
}

int counter_check(struct cmd_ctx *ctx)
{
	struct check_summary sum = { 0 };
	struct sample old = { 0 }, now = { 0 };
	enum out_format fmt = check_fmt;
	double interval;
	int rc;

	if (sample_interval_opt(ctx, 2, &interval))	/* checked before: says nothing */
		return EXIT_USAGE;
	rc = sample_take_first(ctx, &old);
	if (old.no_devices)
		return check_no_rdma(&old, rc, fmt);
	if (rc)
		return rc;
	rc = sample_port_errors(&old);
	interval = sample_respect_lifespan(interval, &old);
	install_stop_handler();
	if (!rc && sleep_after_sample(&old, interval)) {
		sample_free(&old);
		report_error("counter check interrupted before its second sample", NULL, NULL);
		return EXIT_RUNTIME;
	}
	sample_read(&now, &old);
	/* checks and summary always come together, as in link check: a port
	 * whose counters cannot be read checked nothing (an empty list, a zero
	 * summary, the error), which report merge counts as nothing checked */
	out_list_begin("checks");
	for (int i = 0; !rc && i < now.n; i++) {
		bool idle = port_idle(&old, &now.p[i]);

		for (size_t j = 0; j < NRULES; j++)
			if (check_selected(ctx, rules[j].def.id))
				check_rule(&rules[j], &old, &now.p[i], now.mono - old.mono, idle, &sum, fmt);
	}
	out_list_end();
	if (out_format_is_prom(fmt))
		prom_checks_flush(fmt, "counter check");
	else
		check_print_summary(&sum);
	sample_free(&old);
	sample_free(&now);
	return rc ? rc : check_exit_code(&sum, ctx_opt(ctx, O_STRICT)->set);
}

const struct cmd_opt counter_check_opts[] = {
	{ .id = O_LIST, .kind = OPT_FLAG, .help = "print the checks with one-line descriptions and exit" },
	{ .id = O_ONLY, .kind = OPT_LIST, .metavar = "ID,...", .help = "run only these checks",
	  .choices = check_ids, .complete = COMPLETE_CHECK_ID },
	{ .id = O_SKIP, .kind = OPT_LIST, .metavar = "ID,...", .help = "leave these checks out",
	  .choices = check_ids, .complete = COMPLETE_CHECK_ID },
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between the two samples (default 2)", .max = 3600 },
	{ .id = O_STRICT, .kind = OPT_FLAG, .help = "warnings also give exit code 1" },
	OUT_FORMAT_OPT,
	{ 0 },
};
