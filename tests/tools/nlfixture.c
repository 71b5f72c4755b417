// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nlfixture: writes the netlink part of a hand-made rdmadiag fixture.
 *
 * The lab (Soft-RoCE) cannot show an InfiniBand port, an mlx5-like device or
 * a NIC on a slow PCIe slot. Their sysfs trees are plain files under
 * tests/fixtures/NAME/fs/; the netlink replies rdmadiag --replay also needs
 * are built here from a short text spec, byte for byte as the kernel sends
 * them (one reply chunk per request, then NLMSG_DONE), in the files and
 * order netlink/nl.c and netlink/addr.c look for.
 *
 *   nlfixture SPEC DIR     reads SPEC, writes the .bin files under DIR/netlink
 *
 * SPEC lines (# starts a comment):
 *   dev INDEX NAME [node_type=N] [fw=TEXT] [ports=N] [node_guid=HEX] [driver=ID] [chardev=NAME]
 *   port DEVINDEX DEVNAME PORT [state=N] [phys=N] [lid=N] [sm_lid=N] [lmc=N] [ndev=IFINDEX:NAME]
 *   addr IFINDEX ADDRESS/PREFIX
 * driver= is the kernel's enum rdma_driver_id (1 mlx5, 14 rxe).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define BUF_SIZE 65536
#define MAX_DEVS 16

struct chunk {
	char buf[BUF_SIZE];
	size_t len;
};

static struct chunk dev_dump, addr_dump, port_dump[MAX_DEVS], chardev[MAX_DEVS];
static unsigned dev_index[MAX_DEVS];
static int ndev;
static const char *out_dir;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "nlfixture: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static struct nlmsghdr *msg_begin(struct chunk *c, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	if (c->len + 4096 > BUF_SIZE)
		die("spec too large", NULL);
	nlh = mnl_nlmsg_put_header(c->buf + c->len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	return nlh;
}

static void msg_end(struct chunk *c, struct nlmsghdr *nlh)
{
	c->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static void put_done(struct chunk *c)
{
	struct nlmsghdr *nlh = msg_begin(c, NLMSG_DONE, NLM_F_MULTI);
	int *zero = mnl_nlmsg_put_extra_header(nlh, sizeof(int));

	*zero = 0;
	msg_end(c, nlh);
}

static void put_ack(struct chunk *c)
{
	struct nlmsghdr *nlh = msg_begin(c, NLMSG_ERROR, NLM_F_CAPPED);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	memset(e, 0, sizeof(*e));
	msg_end(c, nlh);
}

static int find_dev(unsigned idx)
{
	for (int i = 0; i < ndev; i++)
		if (dev_index[i] == idx)
			return i;
	return -1;
}

/* "key=value" among the words; NULL when absent */
static const char *kv(char **words, int n, const char *key)
{
	size_t len = strlen(key);

	for (int i = 0; i < n; i++)
		if (!strncmp(words[i], key, len) && words[i][len] == '=')
			return words[i] + len + 1;
	return NULL;
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (*end)
		die("not a number", s);
	return v;
}

static void spec_dev(char **w, int n)
{
	struct nlmsghdr *nlh;
	const char *v;
	unsigned idx;
	int d;

	if (n < 3 || ndev >= MAX_DEVS)
		die("dev needs INDEX NAME", NULL);
	idx = (unsigned)num(w[1]);
	d = ndev++;
	dev_index[d] = idx;
	nlh = msg_begin(&dev_dump, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET), NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, w[2]);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, (v = kv(w, n, "ports")) ? (uint32_t)num(v) : 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, (v = kv(w, n, "node_type")) ? (uint8_t)num(v) : 1);
	if ((v = kv(w, n, "fw")))
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_FW_VERSION, v);
	if ((v = kv(w, n, "node_guid")))
		mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_NODE_GUID, num(v));
	msg_end(&dev_dump, nlh);

	nlh = msg_begin(&chardev[d], RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV), 0);
	if ((v = kv(w, n, "chardev")))
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_CHARDEV_NAME, v);
	if ((v = kv(w, n, "driver")))
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, (uint32_t)num(v));	/* as the kernel sends it */
	msg_end(&chardev[d], nlh);
	put_ack(&chardev[d]);
}

static void spec_port(char **w, int n)
{
	struct nlmsghdr *nlh;
	const char *v;
	int d;

	if (n < 4 || (d = find_dev((unsigned)num(w[1]))) < 0)
		die("port needs DEVINDEX of a dev line, DEVNAME, PORT", NULL);
	nlh = msg_begin(&port_dump[d], RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET), NLM_F_MULTI);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index[d]);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, w[2]);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, (uint32_t)num(w[3]));
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_STATE, (v = kv(w, n, "state")) ? (uint8_t)num(v) : 4);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, (v = kv(w, n, "phys")) ? (uint8_t)num(v) : 5);
	if ((v = kv(w, n, "lid")))
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_LID, (uint32_t)num(v));
	if ((v = kv(w, n, "sm_lid")))
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_SM_LID, (uint32_t)num(v));
	if ((v = kv(w, n, "lmc")))
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_LMC, (uint8_t)num(v));
	if ((v = kv(w, n, "ndev"))) {
		const char *colon = strchr(v, ':');

		if (!colon)
			die("ndev= needs IFINDEX:NAME", v);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, (uint32_t)strtoul(v, NULL, 10));
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, colon + 1);
	}
	msg_end(&port_dump[d], nlh);
}

static void spec_addr(char **w, int n)
{
	struct nlmsghdr *nlh;
	struct ifaddrmsg *ifa;
	unsigned char bin[16];
	char *slash;
	int fam;

	if (n < 3 || !(slash = strchr(w[2], '/')))
		die("addr needs IFINDEX ADDRESS/PREFIX", NULL);
	*slash = '\0';
	fam = strchr(w[2], ':') ? AF_INET6 : AF_INET;
	if (inet_pton(fam, w[2], bin) != 1)
		die("bad address", w[2]);
	nlh = msg_begin(&addr_dump, RTM_NEWADDR, NLM_F_MULTI);
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	memset(ifa, 0, sizeof(*ifa));
	ifa->ifa_family = (uint8_t)fam;
	ifa->ifa_prefixlen = (uint8_t)num(slash + 1);
	ifa->ifa_index = (unsigned)num(w[1]);
	mnl_attr_put(nlh, IFA_ADDRESS, fam == AF_INET ? 4 : 16, bin);
	if (fam == AF_INET)
		mnl_attr_put(nlh, IFA_LOCAL, 4, bin);
	msg_end(&addr_dump, nlh);
}

static void write_chunk(const char *name, const struct chunk *c)
{
	char path[4096];
	uint32_t len = (uint32_t)c->len;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/netlink/%s", out_dir, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(&len, sizeof(len), 1, fp) != 1 || fwrite(c->buf, 1, c->len, fp) != c->len || fclose(fp))
		die("cannot write", path);
}

int main(int argc, char **argv)
{
	char line[1024], path[4096], name[256];
	FILE *spec;

	if (argc != 3)
		die("usage: nlfixture SPEC DIR", NULL);
	out_dir = argv[2];
	spec = fopen(argv[1], "r");
	if (!spec)
		die("cannot open spec", argv[1]);
	while (fgets(line, sizeof(line), spec)) {
		char *w[32];
		int n = 0;

		line[strcspn(line, "#\n")] = '\0';
		for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && n < 32; t = strtok_r(NULL, " \t", &save))
			w[n++] = t;
		if (!n)
			continue;
		if (!strcmp(w[0], "dev"))
			spec_dev(w, n);
		else if (!strcmp(w[0], "port"))
			spec_port(w, n);
		else if (!strcmp(w[0], "addr"))
			spec_addr(w, n);
		else
			die("unknown spec line", w[0]);
	}
	fclose(spec);
	snprintf(path, sizeof(path), "%s/netlink", out_dir);
	if (mkdir(out_dir, 0755) && errno != EEXIST)
		die("cannot create", out_dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("cannot create", path);
	put_done(&dev_dump);
	snprintf(name, sizeof(name), "cmd%u-dump.bin", RDMA_NLDEV_CMD_GET);
	write_chunk(name, &dev_dump);
	for (int d = 0; d < ndev; d++) {
		put_done(&port_dump[d]);
		snprintf(name, sizeof(name), "cmd%u-dump-a%u=%u.bin", RDMA_NLDEV_CMD_PORT_GET, RDMA_NLDEV_ATTR_DEV_INDEX,
			 dev_index[d]);
		write_chunk(name, &port_dump[d]);
		snprintf(name, sizeof(name), "cmd%u-a%u=%u-a%u=uverbs.bin", RDMA_NLDEV_CMD_GET_CHARDEV,
			 RDMA_NLDEV_ATTR_DEV_INDEX, dev_index[d], RDMA_NLDEV_ATTR_CHARDEV_TYPE);
		write_chunk(name, &chardev[d]);
	}
	put_done(&addr_dump);
	write_chunk("route-getaddr.bin", &addr_dump);
	return 0;
}
