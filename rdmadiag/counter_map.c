// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter map; see counter_map.h. Keep Documentation/rdmadiag-counter.8
 * in step (a host test compares the two).
 */
#include <fnmatch.h>
#include <stddef.h>

#include "counter_map.h"

const struct ctr_kind_info ctr_kinds[K_COUNT] = {
	[K_NONE] = { "other", G_OTHER, "counter without a vendor-neutral meaning" },
	[K_TX_PACKETS] = { "tx_packets", G_TRAFFIC, "packets sent by the port" },
	[K_RX_PACKETS] = { "rx_packets", G_TRAFFIC, "packets received by the port" },
	[K_TX_BYTES] = { "tx_bytes", G_TRAFFIC, "bytes sent by the port" },
	[K_RX_BYTES] = { "rx_bytes", G_TRAFFIC, "bytes received by the port" },
	[K_TX_RDMA_OPS] = { "tx_rdma_ops", G_TRAFFIC, "RDMA operations (send, write, read) issued" },
	[K_RX_RDMA_OPS] = { "rx_rdma_ops", G_TRAFFIC, "RDMA requests received from peers" },
	[K_RETRANS] = { "retransmissions", G_RETRANS, "packets or requests sent again after a loss" },
	[K_RETRY_EXCEEDED] = { "retries_exceeded", G_RETRANS,
			       "requests that failed after the last transport retry (QP to error)" },
	[K_SEQ_ERR] = { "sequence_errors", G_RETRANS, "packets that arrived out of sequence (PSN gap, NAK)" },
	[K_DUPLICATE] = { "duplicate_requests", G_RETRANS, "requests received twice (the peer retransmitted)" },
	[K_RNR] = { "rnr_naks", G_RNR, "receiver-not-ready NAKs: no receive buffer posted" },
	[K_RNR_EXCEEDED] = { "rnr_retries_exceeded", G_RNR, "requests that failed after the last RNR retry" },
	[K_OUT_OF_BUFFER] = { "rx_out_of_buffer", G_RNR, "packets dropped for lack of a posted receive buffer" },
	[K_ACK_TIMEOUT] = { "ack_timeouts", G_TIMEOUT, "transport ACK timeouts (local ACK timeout expired)" },
	[K_CNP_SENT] = { "cnp_sent", G_CONGESTION, "congestion notification packets sent (ECN-marked traffic seen)" },
	[K_CNP_HANDLED] = { "cnp_handled", G_CONGESTION, "congestion notification packets received and acted on" },
	[K_CNP_IGNORED] = { "cnp_ignored", G_CONGESTION, "congestion notification packets received and ignored" },
	[K_ECN_MARKED] = { "ecn_marked", G_CONGESTION, "received RoCE packets carrying an ECN congestion mark",
			  "ecn_marked_packets" },
	[K_XMIT_WAIT] = { "xmit_wait", G_CONGESTION, "ticks the port had data to send but no credits (IB)",
			  "xmit_wait_ticks" },
	[K_DISCARDS] = { "discards", G_CONGESTION, "packets the port discarded (congestion or port down)" },
	[K_LINK_DOWNED] = { "link_downed", G_LINK, "times the link went down" },
	[K_SYMBOL_ERR] = { "symbol_errors", G_LINK, "physical layer symbol errors" },
	[K_LINK_RECOVERY] = { "link_error_recovery", G_LINK, "link error recoveries (retraining)" },
	[K_RX_ERRORS] = { "rx_errors", G_LINK, "received packets with errors" },
	[K_PAUSE_RX] = { "pause_rx", G_PAUSE, "pause frames received, all priorities (the peer asked us to stop)",
			  "pause_rx_frames" },
	[K_PAUSE_TX] = { "pause_tx", G_PAUSE, "pause frames sent, all priorities (we asked the peer to stop)",
			  "pause_tx_frames" },
	[K_PFC_RX] = { "pfc_rx", G_PAUSE, "PFC pause frames received, summed over priorities", "pfc_rx_frames" },
	[K_PFC_TX] = { "pfc_tx", G_PAUSE, "PFC pause frames sent, summed over priorities", "pfc_tx_frames" },
};

/* First match wins: exact names before globs. */
const struct ctr_map_entry ctr_map[] = {
	/* traffic */
	{ "sent_pkts", SRC_HW, K_TX_PACKETS, 1, "rxe" },
	{ "rcvd_pkts", SRC_HW, K_RX_PACKETS, 1, "rxe" },
	{ "rdma_sends", SRC_HW, K_TX_RDMA_OPS, 1, "rxe" },
	{ "rdma_recvs", SRC_HW, K_RX_RDMA_OPS, 1, "rxe" },
	{ "tx_pkts", SRC_HW, K_TX_PACKETS, 1, "bnxt_re efa" },
	{ "rx_pkts", SRC_HW, K_RX_PACKETS, 1, "bnxt_re efa" },
	{ "tx_bytes", SRC_HW, K_TX_BYTES, 1, "bnxt_re efa" },
	{ "rx_bytes", SRC_HW, K_RX_BYTES, 1, "bnxt_re efa" },
	{ "ip4OutPkts", SRC_HW, K_TX_PACKETS, 1, "irdma" },
	{ "ip6OutPkts", SRC_HW, K_TX_PACKETS, 1, "irdma" },
	{ "ip4InPkts", SRC_HW, K_RX_PACKETS, 1, "irdma" },
	{ "ip6InPkts", SRC_HW, K_RX_PACKETS, 1, "irdma" },
	{ "ip4OutOctets", SRC_HW, K_TX_BYTES, 1, "irdma" },
	{ "ip6OutOctets", SRC_HW, K_TX_BYTES, 1, "irdma" },
	{ "ip4InOctets", SRC_HW, K_RX_BYTES, 1, "irdma" },
	{ "ip6InOctets", SRC_HW, K_RX_BYTES, 1, "irdma" },
	{ "*OutRdma*", SRC_HW, K_TX_RDMA_OPS, 1, "irdma" },
	{ "*InRdma*", SRC_HW, K_RX_RDMA_OPS, 1, "irdma" },
	{ "rx_write_requests", SRC_HW, K_RX_RDMA_OPS, 1, "mlx5" },
	{ "rx_read_requests", SRC_HW, K_RX_RDMA_OPS, 1, "mlx5" },
	{ "rx_atomic_requests", SRC_HW, K_RX_RDMA_OPS, 1, "mlx5" },
	{ "send_wrs", SRC_HW, K_TX_RDMA_OPS, 1, "efa" },
	{ "rdma_write_wrs", SRC_HW, K_TX_RDMA_OPS, 1, "efa" },
	{ "rdma_read_wrs", SRC_HW, K_TX_RDMA_OPS, 1, "efa" },
	{ "recv_wrs", SRC_HW, K_RX_RDMA_OPS, 1, "efa" },
	{ "port_xmit_packets", SRC_IB, K_TX_PACKETS, 1, "IB port (PMA)" },
	{ "port_rcv_packets", SRC_IB, K_RX_PACKETS, 1, "IB port (PMA)" },
	{ "port_xmit_data", SRC_IB, K_TX_BYTES, 4, "IB port (PMA), in 4-byte words" },
	{ "port_rcv_data", SRC_IB, K_RX_BYTES, 4, "IB port (PMA), in 4-byte words" },
	/* retransmission and sequence errors */
	{ "completer_retry_err", SRC_HW, K_RETRANS, 1, "rxe" },
	{ "roce_adp_retrans", SRC_HW, K_RETRANS, 1, "mlx5" },
	{ "to_retransmits", SRC_HW, K_RETRANS, 1, "bnxt_re" },
	{ "retrans_pkts", SRC_HW, K_RETRANS, 1, "efa" },
	{ "RetransSegs", SRC_HW, K_RETRANS, 1, "irdma" },
	{ "tcpRetransSegs", SRC_HW, K_RETRANS, 1, "irdma" },
	{ "retry_exceeded_err", SRC_HW, K_RETRY_EXCEEDED, 1, "rxe" },
	{ "req_transport_retries_exceeded", SRC_HW, K_RETRY_EXCEEDED, 1, "mlx5" },
	{ "max_retry_exceeded", SRC_HW, K_RETRY_EXCEEDED, 1, "bnxt_re" },
	{ "out_of_seq_request", SRC_HW, K_SEQ_ERR, 1, "rxe" },
	{ "rcvd_seq_err", SRC_HW, K_SEQ_ERR, 1, "rxe" },
	{ "out_of_sequence", SRC_HW, K_SEQ_ERR, 1, "mlx5" },
	{ "packet_seq_err", SRC_HW, K_SEQ_ERR, 1, "mlx5" },
	{ "implied_nak_seq_err", SRC_HW, K_SEQ_ERR, 1, "mlx5" },
	{ "seq_err_naks_rcvd", SRC_HW, K_SEQ_ERR, 1, "bnxt_re" },
	{ "res_oos_drop_count", SRC_HW, K_SEQ_ERR, 1, "bnxt_re" },
	{ "Nak Sequence Error*", SRC_HW, K_SEQ_ERR, 1, "irdma (gen3)" },
	{ "duplicate_request", SRC_HW, K_DUPLICATE, 1, "rxe mlx5" },
	{ "dup_req", SRC_HW, K_DUPLICATE, 1, "bnxt_re" },
	/* rnr */
	{ "rcvd_rnr_err", SRC_HW, K_RNR, 1, "rxe" },
	{ "send_rnr_err", SRC_HW, K_RNR, 1, "rxe" },
	{ "rnr_naks_rcvd", SRC_HW, K_RNR, 1, "bnxt_re" },
	{ "RNR sent", SRC_HW, K_RNR, 1, "irdma (gen3)" },
	{ "RNR received", SRC_HW, K_RNR, 1, "irdma (gen3)" },
	{ "retry_rnr_exceeded_err", SRC_HW, K_RNR_EXCEEDED, 1, "rxe" },
	{ "rnr_nak_retry_err", SRC_HW, K_RNR_EXCEEDED, 1, "mlx5" },
	{ "req_rnr_retries_exceeded", SRC_HW, K_RNR_EXCEEDED, 1, "mlx5" },
	{ "out_of_buffer", SRC_HW, K_OUT_OF_BUFFER, 1, "mlx5" },
	/* timeouts */
	{ "local_ack_timeout_err", SRC_HW, K_ACK_TIMEOUT, 1, "mlx5" },
	{ "roce_adp_retrans_to", SRC_HW, K_ACK_TIMEOUT, 1, "mlx5" },
	{ "retrans_timeout_events", SRC_HW, K_ACK_TIMEOUT, 1, "efa" },
	{ "missing_resp", SRC_HW, K_ACK_TIMEOUT, 1, "bnxt_re" },
	/* congestion */
	{ "np_cnp_sent", SRC_HW, K_CNP_SENT, 1, "mlx5" },
	{ "tx_cnp_pkts", SRC_HW, K_CNP_SENT, 1, "bnxt_re" },
	{ "cnp_tx_pkts", SRC_HW, K_CNP_SENT, 1, "bnxt_re" },
	{ "cnpSent", SRC_HW, K_CNP_SENT, 1, "irdma" },
	{ "rp_cnp_handled", SRC_HW, K_CNP_HANDLED, 1, "mlx5" },
	{ "rx_cnp_pkts", SRC_HW, K_CNP_HANDLED, 1, "bnxt_re" },
	{ "cnp_rx_pkts", SRC_HW, K_CNP_HANDLED, 1, "bnxt_re" },
	{ "cnpHandled", SRC_HW, K_CNP_HANDLED, 1, "irdma" },
	{ "rp_cnp_ignored", SRC_HW, K_CNP_IGNORED, 1, "mlx5" },
	{ "cnpIgnored", SRC_HW, K_CNP_IGNORED, 1, "irdma" },
	{ "np_ecn_marked_roce_packets", SRC_HW, K_ECN_MARKED, 1, "mlx5" },
	{ "rx_ecn_marked_pkts", SRC_HW, K_ECN_MARKED, 1, "bnxt_re" },
	{ "RxECNMrkd", SRC_HW, K_ECN_MARKED, 1, "irdma" },
	{ "port_xmit_wait", SRC_IB, K_XMIT_WAIT, 1, "IB port (PMA)" },
	{ "port_xmit_discards", SRC_IB, K_DISCARDS, 1, "IB port (PMA)" },
	{ "rx_roce_discards", SRC_HW, K_DISCARDS, 1, "bnxt_re" },
	{ "rx_drops", SRC_HW, K_DISCARDS, 1, "efa" },
	/* link */
	{ "link_downed", SRC_HW | SRC_IB, K_LINK_DOWNED, 1, "rxe, IB port (PMA)" },
	{ "symbol_error", SRC_IB, K_SYMBOL_ERR, 1, "IB port (PMA)" },
	{ "link_error_recovery", SRC_IB, K_LINK_RECOVERY, 1, "IB port (PMA)" },
	{ "port_rcv_errors", SRC_IB, K_RX_ERRORS, 1, "IB port (PMA)" },
	{ "local_link_integrity_errors", SRC_IB, K_RX_ERRORS, 1, "IB port (PMA)" },
	{ "rx_roce_errors", SRC_HW, K_RX_ERRORS, 1, "bnxt_re" },
	/* pause and PFC, from the netdev's ethtool statistics (durations and transitions stay raw) */
	{ "rx_pause_ctrl_phy", SRC_ETH, K_PAUSE_RX, 1, "mlx5e (ethtool)" },
	{ "tx_pause_ctrl_phy", SRC_ETH, K_PAUSE_TX, 1, "mlx5e (ethtool)" },
	{ "rx_pause_frames", SRC_ETH, K_PAUSE_RX, 1, "bnxt_en (ethtool)" },
	{ "tx_pause_frames", SRC_ETH, K_PAUSE_TX, 1, "bnxt_en (ethtool)" },
	{ "link_xoff_rx", SRC_ETH, K_PAUSE_RX, 1, "ice, irdma's netdev (ethtool)" },
	{ "link_xoff_tx", SRC_ETH, K_PAUSE_TX, 1, "ice, irdma's netdev (ethtool)" },
	{ "rx_prio[0-7]_pause", SRC_ETH, K_PFC_RX, 1, "mlx5e (ethtool, per priority)" },
	{ "tx_prio[0-7]_pause", SRC_ETH, K_PFC_TX, 1, "mlx5e (ethtool, per priority)" },
	{ "rx_pfc_ena_frames_pri[0-7]", SRC_ETH, K_PFC_RX, 1, "bnxt_en (ethtool, per priority)" },
	{ "tx_pfc_ena_frames_pri[0-7]", SRC_ETH, K_PFC_TX, 1, "bnxt_en (ethtool, per priority)" },
	{ "rx_priority_[0-7]_xoff*", SRC_ETH, K_PFC_RX, 1, "ice (ethtool, per priority)" },
	{ "tx_priority_[0-7]_xoff*", SRC_ETH, K_PFC_TX, 1, "ice (ethtool, per priority)" },
	{ NULL, 0, K_NONE, 0, NULL },
};

const struct ctr_map_entry *ctr_lookup(const char *name, enum stat_source src)
{
	for (const struct ctr_map_entry *e = ctr_map; e->pattern; e++) {
		if (!(e->sources & SRC_BIT(src)))
			continue;
		if (!fnmatch(e->pattern, name, 0))
			return e;
	}
	return NULL;
}

const char *ctr_kind_metric(enum ctr_kind k)
{
	return ctr_kinds[k].metric ? ctr_kinds[k].metric : ctr_kinds[k].key;
}

const char *ctr_group_key(enum ctr_group g)
{
	static const char *const keys[G_COUNT] = { "traffic", "retransmission", "rnr", "timeout",
						   "congestion", "link", "pause", "other" };

	return g < G_COUNT ? keys[g] : "other";
}

const char *ctr_group_title(enum ctr_group g)
{
	static const char *const titles[G_COUNT] = {
		"traffic", "retransmission and sequence errors", "receiver not ready (RNR)", "timeouts",
		"congestion (ECN, CNP)", "link", "pause and PFC", "other (not in the map)",
	};

	return g < G_COUNT ? titles[g] : "other";
}
