// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path_probe: a hostile `rdmadiag path` tester for the lab. It opens a real
 * session with `path serve` (HELLO, CONFIG, QP, RC connect) and then does ONE
 * RDMA access to the buffer the responder advertised, to check that the only
 * memory a peer can reach is that buffer and that it starts zeroed:
 *
 *   path_probe PEER_IP [PORT] MODE
 *     zeroed      RDMA READ of the whole advertised buffer; prints whether it was all zero
 *     inside      RDMA WRITE of 4 KiB at its start (must work)
 *     write-past  RDMA WRITE of 1 byte just past the advertised length
 *     straddle    RDMA WRITE of 64 bytes over the end of the buffer
 *     read-past   RDMA READ of 4 KiB just past the advertised length
 *     wrong-rkey  RDMA WRITE of 64 bytes at its start with another rkey
 *     far         RDMA WRITE of 8 bytes at the buffer address + 1 GiB
 *
 * Prints "MODE: STATUS" with the completion status (ibv_wc_status_str), plus
 * "zeroed: yes|no (N bytes)" for zeroed. Exit 0 when the completion succeeded,
 * 1 when it failed, 2 when the session could not be set up. One access per
 * run: a failed access moves the RC QP to the error state.
 */
#include <errno.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../path/pathq.h"
#include "../../rdmadiag/rdmadiag.h"

struct global_opts g_opts;	/* the library's sysfs and verbs readers look at it */

#define BUF 65536

static int ctrl_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	int fd;

	if (getaddrinfo(host, port, &hints, &ai))
		return -1;
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen)) {
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static int die(const char *step, const char *why)
{
	fprintf(stderr, "path_probe: %s: %s\n", step, why);
	return 2;
}

/* The session up to RTS on our side; the responder is in RTS after PP_QP. */
static int session(int fd, const char *peer, struct pq *q, struct pp_qp *rqp)
{
	int64_t deadline = pp_now_ms() + 10000;
	struct pp_config remote;
	struct pq_route route;
	struct pp_msg m = { .type = PP_HELLO };
	char why[384];

	m.u.hello = (struct pp_hello){ .size = BUF, .lat_size = 8, .buf_len = BUF };
	if (pp_send(fd, &m, deadline) || pp_expect(fd, PP_HELLO_OK, &m, deadline, why, sizeof(why)))
		return die("hello", why);
	if (pq_resolve(peer, deadline, &route, why, sizeof(why)) ||
	    pq_local_config(route.dev, route.port, -1, route.src, &q->local, why, sizeof(why)))
		return die("resolve", why);
	m = (struct pp_msg){ .type = PP_CONFIG, .u.config = q->local };
	if (pp_send(fd, &m, deadline) || pp_expect(fd, PP_CONFIG, &m, deadline, why, sizeof(why)))
		return die("config", why);
	remote = m.u.config;
	q->mode = PQ_BUSY;
	if (pq_open(q, &q->local, BUF, why, sizeof(why)) || pq_rc_init(q, why, sizeof(why)))
		return die("open", why);
	m = (struct pp_msg){ .type = PP_QP };
	pq_local_qp(q, &m.u.qp);
	if (pp_send(fd, &m, deadline) || pp_expect(fd, PP_QP, &m, deadline, why, sizeof(why)))
		return die("qp exchange", why);
	*rqp = m.u.qp;
	if (pq_rc_connect(q, &remote, rqp, why, sizeof(why)))
		return die("rc connect", why);
	return 0;
}

/* One access; returns the completion status, or -1 when none came. */
static int access_once(struct pq *q, int opcode, size_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_wc wc;

	if (pq_post_rc(q, opcode, len, raddr, rkey, true, 7))
		return -1;
	return pq_poll(q, &wc, 1, pp_now_ms() + 10000) == 1 ? (int)wc.status : -1;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int main(int argc, char **argv)
{
	const char *peer, *port = "4792", *mode;
	struct pq q = { 0 };
	struct pp_qp r;
	struct pp_msg bye = { .type = PP_BYE };
	int fd, rc, st;

	if (argc != 3 && argc != 4)
		return die("usage", "path_probe PEER_IP [PORT] zeroed|inside|write-past|straddle|read-past|wrong-rkey|far");
	peer = argv[1];
	if (argc == 4)
		port = argv[2];
	mode = argv[argc - 1];
	fd = ctrl_connect(peer, port);
	if (fd < 0)
		return die("connect", strerror(errno));
	rc = session(fd, peer, &q, &r);
	if (rc) {
		pq_close(&q);
		return rc;
	}
	printf("advertised: %u bytes\n", r.buf_len);
	if (r.buf_len > q.region)
		return die("qp exchange", "the responder advertises more than this probe can read");
	/* a pattern in our source/target half: a WRITE leaves a mark in the
	 * responder's buffer, a READ that did not happen cannot look zeroed */
	memset(q.buf + q.region, 0x5a, q.region);
	if (!strcmp(mode, "zeroed"))
		st = access_once(&q, IBV_WR_RDMA_READ, r.buf_len, r.addr, r.rkey);
	else if (!strcmp(mode, "inside"))
		st = access_once(&q, IBV_WR_RDMA_WRITE, 4096, r.addr, r.rkey);
	else if (!strcmp(mode, "write-past"))
		st = access_once(&q, IBV_WR_RDMA_WRITE, 1, r.addr + r.buf_len, r.rkey);
	else if (!strcmp(mode, "straddle"))
		st = access_once(&q, IBV_WR_RDMA_WRITE, 64, r.addr + r.buf_len - 32, r.rkey);
	else if (!strcmp(mode, "read-past"))
		st = access_once(&q, IBV_WR_RDMA_READ, 4096, r.addr + r.buf_len, r.rkey);
	else if (!strcmp(mode, "wrong-rkey"))
		st = access_once(&q, IBV_WR_RDMA_WRITE, 64, r.addr, r.rkey ^ 0x00ffff00u);
	else if (!strcmp(mode, "far"))
		st = access_once(&q, IBV_WR_RDMA_WRITE, 8, r.addr + (1ull << 30), r.rkey);
	else
		st = die("usage", "unknown MODE"), st = -2;
	if (st >= 0)
		printf("%s: %s\n", mode, ibv_wc_status_str(st));
	else if (st == -1)
		printf("%s: no completion\n", mode);
	/* READ lands in the local half of our buffer */
	if (!strcmp(mode, "zeroed") && st == IBV_WC_SUCCESS)
		printf("zeroed: %s (%u bytes)\n", all_zero(q.buf + q.region, r.buf_len) ? "yes" : "no", r.buf_len);
	pp_send(fd, &bye, pp_now_ms() + 1000);
	close(fd);
	pq_close(&q);
	return st == -2 ? 2 : st == IBV_WC_SUCCESS ? 0 : 1;
}
