// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one policy table for every RDMA_NLDEV attribute the tool reads: its
 * libmnl type and, for binary attributes, the largest length accepted.
 * nl.c validates each attribute against it before any callback sees it.
 */
#include <sys/socket.h>

#include "nl.h"

struct policy {
	const char *name;
	enum mnl_attr_data_type type;
	uint16_t max_len;	/* binary only */
};

#define P(attr, t) [RDMA_NLDEV_ATTR_##attr] = { #attr, MNL_TYPE_##t, 0 }
#define PB(attr, max) [RDMA_NLDEV_ATTR_##attr] = { #attr, MNL_TYPE_BINARY, max }

static const struct policy policy[NL_TB_SIZE] = {
	P(DEV_INDEX, U32),
	P(DEV_NAME, NUL_STRING),
	P(PORT_INDEX, U32),
	P(CAP_FLAGS, U64),
	P(FW_VERSION, NUL_STRING),
	P(NODE_GUID, U64),
	P(SYS_IMAGE_GUID, U64),
	P(SUBNET_PREFIX, U64),
	P(LID, U32),
	P(SM_LID, U32),
	P(LMC, U8),
	P(PORT_STATE, U8),
	P(PORT_PHYS_STATE, U8),
	P(DEV_NODE_TYPE, U8),
	P(RES_SUMMARY, NESTED),
	P(RES_SUMMARY_ENTRY, NESTED),
	P(RES_SUMMARY_ENTRY_NAME, NUL_STRING),
	P(RES_SUMMARY_ENTRY_CURR, U64),
	P(RES_QP, NESTED),
	P(RES_QP_ENTRY, NESTED),
	P(RES_LQPN, U32),
	P(RES_RQPN, U32),
	P(RES_RQ_PSN, U32),
	P(RES_SQ_PSN, U32),
	P(RES_PATH_MIG_STATE, U8),
	P(RES_TYPE, U8),
	P(RES_STATE, U8),
	P(RES_PID, U32),
	P(RES_KERN_NAME, NUL_STRING),
	P(RES_CM_ID, NESTED),
	P(RES_CM_ID_ENTRY, NESTED),
	P(RES_PS, U32),
	PB(RES_SRC_ADDR, sizeof(struct sockaddr_storage)),
	PB(RES_DST_ADDR, sizeof(struct sockaddr_storage)),
	P(RES_CQ, NESTED),
	P(RES_CQ_ENTRY, NESTED),
	P(RES_CQE, U32),
	P(RES_USECNT, U64),
	P(RES_POLL_CTX, U8),
	P(RES_MR, NESTED),
	P(RES_MR_ENTRY, NESTED),
	P(RES_RKEY, U32),
	P(RES_LKEY, U32),
	P(RES_IOVA, U64),
	P(RES_MRLEN, U64),
	P(RES_PD, NESTED),
	P(RES_PD_ENTRY, NESTED),
	P(RES_LOCAL_DMA_LKEY, U32),
	P(RES_UNSAFE_GLOBAL_RKEY, U32),
	P(NDEV_INDEX, U32),
	P(NDEV_NAME, NUL_STRING),
	P(DRIVER, NESTED),
	P(DRIVER_ENTRY, NESTED),
	P(DRIVER_STRING, NUL_STRING),
	P(DRIVER_PRINT_TYPE, U8),
	P(DRIVER_S32, U32),
	P(DRIVER_U32, U32),
	P(DRIVER_S64, U64),
	P(DRIVER_U64, U64),
	P(RES_PDN, U32),
	P(RES_CQN, U32),
	P(RES_MRN, U32),
	P(RES_CM_IDN, U32),
	P(RES_CTXN, U32),
	P(LINK_TYPE, NUL_STRING),
	P(DEV_PROTOCOL, NUL_STRING),
	P(CHARDEV_TYPE, NUL_STRING),
	P(CHARDEV_NAME, NUL_STRING),
	P(CHARDEV_ABI, U64),
	P(CHARDEV, U64),
	/* documented u64, but kernels send a u32: accept both, read with nl_uint() */
	PB(UVERBS_DRIVER_ID, 8),
	P(STAT_MODE, U32),
	P(STAT_RES, U32),
	P(STAT_AUTO_MODE_MASK, U32),
	P(STAT_COUNTER, NESTED),
	P(STAT_COUNTER_ENTRY, NESTED),
	P(STAT_COUNTER_ID, U32),
	P(STAT_HWCOUNTERS, NESTED),
	P(STAT_HWCOUNTER_ENTRY, NESTED),
	P(STAT_HWCOUNTER_ENTRY_NAME, NUL_STRING),
	P(STAT_HWCOUNTER_ENTRY_VALUE, U64),
	P(DEV_DIM, U8),
	PB(RES_RAW, 65535),
	P(RES_CTX, NESTED),
	P(RES_CTX_ENTRY, NESTED),
	P(RES_SRQ, NESTED),
	P(RES_SRQ_ENTRY, NESTED),
	P(RES_SRQN, U32),
	P(MIN_RANGE, U32),
	P(MAX_RANGE, U32),
	P(STAT_HWCOUNTER_INDEX, U32),
	P(STAT_HWCOUNTER_DYNAMIC, U8),
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = { "SYS_NETNS_MODE", MNL_TYPE_U8, 0 },
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = { "SYS_COPY_ON_FORK", MNL_TYPE_U8, 0 },
	[RDMA_NLDEV_NET_NS_FD] = { "NET_NS_FD", MNL_TYPE_U32, 0 },
	P(EVENT_TYPE, U8),
	[RDMA_NLDEV_SYS_ATTR_MONITOR_MODE] = { "SYS_MONITOR_MODE", MNL_TYPE_U8, 0 },
};

enum mnl_attr_data_type nl_attr_policy(uint16_t type, uint16_t *exact_len, uint16_t *max_len)
{
	*exact_len = 0;
	*max_len = 0;
	if (type >= NL_TB_SIZE)
		return MNL_TYPE_UNSPEC;
	*max_len = policy[type].max_len;
	return policy[type].type;
}

const char *nl_attr_name(uint16_t type)
{
	if (type >= NL_TB_SIZE || !policy[type].name)
		return "unknown";
	return policy[type].name;
}
