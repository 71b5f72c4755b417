// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes a replay fixture (rdmadiag --replay DIR) of one Soft-RoCE device with
 * N queue pairs, in the recorder's format (host/source.h): netlink replies
 * as the kernel streams them ([u32 len][message]... chunks of at most 16 KiB,
 * then NLMSG_DONE), and /proc/PID/comm files of the owners.
 *
 *   gen_res_fixture DIR N
 *
 * The device has index 1, or GEN_DEV_INDEX: 0 is the index the kernel gives
 * its first device (res show once took index 0 for "none"; only the lab saw it).
 *
 * QP i (0-based) has lqpn 17+i, type RC/UD/UC by i%3, state RTS except
 * i%100==7 INIT, i%100==8 RTR, i%1000==9 ERR; owners are 10 processes
 * (pid 2000+10*i/N, comm "qpapp<k>"), in runs as real applications make them.
 * Plus the kernel's GSI QP 1 (ib_core); 2 MRs, 3 CM ids, 3 CQs, 3 PDs and 3
 * SRQs (their dumps below say which). On stdout: the counts to expect.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <netinet/in.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHUNK (16 * 1024)
static unsigned dev_index = 1;	/* GEN_DEV_INDEX */
#define DEV_NAME "rxe0"

static const char *dir;
static char buf[CHUNK];
static FILE *out;

static void die(const char *what)
{
	fprintf(stderr, "gen_res_fixture: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void mkdirs(const char *path)
{
	char tmp[4096];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			die(tmp);
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		die(tmp);
}

static void open_reply(const char *key)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/netlink", dir);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/netlink/%s.bin", dir, key);
	out = fopen(path, "w");
	if (!out)
		die(path);
}

static void write_chunk(const struct nlmsghdr *nlh)
{
	uint32_t len = nlh->nlmsg_len;

	if (fwrite(&len, sizeof(len), 1, out) != 1 || fwrite(nlh, 1, len, out) != len)
		die("write");
}

static struct nlmsghdr *msg_begin(uint16_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, DEV_NAME);
	return nlh;
}

static void close_reply(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	int zero = 0;

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, sizeof(zero));
	write_chunk(nlh);
	fclose(out);
}

static void dev_dump(void)
{
	char key[64];
	struct nlmsghdr *nlh;

	snprintf(key, sizeof(key), "cmd%u-dump", RDMA_NLDEV_CMD_GET);
	open_reply(key);
	nlh = msg_begin(RDMA_NLDEV_CMD_GET);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
	write_chunk(nlh);
	close_reply();
}

struct counts {
	unsigned qps, state[7], type[11];
};

static void put_qp(struct nlmsghdr *nlh, unsigned i, unsigned n, struct counts *c)
{
	static const uint8_t types[] = { 2, 4, 3 };	/* RC, UD, UC */
	uint8_t type = types[i % 3];
	uint8_t state = i % 1000 == 9 ? 6 : i % 100 == 7 ? 1 : i % 100 == 8 ? 2 : 3;
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 17 + i);
	if (type != 4) {	/* connected: the kernel adds the remote side */
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQPN, 17 + (i ^ 1));
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RQ_PSN, (i * 7919) & 0xffffff);
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 0);
	}
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, (i * 104729) & 0xffffff);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, type);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, state);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000 + 10 * i / n);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PDN, 1 + 10 * i / n);
	mnl_attr_nest_end(nlh, e);
	c->qps++;
	c->state[state]++;
	c->type[type]++;
}

static void put_gsi(struct nlmsghdr *nlh, struct counts *c)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SQ_PSN, 0);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
	mnl_attr_nest_end(nlh, e);
	c->qps++;
	c->state[3]++;
	c->type[1]++;
}

/* Entries go into messages of at most CHUNK bytes, as the kernel fills its dump buffers. */
static void qp_dump(unsigned n, struct counts *c)
{
	char key[64];
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	snprintf(key, sizeof(key), "cmd%u-dump-a%u=%u", RDMA_NLDEV_CMD_RES_QP_GET, RDMA_NLDEV_ATTR_DEV_INDEX,
		 dev_index);
	open_reply(key);
	nlh = msg_begin(RDMA_NLDEV_CMD_RES_QP_GET);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
	put_gsi(nlh, c);
	for (unsigned i = 0; i < n; i++) {
		if (nlh->nlmsg_len > CHUNK - 256) {
			mnl_attr_nest_end(nlh, nest);
			write_chunk(nlh);
			nlh = msg_begin(RDMA_NLDEV_CMD_RES_QP_GET);
			nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
		}
		put_qp(nlh, i, n, c);
	}
	mnl_attr_nest_end(nlh, nest);
	write_chunk(nlh);
	close_reply();
}

static void put_addr(struct nlmsghdr *nlh, uint16_t attr, int family, const char *ip, uint16_t port)
{
	struct sockaddr_storage ss = { 0 };

	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		inet_pton(AF_INET, ip, &in->sin_addr);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		inet_pton(AF_INET6, ip, &in6->sin6_addr);
	}
	mnl_attr_put(nlh, attr, sizeof(ss), &ss);
}

/* A listener (v4), a connected id (v4) and one on IPv6 in ROUTE_RESOLVED. */
static void cm_dump(void)
{
	char key[64];
	struct nlmsghdr *nlh;
	struct nlattr *nest, *e;

	snprintf(key, sizeof(key), "cmd%u-dump-a%u=%u", RDMA_NLDEV_CMD_RES_CM_ID_GET, RDMA_NLDEV_ATTR_DEV_INDEX,
		 dev_index);
	open_reply(key);
	nlh = msg_begin(RDMA_NLDEV_CMD_RES_CM_ID_GET);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x0106);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 8);
	put_addr(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, AF_INET, "192.168.77.1", 7174);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CM_IDN, 0);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, 17);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, 2);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x0106);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 5);
	put_addr(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, AF_INET, "192.168.77.1", 7174);
	put_addr(nlh, RDMA_NLDEV_ATTR_RES_DST_ADDR, AF_INET, "192.168.77.2", 40001);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CM_IDN, 1);
	mnl_attr_nest_end(nlh, e);
	e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PS, 0x0111);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_STATE, 4);
	put_addr(nlh, RDMA_NLDEV_ATTR_RES_SRC_ADDR, AF_INET6, "fe80::1", 0);
	put_addr(nlh, RDMA_NLDEV_ATTR_RES_DST_ADDR, AF_INET6, "fe80::2", 4791);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "rdma_cm");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CM_IDN, 2);
	mnl_attr_nest_end(nlh, e);
	mnl_attr_nest_end(nlh, nest);
	write_chunk(nlh);
	close_reply();
}

/* One MR with keys (as root sees it) and one without (as a user does). */
static void mr_dump(void)
{
	char key[64];
	struct nlmsghdr *nlh;
	struct nlattr *nest, *e;

	snprintf(key, sizeof(key), "cmd%u-dump-a%u=%u", RDMA_NLDEV_CMD_RES_MR_GET, RDMA_NLDEV_ATTR_DEV_INDEX,
		 dev_index);
	open_reply(key);
	nlh = msg_begin(RDMA_NLDEV_CMD_RES_MR_GET);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_MR);
	for (unsigned i = 0; i < 2; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_MR_ENTRY);
		if (i == 0) {
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_RKEY, 0x1234);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LKEY, 0x1234);
			mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_IOVA, 0x7f0000001000ULL);
		}
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_MRLEN, 4096 << i);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_MRN, 4 + i);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PDN, 1);
		mnl_attr_nest_end(nlh, e);
	}
	mnl_attr_nest_end(nlh, nest);
	write_chunk(nlh);
	close_reply();
}

/* The head of a dump of one object kind; *nest is its table. */
static struct nlmsghdr *kind_begin(uint16_t cmd, uint16_t table, struct nlattr **nest)
{
	char key[64];
	struct nlmsghdr *nlh;

	snprintf(key, sizeof(key), "cmd%u-dump-a%u=%u", cmd, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	open_reply(key);
	nlh = msg_begin(cmd);
	*nest = mnl_attr_nest_start(nlh, table);
	return nlh;
}

static void kind_end(struct nlmsghdr *nlh, struct nlattr *nest)
{
	mnl_attr_nest_end(nlh, nest);
	write_chunk(nlh);
	close_reply();
}

/* Three CQs: a user's (poll context absent, as the kernel leaves it for
 * user CQs), a kernel one polled in softirq with adaptive moderation, and a
 * direct one. */
static void cq_dump(void)
{
	struct nlattr *nest, *e;
	struct nlmsghdr *nlh = kind_begin(RDMA_NLDEV_CMD_RES_CQ_GET, RDMA_NLDEV_ATTR_RES_CQ, &nest);

	for (unsigned i = 0; i < 3; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_CQ_ENTRY);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CQE, 256u << i);
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_USECNT, i + 1);
		if (i) {
			mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_POLL_CTX, i == 1 ? 0 : 3);
			mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_DIM, i == 1);
			mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
		} else {
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000);
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CTXN, 0);
		}
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CQN, 10 + i);
		mnl_attr_nest_end(nlh, e);
	}
	kind_end(nlh, nest);
}

/* Three PDs: the kernel's (with the unsafe global rkey) and two users'. */
static void pd_dump(void)
{
	struct nlattr *nest, *e;
	struct nlmsghdr *nlh = kind_begin(RDMA_NLDEV_CMD_RES_PD_GET, RDMA_NLDEV_ATTR_RES_PD, &nest);

	for (unsigned i = 0; i < 3; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_PD_ENTRY);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, 0x100 + i);
		if (i == 0) {
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY, 0x200);
			mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
		} else {
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000 + 10 * (i - 1));
			mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CTXN, i - 1);
		}
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_USECNT, 2);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PDN, i);
		mnl_attr_nest_end(nlh, e);
	}
	kind_end(nlh, nest);
}

/* Three SRQs, one of each type: basic, XRC, tag matching. */
static void srq_dump(void)
{
	struct nlattr *nest, *e;
	struct nlmsghdr *nlh = kind_begin(RDMA_NLDEV_CMD_RES_SRQ_GET, RDMA_NLDEV_ATTR_RES_SRQ, &nest);

	for (unsigned i = 0; i < 3; i++) {
		e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_SRQN, 20 + i);
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_RES_TYPE, i);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PDN, 1);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_CQN, 10);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_PID, 2000);
		mnl_attr_nest_end(nlh, e);
	}
	kind_end(nlh, nest);
}

static void summary_dump(const struct counts *c)
{
	static const char *const names[] = { "pd", "cq", "qp", "cm_id", "mr", "ctx", "srq" };
	char key[64];
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	snprintf(key, sizeof(key), "cmd%u-dump", RDMA_NLDEV_CMD_RES_GET);
	open_reply(key);
	nlh = msg_begin(RDMA_NLDEV_CMD_RES_GET);
	nest = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY);
	for (unsigned i = 0; i < 7; i++) {
		struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY);

		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, names[i]);
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, i == 2 ? c->qps : i == 4 ? 2 : 3);
		mnl_attr_nest_end(nlh, e);
	}
	mnl_attr_nest_end(nlh, nest);
	write_chunk(nlh);
	close_reply();
}

static void comm_files(void)
{
	char path[4096];

	for (unsigned k = 0; k < 10; k++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/fs/proc/%u", dir, 2000 + k);
		mkdirs(path);
		snprintf(path, sizeof(path), "%s/fs/proc/%u/comm", dir, 2000 + k);
		fp = fopen(path, "w");
		if (!fp)
			die(path);
		fprintf(fp, "qpapp%u\n", k);
		fclose(fp);
	}
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	unsigned long n;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0 || n > 1000000) {
		fprintf(stderr, "usage: gen_res_fixture DIR N   (N QPs, 1..1000000)\n");
		return 2;
	}
	dir = argv[1];
	if (getenv("GEN_DEV_INDEX"))
		dev_index = strtoul(getenv("GEN_DEV_INDEX"), NULL, 10);
	mkdirs(dir);
	dev_dump();
	qp_dump(n, &c);
	cm_dump();
	mr_dump();
	cq_dump();
	pd_dump();
	srq_dump();
	summary_dump(&c);
	comm_files();
	printf("qps=%u reset=%u init=%u rtr=%u rts=%u err=%u gsi=%u rc=%u uc=%u ud=%u\n", c.qps, c.state[0],
	       c.state[1], c.state[2], c.state[3], c.state[6], c.type[1], c.type[2], c.type[3], c.type[4]);
	return 0;
}
