// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA netlink monitor events through the real decoder (netlink/monitor.c):
 * messages built with libmnl in the kernel's layout (nldev.c), good and
 * hostile. Decoding must never read past the chunk it was given.
 */
#include <stdlib.h>
#include <string.h>

#include "../../netlink/monitor.h"
#include "tap.h"

static char buf[4096];
static size_t used;

struct seen {
	int n;
	struct mon_event last;
	char dev_name[64], ndev_name[64];
};

static void collect(const struct mon_event *ev, void *data)
{
	struct seen *s = data;

	s->n++;
	s->last = *ev;
	snprintf(s->dev_name, sizeof(s->dev_name), "%s", ev->dev_name ? ev->dev_name : "(none)");
	snprintf(s->ndev_name, sizeof(s->ndev_name), "%s", ev->ndev_name ? ev->ndev_name : "(none)");
}

static struct nlmsghdr *event_begin(uint16_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf + used);

	nlh->nlmsg_type = NL_RDMA_TYPE(cmd);
	return nlh;
}

static void event_end(struct nlmsghdr *nlh)
{
	used += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* register, unregister, rename: fill_nldev_handle() then the type */
static void dev_event(uint8_t type, uint32_t index, const char *name)
{
	struct nlmsghdr *nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, name);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_EVENT_TYPE, type);
	event_end(nlh);
}

static int decode(struct seen *s)
{
	memset(s, 0, sizeof(*s));
	int n = mon_decode_chunk(buf, used, collect, s);

	used = 0;
	return n;
}

static void good_events(void)
{
	struct seen s;
	struct nlmsghdr *nlh;

	dev_event(RD_MON_REGISTER, 3, "rxe1");
	ok(decode(&s) == 1 && s.last.type == RD_MON_REGISTER && s.last.has_dev_index && s.last.dev_index == 3,
	   "a register event gives its type and device index");
	is_str(s.dev_name, "rxe1", "and the device name");
	ok(!s.last.has_port && !s.last.has_ndev_index && !strcmp(s.ndev_name, "(none)"), "and nothing else");

	nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe1");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, 7);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, "rxenet1");
	mnl_attr_put(nlh, 4000, 3, "new");	/* an attribute of a newer kernel */
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_EVENT_TYPE, RD_MON_NETDEV_ATTACH);
	event_end(nlh);
	ok(decode(&s) == 1 && s.last.has_port && s.last.port == 1 && s.last.has_ndev_index && s.last.ndev_index == 7,
	   "a netdev attach event gives port and netdev index, past an unknown attribute");
	is_str(s.ndev_name, "rxenet1", "and the netdev name");

	dev_event(RD_MON_NETDEV_DETACH, 3, "rxe1");
	dev_event(RD_MON_UNREGISTER, 3, "rxe1");
	ok(decode(&s) == 2 && s.last.type == RD_MON_UNREGISTER, "two events in one chunk: both, in order");

	nlh = event_begin(RDMA_NLDEV_CMD_GET);	/* not an event */
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	event_end(nlh);
	ok(decode(&s) == 0 && s.n == 0, "a message of another type is skipped");

	dev_event(77, 3, "rxe1");
	ok(decode(&s) == 1 && s.last.type == 77, "an unknown event type is handed on (the caller re-reads the list)");
	ok(mon_event_token(77) == NULL, "and has no token");
	is_str(mon_event_token(RD_MON_RENAME), "dev_renamed", "rename has its stable token");
	is_str(mon_event_token(RD_MON_NETDEV_RENAME), "netdev_renamed", "netdev rename too");
}

static void hostile_events(void)
{
	struct seen s;
	struct nlmsghdr *nlh;

	nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
	event_end(nlh);
	ok(decode(&s) == -1 && s.n == 0, "an event without a type: lost, nothing invented");

	nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_EVENT_TYPE, RD_MON_REGISTER);	/* u32 where u8 is due */
	event_end(nlh);
	ok(decode(&s) == -1 && s.n == 0, "an event type of the wrong size is dropped by the policy: lost");

	dev_event(RD_MON_REGISTER, 3, "rxe1");
	dev_event(RD_MON_REGISTER, 4, "rxe2");
	used -= 8;		/* the second message is cut */
	ok(decode(&s) == -1 && s.n == 0, "a chunk whose last message runs past it: refused before any is read");

	struct nlattr *name;

	nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_EVENT_TYPE, RD_MON_REGISTER);
	name = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe1");
	name->nla_len = 200;	/* the name claims 200 bytes */
	event_end(nlh);
	ok(decode(&s) == 1 && !strcmp(s.dev_name, "(none)"), "a last attribute running past its message is skipped");

	nlh = event_begin(RDMA_NLDEV_CMD_MONITOR);
	name = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "rxe1");
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_EVENT_TYPE, RD_MON_REGISTER);
	name->nla_len = 200;	/* and hides the type behind it */
	event_end(nlh);
	ok(decode(&s) == -1 && s.n == 0, "one that hides the event type: lost, nothing invented");

	memcpy(buf, "\x10\0\0\0", 4);
	used = 3;
	ok(decode(&s) == 0, "a chunk shorter than a header: nothing");
}

int main(void)
{
	good_events();
	hostile_events();
	return tap_done();
}
