// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seeds of the pathproto fuzz target: each message type as a real session
 * sends it (values as `path test` and `path serve` put them), one file per
 * message, plus whole sessions (the messages of each side, concatenated).
 *
 *   gen_pathproto_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../path/pathproto.h"

static const char *dir;

static int encode(const struct pp_msg *m, uint8_t *buf, size_t cap)
{
	int n = pp_encode(m, buf, cap);

	if (n < 0) {
		fprintf(stderr, "gen_pathproto_seeds: cannot encode %s\n", pp_type_name(m->type));
		exit(1);
	}
	return n;
}

static void write_file(const char *name, const uint8_t *buf, size_t len)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(buf, 1, len, fp) != len || fclose(fp)) {
		perror(path);
		exit(1);
	}
}

/* The messages of both sides of one session, in order. */
static int session(struct pp_msg *m)
{
	int n = 0;

	m[n++] = (struct pp_msg){ .type = PP_HELLO, .u.hello = { 0x7, 65536, 64, 1 << 20 } };
	m[n++] = (struct pp_msg){ .type = PP_HELLO_OK, .u.hello_ok = { PP_MAX_SIZE, 30000 } };
	m[n] = (struct pp_msg){ .type = PP_CONFIG };
	snprintf(m[n].u.config.dev, sizeof(m[n].u.config.dev), "rxe0");
	snprintf(m[n].u.config.netdev, sizeof(m[n].u.config.netdev), "rxenet0");
	snprintf(m[n].u.config.addr, sizeof(m[n].u.config.addr), "192.168.77.2");
	m[n].u.config.port = 1;
	m[n].u.config.link_layer = 2;
	m[n].u.config.active_mtu = 1024;
	m[n].u.config.max_mtu = 4096;
	m[n].u.config.netdev_mtu = 1500;
	m[n].u.config.gid_index = 1;
	m[n].u.config.gid_type = PP_GID_ROCE_V2;
	memcpy(m[n].u.config.gid, (uint8_t[16]){ [10] = 0xff, [11] = 0xff, 192, 168, 77, 2 }, 16);
	m[n++].u.config.rate_mbps = 10000;
	m[n++] = (struct pp_msg){ .type = PP_QP, .u.qp = { 17, 0x123456, 18, 0x11111111, 0x1234, 0x7f0000001000ull,
							    1 << 20, 120, 80, 60 } };
	m[n++] = (struct pp_msg){ .type = PP_PHASE, .u.phase = { PH_LAT, 64, 1000 } };
	m[n++] = (struct pp_msg){ .type = PP_READY };
	m[n++] = (struct pp_msg){ .type = PP_PHASE_END };
	m[n++] = (struct pp_msg){ .type = PP_PHASE_DONE, .u.done = { 1000, 1000, 0, 0 } };
	m[n++] = (struct pp_msg){ .type = PP_COUNTERS_REQ };
	m[n] = (struct pp_msg){ .type = PP_COUNTERS };
	m[n].u.counters.n = 2;
	snprintf(m[n].u.counters.c[0].name, sizeof(m[n].u.counters.c[0].name), "rcvd_pkts");
	m[n].u.counters.c[0].delta = 2000;
	snprintf(m[n].u.counters.c[1].name, sizeof(m[n].u.counters.c[1].name), "out_of_sequence");
	m[n++].u.counters.c[1].delta = 3;
	m[n] = (struct pp_msg){ .type = PP_ERROR, .u.error = { 22 } };
	snprintf(m[n++].u.error.text, sizeof(m[0].u.error.text), "message size 9000000 is over the limit");
	m[n++] = (struct pp_msg){ .type = PP_BYE };
	return n;
}

int main(int argc, char **argv)
{
	static uint8_t all[32 * (PP_HDR_LEN + PP_MAX_PAYLOAD)], tester[sizeof(all)];
	struct pp_msg m[32];
	size_t nall = 0, ntester = 0;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_pathproto_seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	n = session(m);
	for (int i = 0; i < n; i++) {
		uint8_t buf[PP_HDR_LEN + PP_MAX_PAYLOAD];
		char name[64];
		int len = encode(&m[i], buf, sizeof(buf));

		snprintf(name, sizeof(name), "msg-%02d-%s", i, pp_type_name(m[i].type));
		write_file(name, buf, (size_t)len);
		memcpy(all + nall, buf, (size_t)len);
		nall += (size_t)len;
		/* what `path serve` reads: the tester's side */
		if (m[i].type == PP_HELLO || m[i].type == PP_CONFIG || m[i].type == PP_QP || m[i].type == PP_PHASE ||
		    m[i].type == PP_PHASE_END || m[i].type == PP_COUNTERS_REQ || m[i].type == PP_BYE) {
			memcpy(tester + ntester, buf, (size_t)len);
			ntester += (size_t)len;
		}
	}
	write_file("session-both", all, nall);
	write_file("session-tester", tester, ntester);
	return 0;
}
