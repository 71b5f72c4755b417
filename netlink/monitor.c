// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA netlink monitor events, live or replayed; see monitor.h. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "../host/source.h"
#include "../util/clock.h"

#include "monitor.h"

/* Events are small (under 100 bytes); a burst of them fits many times over. */
#define MON_BUF_SIZE (64 * 1024)

static struct {
	enum mon_mode mode;
	struct mnl_socket *sock;
	char *buf;
	uint32_t waits;		/* mon_wait() calls so far: the recorded chunk's key */
} mon;

static const char *const event_tokens[] = {
	[RD_MON_REGISTER] = "dev_added",
	[RD_MON_UNREGISTER] = "dev_removed",
	[RD_MON_NETDEV_ATTACH] = "netdev_attached",
	[RD_MON_NETDEV_DETACH] = "netdev_detached",
	[RD_MON_RENAME] = "dev_renamed",
	[RD_MON_NETDEV_RENAME] = "netdev_renamed",
};

const char *mon_event_token(uint8_t type)
{
	return type < sizeof(event_tokens) / sizeof(event_tokens[0]) ? event_tokens[type] : NULL;
}

/* ---- decoding ---- */

static bool decode_msg(const struct nlmsghdr *nlh, struct mon_event *ev)
{
	nl_tb tb;

	if (nl_parse_msg(nlh, tb) < 0 || !tb[RDMA_NLDEV_ATTR_EVENT_TYPE])
		return false;
	memset(ev, 0, sizeof(*ev));
	ev->type = nl_u8(tb, RDMA_NLDEV_ATTR_EVENT_TYPE, 0);
	ev->has_dev_index = tb[RDMA_NLDEV_ATTR_DEV_INDEX] != NULL;
	ev->dev_index = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	ev->has_port = tb[RDMA_NLDEV_ATTR_PORT_INDEX] != NULL;
	ev->port = nl_u32(tb, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	ev->has_ndev_index = tb[RDMA_NLDEV_ATTR_NDEV_INDEX] != NULL;
	ev->ndev_index = nl_u32(tb, RDMA_NLDEV_ATTR_NDEV_INDEX, 0);
	ev->dev_name = nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME);
	ev->ndev_name = nl_str(tb, RDMA_NLDEV_ATTR_NDEV_NAME);
	return true;
}

int mon_decode_chunk(const void *buf, size_t len, mon_event_cb cb, void *data)
{
	const struct nlmsghdr *nlh = buf;
	int remaining = (int)len;
	int n = 0;

	/* lengths are checked before libmnl walks them (see nl_chunk_ok) */
	if (len > MON_BUF_SIZE || !nl_chunk_ok(buf, len))
		return -1;
	for (; mnl_nlmsg_ok(nlh, remaining); nlh = mnl_nlmsg_next(nlh, &remaining)) {
		struct mon_event ev;

		if (nlh->nlmsg_type != NL_RDMA_TYPE(RDMA_NLDEV_CMD_MONITOR))
			continue;	/* not an event (NOOP, a stray ACK): nothing to say */
		if (!decode_msg(nlh, &ev))
			return -1;	/* an event we cannot read: something changed, unknown what */
		cb(&ev, data);
		n++;
	}
	return n;
}

/* ---- mode ---- */

static int sys_msg(const nl_tb tb, void *data)
{
	int *monitor_mode = data;

	*monitor_mode = nl_u8(tb, RDMA_NLDEV_SYS_ATTR_MONITOR_MODE, 0);
	return MNL_CB_OK;
}

/* A second socket, for the multicast group only. */
static int join_group(void)
{
	unsigned group = RDMA_NL_GROUP_NOTIFY;

	mon.sock = mnl_socket_open(NETLINK_RDMA);
	if (!mon.sock)
		return -errno;
	if (mnl_socket_bind(mon.sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(mon.sock, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0) {
		int e = errno;

		mnl_socket_close(mon.sock);
		mon.sock = NULL;
		return -e;
	}
	return 0;
}

enum mon_mode mon_open(char *why, size_t len)
{
	struct nl_req r;
	int monitor_mode = 0;
	int err;

	mon.mode = MON_POLL;
	mon.waits = 0;
	nl_req_init(&r, RDMA_NLDEV_CMD_SYS_GET, false);
	err = nl_run(&r, sys_msg, &monitor_mode);
	if (err == -ENOENT && source_replaying()) {
		snprintf(why, len, "the recording has no RDMA system attributes (made before monitor support)");
		return MON_POLL;
	}
	if (err) {
		snprintf(why, len, "cannot read the kernel's RDMA system attributes (%s)", strerror(-err));
		return MON_POLL;
	}
	if (!monitor_mode) {
		snprintf(why, len, "this kernel sends no RDMA monitor events (Linux 6.12 and later do)");
		return MON_POLL;
	}
	if (!mon.buf)
		mon.buf = malloc(MON_BUF_SIZE);
	if (!mon.buf) {
		snprintf(why, len, "out of memory");
		return MON_POLL;
	}
	err = source_replaying() ? 0 : join_group();
	if (err) {
		snprintf(why, len, "cannot join the RDMA netlink notify group (%s)", strerror(-err));
		return MON_POLL;
	}
	snprintf(why, len, "RDMA netlink monitor events (notify group %d)%s", RDMA_NL_GROUP_NOTIFY,
		 source_replaying() ? ", replayed" : "");
	mon.mode = MON_EVENTS;
	return MON_EVENTS;
}

void mon_close(void)
{
	if (mon.sock)
		mnl_socket_close(mon.sock);
	mon.sock = NULL;
	free(mon.buf);
	mon.buf = NULL;
	mon.mode = MON_POLL;
}

/* ---- waiting ---- */

void mon_sleep(double secs, volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };

	if (source_clock_replayed())
		return;
	while (!*stop && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void record_chunk(const void *buf, size_t len)
{
	uint32_t head[2] = { mon.waits, (uint32_t)len };

	source_save(MON_FIXTURE, head, sizeof(head), true);
	source_save(MON_FIXTURE, buf, len, true);
}

/* Receives what is queued now. Returns events, or -1 when some were lost. */
static int drain_socket(mon_event_cb cb, void *data)
{
	int n = 0;
	bool lost = false;

	for (;;) {
		ssize_t got = recv(mnl_socket_get_fd(mon.sock), mon.buf, MON_BUF_SIZE, MSG_DONTWAIT);

		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {	/* the kernel dropped events: we were too slow */
				lost = true;
				continue;
			}
			break;			/* EAGAIN: nothing more now */
		}
		if (source_recording())
			record_chunk(mon.buf, (size_t)got);
		int r = mon_decode_chunk(mon.buf, (size_t)got, cb, data);

		if (r < 0)
			lost = true;
		else
			n += r;
	}
	return lost ? -1 : n;
}

static int wait_live(double secs, mon_event_cb cb, void *data, volatile sig_atomic_t *stop)
{
	double deadline = mono_s() + secs;
	int n = 0;
	bool lost = false;

	while (!*stop) {
		double left = deadline - mono_s();
		struct pollfd p = { .fd = mnl_socket_get_fd(mon.sock), .events = POLLIN };

		if (left < 0)
			left = 0;
		int r = poll(&p, 1, (int)(left * 1000 + 0.5));

		if (r > 0) {
			int got = drain_socket(cb, data);

			if (got < 0)
				lost = true;
			else
				n += got;
		} else if (r < 0 && errno != EINTR) {
			lost = true;	/* cannot wait on the socket: poll the devices instead */
			mon_sleep(left, stop);
			break;
		}
		if (left <= 0)
			break;
	}
	return lost ? -1 : n;
}

/* The chunks recorded for wait number `waits`, through the same decoder. */
static int wait_replayed(mon_event_cb cb, void *data)
{
	FILE *fp = source_open(MON_FIXTURE);
	uint32_t head[2];
	int n = 0;
	bool lost = false;

	if (!fp)
		return 0;	/* recorded without events */
	while (fread(head, sizeof(head), 1, fp) == 1) {
		if (head[1] == 0 || head[1] > MON_BUF_SIZE || fread(mon.buf, 1, head[1], fp) != head[1]) {
			lost = true;	/* a damaged fixture: stop reading it */
			break;
		}
		if (head[0] != mon.waits)
			continue;
		int r = mon_decode_chunk(mon.buf, head[1], cb, data);

		if (r < 0)
			lost = true;
		else
			n += r;
	}
	fclose(fp);
	return lost ? -1 : n;
}

int mon_wait(double secs, mon_event_cb cb, void *data, volatile sig_atomic_t *stop)
{
	int n = 0;

	if (mon.mode != MON_EVENTS) {
		mon_sleep(secs, stop);
		return 0;
	}
	if (source_replaying()) {
		mon_sleep(secs, stop);
		n = wait_replayed(cb, data);
	} else if (mon.sock) {
		n = wait_live(secs, cb, data, stop);
	}
	mon.waits++;
	return n;
}
