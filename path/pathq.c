// SPDX-License-Identifier: GPL-2.0-or-later
/* The local configuration of a port and one session's verbs resources for
 * `rdmadiag path`: PD, CQ, buffer, QPs and their timed transitions; see pathq.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "../host/netdev.h"
#include "../verbs/verbs.h"
#include "pathq.h"

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
	a.retry_cnt = (uint8_t)(q->retry_cnt ? q->retry_cnt : PQ_RC_RETRY);
	a.rnr_retry = 7;
	a.sq_psn = q->psn;
	a.max_rd_atomic = (uint8_t)q->rd_atom;
	err = modify(q->rc, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
				 IBV_QP_MAX_QP_RD_ATOMIC, &q->t_rts_us);
	if (err)
		snprintf(what, len, "RC QP RTR->RTS failed: %s (attributes: timeout %u, retry %u, rnr retry 7, "
			 "max_rd_atomic %u)", strerror(err), PQ_RC_TIMEOUT, a.retry_cnt, q->rd_atom);
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
