// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hostile and unusual kernel replies through the real parsing path: replies
 * are crafted with libmnl into a fixture directory and replayed.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../host/source.h"
#include "../../netlink/rdma.h"
#include "tap.h"

static char dir[] = "/tmp/rdmadiag-nl-test-XXXXXX";
static char buf[16384];
static size_t used;

/* Starts a new message in the chunk buffer. */
static struct nlmsghdr *msg_begin(uint16_t type)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + used);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_MULTI;
	return nlh;
}

static void msg_end(struct nlmsghdr *nlh)
{
	used += nlh->nlmsg_len;
}

static void put_raw(struct nlmsghdr *nlh, uint16_t type, const void *data, uint16_t len)
{
	mnl_attr_put(nlh, type, len, data);
}

/* Writes the chunk (plus NLMSG_DONE) as the fixture reply of the device dump. */
static void write_dev_dump(void)
{
	struct nlmsghdr *done = msg_begin(NLMSG_DONE);
	int zero = 0;

	mnl_nlmsg_put_extra_header(done, sizeof(zero));
	msg_end(done);
	uint32_t len = (uint32_t)used;

	source_save("netlink/cmd1-dump.bin", &len, sizeof(len), false);
	source_save("netlink/cmd1-dump.bin", buf, used, true);
	used = 0;
}

struct seen {
	int n;
	struct rd_dev last;
};

static int count_dev(const struct rd_dev *d, void *data)
{
	struct seen *s = data;

	s->n++;
	s->last = *d;
	return 0;
}

static struct nlmsghdr *dev_msg(uint32_t index, const char *name)
{
	struct nlmsghdr *nlh = msg_begin(NL_RDMA_TYPE(RDMA_NLDEV_CMD_GET));

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	if (name)
		mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, name);
	return nlh;
}

int main(void)
{
	struct seen s = { 0 };
	struct nlmsghdr *nlh;
	struct source_error se;

	if (!mkdtemp(dir))
		return 1;
	/* record mode lets source_save write the fixture; then replay it */
	source_init(dir, NULL, &se);
	source_close();

	/* 1: a good device, with an unknown attribute a newer kernel might send */
	nlh = dev_msg(3, "mlx5_0");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_NODE_GUID, 0x1122334455667788ULL);
	mnl_attr_put_u32(nlh, 250, 7);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
	msg_end(nlh);
	/* 2: no DEV_NAME: mandatory attribute missing, skipped */
	msg_end(dev_msg(4, NULL));
	/* 3: DEV_INDEX of the wrong length: dropped, so the device is skipped */
	nlh = msg_begin(NL_RDMA_TYPE(RDMA_NLDEV_CMD_GET));
	put_raw(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, "\x01", 1);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "short_index");
	msg_end(nlh);
	/* 4: name not NUL terminated: dropped */
	nlh = msg_begin(NL_RDMA_TYPE(RDMA_NLDEV_CMD_GET));
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 5);
	put_raw(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "abc", 3);
	msg_end(nlh);
	/* 5: NODE_GUID of 4 bytes: that field is dropped, the device stays */
	nlh = dev_msg(6, "rxe9");
	put_raw(nlh, RDMA_NLDEV_ATTR_NODE_GUID, "\x01\x02\x03\x04", 4);
	msg_end(nlh);
	write_dev_dump();

	source_init(NULL, dir, &se);
	ok(nl_open() == 0, "replay opens without a kernel");
	int err = rd_dev_each(NULL, count_dev, &s);

	ok(err == 0, "a dump with bad messages still completes (err %d)", err);
	ok(s.n == 2, "only the two well-formed devices are reported (got %d)", s.n);
	is_str(s.last.name, "rxe9", "the last good device is rxe9");
	ok(!s.last.has_node_guid, "a GUID of the wrong length is dropped, not misread");
	ok(nl_bad_attrs() == 3, "three malformed attributes were counted (got %u)", nl_bad_attrs());

	s.n = 0;
	err = rd_dev_each("mlx5_0", count_dev, &s);
	ok(err == 0 && s.n == 1 && s.last.node_guid == 0x1122334455667788ULL && s.last.node_type == 1,
	   "an unknown attribute is ignored and the known ones are read");
	err = rd_dev_each("nosuch", count_dev, &s);
	ok(err == -ENODEV, "a name that is not there gives -ENODEV");

	/* an error reply from the kernel, with an extended ACK message */
	nlh = msg_begin(NLMSG_ERROR);
	struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

	e->error = -EOPNOTSUPP;
	nlh->nlmsg_flags |= NLM_F_ACK_TLVS | NLM_F_CAPPED;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no such thing here");
	msg_end(nlh);
	source_close();
	source_init(dir, NULL, &se);
	uint32_t len = (uint32_t)used;

	source_save("netlink/cmd1-dump.bin", &len, sizeof(len), false);
	source_save("netlink/cmd1-dump.bin", buf, used, true);
	source_close();
	source_init(NULL, dir, &se);
	err = rd_dev_each(NULL, count_dev, &s);
	ok(err == -EOPNOTSUPP, "a kernel error reply gives its errno (got %d)", err);
	is_str(nl_error_msg(), "no such thing here", "the extended ACK text is kept for the user");

	nl_close();
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}
