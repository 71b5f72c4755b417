/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Vendor-neutral meaning of RDMA port counters. Drivers name the same event
 * differently (rxe "completer_retry_err", bnxt_re "to_retransmits", efa
 * "retrans_pkts"); the map gives each known counter a kind ("retransmissions")
 * and every kind a group ("retransmission"). rdmadiag-counter(8) prints the
 * same table; counters not in it are shown raw under "other".
 */
#ifndef RDMADIAG_COUNTER_MAP_H
#define RDMADIAG_COUNTER_MAP_H

#include "../netlink/stat.h"

enum ctr_group {
	G_TRAFFIC,
	G_RETRANS,	/* retransmission and sequence errors */
	G_RNR,
	G_TIMEOUT,
	G_CONGESTION,
	G_LINK,
	G_PAUSE,
	G_OTHER,	/* not in the map */
	G_COUNT
};

enum ctr_kind {
	K_NONE,
	K_TX_PACKETS, K_RX_PACKETS, K_TX_BYTES, K_RX_BYTES, K_TX_RDMA_OPS, K_RX_RDMA_OPS,
	K_RETRANS, K_RETRY_EXCEEDED, K_SEQ_ERR, K_DUPLICATE,
	K_RNR, K_RNR_EXCEEDED, K_OUT_OF_BUFFER,
	K_ACK_TIMEOUT,
	K_CNP_SENT, K_CNP_HANDLED, K_CNP_IGNORED, K_ECN_MARKED, K_XMIT_WAIT, K_DISCARDS,
	K_LINK_DOWNED, K_SYMBOL_ERR, K_LINK_RECOVERY, K_RX_ERRORS,
	K_PAUSE_RX, K_PAUSE_TX, K_PFC_RX, K_PFC_TX,
	K_COUNT
};

struct ctr_kind_info {
	const char *key;	/* JSON key and metric name part: "retransmissions" */
	enum ctr_group group;
	const char *help;	/* one line, for Prometheus HELP and the man page */
	/* The metric name part where the key lacks the unit Prometheus names
	 * want ("xmit_wait_ticks", "pause_rx_frames"); NULL: the key. */
	const char *metric;
};

struct ctr_map_entry {
	const char *pattern;	/* counter name, or fnmatch(3) glob */
	unsigned sources;	/* bit mask of 1u << enum stat_source */
	enum ctr_kind kind;
	unsigned scale;		/* value * scale is the unit of the kind (4: PMA data words) */
	const char *drivers;	/* who names it so, for the documentation */
};

#define SRC_BIT(s) (1u << (s))
#define SRC_HW (SRC_BIT(STAT_SRC_NETLINK) | SRC_BIT(STAT_SRC_HW_SYSFS))
#define SRC_IB SRC_BIT(STAT_SRC_IB_SYSFS)
#define SRC_ETH SRC_BIT(STAT_SRC_ETHTOOL)

extern const struct ctr_kind_info ctr_kinds[K_COUNT];
extern const struct ctr_map_entry ctr_map[];	/* terminated by a NULL pattern */

/* The entry of a counter, or NULL when the map does not know it. */
const struct ctr_map_entry *ctr_lookup(const char *name, enum stat_source src);
const char *ctr_group_key(enum ctr_group g);
const char *ctr_kind_metric(enum ctr_kind k);	/* "retransmissions", "xmit_wait_ticks" */	/* "traffic", "retransmission", ... */
const char *ctr_group_title(enum ctr_group g);	/* "retransmission and sequence errors" */

#endif
