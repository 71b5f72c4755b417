/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verbs side of `rdmadiag path`: address resolution with rdma_cm
 * (pathq_resolve.c), the local configuration of a port, and one test
 * session's resources (PD, CQ, one zeroed registered buffer, an RC and a UD
 * QP) with timed QP transitions (pathq.c), posting and completion polling
 * that always has a deadline (pathq_io.c), and port counters (pathq_counters.c).
 *
 * Buffer layout: [0, region) is what the peer may write or read and where
 * receives land; [region, 2*region) is the local source of sends and the
 * target of reads.
 */
#ifndef RDMADIAG_PATHQ_H
#define RDMADIAG_PATHQ_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "pathproto.h"

struct ibv_wc;

#define PQ_CQ_DEPTH 1024
#define PQ_SQ_DEPTH 256
#define PQ_RQ_DEPTH 256
#define PQ_RECV_RING 128	/* receives kept posted: at least PQ_WINDOW, or sends meet RNR */
#define PQ_WINDOW 128		/* outstanding operations in bandwidth tests (perftest's tx-depth) */
#define PQ_SIGNAL_EVERY 16
#define PQ_SPIN_US 200		/* PQ_HYBRID: spin this long without a completion, then sleep */
/* A spinning wait reads the control channel (path serve: has the tester
 * ended the phase?) at most this often. The read is a poll(2), a system
 * call; at one per 1024 empty polls it came about once per round trip in
 * the lab (6618 of them in a 1000-round-trip session) and the echo of a
 * request that arrived meanwhile waited behind it: 2.5% on the latency p50
 * against ib_send_lat (4 A/B runs of 16-30 rounds). A faster poll loop
 * made more of them. A phase end is seen this much later at most. */
#define PQ_CTRL_EVERY_MS 10
#define PQ_UD_GRH 40
#define PQ_QKEY 0x11111111u
#define PQ_RC_TIMEOUT 18u	/* 4.096 us * 2^18 = 1.07 s per try, as rdma_cm's default */
#define PQ_RC_RETRY 6u		/* rxe takes 7 for "retry forever": a dead peer must end in RETRY_EXC */
/* The retry count of perftest, NCCL and UCX: 7 tries on hardware, forever
 * on rxe (rxe_comp.c never counts a try down from 7). pq.retry_cnt. */
#define PQ_RC_RETRY_FOREVER 7u
/* One try of the RC QP's retransmit timer, 4.096 us << PQ_RC_TIMEOUT, in ns. */
#define PQ_RC_TRY_NS (4096LL << PQ_RC_TIMEOUT)
/* How long the RC QP retries before RETRY_EXC: 7 tries of 1.07 s, 7.5 s. */
#define PQ_RC_RETRY_BUDGET_MS (PQ_RC_TRY_NS * (PQ_RC_RETRY + 1) / 1000000)
/* The retry budget and a margin: a port down this long will not bring an
 * error completion any more (pq.link_grace_ms). */
#define PQ_LINK_GRACE_MS 10000

enum pq_poll_mode {
	PQ_BUSY,	/* spin on the CQ: lowest latency */
	PQ_YIELD,	/* spin but yield the CPU: two ends on one CPU */
	PQ_EVENT,	/* sleep on the completion channel */
	PQ_HYBRID,	/* spin for PQ_SPIN_US, then sleep: a Soft-RoCE NIC is a CPU that a
			 * spinning poller would take from it while operations are in flight */
};

/* Result of rdma_cm address and route resolution. */
struct pq_route {
	char dev[64];
	unsigned port;
	char src[64];		/* source IP, text */
	uint8_t sgid[16];	/* as the route chose it */
	int64_t addr_ms, route_ms;
};

/* Resolves peer (IPv4/IPv6 text). On failure, what[] says which layer. */
int pq_resolve(const char *peer, int64_t deadline_ms, struct pq_route *out, char *what, size_t len);
/* Which RDMA device and port own the local address sa (a control socket's). */
int pq_dev_for_addr(const struct sockaddr *sa, char *dev, size_t devlen, unsigned *port, char *what,
		    size_t len);

/* Fills the pp_config of dev/port: link layer, MTUs, rate, netdev, and the
 * GID: gid_index >= 0 as given, else the RoCE v2 GID of src_ip (text, may be
 * NULL: the first RoCE v2 IPv4 GID, else index 0). */
int pq_local_config(const char *dev, unsigned port, int gid_index, const char *src_ip, struct pp_config *out,
		    char *what, size_t len);
const char *pq_gid_type_str(unsigned pp_gid_type);
void pq_gid_str(const uint8_t gid[16], char *buf, size_t len);

struct pq {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *rc, *ud;
	struct ibv_mr *mr;	/* [0, region): the only memory the peer may reach */
	struct ibv_mr *lmr;	/* [region, 2*region): local use only, no remote access */
	struct ibv_ah *ah;	/* to the peer's UD QP */
	uint8_t *buf;
	size_t region;
	struct pp_config local;
	uint32_t psn;
	unsigned max_inline, rd_atom, path_mtu;	/* path_mtu: bytes, after RTR */
	unsigned retry_cnt;	/* of the RC QP; 0: PQ_RC_RETRY */
	enum pq_poll_mode mode;
	volatile sig_atomic_t *stop;	/* set by a signal handler: give up waits */
	uint64_t t_init_us, t_rtr_us, t_rts_us;
	unsigned spins;
	unsigned since_signaled;	/* latency sends posted unsignaled since the last signaled one */
	uint64_t idle_since_us;	/* PQ_HYBRID: first empty poll since the last completion, 0 none */
	bool armed;		/* PQ_EVENT/PQ_HYBRID: notification requested */
	int64_t link_grace_ms;	/* > 0: waits end in -ENETDOWN once the port has been down this long */
	int64_t link_checked_ms, link_down_since_ms;
	int64_t ctrl_checked_ms;	/* last poll(2) of the control channel in a spinning wait */
};

int pq_open(struct pq *q, const struct pp_config *local, size_t region, char *what, size_t len);
void pq_close(struct pq *q);
void pq_local_qp(const struct pq *q, struct pp_qp *out);
/* RESET->INIT of the RC QP, then RTR and RTS towards the peer; each timed. */
int pq_rc_init(struct pq *q, char *what, size_t len);
int pq_rc_connect(struct pq *q, const struct pp_config *peer, const struct pp_qp *pqp, char *what, size_t len);
/* UD QP to RTS and an address handle to the peer's. */
int pq_ud_connect(struct pq *q, const struct pp_config *peer, char *what, size_t len);

int pq_post_recv(struct pq *q, bool ud, uint64_t wr_id);
/* opcode: IBV_WR_SEND, IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ */
int pq_post_rc(struct pq *q, int opcode, size_t len, uint64_t raddr, uint32_t rkey, bool signaled, uint64_t wr_id);
int pq_post_ud(struct pq *q, size_t len, uint32_t remote_qpn, uint64_t wr_id);

/* Latency sends ask for a completion once per PQ_SIGNAL_EVERY, as
 * perftest's do: the receive that answers each one is what is timed, and a
 * send completion per round trip is one more CQE to write and reap on every
 * trip. The unsignaled ones' slots come back with the next signaled one,
 * so at most PQ_SIGNAL_EVERY - 1 slots stay taken, far below PQ_SQ_DEPTH -
 * PQ_WINDOW. An error completes with a CQE whether signaled or not. */
_Static_assert(PQ_SIGNAL_EVERY < PQ_SQ_DEPTH - PQ_WINDOW, "unsignaled latency sends must leave the bandwidth window its room");
static inline bool pq_latency_signal(struct pq *q)
{
	if (++q->since_signaled < PQ_SIGNAL_EVERY)
		return false;
	q->since_signaled = 0;
	return true;
}

/* Callers that poll the CQ themselves: a completion came, spin again (PQ_HYBRID). */
static inline void pq_progress(struct pq *q)
{
	q->idle_since_us = 0;
}
/* Waits until the CQ has completions or ctrl_fd (>= 0) is readable.
 * 1: poll the CQ, 2: ctrl_fd readable, -ETIMEDOUT, -EINTR (stop set),
 * -ENETDOWN (the port down for link_grace_ms). */
int pq_wait(struct pq *q, int ctrl_fd, int64_t deadline_ms);
/* Polls up to max completions, waiting until the deadline for at least one. */
int pq_poll(struct pq *q, struct ibv_wc *wc, int max, int64_t deadline_ms);

/* The RC QP's state now ("ERR", "RTS", ...), for reports after a failure. */
const char *pq_rc_state_str(struct pq *q);
/* Whether the session's port is ACTIVE now; its state name in state[]. */
bool pq_port_active(struct pq *q, char *state, size_t len);

/* What a bad completion usually means. */
const char *pq_wc_meaning(int status);
const char *pq_wc_status_str(int status);

/* Port counters (hw_counters) before and after a test. */
#define PQ_MAX_COUNTERS 96
struct pq_counters {
	unsigned n;
	char name[PQ_MAX_COUNTERS][40];
	uint64_t val[PQ_MAX_COUNTERS];
};
int pq_counters_read(const char *dev, unsigned port, struct pq_counters *out);
/* Packets the port received, from any QP: rxe's hw_counters/rcvd_pkts, else
 * the IB standard counters/port_rcv_packets. -ENOENT when it has neither. */
int pq_rx_packets(const char *dev, unsigned port, uint64_t *out);
/* Counters that moved between a and b into out (at most max); returns the count. */
unsigned pq_counters_delta(const struct pq_counters *a, const struct pq_counters *b, struct pp_counter *out,
			   unsigned max);
/* Whether a counter name means trouble (errors, retries, sequence, RNR), and why. */
const char *pq_counter_meaning(const char *name);

#endif
