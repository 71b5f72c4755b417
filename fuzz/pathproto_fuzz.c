// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the `path` control protocol (path/pathproto.c), as a peer's
 * bytes reach it.
 *
 * Input: the byte stream a peer sends on the TCP session. It is decoded
 * twice: as one message with pp_decode() (the length is the input's), and
 * as a session with pp_recv() over a socketpair until the stream ends or a
 * message is refused, which is what `path serve` and the tester do. Every
 * message that decodes must re-encode, and encoding is a fixed point:
 * encode(decode(encode(m))) == encode(m); a mismatch aborts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../path/pathproto.h"
#include "fuzz_common.h"

#define WIRE_MAX (PP_HDR_LEN + PP_MAX_PAYLOAD)

static void use_msg(const struct pp_msg *m)
{
	fuzz_sink_str(pp_type_name(m->type));
	if (m->type == PP_ERROR)
		fuzz_sink_str(m->u.error.text);
	if (m->type == PP_CONFIG) {
		fuzz_sink_str(m->u.config.dev);
		fuzz_sink_str(m->u.config.netdev);
		fuzz_sink_str(m->u.config.addr);
	}
	if (m->type == PP_COUNTERS) {
		if (m->u.counters.n > PP_MAX_COUNTERS)
			abort();
		for (uint32_t i = 0; i < m->u.counters.n; i++)
			fuzz_sink_str(m->u.counters.c[i].name);
	}
}

static void check_roundtrip(const struct pp_msg *m)
{
	uint8_t a[WIRE_MAX], b[WIRE_MAX];
	struct pp_msg again;
	int na = pp_encode(m, a, sizeof(a)), nb;

	if (na < 0) {
		fprintf(stderr, "pathproto_fuzz: a decoded %s does not encode (%d)\n", pp_type_name(m->type), na);
		abort();
	}
	if (pp_decode(a, (size_t)na, &again)) {
		fprintf(stderr, "pathproto_fuzz: an encoded %s does not decode\n", pp_type_name(m->type));
		abort();
	}
	nb = pp_encode(&again, b, sizeof(b));
	if (nb != na || memcmp(a, b, (size_t)na)) {
		fprintf(stderr, "pathproto_fuzz: %s does not survive encode/decode\n", pp_type_name(m->type));
		abort();
	}
}

static void decode_one(const uint8_t *data, size_t size)
{
	struct pp_msg m;
	uint32_t plen;
	uint8_t type;

	if (pp_decode_header(data, size, &type, &plen) == 0 && plen > PP_MAX_PAYLOAD)
		abort();
	if (pp_decode(data, size, &m) == 0) {
		use_msg(&m);
		check_roundtrip(&m);
	}
}

/* The stream as a session: messages until the peer's bytes end. */
static void decode_session(const uint8_t *data, size_t size)
{
	int sv[2];
	struct pp_msg m;
	char err[256];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return;
	/* the input fits the socket buffer (libFuzzer's -max_len is 4096 by default) */
	if (size && write(sv[1], data, size) != (ssize_t)size) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	shutdown(sv[1], SHUT_WR);
	for (int i = 0; i < 64; i++) {
		int e = i % 2 ? pp_recv(sv[0], &m, pp_now_ms() + 100)
			      : pp_expect(sv[0], PP_HELLO, &m, pp_now_ms() + 100, err, sizeof(err));

		if (e == -EPROTO || e == -EBADE) {
			fuzz_sink_str(err);
			continue;	/* a well-formed message of another type */
		}
		if (e)
			break;
		use_msg(&m);
	}
	close(sv[0]);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	decode_one(data, size);
	decode_session(data, size);
	return 0;
}
