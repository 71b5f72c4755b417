// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-QP statistic counters over RDMA netlink, live or replayed; see stat_qp.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nl.h"
#include "stat_qp.h"

const char *stat_qp_mode_token(uint32_t mode)
{
	switch (mode) {
	case RDMA_COUNTER_MODE_NONE: return "none";
	case RDMA_COUNTER_MODE_AUTO: return "auto";
	case RDMA_COUNTER_MODE_MANUAL: return "manual";
	default: return "unknown";
	}
}

/* Every request names the port and the resource (QP) first, in this order,
 * so that a fixture's file name says exactly what was asked. */
static void req_port(struct nl_req *r, uint16_t cmd, bool dump, uint32_t dev_index, uint32_t port)
{
	nl_req_init(r, cmd, dump);
	nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	if (port)
		nl_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
}

/* ---- the counters dump ---- */

struct dump_walk {
	uint32_t port;
	stat_qp_cb cb;
	void *data;
	bool stop;
};

static int add_lqpn(struct stat_qp_counter *c, const struct nlattr *entry)
{
	nl_tb qtb;

	if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_RES_QP_ENTRY || nl_parse_nested(entry, qtb) ||
	    !qtb[RDMA_NLDEV_ATTR_RES_LQPN])
		return 0;
	if (c->nlqpn >= STAT_QP_MAX_LQPNS)
		return -E2BIG;
	/* Capacity 8, then doubled each time it is full (at 8, 16, 32, ...). */
	if (c->nlqpn == 0 || (c->nlqpn >= 8 && (c->nlqpn & (c->nlqpn - 1)) == 0)) {
		uint32_t *l = realloc(c->lqpn, (c->nlqpn ? c->nlqpn * 2 : 8) * sizeof(*l));

		if (!l)
			return -ENOMEM;
		c->lqpn = l;
	}
	c->lqpn[c->nlqpn++] = nl_u32(qtb, RDMA_NLDEV_ATTR_RES_LQPN, 0);
	return 0;
}

static int decode_counter(const nl_tb etb, struct stat_qp_counter *c)
{
	const struct nlattr *a;
	int err;

	c->port = nl_u32(etb, RDMA_NLDEV_ATTR_PORT_INDEX, 0);
	c->id = nl_u32(etb, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 0);
	c->mode = nl_u32(etb, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_NONE);
	c->has_type = etb[RDMA_NLDEV_ATTR_RES_TYPE] != NULL;
	c->qp_type = nl_u8(etb, RDMA_NLDEV_ATTR_RES_TYPE, 0);
	c->has_pid = etb[RDMA_NLDEV_ATTR_RES_PID] != NULL;
	c->pid = nl_u32(etb, RDMA_NLDEV_ATTR_RES_PID, 0);
	c->kern_name = nl_str(etb, RDMA_NLDEV_ATTR_RES_KERN_NAME);
	if (etb[RDMA_NLDEV_ATTR_RES_QP]) {
		mnl_attr_for_each_nested(a, etb[RDMA_NLDEV_ATTR_RES_QP]) {
			err = add_lqpn(c, a);
			if (err)
				return err;
		}
	}
	if (etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]) {
		err = stat_add_hwcounters(etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], &c->set);
		if (err < 0)
			return err;
	}
	return 0;
}

/* One STAT_COUNTER_ENTRY: decoded on the stack, handed over, freed. */
static int one_counter(const nl_tb tb, const struct nlattr *entry, struct dump_walk *w)
{
	struct stat_qp_counter c = { 0 };
	nl_tb etb;
	int err;

	if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY || nl_parse_nested(entry, etb) ||
	    !etb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		return 0;
	c.dev_index = nl_u32(tb, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	c.dev_name = nl_str(tb, RDMA_NLDEV_ATTR_DEV_NAME);
	if (!c.dev_name)
		c.dev_name = "?";
	err = decode_counter(etb, &c);
	if (!err && (!w->port || c.port == w->port) && w->cb(&c, w->data))
		w->stop = true;
	free(c.lqpn);
	stat_set_free(&c.set);
	return err;
}

static int dump_msg(const nl_tb tb, void *data)
{
	struct dump_walk *w = data;
	const struct nlattr *a;

	if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, tb[RDMA_NLDEV_ATTR_STAT_COUNTER]) {
		int err = one_counter(tb, a, w);

		if (err) {
			errno = -err;
			return MNL_CB_ERROR;
		}
		if (w->stop)
			return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

int stat_qp_counters(uint32_t dev_index, uint32_t port, stat_qp_cb cb, void *data)
{
	struct dump_walk w = { .port = port, .cb = cb, .data = data };
	struct nl_req r;

	req_port(&r, RDMA_NLDEV_CMD_STAT_GET, true, dev_index, port);
	return nl_run(&r, dump_msg, &w);
}

/* ---- mode ---- */

struct mode_reply {
	struct stat_qp_mode *m;
	bool seen;
};

static int mode_msg(const nl_tb tb, void *data)
{
	struct mode_reply *mr = data;

	if (!tb[RDMA_NLDEV_ATTR_STAT_MODE])
		return MNL_CB_OK;
	mr->m->mode = nl_u32(tb, RDMA_NLDEV_ATTR_STAT_MODE, 0);
	mr->m->mask = nl_u32(tb, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 0);
	mr->seen = true;
	return MNL_CB_OK;
}

int stat_qp_mode_get(uint32_t dev_index, uint32_t port, struct stat_qp_mode *m)
{
	struct mode_reply mr = { .m = m };
	struct nl_req r;
	int err;

	memset(m, 0, sizeof(*m));
	req_port(&r, RDMA_NLDEV_CMD_STAT_GET, false, dev_index, port);
	/* Any STAT_MODE asks for the mode instead of the counters. */
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	err = nl_run(&r, mode_msg, &mr);
	if (err)
		return err;
	return mr.seen ? 0 : -ENODATA;
}

static int ignore_msg(const nl_tb tb, void *data)
{
	(void)tb, (void)data;
	return MNL_CB_OK;
}

int stat_qp_mode_set(uint32_t dev_index, uint32_t port, uint32_t mask)
{
	struct nl_req r;

	req_port(&r, RDMA_NLDEV_CMD_STAT_SET, false, dev_index, port);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, mask);
	return nl_run(&r, ignore_msg, NULL);
}

/* ---- bind / unbind ---- */

static int bind_msg(const nl_tb tb, void *data)
{
	uint32_t *id = data;

	if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		*id = nl_u32(tb, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, *id);
	return MNL_CB_OK;
}

int stat_qp_bind(uint32_t dev_index, uint32_t port, uint32_t lqpn, bool has_id, uint32_t *id)
{
	struct nl_req r;

	req_port(&r, RDMA_NLDEV_CMD_STAT_SET, false, dev_index, port);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
	if (has_id)
		nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, *id);
	return nl_run(&r, bind_msg, id);
}

int stat_qp_unbind(uint32_t dev_index, uint32_t port, uint32_t id, uint32_t lqpn)
{
	struct nl_req r;

	req_port(&r, RDMA_NLDEV_CMD_STAT_DEL, false, dev_index, port);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_RES_LQPN, lqpn);
	return nl_run(&r, ignore_msg, NULL);
}
