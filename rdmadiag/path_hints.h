/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where `path test` sends the user when packets are lost, retried or stall:
 * on a software provider (Soft-RoCE rxe, Soft-iWARP siw) the provider itself
 * drops packets when the host's CPUs are busy, so the place to look is the
 * host, not a switch's PFC/ECN settings that may not even exist.
 */
#ifndef RDMADIAG_PATH_HINTS_H
#define RDMADIAG_PATH_HINTS_H

#include <stdbool.h>
#include <stddef.h>

struct provider {
	bool software;		/* no hardware device behind the RDMA device */
	char dev[64];
	char driver[32];	/* "rdma_rxe", "siw", "mlx5_core"; "" unknown */
};

/* What drives dev: a device with no bus device in sysfs (no
 * /sys/class/infiniband/DEV/device) is a software provider; its kind from
 * the node type (an iWARP RNIC is siw, a CA rxe). */
void provider_read(const char *dev, struct provider *p);

/* "rxe0 is a software provider (rdma_rxe)" */
const char *provider_text(const struct provider *p, char *buf, size_t len);

/* Advice for packets lost and retransmitted `when` ("during this stage"). */
const char *hint_loss(const struct provider *p, const char *when, char *buf, size_t len);
/* Where to look when an operation used up the RC QP's retries after others
 * of the stage got through: heavy loss, not a filter. */
const char *hint_heavy_loss(const struct provider *p, char *buf, size_t len);
/* What else than the network loses or silences RDMA traffic on this
 * provider ("" on hardware); appended to a stall's, a retry's or a lost
 * datagram's hint. */
const char *hint_stall_extra(const struct provider *p, char *buf, size_t len);

#endif
