/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control protocol of `rdmadiag path`: how a tester and `path serve`
 * agree on a session over TCP before and between the RDMA stages.
 *
 * Every message is a 12-byte header followed by a payload:
 *   u32 magic "RDDG" | u8 version | u8 type | u16 zero | u32 payload length
 * all big endian. Each type has one payload layout with an exact length
 * (PP_COUNTERS: a count and that many entries), never more than
 * PP_MAX_PAYLOAD bytes. Strings are fixed-size fields; the decoder NUL
 * terminates them and replaces anything unprintable, so a hostile peer can
 * neither overrun a buffer nor put escape sequences into a log line.
 */
#ifndef RDMADIAG_PATHPROTO_H
#define RDMADIAG_PATHPROTO_H

#include <stddef.h>
#include <stdint.h>

#define PP_MAGIC 0x52444447u	/* "RDDG" */
#define PP_VERSION 1
#define PP_HDR_LEN 12
#define PP_MAX_PAYLOAD 1024
#define PP_DEFAULT_PORT 4792

/* Bounds a responder enforces on what a tester may ask for. */
#define PP_MAX_SIZE (8u << 20)		/* message size of the bandwidth tests */
#define PP_MAX_COUNTERS 20	/* only counters that moved are sent */

enum pp_type {
	PP_HELLO = 1,		/* tester -> serve: what it wants to run */
	PP_HELLO_OK,		/* serve -> tester: accepted */
	PP_ERROR,		/* either way: the session ends, text says why */
	PP_CONFIG,		/* both ways: device, port, MTUs, GID */
	PP_QP,			/* both ways: QP numbers, PSN, buffer */
	PP_PHASE,		/* tester -> serve: start a phase (latency, send, UD) */
	PP_READY,		/* serve -> tester: phase armed */
	PP_PHASE_END,		/* tester -> serve: phase over, report */
	PP_PHASE_DONE,		/* serve -> tester: what it saw */
	PP_COUNTERS_REQ,	/* tester -> serve: counter deltas since CONFIG */
	PP_COUNTERS,		/* serve -> tester */
	PP_BYE,			/* tester -> serve: end of session */
	PP_TYPE_MAX,
};

enum pp_phase { PH_LAT = 1, PH_SEND, PH_UD };

struct pp_hello {
	uint32_t tests;		/* bit mask, informative */
	uint32_t size;		/* bandwidth message size */
	uint32_t lat_size;
	uint32_t buf_len;	/* session buffer the tester wants to reach */
};

struct pp_hello_ok {
	uint32_t max_size;
	uint32_t idle_timeout_ms;
};

struct pp_error {
	uint32_t code;		/* errno-like */
	char text[200];
};

enum pp_gid_type { PP_GID_IB = 0, PP_GID_ROCE_V1 = 1, PP_GID_ROCE_V2 = 2 };

struct pp_config {
	char dev[64];
	char netdev[32];
	char addr[64];		/* IP address the session runs on, text */
	uint32_t port;
	uint32_t link_layer;	/* 1 InfiniBand, 2 Ethernet */
	uint32_t active_mtu;	/* bytes */
	uint32_t max_mtu;
	uint32_t netdev_mtu;	/* 0 none */
	uint32_t gid_index;
	uint32_t gid_type;	/* enum pp_gid_type */
	uint8_t gid[16];
	uint32_t lid;
	uint32_t rate_mbps;	/* 0 unknown */
};

struct pp_qp {
	uint32_t rc_qpn, rc_psn;
	uint32_t ud_qpn, qkey;
	uint32_t rkey;
	uint64_t addr;
	uint32_t buf_len;
	uint32_t t_init_us, t_rtr_us, t_rts_us;	/* responder's transitions */
};

struct pp_phase_msg {
	uint32_t phase;		/* enum pp_phase */
	uint32_t size;
	uint32_t count;		/* expected messages, 0 open ended */
};

struct pp_phase_done {
	uint32_t received;
	uint32_t sent;
	uint32_t wc_status;	/* first bad completion, 0 none */
	uint32_t errors;
};

struct pp_counter {
	char name[40];
	uint64_t delta;
};

struct pp_counters {
	uint32_t n;
	struct pp_counter c[PP_MAX_COUNTERS];
};

struct pp_msg {
	uint8_t type;
	union {
		struct pp_hello hello;
		struct pp_hello_ok hello_ok;
		struct pp_error error;
		struct pp_config config;
		struct pp_qp qp;
		struct pp_phase_msg phase;
		struct pp_phase_done done;
		struct pp_counters counters;
	} u;
};

/* Encodes header and payload into buf; returns the total length or -ENOSPC/-EINVAL. */
int pp_encode(const struct pp_msg *m, uint8_t *buf, size_t cap);
/* Checks a header; on success *payload_len is the payload that follows.
 * -EBADMSG bad magic, -EPROTONOSUPPORT other version, -EPROTO unknown type,
 * -EMSGSIZE length over PP_MAX_PAYLOAD or not what the type needs. */
int pp_decode_header(const uint8_t *hdr, size_t len, uint8_t *type, uint32_t *payload_len);
/* Decodes a whole message (header + payload) of exactly len bytes. */
int pp_decode(const uint8_t *buf, size_t len, struct pp_msg *m);
/* What a decode error means, for messages. */
const char *pp_strerror(int err);
const char *pp_type_name(unsigned type);

/* Socket transport; every call has a deadline (CLOCK_MONOTONIC, ms). */
int pp_send(int fd, const struct pp_msg *m, int64_t deadline_ms);
/* Reads one message. -ETIMEDOUT, -ECONNRESET (peer closed), decode errors. */
int pp_recv(int fd, struct pp_msg *m, int64_t deadline_ms);
/* pp_recv that also turns an unexpected type or a PP_ERROR into an error:
 * -EBADE with the peer's text in errbuf for PP_ERROR, -EPROTO otherwise. */
int pp_expect(int fd, uint8_t type, struct pp_msg *m, int64_t deadline_ms, char *errbuf, size_t errlen);
int pp_send_error(int fd, uint32_t code, const char *text);

/* Deadlines, in ms: the coarse clock (see mono_coarse_ms() in util/clock.h),
 * cheap enough to check per message; a tick (1-4 ms) of resolution. */
int64_t pp_now_ms(void);
/* Durations to report, in us: the precise clock. */
uint64_t pp_now_us(void);

struct sockaddr_storage;
/* An IPv4 peer of a dual-stack (IPv6, V6ONLY off) socket shows as ::ffff:a.b.c.d;
 * this turns such an address back into AF_INET in place, so logs, rdma_cm and
 * the GID choice see the IPv4 address the peer used. Other addresses are kept. */
void pp_unmap_v4(struct sockaddr_storage *ss);
/* "a.b.c.d:port" or "[v6]:port" of an IP socket address; "?" parts when unknown. */
void pp_addr_port_str(const struct sockaddr_storage *ss, char *buf, size_t len);

#endif
