// SPDX-License-Identifier: GPL-2.0-or-later
/* rdma_cm address and route resolution for `rdmadiag path`; see pathq.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <string.h>

#include "pathq.h"

/* ---- rdma_cm resolution ---- */

static int parse_ip(const char *text, struct sockaddr_storage *ss)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, text, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

static void addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a = sa->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr
						  : (const void *)&((const struct sockaddr_in *)sa)->sin_addr;

	if (!inet_ntop(sa->sa_family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

/* Waits for one CM event of the wanted kind on a non-blocking channel. */
static int cm_wait(struct rdma_event_channel *ch, enum rdma_cm_event_type want, int64_t deadline_ms,
		   int *status, char *got, size_t len)
{
	for (;;) {
		struct pollfd p = { .fd = ch->fd, .events = POLLIN };
		int64_t left = deadline_ms - pp_now_ms();
		struct rdma_cm_event *ev;
		enum rdma_cm_event_type type;

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			return -errno;
		if (rdma_get_cm_event(ch, &ev)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		type = ev->event;
		*status = ev->status;
		rdma_ack_cm_event(ev);
		snprintf(got, len, "%s", rdma_event_str(type));
		return type == want ? 0 : -EPROTO;
	}
}

static const char *addr_error_layer(int status)
{
	switch (-status) {
	case ENETUNREACH: return "no IP route to the peer";
	case EHOSTUNREACH: return "the peer's address did not resolve (no ARP/neighbour answer)";
	case ETIMEDOUT: return "the neighbour (ARP/ND) of the peer was not resolved in time";
	case ENODEV: return "no RDMA device owns the source address of the route";
	case EADDRNOTAVAIL: return "no RDMA device owns the source address of the route";
	default: return "address resolution failed";
	}
}

int pq_resolve(const char *peer, int64_t deadline_ms, struct pq_route *out, char *what, size_t len)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id = NULL;
	struct sockaddr_storage dst;
	char got[64];
	uint64_t t0;
	int status = 0, err;

	memset(out, 0, sizeof(*out));
	if (parse_ip(peer, &dst)) {
		snprintf(what, len, "'%s' is not an IP address", peer);
		return -EINVAL;
	}
	ch = rdma_create_event_channel();
	if (!ch) {
		err = -errno;
		snprintf(what, len, "cannot open the rdma_cm event channel (%s): is rdma_ucm loaded?", strerror(-err));
		return err;
	}
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		err = -errno;
		snprintf(what, len, "rdma_create_id: %s", strerror(-err));
		goto out;
	}
	t0 = pp_now_us();
	{
		int64_t left = deadline_ms - pp_now_ms();

		err = rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, (int)(left > 0 ? left : 1)) ? -errno : 0;
	}
	if (!err)
		err = cm_wait(ch, RDMA_CM_EVENT_ADDR_RESOLVED, deadline_ms, &status, got, sizeof(got));
	out->addr_ms = (pp_now_us() - t0) / 1000;
	if (err) {
		if (err == -ETIMEDOUT)
			snprintf(what, len, "address resolution of %s timed out (neighbour not resolved)", peer);
		else if (err == -EPROTO)
			snprintf(what, len, "address resolution of %s: %s (%s): %s", peer, got, strerror(-status),
				 addr_error_layer(status));
		else
			snprintf(what, len, "address resolution of %s: %s: %s", peer, strerror(-err),
				 addr_error_layer(err));
		goto out;
	}
	t0 = pp_now_us();
	err = rdma_resolve_route(id, 2000) ? -errno : 0;
	if (!err)
		err = cm_wait(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline_ms, &status, got, sizeof(got));
	out->route_ms = (pp_now_us() - t0) / 1000;
	if (err) {
		snprintf(what, len, "route resolution to %s: %s%s%s", peer,
			 err == -EPROTO ? got : pp_strerror(err), err == -EPROTO ? ": " : "",
			 err == -EPROTO ? strerror(-status) : "");
		goto out;
	}
	if (!id->verbs) {
		snprintf(what, len, "no RDMA device owns the source address of the route to %s", peer);
		err = -ENODEV;
		goto out;
	}
	snprintf(out->dev, sizeof(out->dev), "%s", ibv_get_device_name(id->verbs->device));
	out->port = id->port_num;
	addr_str(rdma_get_local_addr(id), out->src, sizeof(out->src));
	memcpy(out->sgid, &id->route.addr.addr.ibaddr.sgid, 16);
out:
	if (id)
		rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return err;
}

int pq_dev_for_addr(const struct sockaddr *sa, char *dev, size_t devlen, unsigned *port, char *what, size_t len)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_cm_id *id = NULL;
	struct sockaddr_storage ss;
	char ip[64];
	int err = 0;

	addr_str(sa, ip, sizeof(ip));
	if (!ch) {
		snprintf(what, len, "cannot open the rdma_cm event channel: %s", strerror(errno));
		return -errno;
	}
	memcpy(&ss, sa, sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	((struct sockaddr_in *)&ss)->sin_port = 0;
	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP) || rdma_bind_addr(id, (struct sockaddr *)&ss)) {
		err = -errno;
		snprintf(what, len, "cannot bind rdma_cm to %s: %s", ip, strerror(-err));
	} else if (!id->verbs) {
		err = -ENODEV;
		snprintf(what, len, "no RDMA device has the address %s", ip);
	} else {
		snprintf(dev, devlen, "%s", ibv_get_device_name(id->verbs->device));
		*port = id->port_num;
	}
	if (id)
		rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	return err;
}
