// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag path: active tests between two hosts (or one host with itself).
 *
 * `path serve` (path_serve.c) answers; `path test peer ADDR` runs stages in
 * order (control, resolve, config, rc_connect, rc_latency, write_bw, read_bw,
 * send_bw, ud, mtu, counters), each with a verdict and its duration; the
 * first failure is named with its cause and later stages are skipped. The
 * control channel is TCP (verbs/pathproto.h), the QPs are built by hand
 * (verbs/pathq.h) so every transition can be timed and decoded; rdma_cm only
 * resolves the address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <inttypes.h>
#include <infiniband/verbs.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../netlink/netdev.h"
#include "../netlink/source.h"
#include "../verbs/pathproto.h"
#include "../verbs/pathq.h"
#include "../verbs/pathsrv.h"
#include "check.h"
#include "common.h"
#include "counter_map.h"
#include "path.h"
#include "path_hints.h"
#include "path_peers.h"
#include "path_progress.h"
#include "objects.h"
#include "output.h"
#include "recent.h"

volatile sig_atomic_t path_stop;

static void on_stop_signal(int sig)
{
	path_stop = 1;
	interrupt_note(sig);
}

/* No SA_RESTART: a signal must end poll() and friends so that we clean up. */
void path_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* How completions are waited for: between hosts hybrid by default (spin for
 * PQ_SPIN_US, as long as a round trip takes on hardware, then sleep, so that
 * Soft-RoCE's kernel work gets the CPU while operations are in flight);
 * RDMADIAG_PATH_POLL=busy|yield|event|hybrid overrides. */
enum pq_poll_mode path_poll_mode(enum pq_poll_mode dflt)
{
	const char *e = getenv("RDMADIAG_PATH_POLL");

	if (!e)
		return dflt;
	return !strcmp(e, "event") ? PQ_EVENT : !strcmp(e, "yield") ? PQ_YIELD : !strcmp(e, "busy") ? PQ_BUSY :
	       !strcmp(e, "hybrid") ? PQ_HYBRID : dflt;
}

bool path_host_has_rdma_device(void)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);

	if (list)
		ibv_free_device_list(list);
	return list && n > 0;
}

/* ------------------------------------------------------------------ stages */

enum stage_id {
	ST_CONTROL, ST_RESOLVE, ST_CONFIG, ST_CONNECT, ST_LAT, ST_WRITE, ST_READ, ST_SEND, ST_UD, ST_MTU,
	ST_COUNTERS, ST_COUNT,
};

/* Bits of --tests; the first four stages always run. */
enum { T_LAT = 1, T_WRITE = 2, T_READ = 4, T_SEND = 8, T_UD = 16, T_MTU = 32, T_COUNTERS = 64, T_ALL = 127 };

static const struct {
	const char *id;
	unsigned test_bit;	/* 0: always */
} stages[ST_COUNT] = {
	[ST_CONTROL] = { "path.control", 0 }, [ST_RESOLVE] = { "path.resolve", 0 },
	[ST_CONFIG] = { "path.config", 0 }, [ST_CONNECT] = { "path.rc_connect", 0 },
	[ST_LAT] = { "path.rc_latency", T_LAT }, [ST_WRITE] = { "path.write_bw", T_WRITE },
	[ST_READ] = { "path.read_bw", T_READ }, [ST_SEND] = { "path.send_bw", T_SEND },
	[ST_UD] = { "path.ud", T_UD }, [ST_MTU] = { "path.mtu", T_MTU },
	[ST_COUNTERS] = { "path.counters", T_COUNTERS },
};

#define MAX_NUMS 8
#define MAX_MOVED 16

/* A transport counter that moved during a stage, on this host or the peer. */
struct moved_ctr {
	const char *host;	/* "here" or "peer" */
	char name[40];		/* the driver's name */
	enum ctr_kind kind;	/* vendor-neutral meaning, K_NONE when the map does not know it */
	uint64_t delta;
};

struct stage {
	struct check_result r;
	double ms;
	unsigned nnum;
	struct {
		const char *key;
		double v;
	} num[MAX_NUMS];
	unsigned nmoved;
	struct moved_ctr moved[MAX_MOVED];
};

static void stage_num(struct stage *s, const char *key, double v)
{
	if (s->nnum < MAX_NUMS)
		s->num[s->nnum++] = (typeof(s->num[0])){ key, v };
}

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

static void emit_stage(const struct stage *s)
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

/* ------------------------------------------------------------------ tester */

struct tester {
	const char *peer;		/* NULL in loopback */
	const char *dev_arg;		/* --dev or the loopback DEV */
	unsigned dev_port;
	unsigned port;			/* control TCP port */
	int gid_index;			/* -1 auto */
	unsigned tests, size, lat_size, iters, duration_s;
	double expect_bw, expect_lat;
	int64_t run_deadline;		/* --timeout; INT64_MAX none */
	unsigned timeout_s;		/* --timeout; 0 none (per peer in many-peer runs) */

	int fd;
	bool no_rdma;			/* this host cannot run it: exit 3 */
	struct pq q;
	bool q_open;
	struct pq_route route;
	struct pp_config remote;
	struct pp_qp rqp;
	struct pq_counters before;
	bool in_phase;			/* the responder runs a phase: it expects PHASE_END next */
	unsigned recv_posted;
	char subject[96];
	char loop_dev[64];
	struct provider prov;		/* who drives the local device: the hints depend on it */
	bool show_progress;		/* one peer: a long stage draws its progress on a terminal */
	struct progress prog;		/* of the stage running now */

	/* loopback: the responder thread */
	pthread_t thread;
	bool thread_running;
	int thread_fd;
	struct ps_opts ps;
	char ps_summary[256];
};

static int64_t stage_deadline(const struct tester *t, int64_t budget_ms)
{
	int64_t d = pp_now_ms() + budget_ms;

	return d < t->run_deadline ? d : t->run_deadline;
}

static bool timed_out_overall(const struct tester *t)
{
	return pp_now_ms() >= t->run_deadline;
}

static const char *peer_name(const struct tester *t)
{
	return t->peer ? t->peer : "the loopback responder";
}

/* --- control --- */

static int tcp_connect(const char *host, unsigned port, int64_t deadline, char *why, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	char ps[16];
	int fd, err, one = 1;
	socklen_t el = sizeof(err);
	struct pollfd p;

	snprintf(ps, sizeof(ps), "%u", port);
	if (getaddrinfo(host, ps, &hints, &ai)) {
		snprintf(why, len, "'%s' is not an IP address", host);
		return -EINVAL;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		return -errno;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	err = connect(fd, ai->ai_addr, ai->ai_addrlen) ? errno : 0;
	freeaddrinfo(ai);
	if (err == EINPROGRESS) {
		int64_t left;

		do {
			left = deadline - pp_now_ms();
			p = (struct pollfd){ .fd = fd, .events = POLLOUT };
		} while (left > 0 && poll(&p, 1, (int)left) < 0 && errno == EINTR && !path_stop);
		if (left <= 0 || !(p.revents & (POLLOUT | POLLERR | POLLHUP)))
			err = path_stop ? EINTR : ETIMEDOUT;
		else
			err = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) ? errno : err;
	}
	if (!err)
		return fd;
	close(fd);
	switch (err) {
	case ECONNREFUSED:
		snprintf(why, len, "nothing listening on %s port %u (connection refused)", host, port);
		break;
	case EHOSTUNREACH: case ENETUNREACH:
		snprintf(why, len, "host %s unreachable (%s)", host, strerror(err));
		break;
	case ETIMEDOUT:
		snprintf(why, len, "connecting to %s port %u timed out: host down, or a firewall drops TCP port %u",
			 host, port, port);
		break;
	default:
		snprintf(why, len, "connecting to %s port %u: %s", host, port, strerror(err));
	}
	return -err;
}

static int first_active_device(char *dev, size_t len, unsigned *port);

static void *responder_thread(void *arg)
{
	struct tester *t = arg;

	ps_session(t->thread_fd, &t->ps, t->ps_summary, sizeof(t->ps_summary));
	close(t->thread_fd);
	return NULL;
}

static int start_loopback_responder(struct tester *t, char *why, size_t len)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		snprintf(why, len, "socketpair: %s", strerror(errno));
		return -errno;
	}
	t->thread_fd = sv[1];
	if (!t->dev_arg && !first_active_device(t->loop_dev, sizeof(t->loop_dev), &t->dev_port))
		t->dev_arg = t->loop_dev;
	t->ps = (struct ps_opts){ .dev = t->dev_arg, .port = t->dev_port, .gid_index = t->gid_index,
				  .mode = PQ_EVENT, .lat_mode = PQ_EVENT, .idle_timeout_ms = 30000, .stop = &path_stop };
	if (pthread_create(&t->thread, NULL, responder_thread, t)) {
		close(sv[0]);
		close(sv[1]);
		snprintf(why, len, "cannot start the responder thread");
		return -EAGAIN;
	}
	t->thread_running = true;
	return sv[0];
}

/* The peer's serve ends a session whose control channel is silent for its
 * idle timeout; a one-sided bandwidth stage sends nothing there for
 * --duration seconds (plus completion slack), so it must fit. */
static bool one_sided_too_long(const struct tester *t, unsigned idle_ms)
{
	return !t->iters && (t->tests & (T_WRITE | T_READ)) && idle_ms &&
	       (uint64_t)t->duration_s * 1000 + 2000 > idle_ms;
}

static void hello(struct tester *t, struct stage *s, int64_t deadline)
{
	struct pp_msg m = { .type = PP_HELLO };
	char why[256];
	int rc;

	m.u.hello = (struct pp_hello){ .tests = t->tests, .size = t->size, .lat_size = t->lat_size,
				       .buf_len = t->size };
	rc = pp_send(t->fd, &m, deadline);
	if (!rc)
		rc = pp_expect(t->fd, PP_HELLO_OK, &m, deadline, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", pp_strerror(rc));
	if (!rc && one_sided_too_long(t, m.u.hello_ok.idle_timeout_ms)) {
		check_measured(&s->r, "%s ends a session silent for %u s; the RDMA WRITE/READ stages of --duration %u "
			       "are silent on the control channel that long", peer_name(t),
			       m.u.hello_ok.idle_timeout_ms / 1000, t->duration_s);
		check_verdict(&s->r, V_FAIL, "start the peer's serve with --idle-timeout above %u, or use a shorter "
			      "--duration", t->duration_s + 2);
	} else if (!rc) {
		if (t->peer)
			check_measured(&s->r, "%s port %u answers (protocol %d, idle timeout %u ms)", t->peer, t->port,
				       PP_VERSION, m.u.hello_ok.idle_timeout_ms);
		else
			check_measured(&s->r, "the in-process responder answers (protocol %d)", PP_VERSION);
		check_verdict(&s->r, V_PASS, NULL);
	} else if (rc == -EBADE) {
		check_measured(&s->r, "%s refused the session: %s", peer_name(t), why);
		check_verdict(&s->r, V_FAIL, "the peer is busy or limits this request; retry later or ask within "
			      "its limits");
	} else if (rc == -EBADMSG || rc == -EPROTO || rc == -EMSGSIZE || rc == -EPROTONOSUPPORT) {
		check_measured(&s->r, "something answers on %s port %u but it is not rdmadiag path serve (%s)",
			       peer_name(t), t->port, why);
		check_verdict(&s->r, V_FAIL, "use the port of 'rdmadiag path serve' on the peer (--port), and the "
			      "same rdmadiag version on both hosts");
	} else {
		check_measured(&s->r, "%s port %u connected but did not answer: %s", peer_name(t), t->port, why);
		check_verdict(&s->r, V_FAIL, "the peer's serve is stuck or busy; restart 'rdmadiag path serve'");
	}
}

/* Connect + HELLO. Linux sends a lost SYN again after 1 s and 3 s: 4 s lets
 * the third SYN answer, so a lossy path (the case being diagnosed) is not
 * called "host down" when two handshakes were dropped. */
#define CONTROL_BUDGET_MS 4000

static void stage_control(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, CONTROL_BUDGET_MS);
	char why[256];

	check_expected(&s->r, "rdmadiag path serve answering on port %u", t->port);
	t->fd = t->peer ? tcp_connect(t->peer, t->port, deadline, why, sizeof(why))
			: start_loopback_responder(t, why, sizeof(why));
	if (t->fd < 0) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, t->fd == -ECONNREFUSED ?
			      "start the responder on the peer: rdmadiag path serve (and check --port)" :
			      "check that the peer is up and that its firewall allows TCP port %u", t->port);
		return;
	}
	hello(t, s, deadline);
	if (t->peer && s->r.verdict == V_PASS)
		recent_peer_add(t->peer);	/* offered first by `path test peer <TAB>` */
}

/* --- resolve --- */

static int first_active_device(char *dev, size_t len, unsigned *port)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	int found = -ENODEV;

	for (int i = 0; list && i < n && found; i++) {
		struct ibv_context *c = ibv_open_device(list[i]);
		struct ibv_device_attr da;

		if (!c)
			continue;
		if (!ibv_query_device(c, &da))
			for (unsigned p = 1; p <= da.phys_port_cnt && found; p++) {
				struct ibv_port_attr pa;

				if (!ibv_query_port(c, (uint8_t)p, &pa) && pa.state == IBV_PORT_ACTIVE) {
					snprintf(dev, len, "%s", ibv_get_device_name(list[i]));
					*port = p;
					found = 0;
				}
			}
		ibv_close_device(c);
	}
	if (list)
		ibv_free_device_list(list);
	return found;
}

static void describe_local(struct tester *t, struct stage *s, const char *how)
{
	char gid[64];

	pq_gid_str(t->q.local.gid, gid, sizeof(gid));
	snprintf(t->subject, sizeof(t->subject), "%s/%u", t->q.local.dev, t->q.local.port);
	check_measured(&s->r, "%s: %s GID index %u (%s %s)%s%s%s", how, t->subject, t->q.local.gid_index,
		       pq_gid_type_str(t->q.local.gid_type), gid, t->route.src[0] ? " source " : "", t->route.src,
		       t->q.local.netdev[0] ? "" : "");
	stage_num(s, "gid_index", t->q.local.gid_index);
}

static bool resolve_route(struct tester *t, struct stage *s, char *dev, size_t len, unsigned *port)
{
	char what[256];
	int rc = pq_resolve(t->peer, stage_deadline(t, 3000), &t->route, what, sizeof(what));

	if (rc) {
		check_measured(&s->r, "%s", what);
		check_verdict(&s->r, V_FAIL, rc == -ENODEV || rc == -EADDRNOTAVAIL ?
			      "the route to the peer leaves through a netdev without an RDMA device: create one "
			      "(rdma link add rxe0 type rxe netdev IFACE) or use the peer's address on the RDMA network" :
			      "check the IP route and neighbour to the peer: ip route get %s; ip neigh", t->peer);
		return false;
	}
	snprintf(dev, len, "%s", t->route.dev);
	*port = t->route.port;
	stage_num(s, "addr_ms", (double)t->route.addr_ms);
	stage_num(s, "route_ms", (double)t->route.route_ms);
	return true;
}

static void stage_resolve(struct tester *t, struct stage *s)
{
	char dev[64] = "", what[256];
	unsigned port = 1;
	int rc;

	check_expected(&s->r, "an RDMA device and GID for the path to the peer");
	if (t->no_rdma) {
		check_measured(&s->r, "this host has no RDMA device");
		check_verdict(&s->r, V_FAIL, "load the NIC's RDMA driver or create a Soft-RoCE device: "
			      "modprobe rdma_rxe && rdma link add rxe0 type rxe netdev IFACE");
		return;
	}
	if (t->peer && !resolve_route(t, s, dev, sizeof(dev), &port))
		return;
	if (t->dev_arg) {
		snprintf(dev, sizeof(dev), "%s", t->dev_arg);
		port = t->dev_port ? t->dev_port : 1;
	} else if (!t->peer && first_active_device(dev, sizeof(dev), &port)) {
		check_measured(&s->r, "no RDMA port is ACTIVE on this host");
		check_verdict(&s->r, V_FAIL, "see: rdmadiag link show");
		t->no_rdma = true;
		return;
	}
	t->dev_port = port;
	rc = pq_local_config(dev, port, t->gid_index, t->route.src[0] ? t->route.src : NULL, &t->q.local, what,
			     sizeof(what));
	if (rc) {
		check_measured(&s->r, "%s", what);
		check_verdict(&s->r, V_FAIL, rc == -ENOENT ? "choose a GID index that holds the address of the "
			      "RDMA netdev: rdma link show; ibv_devinfo -v, or leave --gid-index at auto" :
			      "see: rdmadiag link show %s", dev);
		if (rc == -ENODEV)
			t->no_rdma = true;
		return;
	}
	if (!t->peer && !t->dev_arg)
		t->dev_arg = t->q.local.dev;
	describe_local(t, s, t->peer ? "route" : "loopback");
	check_verdict(&s->r, V_PASS, NULL);
}

/* --- config cross-check --- */

static void side_desc(const struct pp_config *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%u %s MTU %u%s%s%s", c->dev, c->port, c->link_layer == 2 ? "Ethernet" : "InfiniBand",
		 c->active_mtu, c->netdev[0] ? " (netdev " : "", c->netdev, c->netdev[0] ? "" : "");
	if (c->netdev[0])
		snprintf(buf + strlen(buf), len - strlen(buf), " MTU %u)", c->netdev_mtu);
	snprintf(buf + strlen(buf), len - strlen(buf), " %s", pq_gid_type_str(c->gid_type));
	if (c->rate_mbps)
		snprintf(buf + strlen(buf), len - strlen(buf), " %g Gb/s", c->rate_mbps / 1000.0);
}

static void cross_check(struct tester *t, struct stage *s)
{
	const struct pp_config *l = &t->q.local, *r = &t->remote;
	char here[200], there[200];

	side_desc(l, here, sizeof(here));
	side_desc(r, there, sizeof(there));
	check_measured(&s->r, "here %s; peer %s", here, there);
	if (l->link_layer != r->link_layer) {
		check_verdict(&s->r, V_FAIL, "link layers differ: %s here, %s on the peer; RDMA needs the same fabric",
			      l->link_layer == 2 ? "Ethernet" : "InfiniBand", r->link_layer == 2 ? "Ethernet" : "InfiniBand");
	} else if (l->gid_type != r->gid_type) {
		check_verdict(&s->r, V_FAIL, "GID types differ: %s here, %s on the peer; pick GIDs of one type "
			      "(--gid-index, and the peer's default RoCE mode)", pq_gid_type_str(l->gid_type),
			      pq_gid_type_str(r->gid_type));
	} else if (l->active_mtu != r->active_mtu || l->netdev_mtu != r->netdev_mtu) {
		check_verdict(&s->r, V_WARN, "MTUs differ: active MTU %u here (netdev %s MTU %u) vs %u on the peer "
			      "(netdev %s MTU %u); RC runs at %u and larger UD datagrams are lost: set the same MTU on "
			      "both hosts (ip link set dev IFACE mtu N)", l->active_mtu, l->netdev, l->netdev_mtu,
			      r->active_mtu, r->netdev, r->netdev_mtu,
			      l->active_mtu < r->active_mtu ? l->active_mtu : r->active_mtu);
	} else if (l->rate_mbps && r->rate_mbps && l->rate_mbps != r->rate_mbps) {
		check_verdict(&s->r, V_WARN, "port rates differ: %g Gb/s here, %g Gb/s on the peer; the slower "
			      "one bounds bandwidth", l->rate_mbps / 1000.0, r->rate_mbps / 1000.0);
	} else {
		check_verdict(&s->r, V_PASS, NULL);
	}
	stage_num(s, "local_mtu", l->active_mtu);
	stage_num(s, "peer_mtu", r->active_mtu);
	stage_num(s, "local_netdev_mtu", l->netdev_mtu);
	stage_num(s, "peer_netdev_mtu", r->netdev_mtu);
}

static void stage_config(struct tester *t, struct stage *s)
{
	struct pp_msg m = { .type = PP_CONFIG, .u.config = t->q.local };
	int64_t deadline = stage_deadline(t, 5000);
	char why[256];
	int rc;

	check_expected(&s->r, "the same link layer, MTU and GID type on both hosts");
	rc = pp_send(t->fd, &m, deadline);
	if (!rc)
		rc = pp_expect(t->fd, PP_CONFIG, &m, deadline, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", pp_strerror(rc));
	if (rc) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, rc == -EBADE ? "the peer cannot run the test on the address it was "
			      "reached at: connect to its address on the RDMA network" :
			      "the peer's serve stopped answering; see its log");
		return;
	}
	t->remote = m.u.config;
	provider_read(t->q.local.dev, &t->prov);
	cross_check(t, s);
}

/* --- RC connect --- */

/* Whether the peer closed the control channel: its serve died or was killed. */
static bool peer_gone(const struct tester *t)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	char c;

	if (t->fd < 0 || poll(&p, 1, 100) <= 0)
		return false;
	return (p.revents & (POLLHUP | POLLERR)) || recv(t->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

enum reach { REACH_OK, REACH_GONE, REACH_SILENT };

/* RDMA stopped getting answers: does the peer's serve still answer on the
 * control channel? Ends a running phase (PHASE_END) or asks for counters,
 * whichever the responder expects now, with a short deadline. */
static enum reach control_probe(struct tester *t)
{
	struct pp_msg m = { .type = t->in_phase ? PP_PHASE_END : PP_COUNTERS_REQ };
	int64_t deadline = pp_now_ms() + 2000;
	char why[256];
	int rc;

	if (peer_gone(t))
		return REACH_GONE;
	rc = pp_send(t->fd, &m, deadline);
	if (!rc)
		rc = pp_expect(t->fd, t->in_phase ? PP_PHASE_DONE : PP_COUNTERS, &m, deadline, why, sizeof(why));
	if (!rc) {
		t->in_phase = false;
		return REACH_OK;
	}
	return rc == -ECONNRESET || peer_gone(t) ? REACH_GONE : REACH_SILENT;
}

/* Whether the port here is down, its state in state[]. rxe marks its port
 * down from its NETDEV_DOWN handler, and the error completion that the
 * netdev going down causes can come first (1 run in 40 of the lab's
 * local-link-down test): a netdev that is down or has no carrier counts at
 * once, and the port gets up to 1 s to follow it. */
static bool port_here_down(struct tester *t, char *state, size_t len)
{
	struct netdev_info nd;

	if (!pq_port_active(&t->q, state, len))
		return true;
	if (netdev_read(t->q.local.netdev, &nd) || (nd.admin_up != 0 && nd.carrier != 0))
		return false;
	for (int i = 0; i < 20 && pq_port_active(&t->q, state, len); i++)
		usleep(50 * 1000);
	return true;
}

/* Whether the local port went down during the run; if so that is the verdict. */
static bool link_here_down(struct tester *t, struct stage *s, const char *what)
{
	const char *netdev = t->q.local.netdev;
	char state[32], seen[160];

	if (!t->q_open || !port_here_down(t, state, sizeof(state)))
		return false;
	if (!strcmp(state, "ACTIVE"))	/* the port has not followed its netdev yet */
		snprintf(seen, sizeof(seen), "netdev %s is down, %s still ACTIVE", netdev, t->subject);
	else
		snprintf(seen, sizeof(seen), "%s is %s%s%s", t->subject, state, netdev[0] ? ", netdev " : "", netdev);
	check_verdict(&s->r, V_FAIL, "%s: the link here went down (%s): bring it up and check the cable and switch "
		      "port (rdmadiag link check %s)", what, seen, t->subject);
	return true;
}

/* RDMA operations got no answer (retries exceeded, or a timeout): the local
 * link, the peer's serve, the whole peer, or only RoCE traffic. */
static void no_answer_verdict(struct tester *t, struct stage *s, const char *what)
{
	char extra[192];

	if (link_here_down(t, s, what))
		return;
	switch (control_probe(t)) {
	case REACH_GONE:
		check_verdict(&s->r, V_FAIL, "%s: %s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", what, peer_name(t));
		break;
	case REACH_SILENT:
		check_verdict(&s->r, V_FAIL, "%s: %s is unreachable: it answers neither RDMA nor the control channel "
			      "(TCP port %u): its link is down, the host is down or hung, or the network between you "
			      "failed; check the link on both hosts (rdmadiag link check) and the route (ping %s)",
			      what, peer_name(t), t->port, peer_name(t));
		break;
	default:
		if (t->q.local.link_layer == 2)
			check_verdict(&s->r, V_FAIL, "%s: RoCE traffic (UDP 4791) is not getting through while the "
				      "control channel works: a firewall drops UDP 4791, the GID index is wrong (GID "
				      "index %u here), or the peer's RDMA stack does not answer%s", what,
				      t->q.local.gid_index, hint_stall_extra(&t->prov, extra, sizeof(extra)));
		else
			check_verdict(&s->r, V_FAIL, "%s: RDMA packets get no answer while the control channel works: "
				      "check the LIDs and the subnet manager (rdmadiag link check on both hosts)%s",
				      what, hint_stall_extra(&t->prov, extra, sizeof(extra)));
	}
}

static void wc_hint(struct tester *t, struct stage *s, int status)
{
	if (status == IBV_WC_RETRY_EXC_ERR)
		no_answer_verdict(t, s, "transport retries exceeded");
	else if (link_here_down(t, s, pq_wc_status_str(status)))
		return;
	else if (peer_gone(t))
		check_verdict(&s->r, V_FAIL, "%s: %s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", pq_wc_status_str(status), peer_name(t));
	else
		check_verdict(&s->r, V_FAIL, "%s: %s", pq_wc_status_str(status), pq_wc_meaning(status));
}

static int post_recv_ring(struct tester *t)
{
	for (unsigned i = 0; i < PQ_RECV_RING; i++)
		if (pq_post_recv(&t->q, false, i) || pq_post_recv(&t->q, true, i))
			return -EIO;
	return 0;
}

static int exchange_qp(struct tester *t, int64_t deadline, char *why, size_t len)
{
	struct pp_msg m = { .type = PP_QP };
	int rc;

	pq_local_qp(&t->q, &m.u.qp);
	rc = pp_send(t->fd, &m, deadline);
	if (rc) {
		snprintf(why, len, "%s", pp_strerror(rc));
		return rc;
	}
	rc = pp_expect(t->fd, PP_QP, &m, deadline, why, len);
	if (!rc)
		t->rqp = m.u.qp;
	return rc;
}

/* Arms a responder phase: PHASE, then READY. */
static int phase_begin(struct tester *t, uint32_t phase, uint32_t size, uint32_t count, int64_t deadline,
		       char *why, size_t len)
{
	struct pp_msg m = { .type = PP_PHASE };

	m.u.phase = (struct pp_phase_msg){ .phase = phase, .size = size, .count = count };
	int rc = pp_send(t->fd, &m, deadline);

	if (rc) {
		snprintf(why, len, "control channel to %s: %s", peer_name(t), pp_strerror(rc));
		return rc;
	}
	rc = pp_expect(t->fd, PP_READY, &m, deadline, why, len);
	t->in_phase = !rc;
	return rc;
}

static int phase_end(struct tester *t, struct pp_phase_done *d, int64_t deadline, char *why, size_t len)
{
	struct pp_msg m = { .type = PP_PHASE_END };
	int rc = pp_send(t->fd, &m, deadline);

	if (rc) {
		snprintf(why, len, "control channel to %s: %s", peer_name(t), pp_strerror(rc));
		return rc;
	}
	rc = pp_expect(t->fd, PP_PHASE_DONE, &m, deadline, why, len);
	if (!rc) {
		*d = m.u.done;
		t->in_phase = false;
	}
	return rc;
}

/* One send/receive round trip on the RC QP. 0, -ETIMEDOUT, -EINTR, or a wc status (> 0). */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One send and its echo. *answered is when the echo's completion was seen,
 * before its buffer is posted again: the round trip is post to reply. */
static int rc_round_trip(struct tester *t, unsigned size, int64_t deadline, uint64_t *answered)
{
	struct ibv_wc wc[8];
	bool got = false;

	if (pq_post_rc(&t->q, IBV_WR_SEND, size, 0, 0, true, 1))
		return -EIO;
	while (!got) {
		int n = pq_poll(&t->q, wc, 8, deadline);

		if (n < 0)
			return n;
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return wc[i].status;
			if (wc[i].opcode & IBV_WC_RECV) {
				got = true;
				if (answered)
					*answered = now_ns();
				if (pq_post_recv(&t->q, wc[i].qp_num == t->q.ud->qp_num, wc[i].wr_id))
					return -EIO;
			}
		}
	}
	return 0;
}

/* round_trip: the failure is the first message's, not the setup's. */
static void connect_fail(struct tester *t, struct stage *s, int rc, const char *why, bool round_trip)
{
	if (rc > 0) {
		check_measured(&s->r, "first message: %s; RC QP now %s", pq_wc_status_str(rc), pq_rc_state_str(&t->q));
		wc_hint(t, s, rc);
	} else if ((rc == -ETIMEDOUT || rc == -ENETDOWN) && round_trip) {
		check_measured(&s->r, "QPs are in RTS on both hosts but no message came back in time");
		no_answer_verdict(t, s, "no answer");
	} else {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, strstr(why, "GID") ? "check --gid-index on both hosts: it must hold "
			      "the RoCE v2 address of the RDMA netdev (rdma link show; ibv_devinfo -v)" :
			      "see the cause; rdmadiag link show on both hosts");
	}
}

static void stage_connect(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, 5000);
	char why[512] = "";
	uint64_t t0;
	struct pp_phase_done d;
	int rc;

	check_expected(&s->r, "RESET->INIT->RTR->RTS on both hosts and a first message both ways");
	t->q.mode = path_poll_mode(t->peer ? PQ_HYBRID : PQ_YIELD);
	t->q.stop = &path_stop;
	t->q.link_grace_ms = PQ_LINK_GRACE_MS;
	rc = pq_open(&t->q, &t->q.local, t->size < 8192 ? 8192 : (t->size + 4095) & ~4095u, why, sizeof(why));
	t->q_open = true;
	if (!rc)
		rc = pq_rc_init(&t->q, why, sizeof(why));
	if (!rc)
		rc = exchange_qp(t, deadline, why, sizeof(why));
	if (!rc)
		rc = pq_rc_connect(&t->q, &t->remote, &t->rqp, why, sizeof(why));
	if (!rc)
		rc = pq_ud_connect(&t->q, &t->remote, why, sizeof(why));
	if (!rc && post_recv_ring(t))
		snprintf(why, sizeof(why), "cannot post receive buffers"), rc = -EIO;
	if (!rc)
		rc = phase_begin(t, PH_LAT, t->lat_size, 1, deadline, why, sizeof(why));
	if (rc) {
		connect_fail(t, s, rc, why, false);
		return;
	}
	t0 = pp_now_us();
	rc = rc_round_trip(t, t->lat_size, deadline, NULL);
	if (rc) {
		connect_fail(t, s, rc, why, true);
		return;
	}
	if ((rc = phase_end(t, &d, deadline, why, sizeof(why)))) {
		connect_fail(t, s, rc, why, false);
		return;
	}
	check_measured(&s->r, "here INIT %.2f RTR %.2f RTS %.2f ms; peer INIT %.2f RTR %.2f RTS %.2f ms; "
		       "first round trip %.2f ms; path MTU %u", t->q.t_init_us / 1e3, t->q.t_rtr_us / 1e3,
		       t->q.t_rts_us / 1e3, t->rqp.t_init_us / 1e3, t->rqp.t_rtr_us / 1e3, t->rqp.t_rts_us / 1e3,
		       (pp_now_us() - t0) / 1e3, t->q.path_mtu);
	stage_num(s, "path_mtu", t->q.path_mtu);
	check_verdict(&s->r, V_PASS, NULL);
}

/* --- latency --- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double pct(const uint64_t *v, unsigned n, double p)
{
	unsigned i = (unsigned)ceil(p * n) - 1;

	return v[i < n ? i : n - 1] / 2e3;	/* ns of a round trip -> one-way us */
}

/* How long the latency stage samples by default: 1000 round trips take a
 * fraction of a second on hardware, 40 s on a 20 ms path; the stage reports
 * what this much time gave. --iters raises it to SAMPLE_ITERS_MS. */
#define LAT_SAMPLE_MS 3000
#define SAMPLE_ITERS_MS 120000
/* No completion for this long while the RC QP stays in RTS is a stall: the
 * QP's own retry budget (PQ_RC_RETRY + 1 tries of 4.096 us << PQ_RC_TIMEOUT)
 * has then run out without an error completion, plus a second of slack. A
 * lossy path that the QP recovers from completes within it. */
#define STALL_MS (PQ_RC_RETRY_BUDGET_MS + 1000)

static const char *stall_text(char *buf, size_t len)
{
	snprintf(buf, len, "no completion for %.1f s, past the RC QP's retry budget (%u tries of %.2f s)",
		 STALL_MS / 1e3, PQ_RC_RETRY + 1, (4096.0 * (1u << PQ_RC_TIMEOUT)) / 1e9);
	return buf;
}

static void latency_result(struct tester *t, struct stage *s, uint64_t *rtt, unsigned n, unsigned asked,
			   double secs)
{
	double p50;
	size_t used;

	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	p50 = pct(rtt, n, 0.5);
	check_measured(&s->r, "%u round trips of %u bytes, one way: min %.2f p50 %.2f p99 %.2f p99.9 %.2f max %.2f us",
		       n, t->lat_size, rtt[0] / 2e3, p50, pct(rtt, n, 0.99), pct(rtt, n, 0.999), rtt[n - 1] / 2e3);
	if (n < asked) {
		used = strlen(s->r.measured);
		snprintf(s->r.measured + used, sizeof(s->r.measured) - used, " (%u of %u asked: sampled for %.1f s)",
			 n, asked, secs);
	}
	stage_num(s, "round_trips", n);
	stage_num(s, "latency_min_us", rtt[0] / 2e3);
	stage_num(s, "latency_p50_us", p50);
	stage_num(s, "latency_p99_us", pct(rtt, n, 0.99));
	stage_num(s, "latency_p999_us", pct(rtt, n, 0.999));
	stage_num(s, "latency_max_us", rtt[n - 1] / 2e3);
	if (t->expect_lat > 0 && p50 > t->expect_lat) {
		check_expected(&s->r, "p50 <= %g us", t->expect_lat);
		check_verdict(&s->r, V_FAIL, "latency is above --expect-lat: check CPU frequency scaling, interrupt "
			      "moderation, and the counters stage for retransmissions");
	} else {
		check_verdict(&s->r, V_PASS, NULL);
	}
}

/* A wait ended without a completion: the --timeout of the whole run, or a stall. */
static void stall_verdict(struct tester *t, struct stage *s, const char *done, int rc, const char *what)
{
	char stall[160];

	if (rc == -ETIMEDOUT && timed_out_overall(t)) {
		check_measured(&s->r, "%s when the --timeout of the whole run (%u s) expired; RC QP now %s", done,
			       t->timeout_s, pq_rc_state_str(&t->q));
		check_verdict(&s->r, V_FAIL, "the --timeout of the whole run expired while operations still "
			      "completed: raise --timeout, or leave it out to let each stage end in its own bound");
		return;
	}
	check_measured(&s->r, "%s; then %s; RC QP now %s", done,
		       rc == -ENETDOWN ? pp_strerror(rc) : stall_text(stall, sizeof(stall)), pq_rc_state_str(&t->q));
	no_answer_verdict(t, s, what);
}

static void stage_latency(struct tester *t, struct stage *s)
{
	int64_t start = pp_now_ms(), sample_end = stage_deadline(t, t->iters ? SAMPLE_ITERS_MS : LAT_SAMPLE_MS);
	unsigned n = 0, iters = t->iters ? t->iters : 1000;
	uint64_t *rtt = calloc(iters, sizeof(*rtt));
	struct pp_phase_done d;
	char why[256], done[96];
	int rc = rtt ? phase_begin(t, PH_LAT, t->lat_size, iters, stage_deadline(t, CONTROL_BUDGET_MS), why,
				   sizeof(why)) : -ENOMEM;

	enum pq_poll_mode between = t->q.mode;

	if (t->expect_lat > 0)
		check_expected(&s->r, "p50 <= %g us", t->expect_lat);
	else
		check_expected(&s->r, "round trips complete");
	/* Round trips are timed the way perftest times them: both ends spin on
	 * the CQ (the peer's serve does so in this phase). Sleeping on the
	 * completion channel, as the other stages do between hosts, would add
	 * a wake-up to every one. Loopback keeps yielding: one CPU may hold both
	 * ends. */
	if (t->peer)
		t->q.mode = path_poll_mode(PQ_BUSY);
	/* A round trip started in time may take up to the stall bound. */
	while (!rc && n < iters && pp_now_ms() < sample_end) {
		uint64_t t0 = now_ns(), t1 = 0;

		rc = rc_round_trip(t, t->lat_size, stage_deadline(t, STALL_MS), &t1);
		if (!rc)
			rtt[n++] = t1 - t0;
		progress_update(&t->prog, n, iters, "round trips");
	}
	t->q.mode = between;
	snprintf(done, sizeof(done), "after %u of %u round trips", n, iters);
	if (rc > 0) {
		check_measured(&s->r, "%s: %s; RC QP now %s", done, pq_wc_status_str(rc), pq_rc_state_str(&t->q));
		wc_hint(t, s, rc);
	} else if (rc == -ETIMEDOUT || rc == -ENETDOWN) {
		stall_verdict(t, s, done, rc, "round trips stopped");
	} else if (rc) {
		check_measured(&s->r, "%s: %s", done, rc == -ENOMEM ? "out of memory" : rc == -EINTR ? "interrupted" :
			       why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering: see the peer's log and the counters",
			      peer_name(t));
	} else if ((rc = phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why)))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
	} else if (!n) {
		check_measured(&s->r, "no round trip was started: the --timeout of the whole run expired first");
		check_verdict(&s->r, V_FAIL, "raise --timeout, or leave it out");
	} else {
		latency_result(t, s, rtt, n, iters, (pp_now_ms() - start) / 1e3);
	}
	free(rtt);
}

/* --- bandwidth --- */

#define BW_TAG (1ull << 62)

struct bw_run {
	uint64_t posted, completed, bytes;
	uint64_t signaled;	/* the last signaled operation posted */
	double secs;
	int wc_status;
	int err;
};

/* Posting goes on until --iters operations or the sampling time ran out. */
static bool bw_more(const struct tester *t, const struct bw_run *b, uint64_t t_end)
{
	return (!t->iters || b->posted < t->iters) && now_ns() < t_end;
}

/* Posts one bandwidth operation; b->signaled is the last signaled one. */
static int bw_post(struct tester *t, int opcode, struct bw_run *b, bool sig)
{
	if (pq_post_rc(&t->q, opcode, t->size, t->rqp.addr, t->rqp.rkey, sig, BW_TAG | (b->posted + 1)))
		return -EIO;
	b->posted++;
	if (sig)
		b->signaled = b->posted;
	return 0;
}

/* Keeps PQ_WINDOW operations in flight, one completion per PQ_SIGNAL_EVERY.
 * Whether to post more is decided once per operation, before posting it: the
 * operation posted last is always signaled (a closing one is added when the
 * time ran out after an unsignaled one), since only a signaled completion
 * says that the operations before it are done. Asking the clock again after
 * posting once let the duration end between the two readings, leaving the
 * last operation unsignaled and the loop waiting for a completion that never
 * comes (every run on two CPUs, where posting takes most of the loop). The
 * closing operation waits for room in the window like any other: a full
 * window holds a signaled operation, whose completion makes room. */
static void bw_loop(struct tester *t, int opcode, struct bw_run *b)
{
	int64_t sample_ms = t->iters ? SAMPLE_ITERS_MS : (int64_t)t->duration_s * 1000;
	int64_t last_ms = pp_now_ms(), sample_end = stage_deadline(t, sample_ms);
	uint64_t t0 = now_ns(), t_end = t0 + (uint64_t)(sample_end - last_ms) * 1000000u;
	struct ibv_wc wc[16];
	bool more = bw_more(t, b, t_end);

	while (more || b->completed < b->posted) {
		while (more && b->posted - b->completed < PQ_WINDOW) {
			bool last = t->iters && b->posted + 1 == t->iters;

			if (bw_post(t, opcode, b, (b->posted + 1) % PQ_SIGNAL_EVERY == 0 || last)) {
				b->err = -EIO;
				return;
			}
			more = bw_more(t, b, t_end);
		}
		more = more && bw_more(t, b, t_end);
		if (!more && b->signaled < b->posted && b->posted - b->completed < PQ_WINDOW &&
		    bw_post(t, opcode, b, true)) {
			b->err = -EIO;
			return;
		}
		progress_update(&t->prog, b->completed, t->iters, "messages");
		/* Slices of 1 s: a peer that is gone leaves one-sided operations
		 * unanswered for long; its closed control channel ends the wait.
		 * No completion within STALL_MS is a stall. */
		int64_t stall_at = last_ms + STALL_MS < t->run_deadline ? last_ms + STALL_MS : t->run_deadline;
		int64_t slice = pp_now_ms() + 1000;
		int n = pq_poll(&t->q, wc, 16, slice < stall_at ? slice : stall_at);

		if (n == -ETIMEDOUT && slice < stall_at) {
			if (!peer_gone(t))
				continue;
			n = -ECONNRESET;
		}
		if (n < 0) {
			b->err = n;
			return;
		}
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				b->wc_status = wc[i].status;
				return;
			}
			/* A signaled completion means everything posted before it is done too;
			 * the tag keeps late completions of the latency stage out. */
			if (!(wc[i].opcode & IBV_WC_RECV) && (wc[i].wr_id & BW_TAG))
				b->completed = wc[i].wr_id & ~BW_TAG;
		}
		if (n > 0)
			last_ms = pp_now_ms();
	}
	b->secs = (now_ns() - t0) / 1e9;
	b->bytes = b->completed * t->size;
}

static void bw_result(struct tester *t, struct stage *s, const struct bw_run *b, const char *what)
{
	double gbps = b->secs > 0 ? b->bytes * 8 / b->secs / 1e9 : 0;
	double rate = t->q.local.rate_mbps / 1000.0;

	check_measured(&s->r, "%s %.3f Gb/s, %.0f msgs/s (%" PRIu64 " x %u bytes in %.2f s)%s", what, gbps,
		       b->secs > 0 ? b->completed / b->secs : 0, b->completed, t->size, b->secs, "");
	if (rate > 0)
		snprintf(s->r.measured + strlen(s->r.measured), sizeof(s->r.measured) - strlen(s->r.measured),
			 "; %.0f%% of the %g Gb/s port rate", 100 * gbps / rate, rate);
	stage_num(s, "bandwidth_gbps", gbps);
	stage_num(s, "msgs_per_s", b->secs > 0 ? b->completed / b->secs : 0);
	if (t->expect_bw > 0 && gbps < t->expect_bw) {
		check_expected(&s->r, ">= %g Gb/s", t->expect_bw);
		check_verdict(&s->r, V_FAIL, "bandwidth is below --expect-bw: check the port rate (rdmadiag link "
			      "show), PFC/ECN, and the counters stage for retransmissions");
	} else {
		check_verdict(&s->r, V_PASS, NULL);
	}
}

static void bw_fail(struct tester *t, struct stage *s, const struct bw_run *b)
{
	char done[64];

	snprintf(done, sizeof(done), "after %" PRIu64 " messages", b->completed);
	if (b->wc_status) {
		check_measured(&s->r, "%s: completion %s; RC QP now %s", done, pq_wc_status_str(b->wc_status),
			       pq_rc_state_str(&t->q));
		wc_hint(t, s, b->wc_status);
		return;
	}
	/* A peer that is gone leaves RDMA writes unanswered without an error
	 * completion until retries run out: the closed control channel says why. */
	if (b->err == -ETIMEDOUT || b->err == -ENETDOWN) {
		stall_verdict(t, s, done, b->err, "operations stopped completing");
		return;
	}
	check_measured(&s->r, "%s: %s; RC QP now %s", done, pp_strerror(b->err), pq_rc_state_str(&t->q));
	if (peer_gone(t))
		check_verdict(&s->r, V_FAIL, "%s closed the session: its rdmadiag path serve died or was killed "
			      "(see its log)", peer_name(t));
	else
		check_verdict(&s->r, V_FAIL, "%s stopped completing operations: see the counters and the peer's log",
			      peer_name(t));
}

static void expect_bw_text(const struct tester *t, struct stage *s, const char *dflt)
{
	if (t->expect_bw > 0)
		check_expected(&s->r, ">= %g Gb/s", t->expect_bw);
	else
		check_expected(&s->r, "%s", dflt);
}

static void stage_rdma_bw(struct tester *t, struct stage *s, int opcode)
{
	struct bw_run b = { 0 };

	expect_bw_text(t, s, "every operation completes");
	bw_loop(t, opcode, &b);
	if (b.err || b.wc_status)
		bw_fail(t, s, &b);
	else
		bw_result(t, s, &b, opcode == IBV_WR_RDMA_WRITE ? "RDMA WRITE" : "RDMA READ");
}

static void stage_send_bw(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, CONTROL_BUDGET_MS);
	struct pp_phase_done d;
	struct bw_run b = { 0 };
	char why[256];

	expect_bw_text(t, s, "every message received");
	if (phase_begin(t, PH_SEND, t->size, 0, deadline, why, sizeof(why))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
		return;
	}
	bw_loop(t, IBV_WR_SEND, &b);
	if (b.err || b.wc_status) {
		bw_fail(t, s, &b);
		return;
	}
	if (phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why))) {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, "%s stopped answering on the control channel", peer_name(t));
		return;
	}
	bw_result(t, s, &b, "SEND");
	if (d.received < b.completed) {
		check_verdict(&s->r, V_FAIL, "the peer received %u of %" PRIu64 " messages", d.received, b.completed);
	}
}

/* --- UD and MTU probe --- */

/* Each datagram waits 500 ms for its echo: 100 of them fit on a 20 ms path. */
#define UD_BUDGET_MS 8000

/* Sends up to count datagrams of size, one at a time, each echoed, until the
 * deadline; *sent says how many went out, *back how many came back. */
static int ud_echo(struct tester *t, unsigned size, unsigned count, int64_t deadline, unsigned *sent,
		   unsigned *back, int *wcs)
{
	struct ibv_wc wc[8];

	*back = *sent = 0;
	for (unsigned i = 0; i < count && pp_now_ms() < deadline; i++) {
		int64_t d = pp_now_ms() + 500;
		bool got = false;

		if (d > deadline)
			d = deadline;
		if (pq_post_ud(&t->q, size, t->rqp.ud_qpn, 2))
			return -EIO;
		(*sent)++;
		while (!got) {
			int n = pq_poll(&t->q, wc, 8, d);

			if (n == -ETIMEDOUT)
				break;	/* lost: UD does not retransmit */
			if (n < 0)
				return n;
			for (int k = 0; k < n; k++) {
				if (wc[k].status != IBV_WC_SUCCESS) {
					*wcs = wc[k].status;
					return -EIO;
				}
				if ((wc[k].opcode & IBV_WC_RECV) && wc[k].qp_num == t->q.ud->qp_num) {
					got = true;
					(*back)++;
					pq_post_recv(&t->q, true, wc[k].wr_id);
				}
			}
		}
		progress_update(&t->prog, *sent, count, "datagrams");
	}
	return 0;
}

static unsigned path_mtu_expected(const struct tester *t)
{
	return t->q.local.active_mtu < t->remote.active_mtu ? t->q.local.active_mtu : t->remote.active_mtu;
}

static void stage_ud(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, UD_BUDGET_MS);
	unsigned size = path_mtu_expected(t), count = t->iters && t->iters < 100 ? t->iters : 100, back = 0, sent;
	struct pp_phase_done d;
	char why[256], extra[192];
	int wcs = 0, rc;

	check_expected(&s->r, "%u datagrams of %u bytes back", count, size);
	rc = phase_begin(t, PH_UD, size, count, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why));
	if (!rc)
		rc = ud_echo(t, size, count, deadline, &sent, &back, &wcs);
	if (!rc)
		rc = phase_end(t, &d, stage_deadline(t, CONTROL_BUDGET_MS), why, sizeof(why));
	if (rc) {
		check_measured(&s->r, "%s", wcs ? pq_wc_status_str(wcs) : why);
		check_verdict(&s->r, V_FAIL, "%s", wcs ? pq_wc_meaning(wcs) : "the peer stopped answering");
		return;
	}
	/* A slow path sends fewer in the bound: those not sent are not lost. */
	check_measured(&s->r, "%u of %u datagrams of %u bytes came back (peer received %u)", back, sent, size,
		       d.received);
	if (sent < count)
		snprintf(s->r.measured + strlen(s->r.measured), sizeof(s->r.measured) - strlen(s->r.measured),
			 "; %u of %u sent in the %.0f s bound", sent, count, UD_BUDGET_MS / 1e3);
	stage_num(s, "sent", sent);
	stage_num(s, "returned", back);
	if (back == sent)
		check_verdict(&s->r, V_PASS, NULL);
	else if (back > 0)
		check_verdict(&s->r, V_WARN, "%u datagrams lost: loss on the path (see the counters stage)%s",
			      sent - back, hint_stall_extra(&t->prov, extra, sizeof(extra)));
	else
		check_verdict(&s->r, V_FAIL, "no datagram of %u bytes crosses: an MTU smaller than the ports' on the "
			      "path, or UD traffic is filtered", size);
}

static void stage_mtu(struct tester *t, struct stage *s)
{
	int64_t deadline = stage_deadline(t, 8000);
	unsigned largest = 0, expect = path_mtu_expected(t), back, sent;
	struct pp_phase_done d;
	char why[256];
	int wcs = 0, rc = 0;

	check_expected(&s->r, "datagrams of %u bytes (the smaller active MTU) cross", expect);
	for (unsigned size = 256; size <= t->q.local.active_mtu && !rc; size *= 2) {
		rc = phase_begin(t, PH_UD, size, 3, deadline, why, sizeof(why));
		if (!rc)
			rc = ud_echo(t, size, 3, deadline, &sent, &back, &wcs);
		if (!rc)
			rc = phase_end(t, &d, deadline, why, sizeof(why));
		if (!rc && back > 0)
			largest = size;
	}
	if (rc) {
		check_measured(&s->r, "%s", wcs ? pq_wc_status_str(wcs) : why);
		check_verdict(&s->r, V_FAIL, "%s", wcs ? pq_wc_meaning(wcs) : "the peer stopped answering");
		return;
	}
	check_measured(&s->r, "largest UD payload that crosses: %u; RC path MTU %u; active MTU %u here, %u on "
		       "the peer; netdev MTU %u here, %u on the peer", largest, t->q.path_mtu, t->q.local.active_mtu,
		       t->remote.active_mtu, t->q.local.netdev_mtu, t->remote.netdev_mtu);
	stage_num(s, "largest_ud_bytes", largest);
	stage_num(s, "rc_path_mtu", t->q.path_mtu);
	if (largest >= expect)
		check_verdict(&s->r, V_PASS, NULL);
	else
		check_verdict(&s->r, V_FAIL, "datagrams above %u bytes do not cross although both ports say %u: a "
			      "switch or netdev on the path has a smaller MTU", largest, expect);
}

/* --- transport counters around one measuring stage --- */

struct stage_ctrs {
	struct pq_counters here;
	struct pp_counters peer;	/* the peer's deltas since CONFIG */
	bool have_here, have_peer;
};

static int peer_counters(struct tester *t, struct pp_counters *out)
{
	struct pp_msg m = { .type = PP_COUNTERS_REQ };
	int64_t deadline = pp_now_ms() + 2000;
	char why[256];
	int rc;

	if (!t->peer || t->fd < 0 || t->in_phase)
		return -ENOENT;	/* loopback: the peer's port is ours */
	rc = pp_send(t->fd, &m, deadline);
	if (!rc)
		rc = pp_expect(t->fd, PP_COUNTERS, &m, deadline, why, sizeof(why));
	if (!rc)
		*out = m.u.counters;
	return rc;
}

static void ctrs_begin(struct tester *t, struct stage_ctrs *c)
{
	c->have_here = t->q_open && !pq_counters_read(t->q.local.dev, t->q.local.port, &c->here) && c->here.n;
	c->have_peer = !peer_counters(t, &c->peer);
}

static void add_moved_ctr(struct stage *s, const char *host, const char *name, uint64_t delta)
{
	const struct ctr_map_entry *e = ctr_lookup(name, STAT_SRC_HW_SYSFS);
	struct moved_ctr *m;

	if (s->nmoved >= MAX_MOVED || !delta)
		return;
	m = &s->moved[s->nmoved++];
	m->host = host;
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = e ? e->kind : K_NONE;
	m->delta = delta * (e && e->scale ? e->scale : 1);
}

/* Each counter of a list of deltas, as one host's moves. */
static void add_moved_ctrs(struct stage *s, const char *host, const struct pp_counter *c, unsigned n)
{
	for (unsigned i = 0; i < n && i < PP_MAX_COUNTERS; i++)
		add_moved_ctr(s, host, c[i].name, c[i].delta);
}

/* The peer's counters now minus at the start of the stage (both are deltas since CONFIG). */
static void add_peer_moved(struct stage *s, const struct pp_counters *a, const struct pp_counters *b)
{
	for (unsigned i = 0; i < b->n && i < PP_MAX_COUNTERS; i++) {
		uint64_t before = 0;

		for (unsigned j = 0; j < a->n && j < PP_MAX_COUNTERS; j++)
			if (!strcmp(a->c[j].name, b->c[i].name))
				before = a->c[j].delta;
		if (b->c[i].delta > before)
			add_moved_ctr(s, "peer", b->c[i].name, b->c[i].delta - before);
	}
}

static const char *moved_label(const struct moved_ctr *m)
{
	return m->kind != K_NONE ? ctr_kinds[m->kind].key : m->name;
}

/* "here retransmissions +7, sequence_errors +2; peer duplicate_requests +3" */
static void moved_text(const struct stage *s, char *buf, size_t len)
{
	const char *host = NULL;

	buf[0] = '\0';
	for (unsigned i = 0; i < s->nmoved; i++) {
		const struct moved_ctr *m = &s->moved[i];
		size_t used = strlen(buf);

		if (!host || strcmp(host, m->host))
			snprintf(buf + used, len - used, "%s%s ", host ? "; " : "", m->host);
		else
			snprintf(buf + used, len - used, ", ");
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s +%" PRIu64, moved_label(m), m->delta);
		host = m->host;
	}
}

static bool moved_group(const struct stage *s, enum ctr_group g)
{
	for (unsigned i = 0; i < s->nmoved; i++)
		if (s->moved[i].kind != K_NONE && ctr_kinds[s->moved[i].kind].group == g)
			return true;
	return false;
}

/* What the counters that moved say about a stage that otherwise passed, and
 * what to do; `when` is "during this stage" or, for path.counters, "during
 * the test". The worst group decides, in this order: loss, the link,
 * congestion, RNR. */
static void moved_verdict(const struct tester *t, struct stage *s, const char *when)
{
	char hint[512];

	if (moved_group(s, G_RETRANS) || moved_group(s, G_TIMEOUT))
		check_verdict(&s->r, V_WARN, "%s", hint_loss(&t->prov, when, hint, sizeof(hint)));
	else if (moved_group(s, G_LINK))
		check_verdict(&s->r, V_WARN, "the link went down or saw errors %s: check the cable, transceiver "
			      "and switch port, and rdmadiag counter show on both hosts", when);
	else if (moved_group(s, G_CONGESTION) || moved_group(s, G_PAUSE))
		check_verdict(&s->r, V_WARN, "the path was congested %s (ECN marks, congestion notifications or "
			      "pause frames): flow control is working, but if bandwidth is short check the DCQCN "
			      "and PFC settings and what else the path carries", when);
	else if (moved_group(s, G_RNR))
		check_verdict(&s->r, V_WARN, "receiver-not-ready NAKs %s: a receiver had no buffer posted in time; "
			      "the application's receive queue runs dry", when);
	else
		check_verdict(&s->r, V_WARN, "error counters moved %s: see rdmadiag counter show on both hosts",
			      when);
}

static void ctrs_end(struct tester *t, struct stage *s, const struct stage_ctrs *c)
{
	struct pq_counters now;
	struct pp_counter here[PP_MAX_COUNTERS];
	struct pp_counters peer;
	char text[160];
	size_t used;
	unsigned n;

	if (c->have_here && !pq_counters_read(t->q.local.dev, t->q.local.port, &now)) {
		n = pq_counters_delta(&c->here, &now, here, PP_MAX_COUNTERS);
		add_moved_ctrs(s, "here", here, n);
	}
	/* After a failure the peer may be unreachable or mid-phase: only our side then. */
	if (c->have_peer && s->r.verdict != V_FAIL && !peer_counters(t, &peer))
		add_peer_moved(s, &c->peer, &peer);
	if (!s->nmoved)
		return;
	moved_text(s, text, sizeof(text));
	used = strlen(s->r.measured);
	snprintf(s->r.measured + used, sizeof(s->r.measured) - used, "; counters: %s", text);
	if (s->r.verdict == V_PASS)
		moved_verdict(t, s, "during this stage");
}

/* --- counters --- */

static void add_moved(char *buf, size_t len, const char *who, const struct pp_counter *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %s +%" PRIu64, buf[0] ? ", " : "", who,
			 c[i].name, c[i].delta);
}

static void stage_counters(struct tester *t, struct stage *s)
{
	struct pq_counters now;
	struct pp_counter here[PP_MAX_COUNTERS];
	struct pp_msg m = { .type = PP_COUNTERS_REQ };
	int64_t deadline = stage_deadline(t, 3000);
	unsigned nh = 0;
	char why[256], moved[256] = "";

	check_expected(&s->r, "no error, retry or sequence counter moves during the test");
	if (!t->before.n || pq_counters_read(t->q.local.dev, t->q.local.port, &now)) {
		check_measured(&s->r, "%s/%u has no hw_counters in sysfs", t->q.local.dev, t->q.local.port);
		check_verdict(&s->r, V_SKIP, NULL);
		return;
	}
	nh = pq_counters_delta(&t->before, &now, here, PP_MAX_COUNTERS);
	if (pp_send(t->fd, &m, deadline) || pp_expect(t->fd, PP_COUNTERS, &m, deadline, why, sizeof(why)))
		m.u.counters.n = 0;
	add_moved(moved, sizeof(moved), "here", here, nh);
	if (t->peer)
		add_moved(moved, sizeof(moved), "peer", m.u.counters.c, m.u.counters.n);
	stage_num(s, "moved", nh + (t->peer ? m.u.counters.n : 0));
	if (!moved[0]) {
		check_measured(&s->r, "no error, retry or sequence counter moved on %s", t->peer ? "either host" :
			       "this host");
		check_verdict(&s->r, V_PASS, NULL);
		return;
	}
	check_measured(&s->r, "%s", moved);
	/* the same list and hint as a stage's counters (JSON counters_moved) */
	add_moved_ctrs(s, "here", here, nh);
	if (t->peer)
		add_moved_ctrs(s, "peer", m.u.counters.c, m.u.counters.n);
	moved_verdict(t, s, "during the test");
}

/* --- the run --- */

static void run_stage(struct tester *t, enum stage_id id, struct stage *s)
{
	struct stage_ctrs c;
	bool measuring = id == ST_LAT || id == ST_WRITE || id == ST_READ || id == ST_SEND;

	if (measuring)
		ctrs_begin(t, &c);
	progress_begin(&t->prog, stages[id].id, t->show_progress);
	switch (id) {
	case ST_CONTROL: stage_control(t, s); break;
	case ST_RESOLVE: stage_resolve(t, s); break;
	case ST_CONFIG:
		stage_config(t, s);
		if (pq_counters_read(t->q.local.dev, t->q.local.port, &t->before))
			t->before.n = 0;
		break;
	case ST_CONNECT: stage_connect(t, s); break;
	case ST_LAT: stage_latency(t, s); break;
	case ST_WRITE: stage_rdma_bw(t, s, IBV_WR_RDMA_WRITE); break;
	case ST_READ: stage_rdma_bw(t, s, IBV_WR_RDMA_READ); break;
	case ST_SEND: stage_send_bw(t, s); break;
	case ST_UD: stage_ud(t, s); break;
	case ST_MTU: stage_mtu(t, s); break;
	case ST_COUNTERS: stage_counters(t, s); break;
	default: break;
	}
	progress_end(&t->prog);
	if (measuring)
		ctrs_end(t, s, &c);
}

/* What one run against one peer gave: every stage, kept for reports that are
 * printed after the run (many peers) or printed as they come (one peer). */
struct peer_run {
	const char *peer;
	struct stage st[ST_COUNT];
	unsigned nst;
	struct check_summary sum;
	const char *failed;		/* id of the first failing stage */
	int rc;				/* EXIT_* of this peer */
	bool done;
	char source[64];		/* local address the route chose */
};



/* Runs every selected stage in order; with emit_now each is printed as soon
 * as it ends (one peer: the operator sees progress). */
static void run_stages_into(struct tester *t, struct peer_run *pr, bool emit_now)
{
	for (int i = 0; i < ST_COUNT; i++) {
		struct stage *s = &pr->st[pr->nst];
		uint64_t t0 = pp_now_us();

		if (stages[i].test_bit && !(t->tests & stages[i].test_bit))
			continue;
		memset(s, 0, sizeof(*s));
		check_init(&s->r, stages[i].id, t->subject[0] ? t->subject : (t->peer ? t->peer : "loopback"));
		if (pr->failed) {
			check_measured(&s->r, "skipped: %s failed%s", pr->failed,
				       i == ST_RESOLVE && t->no_rdma ? "; this host has no RDMA device either" : "");
		} else {
			run_stage(t, i, s);
			s->ms = (pp_now_us() - t0) / 1e3;
			if (s->r.verdict == V_SKIP && !s->r.measured[0])
				check_verdict(&s->r, V_FAIL, "internal: the stage gave no verdict");
			if (s->r.verdict == V_FAIL)
				pr->failed = stages[i].id;
			if (path_stop && s->r.verdict == V_FAIL)
				check_verdict(&s->r, V_FAIL, "interrupted");
			else if (timed_out_overall(t) && s->r.verdict == V_FAIL && !s->r.hint[0])
				check_verdict(&s->r, V_FAIL, "the --timeout of the whole run expired");
		}
		check_tally(&pr->sum, s->r.verdict);
		pr->nst++;
		if (emit_now)
			emit_stage(s);
	}
	snprintf(pr->source, sizeof(pr->source), "%s", t->route.src);
	pr->rc = t->no_rdma ? EXIT_HOST : pr->sum.fail ? EXIT_PROBLEM : EXIT_OK;
	pr->done = true;
}

static void emit_stages(const struct peer_run *pr)
{
	out_list_begin("stages");
	for (unsigned i = 0; i < pr->nst; i++)
		emit_stage(&pr->st[i]);
	out_list_end();
	check_print_summary(&pr->sum);
}

static void tester_cleanup(struct tester *t)
{
	if (t->fd >= 0) {
		struct pp_msg m = { .type = PP_BYE };

		pp_send(t->fd, &m, pp_now_ms() + 500);
		/* Loopback: the responder leaves when we close; join before freeing our QPs. */
		shutdown(t->fd, SHUT_RDWR);
	}
	if (t->thread_running)
		pthread_join(t->thread, NULL);
	if (t->fd >= 0)
		close(t->fd);
	if (t->q_open)
		pq_close(&t->q);
}

/* ------------------------------------------------------------- the command */

static const char *const test_choices[] = { "rc", "lat", "write", "read", "send", "ud", "mtu", "counters", NULL };

static unsigned parse_tests(const char *list)
{
	static const struct { const char *name; unsigned bits; } map[] = {
		{ "rc", T_LAT | T_WRITE | T_READ | T_SEND }, { "lat", T_LAT }, { "write", T_WRITE },
		{ "read", T_READ }, { "send", T_SEND }, { "ud", T_UD }, { "mtu", T_MTU }, { "counters", T_COUNTERS },
	};
	char buf[256], *save = NULL;
	unsigned bits = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(w, map[i].name))
				bits |= map[i].bits;
	return bits;
}

/* --expect-bw/--expect-lat: a plain positive decimal up to max ("12.5"). */
static int parse_double_opt(const struct cmd_ctx *ctx, const char *name, double max, double *out)
{
	const struct opt_value *v = ctx_opt(ctx, name);

	*out = 0;
	if (!v || !v->set)
		return 0;
	if (parse_decimal(v->str, 0, max, out) || !(*out > 0)) {
		usage_error("%s: '%s' is not a positive number up to %.0f (as in 12.5)", name, v->str, max);
		return -1;
	}
	return 0;
}

static int parse_loopback(struct cmd_ctx *ctx, struct tester *t)
{
	static struct dev_port dp;

	if (ctx_opt(ctx, "--peers")->set) {
		usage_error("path test loopback tests this host alone; --peers is for 'peer' runs");
		return -1;
	}
	if (ctx->argc > 2) {
		usage_error("path test loopback takes at most one DEV[/PORT]");
		return -1;
	}
	if (ctx->argc == 2) {
		if (parse_dev_port(ctx->argv[1], &dp))
			return -1;
		t->dev_arg = dp.dev;
		t->dev_port = dp.port ? dp.port : 1;
	}
	return 0;
}

/* `peer A [peer B ...]` and --peers FILE; one peer given as `peer A` alone
 * keeps the single-peer report, anything else is a many-peer run. */
static int parse_target(struct cmd_ctx *ctx, struct tester *t, struct peer_list *pl, bool *many)
{
	const struct opt_value *file = ctx_opt(ctx, "--peers");

	if (ctx->argc >= 1 && !strcmp(ctx->argv[0], "loopback"))
		return parse_loopback(ctx, t);
	if (ctx->argc < 1 && !file->set) {
		usage_error("path test needs 'peer ADDR' or 'loopback [DEV]' (or --peers FILE)");
		return -1;
	}
	/* A bare address is the likeliest slip (ping's habit): name the fix. */
	if (ctx->argc >= 1 && strcmp(ctx->argv[0], "peer")) {
		if (is_ip_address(ctx->argv[0]))
			usage_error("path test: the address needs the keyword 'peer' before it: rdmadiag path test "
				    "peer %s", ctx->argv[0]);
		else
			usage_error("path test: unknown word '%.80s'; it needs 'peer ADDR' or 'loopback [DEV]' "
				    "(or --peers FILE)", ctx->argv[0]);
		return -1;
	}
	for (int i = 0; i < ctx->argc; i += 2) {
		if (strcmp(ctx->argv[i], "peer")) {
			usage_error("path test peer takes one ADDR (the peer's IP address); for more peers repeat "
				    "'peer ADDR', got '%s'", ctx->argv[i]);
			return -1;
		}
		if (i + 1 >= ctx->argc) {
			usage_error("path test peer takes one ADDR (the peer's IP address)");
			return -1;
		}
		if (peers_add(pl, ctx->argv[i + 1], "peer"))
			return -1;
	}
	if (file->set && peers_read_file(pl, file->str))
		return -1;
	*many = file->set || pl->n > 1;
	t->peer = pl->addr[0];
	return 0;
}

static int parse_test_opts(struct cmd_ctx *ctx, struct tester *t)
{
	const struct opt_value *v;
	static struct dev_port dp;

	t->port = ctx_opt_uint(ctx, "--port", PP_DEFAULT_PORT);
	t->size = ctx_opt_uint(ctx, "--size", 65536);
	t->lat_size = ctx_opt_uint(ctx, "--lat-size", 8);
	t->iters = ctx_opt_uint(ctx, "--iters", 0);
	t->duration_s = ctx_opt_uint(ctx, "--duration", 1);
	t->tests = T_ALL;
	t->gid_index = -1;
	v = ctx_opt(ctx, "--tests");
	if (v && v->set)
		t->tests = parse_tests(v->str);
	v = ctx_opt(ctx, "--gid-index");
	if (v && v->set && strcmp(v->str, "auto")) {
		unsigned long long g;

		if (parse_uint(v->str, 0, 255, &g)) {
			usage_error("--gid-index: '%s' is neither a GID index 0..255 nor 'auto'", v->str);
			return -1;
		}
		t->gid_index = (int)g;
	}
	v = ctx_opt(ctx, "--dev");
	if (v && v->set && t->dev_arg) {
		usage_error("--dev: the device is already given as 'loopback %s'; give it once", t->dev_arg);
		return -1;
	}
	if (v && v->set) {
		if (parse_dev_port(v->str, &dp))
			return -1;
		t->dev_arg = dp.dev;
		t->dev_port = dp.port ? dp.port : 1;
	}
	if (parse_double_opt(ctx, "--expect-bw", 100000, &t->expect_bw) ||
	    parse_double_opt(ctx, "--expect-lat", 10000000, &t->expect_lat))
		return -1;
	t->timeout_s = ctx_opt_uint(ctx, "--timeout", 0);
	t->run_deadline = t->timeout_s ? pp_now_ms() + (int64_t)t->timeout_s * 1000 : INT64_MAX;
	return 0;
}

/* ------------------------------------------------------------ many peers */

static void report_no_rdma_host(void)
{
	/* no device at all: the words of every command for that situation */
	if (!path_host_has_rdma_device()) {
		report_no_rdma();
		return;
	}
	report_error("this host cannot run the RDMA stages of path test", "no usable RDMA device or port",
		     "run it on a host with RDMA (rdmadiag dev show), or create Soft-RoCE: "
		     "rdma link add rxe0 type rxe netdev IFACE");
}

#define PATH_PARALLEL_MAX 64

enum { RF_PEER, RF_VERDICT, RF_FAILED, RF_P50, RF_GBPS, RF_SOURCE, RF_ADDRESS };
static const struct field run_fields[] = {
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
static void emit_local_addresses(void)
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

static enum verdict run_verdict(const struct peer_run *pr)
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

static void text_row_header(void)
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
static void text_row(const struct peer_run *pr)
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

static void json_run(const struct peer_run *pr)
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

/* Workers take the next peer from a shared index; each peer gets its own
 * tester (socket, QPs, CQs, MRs): nothing of a run is shared but the output,
 * which one lock serialises. */
struct fleet {
	const struct tester *tmpl;
	struct peer_run *runs;
	unsigned n, next;
	pthread_mutex_t lock;
	bool stream_text;	/* text: print each peer as it ends */
};

static void print_finished(struct fleet *f, const struct peer_run *pr)
{
	if (!f->stream_text)
		return;
	if (g_opts.details) {
		out_text("peer %s:\n", pr->peer);
		for (unsigned i = 0; i < pr->nst; i++)
			emit_stage(&pr->st[i]);
		check_print_summary(&pr->sum);
		out_text("\n");
	} else {
		text_row(pr);
	}
	out_flush();
}

static void test_peer_into(const struct tester *tmpl, struct peer_run *pr)
{
	struct tester t = *tmpl;

	t.fd = -1;
	t.peer = pr->peer;
	t.run_deadline = t.timeout_s ? pp_now_ms() + (int64_t)t.timeout_s * 1000 : INT64_MAX;
	run_stages_into(&t, pr, false);
	tester_cleanup(&t);
}

static void *fleet_worker(void *arg)
{
	struct fleet *f = arg;

	for (;;) {
		pthread_mutex_lock(&f->lock);
		unsigned i = f->next < f->n && !path_stop ? f->next++ : f->n;
		pthread_mutex_unlock(&f->lock);
		if (i >= f->n)
			return NULL;
		test_peer_into(f->tmpl, &f->runs[i]);
		pthread_mutex_lock(&f->lock);
		print_finished(f, &f->runs[i]);
		pthread_mutex_unlock(&f->lock);
	}
}

static void fleet_report(const struct fleet *f, struct check_summary *peers)
{
	for (unsigned i = 0; i < f->n; i++)
		check_tally(peers, f->runs[i].done ? run_verdict(&f->runs[i]) : V_SKIP);
	if (out_is_json()) {
		emit_local_addresses();
		out_list_begin("peers");
		for (unsigned i = 0; i < f->n; i++)
			json_run(&f->runs[i]);
		out_list_end();
		check_print_summary(peers);	/* of the peers, not of their stages */
		return;
	}
	if (g_opts.details) {
		text_row_header();
		for (unsigned i = 0; i < f->n; i++)
			text_row(&f->runs[i]);
	} else {
		for (unsigned i = 0; i < f->n; i++)
			if (!f->runs[i].done)
				text_row(&f->runs[i]);
	}
	out_text("%u peers: %d pass, %d warn, %d fail%s\n", f->n, peers->pass, peers->warn, peers->fail,
		 peers->skip ? ", some not run (interrupted)" : "");
}

static int start_workers(struct fleet *f, pthread_t *th, unsigned parallel)
{
	unsigned started = 0;

	for (unsigned i = 0; i < parallel && i < f->n; i++) {
		if (pthread_create(&th[i], NULL, fleet_worker, f))
			break;
		started++;
	}
	if (!started)
		fleet_worker(f);	/* no thread at all: run them here, one by one */
	return (int)started;
}

static int test_many_peers(const struct tester *tmpl, const struct peer_list *pl, unsigned parallel)
{
	struct fleet f = { .tmpl = tmpl, .n = pl->n, .stream_text = !out_is_json() };
	struct check_summary peers = { 0 };
	pthread_t th[PATH_PARALLEL_MAX];
	int started, rc = EXIT_OK;

	f.runs = calloc(pl->n, sizeof(*f.runs));
	if (!f.runs) {
		report_error("out of memory for the peer results", NULL, "test fewer peers at once");
		return EXIT_RUNTIME;
	}
	for (unsigned i = 0; i < pl->n; i++)
		f.runs[i].peer = pl->addr[i];
	pthread_mutex_init(&f.lock, NULL);
	if (f.stream_text && !g_opts.details)
		text_row_header();
	started = start_workers(&f, th, parallel);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&f.lock);
	fleet_report(&f, &peers);
	for (unsigned i = 0; i < pl->n; i++) {
		if (f.runs[i].rc == EXIT_HOST)
			rc = EXIT_HOST;
		else if (rc == EXIT_OK && run_verdict(&f.runs[i]) == V_FAIL)
			rc = EXIT_PROBLEM;
	}
	free(f.runs);
	if (rc == EXIT_HOST)
		report_no_rdma_host();
	return rc == EXIT_OK && path_stop ? EXIT_PROBLEM : rc;
}

static int test_one_peer(struct tester *t)
{
	struct peer_run *pr = calloc(1, sizeof(*pr));

	if (!pr) {
		report_error("out of memory", NULL, NULL);
		return EXIT_RUNTIME;
	}
	/* Who and where, for report merge; a command nesting this report
	 * (system check) names the peer itself. */
	bool header = out_is_json() && t->peer && out_at_top_level();

	if (header) {
		out_str(&run_fields[RF_PEER], t->peer);
		emit_local_addresses();
	}
	out_list_begin("stages");
	t->show_progress = true;
	run_stages_into(t, pr, true);
	out_list_end();
	check_print_summary(&pr->sum);
	if (header && pr->source[0])
		out_str(&run_fields[RF_SOURCE], pr->source);	/* text has it in the resolve stage */
	tester_cleanup(t);
	int rc = pr->rc;

	free(pr);
	if (rc == EXIT_HOST)
		report_no_rdma_host();
	return path_stop ? EXIT_PROBLEM : rc;
}

static int path_test(struct cmd_ctx *ctx)
{
	struct tester t = { .fd = -1 };
	struct peer_list pl = { 0 };
	bool many = false;
	int rc;

	if (parse_target(ctx, &t, &pl, &many) || parse_test_opts(ctx, &t)) {
		peers_free(&pl);
		return EXIT_USAGE;
	}
	/* its stages send traffic through this host's devices: a recording of
	 * another host's kernel cannot stand in for them (as system check peer) */
	if (source_replaying()) {
		usage_error("path test sends live traffic and cannot run from a replay or snapshot; run it on the host");
		peers_free(&pl);
		return EXIT_USAGE;
	}
	path_catch_stop_signals();
	t.no_rdma = !path_host_has_rdma_device();
	if (t.peer)
		out_set_host(local_host_name());
	rc = many ? test_many_peers(&t, &pl, (unsigned)ctx_opt_uint(ctx, "--parallel", 1)) : test_one_peer(&t);
	peers_free(&pl);
	return rc;
}

/* ------------------------------------------------------------------ tables */

#define OPT_GID { "--gid-index", OPT_STR, "N|auto", "GID index to use (default: the RoCE v2 GID of the address)", \
		  NULL, 0, 0, 0 }

static const struct cmd_opt test_opts[] = {
	OPT_PORT,
	{ "--peers", OPT_STR, "FILE", "test every peer listed in FILE (one IP address per line, # comments; - for "
	  "stdin)", NULL, 0, 0, COMPLETE_FILE },
	{ "--parallel", OPT_UINT, "N", "peers tested at once (default 1: bandwidth figures not shared)", NULL, 1,
	  PATH_PARALLEL_MAX, 0 },
	{ "--dev", OPT_STR, "DEV[/PORT]", "local RDMA device and port (default: the route's)", NULL, 0, 0,
	  COMPLETE_DEV_PORT },
	OPT_GID,
	{ "--tests", OPT_LIST, "LIST", "stages to run (default all)",
	  test_choices, 0, 0, 0 },
	{ "--size", OPT_UINT, "BYTES", "message size of the bandwidth tests (default 65536)", NULL, 1, PP_MAX_SIZE, 0 },
	{ "--lat-size", OPT_UINT, "BYTES", "message size of the latency test (default 8)", NULL, 1, 4096, 0 },
	{ "--iters", OPT_UINT, "N", "messages per test (default: 1000 round trips within 3 s for latency, --duration for "
	  "bandwidth)", NULL,
	  1, 100000000, 0 },
	{ "--duration", OPT_UINT, "S", "seconds per bandwidth test (default 1)", NULL, 1, 600, 0 },
	{ "--timeout", OPT_UINT, "S", "bound on the whole run (default: each stage's own bound)", NULL, 1, 3600, 0 },
	{ "--expect-bw", OPT_STR, "GBPS", "fail a bandwidth stage below this many Gb/s", NULL, 0, 0, 0 },
	{ "--expect-lat", OPT_STR, "US", "fail the latency stage when p50 is above this many microseconds", NULL, 0,
	  0, 0 },
	{ 0 },
};

/* What parse_target() takes: peer ADDR [peer ADDR ...] | loopback [DEV[/PORT]] */
static const struct cmd_form loopback_form = { COMPLETE_DEV_PORT, NULL, NULL, 0 };
static const struct cmd_word test_words[] = {
	{ "peer", COMPLETE_HOST, NULL, NULL, WORD_REPEAT },
	{ "loopback", COMPLETE_NONE, NULL, &loopback_form, 0 },
	{ NULL },
};

static const struct action path_actions[] = {
	{ "test", "{ peer ADDR [peer ADDR ...] | --peers FILE | loopback [DEV[/PORT]] }",
	  "staged RDMA test to a peer running path serve, or of this host with itself", path_test, 0, test_opts,
	  COMPLETE_NONE, test_words },
	{ "serve", "", "answer path test sessions from other hosts", path_serve, 0, path_serve_opts, COMPLETE_NONE, NULL },
	{ 0 },
};

const struct object obj_path = { "path", "active RDMA tests between hosts (RC, UD, latency, bandwidth)",
				 path_actions };
