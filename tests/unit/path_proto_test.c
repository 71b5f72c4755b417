// SPDX-License-Identifier: GPL-2.0-or-later
/* The control protocol of `rdmadiag path`: round trips, and hostile input. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../path/pathproto.h"
#include "tap.h"

static uint8_t buf[PP_HDR_LEN + PP_MAX_PAYLOAD + 64];

static void test_round_trips(void)
{
	struct pp_msg m = { .type = PP_CONFIG }, d;
	int n;

	snprintf(m.u.config.dev, sizeof(m.u.config.dev), "rxe0");
	snprintf(m.u.config.netdev, sizeof(m.u.config.netdev), "rxenet0");
	snprintf(m.u.config.addr, sizeof(m.u.config.addr), "192.168.77.1");
	m.u.config.port = 1;
	m.u.config.active_mtu = 4096;
	m.u.config.netdev_mtu = 9000;
	m.u.config.gid_index = 3;
	m.u.config.gid_type = PP_GID_ROCE_V2;
	m.u.config.gid[15] = 0x42;
	m.u.config.rate_mbps = 100000;
	n = pp_encode(&m, buf, sizeof(buf));
	ok(n == PP_HDR_LEN + 212, "CONFIG encodes to header + 212 bytes (%d)", n);
	ok(pp_decode(buf, (size_t)n, &d) == 0, "CONFIG decodes");
	ok(d.type == PP_CONFIG && !strcmp(d.u.config.dev, "rxe0") && !strcmp(d.u.config.netdev, "rxenet0") &&
	   d.u.config.active_mtu == 4096 && d.u.config.netdev_mtu == 9000 && d.u.config.gid_index == 3 &&
	   d.u.config.gid[15] == 0x42 && d.u.config.rate_mbps == 100000 && !strcmp(d.u.config.addr, "192.168.77.1"),
	   "CONFIG fields survive the round trip");

	m = (struct pp_msg){ .type = PP_QP };
	m.u.qp = (struct pp_qp){ .rc_qpn = 0x11, .rc_psn = 0xabcdef, .ud_qpn = 0x12, .qkey = 7, .rkey = 0xdeadbeef,
				 .addr = 0x7f0011223344ull, .buf_len = 65536, .t_init_us = 1, .t_rtr_us = 2,
				 .t_rts_us = 3 };
	n = pp_encode(&m, buf, sizeof(buf));
	ok(n > 0 && pp_decode(buf, (size_t)n, &d) == 0 && !memcmp(&d.u.qp, &m.u.qp, sizeof(m.u.qp)),
	   "QP round trip keeps the 64-bit address and every field");

	m = (struct pp_msg){ .type = PP_COUNTERS };
	m.u.counters.n = 2;
	snprintf(m.u.counters.c[0].name, sizeof(m.u.counters.c[0].name), "retry_exceeded_err");
	m.u.counters.c[0].delta = 5;
	snprintf(m.u.counters.c[1].name, sizeof(m.u.counters.c[1].name), "rcvd_seq_err");
	m.u.counters.c[1].delta = 1ull << 40;
	n = pp_encode(&m, buf, sizeof(buf));
	ok(n > 0 && pp_decode(buf, (size_t)n, &d) == 0 && d.u.counters.n == 2 &&
	   d.u.counters.c[1].delta == 1ull << 40 && !strcmp(d.u.counters.c[0].name, "retry_exceeded_err"),
	   "COUNTERS with two entries round trips");

	m = (struct pp_msg){ .type = PP_BYE };
	n = pp_encode(&m, buf, sizeof(buf));
	ok(n == PP_HDR_LEN && pp_decode(buf, (size_t)n, &d) == 0 && d.type == PP_BYE, "BYE has no payload");
}

static int encode_hello(void)
{
	struct pp_msg m = { .type = PP_HELLO };

	m.u.hello.size = 65536;
	m.u.hello.lat_size = 8;
	return pp_encode(&m, buf, sizeof(buf));
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v;
}

static void test_hostile(void)
{
	struct pp_msg d;
	int n = encode_hello();

	for (int cut = 0; cut < n; cut++)
		if (pp_decode(buf, (size_t)cut, &d) != -EMSGSIZE) {
			ok(0, "a HELLO truncated to %d bytes is refused", cut);
			return;
		}
	ok(1, "every truncation of a HELLO is refused with EMSGSIZE");

	n = encode_hello();
	buf[0] ^= 0xff;
	ok(pp_decode(buf, (size_t)n, &d) == -EBADMSG, "bad magic: EBADMSG");

	n = encode_hello();
	buf[4] = PP_VERSION + 1;
	ok(pp_decode(buf, (size_t)n, &d) == -EPROTONOSUPPORT, "another version: EPROTONOSUPPORT");

	n = encode_hello();
	buf[5] = PP_TYPE_MAX;
	ok(pp_decode(buf, (size_t)n, &d) == -EPROTO, "unknown type: EPROTO");
	buf[5] = 0;
	ok(pp_decode(buf, (size_t)n, &d) == -EPROTO, "type 0: EPROTO");

	n = encode_hello();
	buf[6] = 1;
	ok(pp_decode(buf, (size_t)n, &d) == -EPROTO, "non-zero reserved bits: EPROTO");

	n = encode_hello();
	put32(buf + 8, 0xffffffffu);
	ok(pp_decode_header(buf, PP_HDR_LEN, &d.type, &(uint32_t){ 0 }) == -EMSGSIZE,
	   "a 4 GiB length is refused from the header alone");
	put32(buf + 8, PP_MAX_PAYLOAD + 1);
	ok(pp_decode_header(buf, PP_HDR_LEN, &d.type, &(uint32_t){ 0 }) == -EMSGSIZE, "max payload + 1 is refused");
	put32(buf + 8, 17);
	ok(pp_decode_header(buf, PP_HDR_LEN, &d.type, &(uint32_t){ 0 }) == -EMSGSIZE,
	   "a HELLO one byte longer than its layout is refused");

	/* PP_COUNTERS claiming more entries than are there, or more than allowed */
	{
		struct pp_msg m = { .type = PP_COUNTERS };

		m.u.counters.n = 1;
		n = pp_encode(&m, buf, sizeof(buf));
		put32(buf + PP_HDR_LEN, 2);
		ok(pp_decode(buf, (size_t)n, &d) == -EMSGSIZE && d.u.counters.n == 0,
		   "COUNTERS whose count exceeds its entries is refused");
		put32(buf + PP_HDR_LEN, 0xffffffffu);
		ok(pp_decode(buf, (size_t)n, &d) == -EMSGSIZE, "COUNTERS with a huge count is refused");
		m.u.counters.n = PP_MAX_COUNTERS + 1;
		ok(pp_encode(&m, buf, sizeof(buf)) < 0, "encoding more than PP_MAX_COUNTERS fails");
	}

	/* Strings: unterminated and unprintable bytes are tamed. */
	{
		struct pp_msg m = { .type = PP_ERROR };

		n = pp_encode(&m, buf, sizeof(buf));
		memset(buf + PP_HDR_LEN + 4, 'A', 200);
		buf[PP_HDR_LEN + 4] = 0x1b;	/* ESC */
		ok(pp_decode(buf, (size_t)n, &d) == 0 && strlen(d.u.error.text) == 199 && d.u.error.text[0] == '?',
		   "an unterminated ERROR text is cut at 199 bytes and ESC becomes '?'");
	}

	/* Random garbage never decodes to anything but an error or a valid message. */
	{
		int crashes = 0;

		srand(4);
		for (int i = 0; i < 20000; i++) {
			size_t len = (size_t)(rand() % (int)sizeof(buf));

			for (size_t k = 0; k < len; k++)
				buf[k] = (uint8_t)rand();
			if (i % 2) {	/* a valid header now and then, so payloads get fuzzed */
				put32(buf, PP_MAGIC);
				buf[4] = PP_VERSION;
				buf[5] = (uint8_t)(1 + rand() % (PP_TYPE_MAX - 1));
				buf[6] = buf[7] = 0;
			}
			if (pp_decode(buf, len, &d) > 0)
				crashes++;
		}
		ok(crashes == 0, "20000 random buffers decode to an error or a message");
	}
}

static void test_socket(void)
{
	struct pp_msg m = { .type = PP_PHASE }, d;
	int sv[2];
	uint8_t junk[PP_HDR_LEN] = { 0 };
	int64_t t0;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		ok(0, "socketpair");
		return;
	}
	m.u.phase.phase = PH_LAT;
	m.u.phase.count = 10;
	ok(pp_send(sv[0], &m, pp_now_ms() + 1000) == 0 && pp_recv(sv[1], &d, pp_now_ms() + 1000) == 0 &&
	   d.type == PP_PHASE && d.u.phase.count == 10, "a message crosses a socket");

	t0 = pp_now_ms();
	ok(pp_recv(sv[1], &d, pp_now_ms() + 200) == -ETIMEDOUT && pp_now_ms() - t0 < 1000,
	   "a silent peer times out at the deadline");

	ok(write(sv[0], junk, 5) == 5, "write half a header");
	t0 = pp_now_ms();
	ok(pp_recv(sv[1], &d, pp_now_ms() + 200) == -ETIMEDOUT, "a peer stalling mid-header times out");

	ok(write(sv[0], junk, sizeof(junk)) == (ssize_t)sizeof(junk), "send garbage");
	ok(pp_recv(sv[1], &d, pp_now_ms() + 200) == -EBADMSG, "garbage is refused as not our protocol");

	{
		char err[128];

		pp_send_error(sv[0], 16, "busy: 4 sessions running");
		ok(pp_expect(sv[1], PP_HELLO_OK, &d, pp_now_ms() + 1000, err, sizeof(err)) == -EBADE &&
		   !strcmp(err, "busy: 4 sessions running"), "an ERROR reply surfaces its text");
	}
	close(sv[0]);
	ok(pp_recv(sv[1], &d, pp_now_ms() + 1000) == -ECONNRESET, "a closed peer reads as ECONNRESET");
	close(sv[1]);
}

int main(void)
{
	test_round_trips();
	test_hostile();
	test_socket();
	return tap_done();
}
