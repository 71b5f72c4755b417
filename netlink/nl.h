/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RDMA netlink client (NETLINK_RDMA, RDMA_NLDEV_*) on libmnl.
 *
 * One socket per process, opened on first use. Replies are parsed as they
 * stream in, one message at a time: every attribute is validated against one
 * policy table (nl_policy.c) before a callback sees it, attributes this code
 * does not know are ignored (newer kernels), malformed ones are dropped with a
 * warning. Works on a fixture instead of the kernel under --replay.
 */
#ifndef RDMADIAG_NL_H
#define RDMADIAG_NL_H

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdma_nl_compat.h"

/* Size of every attribute table handed to callbacks. */
#define NL_TB_SIZE (NL_ATTR_KNOWN_MAX + 1)

typedef const struct nlattr *nl_tb[NL_TB_SIZE];

/* Called once per reply message with its validated top-level attributes.
 * Return MNL_CB_OK to go on, MNL_CB_STOP to end early, MNL_CB_ERROR on error. */
typedef int (*nl_msg_cb)(const nl_tb tb, void *data);

/* Opens the socket (or the fixture): 0, or -errno (-ENOMEM: no buffer; else
 * why the socket did not open, live or as recorded). Prints nothing: the
 * front end says what it means (nl_require() in rdmadiag/lower_err.h). */
int nl_open(void);
/* A request made before the socket is open opens it; when that fails, say(err)
 * is told (the front end's message, as nl_require() gives it) and the
 * request returns -ENODEV. Unset, nothing is said. */
void nl_on_open_error(void (*say)(int err));
void nl_close(void);

/* A request: command, DUMP or not, then up to eight u32 or string attributes. */
struct nl_req {
	uint16_t cmd;
	bool dump;
	int nattrs;
	struct {
		uint16_t type;
		uint32_t value;
		const char *str;	/* string attribute when set */
	} attr[8];
};
void nl_req_init(struct nl_req *r, uint16_t cmd, bool dump);
void nl_req_u32(struct nl_req *r, uint16_t type, uint32_t value);
void nl_req_str(struct nl_req *r, uint16_t type, const char *value);
/* Sends r and feeds each reply message to cb as it arrives (memory does not
 * grow with the reply). cb must not issue requests itself: collect, then ask.
 * A cb that returns MNL_CB_STOP sees no more messages; the rest is drained.
 * Returns 0 or -errno; on a kernel
 * error nl_error_msg() has the extended ACK text if the kernel sent one. */
int nl_run(const struct nl_req *r, nl_msg_cb cb, void *data);
const char *nl_error_msg(void);
/* Replay: the last request failed (-ENOENT) because the recording holds no
 * reply for it, i.e. it was recorded by another command, form or options. */
bool nl_reply_not_recorded(void);

/* Whether every message length in a received chunk lies within the chunk.
 * Checked before libmnl sees the bytes: mnl_nlmsg_ok() compares the length
 * as an int, so a length over 2 GiB passes and the walk leaves the buffer. */
bool nl_chunk_ok(const void *buf, size_t len);

/* Parses the attributes of one message (not a reply to a request: a
 * multicast event) into tb with the same policy; -EINVAL when they overrun
 * the message (what was parsed before stays in tb). */
int nl_parse_msg(const struct nlmsghdr *nlh, nl_tb tb);
/* Parses a nested attribute into tb with the same policy. */
int nl_parse_nested(const struct nlattr *nest, nl_tb tb);
/* One attribute checked against the policy as the table parsers check each
 * (a malformed one is warned about the same way): for decoders that walk a
 * nest themselves and look only at the attributes they use. False for an
 * attribute the policy does not know. */
bool nl_attr_valid(const struct nlattr *attr);

/* mnl_attr_for_each_nested() without a library call per attribute: the same
 * bounds (an attribute that does not fit in what is left ends the walk). */
static inline bool nl_attr_fits(const struct nlattr *a, const char *end)
{
	ptrdiff_t left = end - (const char *)a;

	return left >= (ptrdiff_t)sizeof(*a) && a->nla_len >= sizeof(*a) && (ptrdiff_t)a->nla_len <= left;
}
#define nl_attr_for_each_nested(a, nest)                                                        \
	for ((a) = (const struct nlattr *)((const char *)(nest) + MNL_ATTR_HDRLEN);              \
	     nl_attr_fits((a), (const char *)(nest) + (nest)->nla_len);                          \
	     (a) = (const struct nlattr *)((const char *)(a) + MNL_ALIGN((a)->nla_len)))
static inline uint16_t nl_attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}
static inline const void *nl_attr_data(const struct nlattr *a)
{
	return (const char *)a + MNL_ATTR_HDRLEN;
}

/* Number of malformed attributes dropped so far. */
unsigned nl_bad_attrs(void);

/* Typed getters that tolerate a missing attribute. */
static inline uint32_t nl_u32(const nl_tb tb, int type, uint32_t dflt)
{
	return tb[type] ? mnl_attr_get_u32(tb[type]) : dflt;
}
static inline uint64_t nl_u64(const nl_tb tb, int type, uint64_t dflt)
{
	return tb[type] ? mnl_attr_get_u64(tb[type]) : dflt;
}
static inline uint8_t nl_u8(const nl_tb tb, int type, uint8_t dflt)
{
	return tb[type] ? mnl_attr_get_u8(tb[type]) : dflt;
}
/* An unsigned attribute of 1, 2, 4 or 8 bytes (kernels disagree with the uAPI). */
static inline uint64_t nl_uint(const nl_tb tb, int type, uint64_t dflt)
{
	if (!tb[type])
		return dflt;
	switch (mnl_attr_get_payload_len(tb[type])) {
	case 1: return mnl_attr_get_u8(tb[type]);
	case 2: return mnl_attr_get_u16(tb[type]);
	case 4: return mnl_attr_get_u32(tb[type]);
	case 8: return mnl_attr_get_u64(tb[type]);
	default: return dflt;
	}
}
static inline const char *nl_str(const nl_tb tb, int type)
{
	return tb[type] ? mnl_attr_get_str(tb[type]) : NULL;
}

/* Policy table lookup (nl_policy.c): the libmnl type expected for an
 * attribute, or MNL_TYPE_UNSPEC when unknown. */
enum mnl_attr_data_type nl_attr_policy(uint16_t type, uint16_t *exact_len, uint16_t *max_len);
const char *nl_attr_name(uint16_t type);

#endif
