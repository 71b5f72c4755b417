// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stages of `path test` that set a test up (see path_int.h):
 * path.control (the TCP control channel to the peer's serve, or the
 * in-process loopback responder, and HELLO), path.resolve (the local device
 * and GID of the route), path.config (both hosts' ports cross-checked) and
 * path.rc_connect (the QPs through their states and a first message both
 * ways); and the control channel's phases, which the measuring stages use too.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "path.h"
#include "path_int.h"
#include "recent.h"

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
	if (!rc) {
		t->peer_idle_ms = m.u.hello_ok.idle_timeout_ms;
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

void stage_control(struct tester *t, struct stage *s)
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

void stage_resolve(struct tester *t, struct stage *s)
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

void stage_config(struct tester *t, struct stage *s)
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
int phase_begin(struct tester *t, uint32_t phase, uint32_t size, uint32_t count, int64_t deadline,
		       char *why, size_t len)
{
	struct pp_msg m = { .type = PP_PHASE };

	m.u.phase = (struct pp_phase_msg){ .phase = phase, .size = size, .count = count };
	int rc = ctl_ask(t, &m, PP_READY, deadline, why, len);

	t->in_phase = !rc;
	return rc;
}

int phase_end(struct tester *t, struct pp_phase_done *d, int64_t deadline, char *why, size_t len)
{
	struct pp_msg m = { .type = PP_PHASE_END };
	int rc = ctl_ask(t, &m, PP_PHASE_DONE, deadline, why, len);

	if (!rc) {
		*d = m.u.done;
		t->in_phase = false;
	}
	return rc;
}

/* One send on the RC QP and its echo, whose receive buffer is posted again.
 * 0, -ETIMEDOUT, -EINTR, or a wc status (> 0). */
int rc_round_trip(struct tester *t, unsigned size, int64_t deadline)
{
	struct ibv_wc wc[8];
	bool got = false;

	if (pq_post_rc(&t->q, IBV_WR_SEND, size, 0, 0, pq_latency_signal(&t->q), 1))
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
				if (pq_post_recv(&t->q, wc[i].qp_num == t->q.ud->qp_num, wc[i].wr_id))
					return -EIO;
			}
		}
	}
	return 0;
}

/* Whether the RC QP gets PQ_RC_RETRY_FOREVER: on rxe, which then retries
 * forever, as it does for perftest, NCCL and UCX (their retry count is 7),
 * so that a lossy Soft-RoCE path they ride out does not end in a retry
 * error here (at 5% loss rxe used up 7 tries on one 64 KiB message, since
 * it restarts the count only when a whole message completes). Only where
 * the port counts the packets it receives: a bandwidth stage then tells a
 * retrying QP from a dead path by them (bw_stall_at()). Loopback loses
 * nothing to retry. */
static bool rc_retries_forever(const struct tester *t)
{
	uint64_t rx;

	return t->peer && !strcmp(t->prov.driver, "rdma_rxe") && !pq_rx_packets(t->q.local.dev, t->q.local.port, &rx);
}

/* round_trip: the failure is the first message's, not the setup's. */
static void connect_fail(struct tester *t, struct stage *s, int rc, const char *why, bool round_trip)
{
	if (rc > 0) {
		check_measured(&s->r, "first message: %s; RC QP now %s", pq_wc_status_str(rc), pq_rc_state_str(&t->q));
		wc_hint(t, s, rc, false);
	} else if ((rc == -ETIMEDOUT || rc == -ENETDOWN) && round_trip) {
		check_measured(&s->r, "QPs are in RTS on both hosts but no message came back in time");
		no_answer_verdict(t, s, "no answer", false);
	} else {
		check_measured(&s->r, "%s", why);
		check_verdict(&s->r, V_FAIL, strstr(why, "GID") ? "check --gid-index on both hosts: it must hold "
			      "the RoCE v2 address of the RDMA netdev (rdma link show; ibv_devinfo -v)" :
			      "see the cause; rdmadiag link show on both hosts");
	}
}

void stage_connect(struct tester *t, struct stage *s)
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
	t->retry_forever = rc_retries_forever(t);
	if (t->retry_forever)	/* else the QP's default, PQ_RC_RETRY */
		t->q.retry_cnt = PQ_RC_RETRY_FOREVER;
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
	rc = rc_round_trip(t, t->lat_size, deadline);
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
