// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark floor: the bare RDMA netlink QP dump of one device, received and
 * thrown away (no attribute parsing, no output). tests/bench/qp.sh compares
 * rdmadiag qp show with it.
 *
 *   nl_qp_dump DEV_INDEX      prints "messages N bytes N"
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

static unsigned long msgs, bytes;

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)data;
	msgs++;
	bytes += nlh->nlmsg_len;
	return MNL_CB_OK;
}

int main(int argc, char **argv)
{
	static char buf[64 * 1024];
	struct timeval tv = { .tv_sec = 5 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	unsigned seq = 1, portid;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: nl_qp_dump DEV_INDEX\n");
		return 2;
	}
	nl = mnl_socket_open(NETLINK_RDMA);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nl_qp_dump: NETLINK_RDMA");
		return 3;
	}
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_QP_GET);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, (uint32_t)strtoul(argv[1], NULL, 10));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("nl_qp_dump: send");
		return 4;
	}
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret <= 0)
			break;
		ret = mnl_cb_run(buf, ret, seq, portid, count_cb, NULL);
	} while (ret > MNL_CB_STOP);
	mnl_socket_close(nl);
	if (ret < 0) {
		fprintf(stderr, "nl_qp_dump: %s\n", strerror(errno));
		return 4;
	}
	printf("messages %lu bytes %lu\n", msgs, bytes);
	return 0;
}
