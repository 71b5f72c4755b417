// SPDX-License-Identifier: GPL-2.0-or-later
/* The responder of one `rdmadiag path` session; see pathsrv.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "pathsrv.h"

struct srv {
	int fd;
	const struct ps_opts *o;
	struct pq q;
	struct pp_config peer;
	struct pp_qp peer_qp;
	struct pq_counters before;
	size_t region;
	unsigned phases;
	char why[256];
};

static int64_t idle_deadline(const struct srv *s)
{
	return pp_now_ms() + s->o->idle_timeout_ms;
}

/* Ends the session: tells the tester why (best effort) and keeps the reason. */
__attribute__((format(printf, 3, 4))) static int fail(struct srv *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
	if (err != -ECONNRESET && err != -ETIMEDOUT && err != -EINTR)
		pp_send_error(s->fd, (uint32_t)-err, s->why);
	return err < 0 ? err : -EPROTO;
}

static int expect(struct srv *s, uint8_t type, struct pp_msg *m)
{
	char err[256];
	int rc = pp_expect(s->fd, type, m, idle_deadline(s), err, sizeof(err));

	if (rc)
		return fail(s, rc, "waiting for %s: %s", pp_type_name(type), err);
	return 0;
}

static int step_hello(struct srv *s)
{
	struct pp_msg m;
	int rc = expect(s, PP_HELLO, &m);

	if (rc)
		return rc;
	if (m.u.hello.size == 0 || m.u.hello.size > PP_MAX_SIZE)
		return fail(s, -EINVAL, "message size %u is out of bounds (1..%u)", m.u.hello.size, PP_MAX_SIZE);
	if (m.u.hello.lat_size == 0 || m.u.hello.lat_size > 4096)
		return fail(s, -EINVAL, "latency message size %u is out of bounds (1..4096)", m.u.hello.lat_size);
	/* Room for bandwidth messages and for a UD datagram of the largest MTU plus its GRH. */
	s->region = m.u.hello.size < 8192 ? 8192 : (m.u.hello.size + 4095) & ~(size_t)4095;
	m = (struct pp_msg){ .type = PP_HELLO_OK };
	m.u.hello_ok.max_size = PP_MAX_SIZE;
	m.u.hello_ok.idle_timeout_ms = s->o->idle_timeout_ms;
	return pp_send(s->fd, &m, idle_deadline(s));
}

static int local_device(struct srv *s, char *dev, size_t len, unsigned *port, char *ip, size_t iplen)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char what[256];

	ip[0] = '\0';
	if (s->o->dev) {
		snprintf(dev, len, "%s", s->o->dev);
		*port = s->o->port;
		return 0;
	}
	if (getsockname(s->fd, (struct sockaddr *)&ss, &sl) || (ss.ss_family != AF_INET && ss.ss_family != AF_INET6))
		return fail(s, -EAFNOSUPPORT, "the control connection is not over IP");
	pp_unmap_v4(&ss);	/* an IPv4 tester on the dual-stack listener */
	if (pq_dev_for_addr((struct sockaddr *)&ss, dev, len, port, what, sizeof(what)))
		return fail(s, -ENODEV, "peer: %s", what);
	if (!inet_ntop(ss.ss_family, ss.ss_family == AF_INET ? (void *)&((struct sockaddr_in *)&ss)->sin_addr
							   : (void *)&((struct sockaddr_in6 *)&ss)->sin6_addr,
		       ip, (socklen_t)iplen))
		ip[0] = '\0';
	return 0;
}

static int step_config(struct srv *s)
{
	struct pp_msg m;
	struct pp_config local;
	char dev[64], ip[64], what[256];
	unsigned port = 1;
	int rc = expect(s, PP_CONFIG, &m);

	if (rc)
		return rc;
	s->peer = m.u.config;
	rc = local_device(s, dev, sizeof(dev), &port, ip, sizeof(ip));
	if (rc)
		return rc;
	rc = pq_local_config(dev, port, s->o->gid_index, ip[0] ? ip : NULL, &local, what, sizeof(what));
	if (rc)
		return fail(s, rc, "peer: %s", what);
	rc = pq_open(&s->q, &local, s->region, what, sizeof(what));
	if (rc)
		return fail(s, rc, "peer: %s", what);
	if (pq_counters_read(local.dev, local.port, &s->before))
		s->before.n = 0;
	m = (struct pp_msg){ .type = PP_CONFIG, .u.config = local };
	return pp_send(s->fd, &m, idle_deadline(s));
}

static int post_rings(struct srv *s)
{
	for (unsigned i = 0; i < PQ_RECV_RING; i++)
		if (pq_post_recv(&s->q, false, i) || pq_post_recv(&s->q, true, i))
			return -EIO;
	return 0;
}

static int step_qp(struct srv *s)
{
	struct pp_msg m;
	char what[384];
	int rc = expect(s, PP_QP, &m);

	if (rc)
		return rc;
	s->peer_qp = m.u.qp;
	rc = pq_rc_init(&s->q, what, sizeof(what));
	if (!rc)
		rc = pq_rc_connect(&s->q, &s->peer, &s->peer_qp, what, sizeof(what));
	if (!rc)
		rc = pq_ud_connect(&s->q, &s->peer, what, sizeof(what));
	if (!rc && post_rings(s)) {
		rc = -EIO;
		snprintf(what, sizeof(what), "cannot post receive buffers");
	}
	if (rc)
		return fail(s, rc, "peer: %s", what);
	m = (struct pp_msg){ .type = PP_QP };
	pq_local_qp(&s->q, &m.u.qp);
	return pp_send(s->fd, &m, idle_deadline(s));
}

static void count_echo(struct pp_phase_done *d, int post_rc)
{
	if (post_rc)
		d->errors++;
	else
		d->sent++;
}

/* A receive arrived: answer as the phase wants and give the buffer back. */
static void on_recv(struct srv *s, const struct ibv_wc *wc, uint32_t phase, struct pp_phase_done *d)
{
	bool ud = wc->qp_num == s->q.ud->qp_num;

	d->received++;
	/* The latency echo goes out before the buffer is given back: the
	 * tester's next message waits for it, so the re-post is off the timed
	 * path (the ring holds more buffers than one message needs). */
	if (phase == PH_LAT && !ud)
		count_echo(d, pq_post_rc(&s->q, IBV_WR_SEND, wc->byte_len, 0, 0, pq_latency_signal(&s->q), 0));
	if (pq_post_recv(&s->q, ud, wc->wr_id))
		d->errors++;
	if (phase == PH_UD && ud && wc->byte_len >= PQ_UD_GRH)
		count_echo(d, pq_post_ud(&s->q, wc->byte_len - PQ_UD_GRH, s->peer_qp.ud_qpn, 0));
}

static int run_phase(struct srv *s, const struct pp_phase_msg *ph)
{
	struct pp_msg m = { .type = PP_READY };
	struct pp_phase_done d = { 0 };
	int64_t deadline;
	int rc;

	if (ph->phase < PH_LAT || ph->phase > PH_UD)
		return fail(s, -EINVAL, "unknown phase %u", ph->phase);
	if (ph->size > s->region - (ph->phase == PH_UD ? PQ_UD_GRH : 0))
		return fail(s, -EINVAL, "phase message size %u is over the session's %zu", ph->size, s->region);
	rc = pp_send(s->fd, &m, idle_deadline(s));
	if (rc)
		return fail(s, rc, "sending READY: %s", pp_strerror(rc));
	/* The echo is half of every timed round trip: it waits the way the
	 * tester's latency stage does (busy by default, as perftest's does). */
	s->q.mode = ph->phase == PH_LAT ? s->o->lat_mode : s->o->mode;
	deadline = idle_deadline(s);
	for (;;) {
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(s->q.cq, 16, wc);

		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				if (!d.wc_status)
					d.wc_status = wc[i].status;
				d.errors++;
			} else if (wc[i].opcode & IBV_WC_RECV) {
				on_recv(s, &wc[i], ph->phase, &d);
				deadline = idle_deadline(s);
			}
		}
		if (n > 0) {
			pq_progress(&s->q);
			continue;
		}
		rc = pq_wait(&s->q, s->fd, deadline);
		if (rc == 2)
			break;
		if (rc < 0)
			return fail(s, rc, "during a %s phase: %s", ph->phase == PH_LAT ? "latency" :
				    ph->phase == PH_SEND ? "send" : "UD", pp_strerror(rc));
	}
	rc = expect(s, PP_PHASE_END, &m);
	if (rc)
		return rc;
	s->phases++;
	m = (struct pp_msg){ .type = PP_PHASE_DONE, .u.done = d };
	return pp_send(s->fd, &m, idle_deadline(s));
}

static int send_counters(struct srv *s)
{
	struct pq_counters now;
	struct pp_msg m = { .type = PP_COUNTERS };

	if (!pq_counters_read(s->q.local.dev, s->q.local.port, &now) && s->before.n)
		m.u.counters.n = pq_counters_delta(&s->before, &now, m.u.counters.c, PP_MAX_COUNTERS);
	return pp_send(s->fd, &m, idle_deadline(s));
}

static int serve_requests(struct srv *s)
{
	for (;;) {
		struct pp_msg m;
		int rc = pp_recv(s->fd, &m, idle_deadline(s));

		if (rc)
			return fail(s, rc, "waiting for the next request: %s", pp_strerror(rc));
		switch (m.type) {
		case PP_PHASE:
			rc = run_phase(s, &m.u.phase);
			break;
		case PP_COUNTERS_REQ:
			rc = send_counters(s);
			break;
		case PP_BYE:
			return 0;
		default:
			rc = fail(s, -EPROTO, "unexpected %s message", pp_type_name(m.type));
		}
		if (rc)
			return rc;
	}
}

int ps_session(int fd, const struct ps_opts *o, char *summary, size_t len)
{
	struct srv s = { .fd = fd, .o = o };
	int rc;

	s.q.mode = o->mode;
	s.q.stop = o->stop;
	rc = step_hello(&s);
	if (!rc)
		rc = step_config(&s);
	if (!rc)
		rc = step_qp(&s);
	if (!rc)
		rc = serve_requests(&s);
	if (rc && !s.why[0])
		snprintf(s.why, sizeof(s.why), "%s", pp_strerror(rc));
	if (rc)
		snprintf(summary, len, "error: %s", s.why);
	else
		snprintf(summary, len, "ok: %s/%u, %u phases", s.q.local.dev, s.q.local.port, s.phases);
	pq_close(&s.q);
	return rc;
}
