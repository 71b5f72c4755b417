// SPDX-License-Identifier: GPL-2.0-or-later
/* Verbs and rdma_cm for `rdmadiag path`; see pathq.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../netlink/netdev.h"
#include "../netlink/sysfs.h"
#include "pathq.h"
#include "verbs.h"

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
	int64_t t0;
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
	t0 = pp_now_ms();
	{
		int64_t left = deadline_ms - t0;

		err = rdma_resolve_addr(id, NULL, (struct sockaddr *)&dst, (int)(left > 0 ? left : 1)) ? -errno : 0;
	}
	if (!err)
		err = cm_wait(ch, RDMA_CM_EVENT_ADDR_RESOLVED, deadline_ms, &status, got, sizeof(got));
	out->addr_ms = pp_now_ms() - t0;
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
	t0 = pp_now_ms();
	err = rdma_resolve_route(id, 2000) ? -errno : 0;
	if (!err)
		err = cm_wait(ch, RDMA_CM_EVENT_ROUTE_RESOLVED, deadline_ms, &status, got, sizeof(got));
	out->route_ms = pp_now_ms() - t0;
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

/* ---- local configuration ---- */

const char *pq_gid_type_str(unsigned t)
{
	return t == PP_GID_ROCE_V2 ? "RoCE v2" : t == PP_GID_ROCE_V1 ? "RoCE v1" : "IB";
}

void pq_gid_str(const uint8_t gid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static struct ibv_context *open_by_name(const char *dev)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	if (!list)
		return NULL;
	for (int i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	if (!ctx && !errno)
		errno = ENODEV;
	ibv_free_device_list(list);
	return ctx;
}

static unsigned gid_type_of(uint32_t t)
{
	return t == IBV_GID_TYPE_ROCE_V2 ? PP_GID_ROCE_V2 : t == IBV_GID_TYPE_ROCE_V1 ? PP_GID_ROCE_V1 : PP_GID_IB;
}

static bool gid_is_v4(const uint8_t *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(g, pfx, 12);
}

/* The RoCE v2 GID for src_ip, or the first v2 IPv4 one, or -1. */
static int choose_gid(struct ibv_context *ctx, unsigned port, unsigned tbl_len, const char *src_ip)
{
	uint8_t want[16] = { 0 };
	int first_v4 = -1;
	bool have_ip = false;

	if (src_ip && *src_ip) {
		struct in_addr a4;

		if (inet_pton(AF_INET, src_ip, &a4) == 1) {
			want[10] = want[11] = 0xff;
			memcpy(want + 12, &a4, 4);
			have_ip = true;
		} else if (inet_pton(AF_INET6, src_ip, want) == 1) {
			have_ip = true;
		}
	}
	for (unsigned i = 0; i < tbl_len; i++) {
		struct ibv_gid_entry e;

		if (ibv_query_gid_ex(ctx, port, i, &e, 0) || e.gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		if (have_ip && !memcmp(e.gid.raw, want, 16))
			return (int)i;
		if (first_v4 < 0 && gid_is_v4(e.gid.raw))
			first_v4 = (int)i;
	}
	return have_ip ? -1 : first_v4;
}

static int fill_gid(struct ibv_context *ctx, const char *dev, unsigned port, unsigned tbl_len, int gid_index,
		    const char *src_ip, struct pp_config *out, char *what, size_t len)
{
	struct ibv_gid_entry e;
	int idx = gid_index;

	if (idx < 0 && out->link_layer == IBV_LINK_LAYER_ETHERNET) {
		idx = choose_gid(ctx, port, tbl_len, src_ip);
		if (idx < 0) {
			snprintf(what, len, "%s/%u has no RoCE v2 GID for %s", dev, port,
				 src_ip && *src_ip ? src_ip : "an IPv4 address");
			return -ENOENT;
		}
	}
	if (idx < 0)
		idx = 0;
	if ((unsigned)idx >= tbl_len || ibv_query_gid_ex(ctx, port, (uint32_t)idx, &e, 0)) {
		snprintf(what, len, "GID index %d does not exist on %s/%u (table has %u entries; list them with: "
			 "rdma dev show; ibv_devinfo -v)", idx, dev, port, tbl_len);
		return -ENOENT;
	}
	out->gid_index = (uint32_t)idx;
	out->gid_type = gid_type_of(e.gid_type);
	memcpy(out->gid, e.gid.raw, 16);
	if (e.ndev_ifindex) {
		char name[IF_NAMESIZE] = "";
		struct netdev_info nd;

		if (if_indextoname(e.ndev_ifindex, name) && !netdev_read(name, &nd)) {
			snprintf(out->netdev, sizeof(out->netdev), "%s", name);
			out->netdev_mtu = nd.found ? nd.mtu : 0;
		}
	}
	return 0;
}

int pq_local_config(const char *dev, unsigned port, int gid_index, const char *src_ip, struct pp_config *out,
		    char *what, size_t len)
{
	struct ibv_context *ctx;
	struct ibv_port_attr pa;
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->dev, sizeof(out->dev), "%s", dev);
	snprintf(out->addr, sizeof(out->addr), "%s", src_ip ? src_ip : "");
	out->port = port;
	ctx = open_by_name(dev);
	if (!ctx) {
		snprintf(what, len, "cannot open RDMA device %s: %s", dev, strerror(errno));
		return -ENODEV;
	}
	if (ibv_query_port(ctx, (uint8_t)port, &pa)) {
		err = -errno;
		snprintf(what, len, "cannot query %s/%u: %s", dev, port, strerror(-err));
		goto out;
	}
	out->link_layer = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? 2 : 1;
	out->active_mtu = vb_mtu_bytes(pa.active_mtu);
	out->max_mtu = vb_mtu_bytes(pa.max_mtu);
	out->lid = pa.lid;
	out->rate_mbps = (uint32_t)(vb_width_lanes(pa.active_width) * vb_speed_lane_gbps(pa.active_speed) * 1000);
	if (pa.state != IBV_PORT_ACTIVE) {
		snprintf(what, len, "%s/%u is not ACTIVE (state %s)", dev, port, ibv_port_state_str(pa.state));
		err = -ENETDOWN;
		goto out;
	}
	err = fill_gid(ctx, dev, port, pa.gid_tbl_len, gid_index, src_ip, out, what, len);
out:
	ibv_close_device(ctx);
	return err;
}

/* ---- session resources ---- */

int pq_open(struct pq *q, const struct pp_config *local, size_t region, char *what, size_t len)
{
	struct ibv_device_attr da;
	size_t buf_len = 2 * region;

	q->local = *local;
	q->region = region;
	q->ctx = open_by_name(local->dev);
	if (!q->ctx) {
		snprintf(what, len, "cannot open RDMA device %s: %s", local->dev, strerror(errno));
		return -ENODEV;
	}
	if (ibv_query_device(q->ctx, &da))
		memset(&da, 0, sizeof(da));
	q->rd_atom = da.max_qp_rd_atom ? (unsigned)da.max_qp_rd_atom : 1;
	if (q->rd_atom > 16)
		q->rd_atom = 16;
	q->pd = ibv_alloc_pd(q->ctx);
	if (!q->pd) {
		snprintf(what, len, "ibv_alloc_pd on %s: %s", local->dev, strerror(errno));
		return -errno;
	}
	/* mmap gives zeroed pages: the peer never sees anything of ours. */
	q->buf = mmap(NULL, buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->buf == MAP_FAILED) {
		q->buf = NULL;
		snprintf(what, len, "cannot allocate the %zu-byte session buffer", buf_len);
		return -ENOMEM;
	}
	/* Two registrations: the peer's rkey covers the advertised half only, so
	 * an access past buf_len fails with a remote access error at the HCA. */
	q->mr = ibv_reg_mr(q->pd, q->buf, region,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (q->mr)
		q->lmr = ibv_reg_mr(q->pd, q->buf + region, region, IBV_ACCESS_LOCAL_WRITE);
	if (!q->mr || !q->lmr) {
		snprintf(what, len, "ibv_reg_mr of %zu bytes on %s: %s (locked memory limit? ulimit -l)", buf_len,
			 local->dev, strerror(errno));
		return -errno;
	}
	if (q->mode == PQ_EVENT || q->mode == PQ_HYBRID) {
		q->ch = ibv_create_comp_channel(q->ctx);
		if (!q->ch) {
			snprintf(what, len, "ibv_create_comp_channel: %s", strerror(errno));
			return -errno;
		}
		fcntl(q->ch->fd, F_SETFL, fcntl(q->ch->fd, F_GETFL) | O_NONBLOCK);
	}
	q->cq = ibv_create_cq(q->ctx, PQ_CQ_DEPTH, NULL, q->ch, 0);
	if (!q->cq) {
		snprintf(what, len, "ibv_create_cq on %s: %s", local->dev, strerror(errno));
		return -errno;
	}
	{
		struct ibv_qp_init_attr rc = {
			.send_cq = q->cq, .recv_cq = q->cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = PQ_SQ_DEPTH, .max_recv_wr = PQ_RQ_DEPTH, .max_send_sge = 1,
				 .max_recv_sge = 1, .max_inline_data = 64 },
		};
		struct ibv_qp_init_attr ud = rc;

		q->rc = ibv_create_qp(q->pd, &rc);
		if (!q->rc) {	/* some devices have no inline data */
			rc.cap.max_inline_data = 0;
			q->rc = ibv_create_qp(q->pd, &rc);
		}
		if (!q->rc) {
			snprintf(what, len, "ibv_create_qp (RC) on %s: %s", local->dev, strerror(errno));
			return -errno;
		}
		q->max_inline = rc.cap.max_inline_data;
		ud.qp_type = IBV_QPT_UD;
		ud.cap.max_inline_data = 0;
		q->ud = ibv_create_qp(q->pd, &ud);
		if (!q->ud) {
			snprintf(what, len, "ibv_create_qp (UD) on %s: %s", local->dev, strerror(errno));
			return -errno;
		}
	}
	q->psn = (uint32_t)(pp_now_us() * 2654435761u) & 0xffffff;
	return 0;
}

void pq_close(struct pq *q)
{
	if (q->ah)
		ibv_destroy_ah(q->ah);
	if (q->ud)
		ibv_destroy_qp(q->ud);
	if (q->rc)
		ibv_destroy_qp(q->rc);
	if (q->cq)
		ibv_destroy_cq(q->cq);
	if (q->ch)
		ibv_destroy_comp_channel(q->ch);
	if (q->lmr)
		ibv_dereg_mr(q->lmr);
	if (q->mr)
		ibv_dereg_mr(q->mr);
	if (q->buf)
		munmap(q->buf, 2 * q->region);
	if (q->pd)
		ibv_dealloc_pd(q->pd);
	if (q->ctx)
		ibv_close_device(q->ctx);
	q->ah = NULL;
	q->ud = q->rc = NULL;
	q->cq = NULL;
	q->ch = NULL;
	q->mr = q->lmr = NULL;
	q->buf = NULL;
	q->pd = NULL;
	q->ctx = NULL;
}

void pq_local_qp(const struct pq *q, struct pp_qp *out)
{
	memset(out, 0, sizeof(*out));
	out->rc_qpn = q->rc->qp_num;
	out->rc_psn = q->psn;
	out->ud_qpn = q->ud->qp_num;
	out->qkey = PQ_QKEY;
	out->rkey = q->mr->rkey;
	out->addr = (uintptr_t)q->buf;
	out->buf_len = (uint32_t)q->region;
	out->t_init_us = (uint32_t)q->t_init_us;
	out->t_rtr_us = (uint32_t)q->t_rtr_us;
	out->t_rts_us = (uint32_t)q->t_rts_us;
}

static enum ibv_mtu mtu_enum(unsigned bytes)
{
	return bytes >= 4096 ? IBV_MTU_4096 : bytes >= 2048 ? IBV_MTU_2048 : bytes >= 1024 ? IBV_MTU_1024
		: bytes >= 512 ? IBV_MTU_512 : IBV_MTU_256;
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask, uint64_t *t_us)
{
	uint64_t t0 = pp_now_us();
	int err = ibv_modify_qp(qp, a, mask);

	if (t_us)
		*t_us = pp_now_us() - t0;
	return err;
}

int pq_rc_init(struct pq *q, char *what, size_t len)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = (uint8_t)q->local.port, .pkey_index = 0,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	int err = modify(q->rc, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
			 &q->t_init_us);

	if (err)
		snprintf(what, len, "RC QP RESET->INIT failed: %s (attributes: port %u, pkey index 0)", strerror(err),
			 q->local.port);
	return -err;
}

static void fill_ah(const struct pq *q, const struct pp_config *peer, struct ibv_ah_attr *ah)
{
	memset(ah, 0, sizeof(*ah));
	ah->port_num = (uint8_t)q->local.port;
	ah->dlid = (uint16_t)peer->lid;
	if (q->local.link_layer == 2 || peer->gid_type != PP_GID_IB) {
		ah->is_global = 1;
		memcpy(ah->grh.dgid.raw, peer->gid, 16);
		ah->grh.sgid_index = (uint8_t)q->local.gid_index;
		ah->grh.hop_limit = 64;
	}
}

int pq_rc_connect(struct pq *q, const struct pp_config *peer, const struct pp_qp *pqp, char *what, size_t len)
{
	unsigned mtu = q->local.active_mtu < peer->active_mtu ? q->local.active_mtu : peer->active_mtu;
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR, .path_mtu = mtu_enum(mtu), .dest_qp_num = pqp->rc_qpn,
		.rq_psn = pqp->rc_psn, .max_dest_rd_atomic = (uint8_t)q->rd_atom, .min_rnr_timer = 12,
	};
	char gid[64];
	int err;

	fill_ah(q, peer, &a.ah_attr);
	err = modify(q->rc, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, &q->t_rtr_us);
	if (err) {
		pq_gid_str(peer->gid, gid, sizeof(gid));
		snprintf(what, len, "RC QP INIT->RTR failed: %s (attributes: path MTU %u, remote QPN 0x%x, source "
			 "GID index %u, remote GID %s%s); likely cause: the GID index (wrong type or no address), "
			 "an MTU above the port's, or a missing GRH", strerror(err), mtu, pqp->rc_qpn,
			 q->local.gid_index, gid, a.ah_attr.is_global ? "" : ", no GRH");
		return -err;
	}
	q->path_mtu = mtu;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = PQ_RC_TIMEOUT;
	a.retry_cnt = PQ_RC_RETRY;
	a.rnr_retry = 7;
	a.sq_psn = q->psn;
	a.max_rd_atomic = (uint8_t)q->rd_atom;
	err = modify(q->rc, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				 IBV_QP_MAX_QP_RD_ATOMIC, &q->t_rts_us);
	if (err)
		snprintf(what, len, "RC QP RTR->RTS failed: %s (attributes: timeout %u, retry %u, rnr retry 7, "
			 "max_rd_atomic %u)", strerror(err), PQ_RC_TIMEOUT, PQ_RC_RETRY, q->rd_atom);
	return -err;
}

int pq_ud_connect(struct pq *q, const struct pp_config *peer, char *what, size_t len)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = (uint8_t)q->local.port, .qkey = PQ_QKEY };
	struct ibv_ah_attr ah;
	char gid[64];

	if (ibv_modify_qp(q->ud, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY)) {
		snprintf(what, len, "UD QP RESET->INIT failed: %s", strerror(errno));
		return -errno;
	}
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(q->ud, &a, IBV_QP_STATE)) {
		snprintf(what, len, "UD QP INIT->RTR failed: %s", strerror(errno));
		return -errno;
	}
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = q->psn;
	if (ibv_modify_qp(q->ud, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) {
		snprintf(what, len, "UD QP RTR->RTS failed: %s", strerror(errno));
		return -errno;
	}
	fill_ah(q, peer, &ah);
	q->ah = ibv_create_ah(q->pd, &ah);
	if (!q->ah) {
		int err = errno;

		pq_gid_str(peer->gid, gid, sizeof(gid));
		snprintf(what, len, "cannot create an address handle to GID %s (source GID index %u): %s%s", gid,
			 q->local.gid_index, strerror(err),
			 err == EINVAL ? "; the GID index has no usable address, or the GID types differ" :
			 err == ENETUNREACH || err == EHOSTUNREACH ? "; no route or neighbour for the peer's GID" : "");
		return -err;
	}
	return 0;
}

/* ---- posting ---- */

int pq_post_recv(struct pq *q, bool ud, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf, .length = (uint32_t)q->region, .lkey = q->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(ud ? q->ud : q->rc, &wr, &bad);
}

int pq_post_rc(struct pq *q, int opcode, size_t len, uint64_t raddr, uint32_t rkey, bool signaled, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf + q->region, .length = (uint32_t)len, .lkey = q->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = opcode }, *bad;

	if (signaled)
		wr.send_flags |= IBV_SEND_SIGNALED;
	if (opcode != IBV_WR_RDMA_READ && len <= q->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	wr.wr.rdma.remote_addr = raddr;
	wr.wr.rdma.rkey = rkey;
	return ibv_post_send(q->rc, &wr, &bad);
}

int pq_post_ud(struct pq *q, size_t len, uint32_t remote_qpn, uint64_t wr_id)
{
	struct ibv_sge sge = { .addr = (uintptr_t)q->buf + q->region, .length = (uint32_t)len, .lkey = q->lmr->lkey };
	struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	wr.wr.ud.ah = q->ah;
	wr.wr.ud.remote_qpn = remote_qpn;
	wr.wr.ud.remote_qkey = PQ_QKEY;
	return ibv_post_send(q->ud, &wr, &bad);
}

/* ---- waiting ---- */

static int ctrl_ready(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return fd >= 0 && poll(&p, 1, 0) > 0;
}

_Static_assert(PQ_LINK_GRACE_MS > PQ_RC_RETRY_BUDGET_MS, "the grace must outlast the QP's own retries");

/* A wait for a receive never ends in an error completion: when the link goes
 * down after our send was acknowledged but before the peer's answer came, the
 * RC QP has nothing to retry and stays in RTS (4 runs in 25 of the lab's
 * local-link-down test). A port down past the QP's whole retry budget will not
 * bring an error completion any more: stop waiting. The port is queried at
 * most every 250 ms, as waits are short and many. */
static bool link_gave_up(struct pq *q, int64_t now_ms)
{
	char state[16];

	if (q->link_grace_ms <= 0 || now_ms - q->link_checked_ms < 250)
		return false;
	q->link_checked_ms = now_ms;
	if (pq_port_active(q, state, sizeof(state))) {	/* a port it cannot query counts as up */
		q->link_down_since_ms = 0;
		return false;
	}
	if (!q->link_down_since_ms)
		q->link_down_since_ms = now_ms;
	return now_ms - q->link_down_since_ms >= q->link_grace_ms;
}

/* First call arms the CQ and asks the caller to poll once more (a completion
 * that arrived before arming raises no event); the next one sleeps. */
static int wait_event(struct pq *q, int ctrl_fd, int64_t deadline_ms)
{
	struct pollfd p[2] = { { .fd = q->ch->fd, .events = POLLIN }, { .fd = ctrl_fd, .events = POLLIN } };
	struct ibv_cq *cq;
	void *ctx;
	int64_t now, left;

	if (!q->armed) {
		if (ibv_req_notify_cq(q->cq, 0))
			return -errno;
		q->armed = true;
		return 1;
	}
	now = pp_now_ms();
	left = deadline_ms - now;
	if (left <= 0)
		return -ETIMEDOUT;
	if (link_gave_up(q, now))
		return -ENETDOWN;
	if (poll(p, ctrl_fd >= 0 ? 2 : 1, (int)(left > 200 ? 200 : left)) < 0 && errno != EINTR)
		return -errno;
	if (p[0].revents & POLLIN) {
		if (ibv_get_cq_event(q->ch, &cq, &ctx) == 0) {
			ibv_ack_cq_events(cq, 1);
			q->armed = false;
		}
		return 1;
	}
	if (ctrl_fd >= 0 && p[1].revents)
		return 2;
	return 1;	/* time to re-check the deadline and poll again */
}

int pq_wait(struct pq *q, int ctrl_fd, int64_t deadline_ms)
{
	int64_t now;

	if (q->stop && *q->stop)
		return -EINTR;
	if (q->mode == PQ_EVENT)
		return wait_event(q, ctrl_fd, deadline_ms);
	if (q->mode == PQ_HYBRID) {
		uint64_t now = pp_now_us();

		if (!q->idle_since_us)
			q->idle_since_us = now;
		if (now - q->idle_since_us >= PQ_SPIN_US)
			return wait_event(q, ctrl_fd, deadline_ms);
	}
	if (q->mode == PQ_YIELD)
		sched_yield();
	if (++q->spins % 1024)
		return 1;
	now = pp_now_ms();
	if (now >= deadline_ms)
		return -ETIMEDOUT;
	if (link_gave_up(q, now))
		return -ENETDOWN;
	return ctrl_ready(ctrl_fd) ? 2 : 1;
}

int pq_poll(struct pq *q, struct ibv_wc *wc, int max, int64_t deadline_ms)
{
	for (;;) {
		int n = ibv_poll_cq(q->cq, max, wc), w;

		if (n != 0) {
			pq_progress(q);
			return n < 0 ? -EIO : n;
		}
		w = pq_wait(q, -1, deadline_ms);
		if (w < 0)
			return w;
	}
}

const char *pq_rc_state_str(struct pq *q)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (!q->rc || ibv_query_qp(q->rc, &a, IBV_QP_STATE, &ia))
		return "unknown";
	return (unsigned)a.qp_state < sizeof(names) / sizeof(names[0]) ? names[a.qp_state] : "unknown";
}

bool pq_port_active(struct pq *q, char *state, size_t len)
{
	struct ibv_port_attr pa;

	if (!q->ctx || ibv_query_port(q->ctx, (uint8_t)q->local.port, &pa)) {
		snprintf(state, len, "unknown");
		return true;	/* cannot tell: do not blame the link */
	}
	/* as rdma link show says it */
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };

	snprintf(state, len, "%s", (unsigned)pa.state < sizeof(names) / sizeof(names[0]) ? names[pa.state] : "unknown");
	return pa.state == IBV_PORT_ACTIVE;
}

const char *pq_wc_status_str(int status)
{
	return ibv_wc_status_str((enum ibv_wc_status)status);
}

const char *pq_wc_meaning(int status)
{
	switch (status) {
	case IBV_WC_RETRY_EXC_ERR:
		return "the peer did not acknowledge: packets are lost on the way (firewall on UDP 4791, link down, "
		       "wrong GID/route) or the peer's QP is gone";
	case IBV_WC_RNR_RETRY_EXC_ERR: return "the receiver posted no receive buffers in time";
	case IBV_WC_REM_ACCESS_ERR: return "the peer refused the access: wrong rkey or outside its registered memory";
	case IBV_WC_REM_INV_REQ_ERR: return "the peer found the request invalid (message larger than its buffer?)";
	case IBV_WC_WR_FLUSH_ERR: return "the QP was already in the error state because of an earlier failure";
	case IBV_WC_LOC_LEN_ERR: return "a message was larger than the posted receive buffer";
	case IBV_WC_LOC_PROT_ERR: return "a local buffer was outside its memory registration";
	case IBV_WC_REM_OP_ERR: return "the peer could not complete the operation";
	default: return "see ibv_poll_cq(3)";
	}
}

/* ---- counters ---- */

struct counters_walk {
	const char *dir;
	struct pq_counters *c;
};

static int read_counter(const char *name, void *data)
{
	struct counters_walk *w = data;
	char path[512];
	uint64_t v;

	if (w->c->n >= PQ_MAX_COUNTERS)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	if (fs_read_u64(path, &v))
		return 0;
	snprintf(w->c->name[w->c->n], sizeof(w->c->name[0]), "%s", name);
	w->c->val[w->c->n++] = v;
	return 0;
}

int pq_counters_read(const char *dev, unsigned port, struct pq_counters *out)
{
	char dir[256];
	struct counters_walk w = { dir, out };
	int n;

	out->n = 0;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/hw_counters", dev, port);
	n = fs_list(dir, read_counter, &w);
	if (n < 0)
		return n;
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/counters", dev, port);
	fs_list(dir, read_counter, &w);	/* IB standard counters, when the driver has them */
	return 0;
}

unsigned pq_counters_delta(const struct pq_counters *a, const struct pq_counters *b, struct pp_counter *out,
			   unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < b->n && n < max; i++)
		for (unsigned j = 0; j < a->n; j++)
			if (!strcmp(a->name[j], b->name[i]) && b->val[i] > a->val[j] && pq_counter_meaning(b->name[i])) {
				snprintf(out[n].name, sizeof(out[n].name), "%s", b->name[i]);
				out[n++].delta = b->val[i] - a->val[j];
				break;
			}
	return n;
}

const char *pq_counter_meaning(const char *name)
{
	static const struct { const char *pat, *meaning; } m[] = {
		{ "rnr", "receiver not ready: a receiver had no buffer posted" },
		{ "retry", "retransmissions: packets or acknowledgements were lost" },
		{ "seq", "out-of-sequence packets: loss or reordering on the path" },
		{ "duplicate", "duplicate requests: the sender retransmitted, acks were lost or late" },
		{ "timeout", "transport timeouts: packets lost" },
		{ "implied_nak", "implied NAKs: lost packets" },
		{ "discard", "discarded packets" },
		{ "error", "errors" },
		{ "_err", "errors" },
		{ "cnp", "congestion notification packets: ECN marks on the path" },
		{ "ecn", "ECN marked packets: congestion on the path" },
		{ "link_downed", "the link went down" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strstr(name, m[i].pat))
			return m[i].meaning;
	return NULL;
}
