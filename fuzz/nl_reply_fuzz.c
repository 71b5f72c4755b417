// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: kernel netlink replies, through the path every command uses.
 *
 * Input: one selector byte, then a reply in the recorder's format
 * ([u32 length][chunk]..., host/source.h), i.e. a sequence of netlink
 * messages as recvfrom() returned them. The selector picks which request is
 * "sent"; the bytes are replayed as its answer through nl.c (mnl_cb_run2,
 * policy validation of nl_policy.c) into the decoder the live code uses
 * (rdma.c devices/ports/chardev, res.c dumps and GET-by-id, stat.c counters,
 * addr.c rtnetlink addresses). The callbacks read every decoded value.
 */
#include <stdio.h>
#include <string.h>

#include "../host/source.h"
#include "../netlink/addr.h"
#include "../netlink/rdma.h"
#include "../netlink/res.h"
#include "../netlink/stat.h"
#include "fuzz_common.h"

static int dev_cb(const struct rd_dev *d, void *data)
{
	(void)data;
	fuzz_sink_u64(d->index + d->node_guid + d->sys_image_guid + d->cap_flags + d->nports);
	fuzz_sink_str(d->name);
	fuzz_sink_str(d->fw);
	fuzz_sink_str(rd_node_type_token(d->node_type));
	return 0;
}

static int port_cb(const struct rd_port *p, void *data)
{
	(void)data;
	fuzz_sink_str(p->dev_name);
	fuzz_sink_str(p->ndev_name);
	fuzz_sink_str(rd_port_state_token(p->state));
	fuzz_sink_str(rd_port_state_name(p->state));
	fuzz_sink_str(rd_phys_state_token(p->phys_state));
	fuzz_sink_str(rd_phys_state_name(p->phys_state));
	fuzz_sink_u64(p->lid + p->sm_lid + p->lmc + p->subnet_prefix + p->cap_flags + p->ndev_index);
	return 0;
}

static int res_cb(const struct rd_res *r, void *data)
{
	char addr[128];
	uint64_t v;

	(void)data;
	for (int f = 0; f < RF_COUNT; f++)
		if (rd_res_num(r, f, &v))
			fuzz_sink_u64(v);
	fuzz_sink_str(r->dev_name);
	fuzz_sink_str(r->kern_name);
	fuzz_sink_str(rd_qp_type_token(r->type));
	fuzz_sink_str(rd_qp_state_name(r->state));
	fuzz_sink_str(rd_path_mig_token(r->path_mig));
	fuzz_sink_str(rd_cm_state_token(r->state));
	fuzz_sink_str(rd_port_space_token(r->ps));
	fuzz_sink_str(rd_poll_ctx_token(r->poll_ctx));
	fuzz_sink_str(rd_srq_type_token(r->type));
	if (rd_res_has(r, RF_SRC_ADDR)) {
		rd_sockaddr_format(&r->src, addr, sizeof(addr));
		fuzz_sink_str(addr);
	}
	if (rd_res_has(r, RF_DST_ADDR)) {
		rd_sockaddr_format(&r->dst, addr, sizeof(addr));
		fuzz_sink_str(addr);
	}
	return 0;
}

static int sum_cb(uint32_t dev_index, const char *dev_name, const char *name, uint64_t curr, void *data)
{
	(void)data;
	fuzz_sink_u64(dev_index + curr);
	fuzz_sink_str(dev_name);
	fuzz_sink_str(name);
	return 0;
}

static void read_stats(void)
{
	struct stat_set s = { 0 };

	stat_port_netlink(0, 1, &s);
	for (int i = 0; i < s.n; i++) {
		fuzz_sink_str(s.c[i].name);
		fuzz_sink_u64(s.c[i].value);
	}
	stat_set_free(&s);
}

static void read_chardev(void)
{
	char driver[32], chardev[32];

	rd_dev_uverbs(0, driver, sizeof(driver), chardev, sizeof(chardev));
	fuzz_sink_str(driver);
	fuzz_sink_str(chardev);
}

static void read_addrs(void)
{
	struct nd_addr a[8];

	addr_forget();
	addr_load();
	for (unsigned ifindex = 0; ifindex < 8; ifindex++) {
		int n = addr_of_ifindex(ifindex, a, 8);

		for (int i = 0; i < n; i++) {
			fuzz_sink_str(a[i].text);
			fuzz_sink_u64(addr_same_subnet(&a[i], &a[0]));
		}
	}
}

/* What the selector byte asks; keep the order: the seed generator uses it. */
enum request {
	REQ_DEV_DUMP,		/* RDMA_NLDEV_CMD_GET dump (dev show, every command) */
	REQ_DEV_BY_NAME,	/* the same, looking for one name */
	REQ_PORT_DUMP,		/* RDMA_NLDEV_CMD_PORT_GET */
	REQ_RES_DUMP,		/* + kind: RES_QP/CQ/MR/PD/CM_ID/SRQ dumps */
	REQ_RES_ONE = REQ_RES_DUMP + RD_RES_KINDS,	/* + kind: GET by id */
	REQ_RES_SUMMARY = REQ_RES_ONE + RD_RES_KINDS,	/* RDMA_NLDEV_CMD_RES_GET */
	REQ_STAT,		/* RDMA_NLDEV_CMD_STAT_GET of one port */
	REQ_CHARDEV,		/* RDMA_NLDEV_CMD_GET_CHARDEV */
	REQ_ADDR,		/* rtnetlink RTM_GETADDR dump */
	REQ_COUNT
};

static void run_request(unsigned req)
{
	if (req == REQ_DEV_DUMP)
		rd_dev_each(NULL, dev_cb, NULL);
	else if (req == REQ_DEV_BY_NAME)
		rd_dev_each("rxe0", dev_cb, NULL);
	else if (req == REQ_PORT_DUMP)
		rd_port_each(0, 0, port_cb, NULL);
	else if (req < REQ_RES_ONE)
		rd_res_each(req - REQ_RES_DUMP, 0, false, 0, res_cb, NULL);
	else if (req < REQ_RES_SUMMARY)
		rd_res_each(req - REQ_RES_ONE, 0, true, 17, res_cb, NULL);
	else if (req == REQ_RES_SUMMARY)
		rd_res_summary(sum_cb, NULL);
	else if (req == REQ_STAT)
		read_stats();
	else if (req == REQ_CHARDEV)
		read_chardev();
	else
		read_addrs();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_replay_dir();
	source_replay_netlink_bytes(data + 1, size - 1);
	run_request(data[0] % REQ_COUNT);
	source_replay_netlink_bytes(NULL, 0);
	return 0;
}
