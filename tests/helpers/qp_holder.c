// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: creates queue pairs on an RDMA device, walks them to chosen
 * states and holds them, taking orders one line at a time on stdin:
 *
 *   create TYPE STATE     TYPE rc|uc|ud, STATE reset|init|rtr|rts|err
 *                         -> "qp QPN TYPE STATE"
 *   move QPN STATE        walks the QP forward (reset->init->rtr->rts) or to
 *                         err/reset               -> "moved QPN STATE"
 *   destroy QPN           -> "destroyed QPN"
 *   quit                  (also on end of input)  -> "bye"
 *
 * Usage: qp_holder DEV [PORT]. First line: "pid PID". Errors: "error TEXT".
 * Connected QPs are connected to themselves (remote QPN = own QPN), over the
 * port's IPv4 GID when there is one, so no peer is needed.
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_QPS 20000

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static uint8_t port = 1;
static int gid_index = -1;
static union ibv_gid gid;
static struct ibv_qp *qps[MAX_QPS];
static int nqps;

static const char *const state_names[] = { "reset", "init", "rtr", "rts", "sqd", "sqe", "err" };

static int state_parse(const char *s)
{
	for (int i = 0; i < 7; i++)
		if (!strcmp(s, state_names[i]))
			return i;
	return -1;
}

static void pick_gid(void)
{
	struct ibv_port_attr pa;

	if (ibv_query_port(ctx, port, &pa))
		return;
	for (int i = 0; i < pa.gid_tbl_len && i < 32; i++) {
		union ibv_gid g;
		static const uint8_t v4map[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

		if (ibv_query_gid(ctx, port, i, &g) || !memcmp(&g, &(union ibv_gid){ 0 }, sizeof(g)))
			continue;
		if (gid_index < 0 || !memcmp(g.raw, v4map, sizeof(v4map))) {
			gid_index = i;
			gid = g;
		}
		if (!memcmp(g.raw, v4map, sizeof(v4map)))
			return;
	}
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = port, .pkey_index = 0 };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = 0x11111111;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	return ibv_modify_qp(qp, &a, mask);
}

static int to_rtr(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	int mask = IBV_QP_STATE;

	if (qp->qp_type != IBV_QPT_UD) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = qp->qp_num;
		a.rq_psn = 0;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = gid;
		a.ah_attr.grh.sgid_index = gid_index < 0 ? 0 : gid_index;
		a.ah_attr.grh.hop_limit = 1;
		a.ah_attr.port_num = port;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
		if (qp->qp_type == IBV_QPT_RC) {
			a.max_dest_rd_atomic = 1;
			a.min_rnr_timer = 12;
			mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		}
	}
	return ibv_modify_qp(qp, &a, mask);
}

static int to_rts(struct ibv_qp *qp)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS, .sq_psn = 0 };
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;

	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return ibv_modify_qp(qp, &a, mask);
}

static int to_plain(struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a = { .qp_state = s };

	return ibv_modify_qp(qp, &a, IBV_QP_STATE);
}

static int current_state(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return -1;
	return a.qp_state;
}

/* Forward one step at a time; ERR and RESET are reachable from anywhere. */
static int walk(struct ibv_qp *qp, int target)
{
	int cur = current_state(qp);

	/* The verbs state table has no RESET -> ERR: pass through INIT. */
	if (target == IBV_QPS_ERR && cur == IBV_QPS_RESET && to_init(qp))
		return -1;
	if (target == IBV_QPS_ERR || target == IBV_QPS_RESET)
		return cur == target ? 0 : to_plain(qp, target);
	if (cur > target && cur != IBV_QPS_ERR)
		return -1;
	if (cur == IBV_QPS_ERR) {
		if (to_plain(qp, IBV_QPS_RESET))
			return -1;
		cur = IBV_QPS_RESET;
	}
	while (cur < target) {
		int err = cur == IBV_QPS_RESET ? to_init(qp) : cur == IBV_QPS_INIT ? to_rtr(qp) : to_rts(qp);

		if (err)
			return err;
		cur++;
	}
	return 0;
}

static struct ibv_qp *find_qp(unsigned qpn, int *slot)
{
	for (int i = 0; i < nqps; i++)
		if (qps[i] && qps[i]->qp_num == qpn) {
			*slot = i;
			return qps[i];
		}
	return NULL;
}

static void cmd_create(const char *type, const char *state)
{
	struct ibv_qp_init_attr ia = { .send_cq = cq, .recv_cq = cq,
				       .cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 } };
	int target = state_parse(state);
	struct ibv_qp *qp;

	ia.qp_type = !strcmp(type, "rc") ? IBV_QPT_RC : !strcmp(type, "uc") ? IBV_QPT_UC :
		     !strcmp(type, "ud") ? IBV_QPT_UD : 0;
	if (!ia.qp_type || target < 0 || nqps >= MAX_QPS) {
		printf("error create: bad type '%s' or state '%s' (or too many QPs)\n", type, state);
		return;
	}
	qp = ibv_create_qp(pd, &ia);
	if (!qp) {
		printf("error create: ibv_create_qp failed: %m\n");
		return;
	}
	qps[nqps++] = qp;
	if (walk(qp, target))
		printf("error create: QP %u cannot reach %s: %m\n", qp->qp_num, state);
	else
		printf("qp %u %s %s\n", qp->qp_num, type, state);
}

static void cmd_move(unsigned qpn, const char *state)
{
	int slot, target = state_parse(state);
	struct ibv_qp *qp = find_qp(qpn, &slot);

	if (!qp || target < 0)
		printf("error move: no QP %u or bad state '%s'\n", qpn, state);
	else if (walk(qp, target))
		printf("error move: QP %u cannot reach %s: %m\n", qpn, state);
	else
		printf("moved %u %s\n", qpn, state);
}

static void cmd_destroy(unsigned qpn)
{
	int slot;
	struct ibv_qp *qp = find_qp(qpn, &slot);

	if (!qp || ibv_destroy_qp(qp)) {
		printf("error destroy: no QP %u or destroy failed\n", qpn);
		return;
	}
	qps[slot] = NULL;
	printf("destroyed %u\n", qpn);
}

static int open_device(const char *name)
{
	int n;
	struct ibv_device **list = ibv_get_device_list(&n);

	for (int i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx)
		return -1;
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	return cq ? 0 : -1;
}

int main(int argc, char **argv)
{
	char line[256];

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: qp_holder DEV [PORT]   (orders on stdin, see the source)\n");
		return 2;
	}
	if (argc == 3)
		port = (uint8_t)atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (open_device(argv[1])) {
		fprintf(stderr, "qp_holder: cannot open %s / allocate PD and CQ: %m\n", argv[1]);
		return 1;
	}
	pick_gid();
	printf("pid %d\n", (int)getpid());
	while (fgets(line, sizeof(line), stdin)) {
		char a[32], b[32];
		unsigned qpn;

		if (sscanf(line, "create %31s %31s", a, b) == 2)
			cmd_create(a, b);
		else if (sscanf(line, "move %u %31s", &qpn, b) == 2)
			cmd_move(qpn, b);
		else if (sscanf(line, "destroy %u", &qpn) == 1)
			cmd_destroy(qpn);
		else if (!strncmp(line, "quit", 4))
			break;
		else
			printf("error unknown order: %s", line);
	}
	for (int i = 0; i < nqps; i++)
		if (qps[i])
			ibv_destroy_qp(qps[i]);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	printf("bye\n");
	return 0;
}
