// SPDX-License-Identifier: GPL-2.0-or-later
/* The control protocol of `rdmadiag path`; see pathproto.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../util/clock.h"
#include "pathproto.h"

#define COUNTER_ENTRY_LEN (40 + 8)

/* Exact payload length of each type; -1 for the variable PP_COUNTERS. */
static const int payload_len[PP_TYPE_MAX] = {
	[PP_HELLO] = 16,
	[PP_HELLO_OK] = 8,
	[PP_ERROR] = 4 + 200,
	[PP_CONFIG] = 64 + 32 + 64 + 9 * 4 + 16,
	[PP_QP] = 5 * 4 + 8 + 4 + 3 * 4,
	[PP_PHASE] = 12,
	[PP_READY] = 0,
	[PP_PHASE_END] = 0,
	[PP_PHASE_DONE] = 16,
	[PP_COUNTERS_REQ] = 0,
	[PP_COUNTERS] = -1,
	[PP_BYE] = 0,
};

static const char *const type_names[PP_TYPE_MAX] = {
	[PP_HELLO] = "HELLO", [PP_HELLO_OK] = "HELLO_OK", [PP_ERROR] = "ERROR", [PP_CONFIG] = "CONFIG",
	[PP_QP] = "QP", [PP_PHASE] = "PHASE", [PP_READY] = "READY", [PP_PHASE_END] = "PHASE_END",
	[PP_PHASE_DONE] = "PHASE_DONE", [PP_COUNTERS_REQ] = "COUNTERS_REQ", [PP_COUNTERS] = "COUNTERS",
	[PP_BYE] = "BYE",
};

const char *pp_type_name(unsigned type)
{
	return type > 0 && type < PP_TYPE_MAX ? type_names[type] : "unknown";
}

const char *pp_strerror(int err)
{
	switch (err) {
	case -EBADMSG: return "not an rdmadiag path message (bad magic)";
	case -EPROTONOSUPPORT: return "unsupported protocol version";
	case -EPROTO: return "unexpected or unknown message type";
	case -EMSGSIZE: return "message length does not fit its type";
	case -ETIMEDOUT: return "timed out waiting for the peer";
	case -ECONNRESET: return "the peer closed the connection";
	case -EINTR: return "interrupted";
	case -ENETDOWN: return "no completion, and the link here stayed down past the QP's retries";
	default: return strerror(-err);
	}
}

/* ---- byte cursor ---- */

struct cur {
	uint8_t *p;
	const uint8_t *rp;
	size_t len, off;
	bool bad;
};

static void put(struct cur *c, const void *v, size_t n)
{
	if (c->off + n > c->len) {
		c->bad = true;
		return;
	}
	memcpy(c->p + c->off, v, n);
	c->off += n;
}

static void put_u32(struct cur *c, uint32_t v)
{
	uint8_t b[4] = { v >> 24, v >> 16, v >> 8, v };

	put(c, b, 4);
}

static void put_u64(struct cur *c, uint64_t v)
{
	put_u32(c, v >> 32);
	put_u32(c, (uint32_t)v);
}

/* A fixed-size string field: zero padded, always NUL terminated. */
static void put_str(struct cur *c, const char *s, size_t n)
{
	char tmp[256] = { 0 };

	snprintf(tmp, n, "%s", s);
	put(c, tmp, n);
}

static void get(struct cur *c, void *v, size_t n)
{
	if (c->off + n > c->len) {
		c->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, c->rp + c->off, n);
	c->off += n;
}

static uint32_t get_u32(struct cur *c)
{
	uint8_t b[4];

	get(c, b, 4);
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint64_t get_u64(struct cur *c)
{
	uint64_t hi = get_u32(c);

	return hi << 32 | get_u32(c);
}

static void get_str(struct cur *c, char *s, size_t n)
{
	get(c, s, n);
	s[n - 1] = '\0';
	for (size_t i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			s[i] = '?';
}

/* ---- payloads ---- */

static void enc_config(struct cur *c, const struct pp_config *k)
{
	put_str(c, k->dev, sizeof(k->dev));
	put_str(c, k->netdev, sizeof(k->netdev));
	put_str(c, k->addr, sizeof(k->addr));
	put_u32(c, k->port);
	put_u32(c, k->link_layer);
	put_u32(c, k->active_mtu);
	put_u32(c, k->max_mtu);
	put_u32(c, k->netdev_mtu);
	put_u32(c, k->gid_index);
	put_u32(c, k->gid_type);
	put(c, k->gid, 16);
	put_u32(c, k->lid);
	put_u32(c, k->rate_mbps);
}

static void dec_config(struct cur *c, struct pp_config *k)
{
	get_str(c, k->dev, sizeof(k->dev));
	get_str(c, k->netdev, sizeof(k->netdev));
	get_str(c, k->addr, sizeof(k->addr));
	k->port = get_u32(c);
	k->link_layer = get_u32(c);
	k->active_mtu = get_u32(c);
	k->max_mtu = get_u32(c);
	k->netdev_mtu = get_u32(c);
	k->gid_index = get_u32(c);
	k->gid_type = get_u32(c);
	get(c, k->gid, 16);
	k->lid = get_u32(c);
	k->rate_mbps = get_u32(c);
}

static void enc_qp(struct cur *c, const struct pp_qp *q)
{
	put_u32(c, q->rc_qpn);
	put_u32(c, q->rc_psn);
	put_u32(c, q->ud_qpn);
	put_u32(c, q->qkey);
	put_u32(c, q->rkey);
	put_u64(c, q->addr);
	put_u32(c, q->buf_len);
	put_u32(c, q->t_init_us);
	put_u32(c, q->t_rtr_us);
	put_u32(c, q->t_rts_us);
}

static void dec_qp(struct cur *c, struct pp_qp *q)
{
	q->rc_qpn = get_u32(c);
	q->rc_psn = get_u32(c);
	q->ud_qpn = get_u32(c);
	q->qkey = get_u32(c);
	q->rkey = get_u32(c);
	q->addr = get_u64(c);
	q->buf_len = get_u32(c);
	q->t_init_us = get_u32(c);
	q->t_rtr_us = get_u32(c);
	q->t_rts_us = get_u32(c);
}

static void enc_payload(struct cur *c, const struct pp_msg *m)
{
	switch (m->type) {
	case PP_HELLO:
		put_u32(c, m->u.hello.tests);
		put_u32(c, m->u.hello.size);
		put_u32(c, m->u.hello.lat_size);
		put_u32(c, m->u.hello.buf_len);
		break;
	case PP_HELLO_OK:
		put_u32(c, m->u.hello_ok.max_size);
		put_u32(c, m->u.hello_ok.idle_timeout_ms);
		break;
	case PP_ERROR:
		put_u32(c, m->u.error.code);
		put_str(c, m->u.error.text, sizeof(m->u.error.text));
		break;
	case PP_CONFIG:
		enc_config(c, &m->u.config);
		break;
	case PP_QP:
		enc_qp(c, &m->u.qp);
		break;
	case PP_PHASE:
		put_u32(c, m->u.phase.phase);
		put_u32(c, m->u.phase.size);
		put_u32(c, m->u.phase.count);
		break;
	case PP_PHASE_DONE:
		put_u32(c, m->u.done.received);
		put_u32(c, m->u.done.sent);
		put_u32(c, m->u.done.wc_status);
		put_u32(c, m->u.done.errors);
		break;
	case PP_COUNTERS:
		if (m->u.counters.n > PP_MAX_COUNTERS) {
			c->bad = true;
			break;
		}
		put_u32(c, m->u.counters.n);
		for (uint32_t i = 0; i < m->u.counters.n; i++) {
			put_str(c, m->u.counters.c[i].name, sizeof(m->u.counters.c[i].name));
			put_u64(c, m->u.counters.c[i].delta);
		}
		break;
	default:
		break;	/* no payload */
	}
}

static void dec_payload(struct cur *c, struct pp_msg *m)
{
	switch (m->type) {
	case PP_HELLO:
		m->u.hello.tests = get_u32(c);
		m->u.hello.size = get_u32(c);
		m->u.hello.lat_size = get_u32(c);
		m->u.hello.buf_len = get_u32(c);
		break;
	case PP_HELLO_OK:
		m->u.hello_ok.max_size = get_u32(c);
		m->u.hello_ok.idle_timeout_ms = get_u32(c);
		break;
	case PP_ERROR:
		m->u.error.code = get_u32(c);
		get_str(c, m->u.error.text, sizeof(m->u.error.text));
		break;
	case PP_CONFIG:
		dec_config(c, &m->u.config);
		break;
	case PP_QP:
		dec_qp(c, &m->u.qp);
		break;
	case PP_PHASE:
		m->u.phase.phase = get_u32(c);
		m->u.phase.size = get_u32(c);
		m->u.phase.count = get_u32(c);
		break;
	case PP_PHASE_DONE:
		m->u.done.received = get_u32(c);
		m->u.done.sent = get_u32(c);
		m->u.done.wc_status = get_u32(c);
		m->u.done.errors = get_u32(c);
		break;
	case PP_COUNTERS:
		m->u.counters.n = get_u32(c);
		if (m->u.counters.n > PP_MAX_COUNTERS || c->len != 4 + m->u.counters.n * COUNTER_ENTRY_LEN) {
			c->bad = true;
			m->u.counters.n = 0;
			break;
		}
		for (uint32_t i = 0; i < m->u.counters.n; i++) {
			get_str(c, m->u.counters.c[i].name, sizeof(m->u.counters.c[i].name));
			m->u.counters.c[i].delta = get_u64(c);
		}
		break;
	default:
		break;
	}
}

int pp_encode(const struct pp_msg *m, uint8_t *buf, size_t cap)
{
	struct cur c = { .p = buf, .len = cap };
	struct cur len_field;

	if (m->type == 0 || m->type >= PP_TYPE_MAX)
		return -EINVAL;
	put_u32(&c, PP_MAGIC);
	put(&c, (uint8_t[]){ PP_VERSION, m->type, 0, 0 }, 4);
	len_field = c;
	put_u32(&c, 0);		/* the length, written once the payload is known */
	enc_payload(&c, m);
	if (c.bad)
		return -ENOSPC;
	if (c.off - PP_HDR_LEN > PP_MAX_PAYLOAD)
		return -EMSGSIZE;
	put_u32(&len_field, (uint32_t)(c.off - PP_HDR_LEN));
	return (int)c.off;
}

int pp_decode_header(const uint8_t *hdr, size_t len, uint8_t *type, uint32_t *plen)
{
	struct cur c = { .rp = hdr, .len = len };
	uint8_t vt[4];
	uint32_t magic, n;

	if (len < PP_HDR_LEN)
		return -EMSGSIZE;
	magic = get_u32(&c);
	get(&c, vt, 4);
	n = get_u32(&c);
	if (magic != PP_MAGIC)
		return -EBADMSG;
	if (vt[0] != PP_VERSION)
		return -EPROTONOSUPPORT;
	if (vt[1] == 0 || vt[1] >= PP_TYPE_MAX || vt[2] || vt[3])
		return -EPROTO;
	if (n > PP_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (payload_len[vt[1]] >= 0 ? n != (uint32_t)payload_len[vt[1]]
				    : n < 4 || (n - 4) % COUNTER_ENTRY_LEN)
		return -EMSGSIZE;
	*type = vt[1];
	*plen = n;
	return 0;
}

int pp_decode(const uint8_t *buf, size_t len, struct pp_msg *m)
{
	struct cur c;
	uint32_t plen;
	int err;

	memset(m, 0, sizeof(*m));
	err = pp_decode_header(buf, len, &m->type, &plen);
	if (err)
		return err;
	if (len != PP_HDR_LEN + plen)
		return -EMSGSIZE;
	c = (struct cur){ .rp = buf + PP_HDR_LEN, .len = plen };
	dec_payload(&c, m);
	if (c.bad || c.off != plen)
		return -EMSGSIZE;
	return 0;
}

/* ---- transport ---- */

int64_t pp_now_ms(void)
{
	return mono_coarse_ms();
}

uint64_t pp_now_us(void)
{
	return mono_ns() / 1000;
}

static int wait_fd(int fd, short events, int64_t deadline_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int64_t left = deadline_ms - pp_now_ms();
	int n;

	if (left < 0)
		left = 0;
	n = poll(&p, 1, (int)(left > 60000 ? 60000 : left));
	if (n < 0)
		return -errno;
	if (n == 0)
		return pp_now_ms() >= deadline_ms ? -ETIMEDOUT : -EAGAIN;
	return 0;
}

static int io_all(int fd, void *buf, size_t len, bool writing, int64_t deadline_ms)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n;
		int err = wait_fd(fd, writing ? POLLOUT : POLLIN, deadline_ms);

		if (err == -EAGAIN)
			continue;
		if (err)
			return err;
		n = writing ? send(fd, (char *)buf + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT)
			    : recv(fd, (char *)buf + off, len - off, MSG_DONTWAIT);
		if (n == 0 && !writing)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return errno == EPIPE ? -ECONNRESET : -errno;
		}
		off += (size_t)n;
	}
	return 0;
}

int pp_send(int fd, const struct pp_msg *m, int64_t deadline_ms)
{
	uint8_t buf[PP_HDR_LEN + PP_MAX_PAYLOAD];
	int n = pp_encode(m, buf, sizeof(buf));

	if (n < 0)
		return n;
	return io_all(fd, buf, (size_t)n, true, deadline_ms);
}

int pp_recv(int fd, struct pp_msg *m, int64_t deadline_ms)
{
	uint8_t buf[PP_HDR_LEN + PP_MAX_PAYLOAD];
	uint32_t plen;
	uint8_t type;
	int err;

	err = io_all(fd, buf, PP_HDR_LEN, false, deadline_ms);
	if (err)
		return err;
	err = pp_decode_header(buf, PP_HDR_LEN, &type, &plen);
	if (err)
		return err;
	err = io_all(fd, buf + PP_HDR_LEN, plen, false, deadline_ms);
	if (err)
		return err;
	return pp_decode(buf, PP_HDR_LEN + plen, m);
}

int pp_expect(int fd, uint8_t type, struct pp_msg *m, int64_t deadline_ms, char *errbuf, size_t errlen)
{
	int err = pp_recv(fd, m, deadline_ms);

	if (err) {
		snprintf(errbuf, errlen, "%s", pp_strerror(err));
		return err;
	}
	if (m->type == type)
		return 0;
	if (m->type == PP_ERROR) {
		snprintf(errbuf, errlen, "%s", m->u.error.text);
		return -EBADE;
	}
	snprintf(errbuf, errlen, "expected %s, got %s", pp_type_name(type), pp_type_name(m->type));
	return -EPROTO;
}

int pp_send_error(int fd, uint32_t code, const char *text)
{
	struct pp_msg m = { .type = PP_ERROR };

	m.u.error.code = code;
	snprintf(m.u.error.text, sizeof(m.u.error.text), "%s", text);
	return pp_send(fd, &m, pp_now_ms() + 1000);
}

void pp_unmap_v4(struct sockaddr_storage *ss)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	if (ss->ss_family != AF_INET6)
		return;
	memcpy(&s6, ss, sizeof(s6));
	if (!IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	memset(ss, 0, sizeof(*ss));
	s4->sin_family = AF_INET;
	s4->sin_port = s6.sin6_port;
	memcpy(&s4->sin_addr, s6.sin6_addr.s6_addr + 12, 4);
}

void pp_addr_port_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET6) {
		if (!inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host)))
			snprintf(host, sizeof(host), "?");
		snprintf(buf, len, "[%s]:%u", host, ntohs(s6->sin6_port));
	} else if (ss->ss_family == AF_INET) {
		if (!inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host)))
			snprintf(host, sizeof(host), "?");
		snprintf(buf, len, "%s:%u", host, ntohs(s4->sin_port));
	} else {
		snprintf(buf, len, "?:?");
	}
}
