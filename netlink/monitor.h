/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink monitor events: devices registered and unregistered, renamed,
 * netdevs attached to and detached from ports. Linux 6.12+ multicasts them
 * (RDMA_NLDEV_CMD_MONITOR messages to group RDMA_NL_GROUP_NOTIFY) and says so
 * in its system attributes (RDMA_NLDEV_SYS_ATTR_MONITOR_MODE). Older kernels
 * accept joining the group but never send anything, so the mode is decided
 * from the system attributes, and a caller without events polls instead.
 *
 * Events come from their own socket, not the request socket, so that they
 * never mix with a dump's replies. Under --record every chunk received is
 * saved to netlink/monitor.bin as [u32 wait number][u32 length][chunk]...;
 * under --replay the chunks of the Nth mon_wait() are handed out by the Nth
 * call, through the same decoder as live ones.
 */
#ifndef RDMADIAG_MONITOR_H
#define RDMADIAG_MONITOR_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nl.h"

#define MON_FIXTURE "netlink/monitor.bin"

enum mon_mode {
	MON_POLL,	/* no events: the caller re-reads the device list itself */
	MON_EVENTS,	/* joined the notify group of a kernel that sends events */
};

/* One decoded event. Strings point into the message: valid during the callback. */
struct mon_event {
	uint8_t type;			/* RD_MON_* (rdma_nl_compat.h); others are possible */
	bool has_dev_index, has_port, has_ndev_index;
	uint32_t dev_index, port, ndev_index;
	const char *dev_name;		/* NULL when the kernel did not send it */
	const char *ndev_name;
};

typedef void (*mon_event_cb)(const struct mon_event *ev, void *data);

/* Asks the kernel (or the fixture) whether it sends monitor events and, when
 * it does, joins the group. Never fails: without events (old kernel, no
 * permission to join, any error) it returns MON_POLL. why gets a one-line
 * reason for -d output. nl_open() must have succeeded. */
enum mon_mode mon_open(char *why, size_t len);
void mon_close(void);

/* MON_EVENTS: waits up to secs, handing each event to cb as it arrives;
 * returns early when *stop becomes set (SIGINT). Returns the number of
 * events, or -1 when events may have been lost (receive buffer overrun,
 * broken message): the caller should re-read the device list. MON_POLL:
 * just sleeps (no sleep when a replayed fixture has recorded clocks). */
int mon_wait(double secs, mon_event_cb cb, void *data, volatile sig_atomic_t *stop);

/* Sleeps secs, cut short when *stop becomes set; not at all when a replayed
 * fixture has recorded clock readings (its waits already happened). */
void mon_sleep(double secs, volatile sig_atomic_t *stop);

/* Decodes one chunk of netlink messages (what one recv returned): each
 * RDMA_NLDEV_CMD_MONITOR message with an event type goes to cb, others are
 * skipped. Returns the number of events, or -1 when the chunk is malformed
 * (events before the damage are delivered). */
int mon_decode_chunk(const void *buf, size_t len, mon_event_cb cb, void *data);

/* Stable token of an event type ("dev_added"...), NULL when unknown. */
const char *mon_event_token(uint8_t type);

#endif
