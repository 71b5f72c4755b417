// SPDX-License-Identifier: GPL-2.0-or-later
/* Interface addresses over rtnetlink with record/replay; see addr.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "../host/source.h"
#include "addr.h"
#include "nl.h"

#define ADDR_FIXTURE "netlink/route-getaddr.bin"
#define ADDR_MAX 512
#define RTNL_TIMEOUT_SEC 5

static struct {
	bool loaded;
	int err;
	int n;
	struct nd_addr a[ADDR_MAX];
} cache;

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type <= IFA_MAX)
		tb[type] = attr;
	return MNL_CB_OK;
}

static int msg_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[IFA_MAX + 1] = { 0 };
	const struct nlattr *a;
	struct nd_addr *out;
	size_t alen;
	(void)data;

	if (nlh->nlmsg_type != RTM_NEWADDR || nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifa)))
		return MNL_CB_OK;
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, sizeof(*ifa), attr_cb, tb) < 0)
		return MNL_CB_OK;
	/* IFA_LOCAL is the address of this host (IFA_ADDRESS is the peer on p2p links) */
	a = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	alen = ifa->ifa_family == AF_INET ? 4 : 16;
	/* a prefix longer than the address is a broken reply: skip that address */
	if (!a || mnl_attr_get_payload_len(a) != alen || ifa->ifa_prefixlen > alen * 8 || cache.n >= ADDR_MAX)
		return MNL_CB_OK;
	out = &cache.a[cache.n++];
	memset(out, 0, sizeof(*out));
	out->ifindex = ifa->ifa_index;
	out->family = ifa->ifa_family;
	out->prefixlen = ifa->ifa_prefixlen;
	memcpy(out->addr, mnl_attr_get_payload(a), alen);
	inet_ntop(out->family, out->addr, out->text, sizeof(out->text));
	out->link_local = out->family == AF_INET6 && out->addr[0] == 0xfe && (out->addr[1] & 0xc0) == 0x80;
	return MNL_CB_OK;
}

static int feed(const char *buf, size_t len, unsigned seq, unsigned portid)
{
	if (!nl_chunk_ok(buf, len)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	return mnl_cb_run(buf, len, seq, portid, msg_cb, NULL);
}

static int load_replay(char *buf, size_t size)
{
	FILE *fp = source_open(ADDR_FIXTURE);
	int ret = MNL_CB_OK;
	uint32_t len;

	if (!fp)
		return -ENOENT;
	while (ret > MNL_CB_STOP && fread(&len, sizeof(len), 1, fp) == 1) {
		if (len == 0 || len > size || fread(buf, 1, len, fp) != len) {
			fclose(fp);
			return -EBADMSG;
		}
		ret = feed(buf, len, 0, 0);
	}
	fclose(fp);
	return ret < 0 ? -EBADMSG : 0;
}

static int load_live(char *buf, size_t size)
{
	struct timeval tv = { .tv_sec = RTNL_TIMEOUT_SEC };
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	struct nlmsghdr *nlh;
	struct rtgenmsg *rt;
	unsigned seq = (unsigned)time(NULL), portid;
	int ret = MNL_CB_OK, err = 0;

	if (!nl)
		return -errno;
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));
	rt->rtgen_family = AF_UNSPEC;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		err = -errno;
		goto out;
	}
	if (source_recording())
		source_save(ADDR_FIXTURE, "", 0, false);
	while (ret > MNL_CB_STOP) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, size);

		if (n < 0) {
			err = errno == EAGAIN ? -ETIMEDOUT : -errno;
			break;
		}
		if (source_recording()) {
			uint32_t len = (uint32_t)n;

			source_save(ADDR_FIXTURE, &len, sizeof(len), true);
			source_save(ADDR_FIXTURE, buf, n, true);
		}
		ret = feed(buf, n, seq, portid);
		if (ret < 0)
			err = -(errno ? errno : EIO);
	}
out:
	mnl_socket_close(nl);
	return err;
}

int addr_load(void)
{
	size_t size = MNL_SOCKET_BUFFER_SIZE > 32768 ? MNL_SOCKET_BUFFER_SIZE : 32768;
	char *buf;

	if (cache.loaded)
		return cache.err;
	cache.loaded = true;
	buf = malloc(size);
	if (!buf)
		return cache.err = -ENOMEM;
	cache.err = source_replaying() ? load_replay(buf, size) : load_live(buf, size);
	free(buf);
	return cache.err;
}

void addr_forget(void)
{
	cache.loaded = false;
	cache.err = 0;
	cache.n = 0;
}

int addr_of_ifindex(unsigned ifindex, struct nd_addr *out, int max)
{
	int n = 0;

	if (addr_load())
		return 0;
	for (int i = 0; i < cache.n && n < max; i++)
		if (cache.a[i].ifindex == ifindex)
			out[n++] = cache.a[i];
	return n;
}

bool addr_same_subnet(const struct nd_addr *a, const struct nd_addr *b)
{
	unsigned plen = a->prefixlen < b->prefixlen ? a->prefixlen : b->prefixlen;
	unsigned max = a->family == AF_INET ? 32 : 128;

	if (a->family != b->family)
		return false;
	if (plen > max)
		plen = max;	/* never compare past the address */
	unsigned bytes = plen / 8, bits = plen % 8;

	if (memcmp(a->addr, b->addr, bytes))
		return false;
	if (bits) {
		uint8_t mask = (uint8_t)(0xff << (8 - bits));

		return (a->addr[bytes] & mask) == (b->addr[bytes] & mask);
	}
	return true;
}
