// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA netlink transport: live socket or fixture replay; see nl.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../host/source.h"
#include "nl.h"

#define NL_TIMEOUT_SEC 5
/* One receive buffer; dumps stream through it a chunk at a time. */
#define NL_BUF_SIZE (64 * 1024)

static struct {
	struct mnl_socket *sock;
	bool opened;		/* nl_open() succeeded (socket or replay) */
	bool busy;		/* a request is streaming: callbacks must not nest */
	bool kernel_err;	/* the error came in an NLMSG_ERROR, not from parsing */
	bool no_recording;	/* replay: the recording has no reply for the request */
	unsigned seq;
	unsigned portid;
	unsigned bad_attrs;
	char err_msg[256];
	char *buf;
	void (*open_failed)(int err);	/* nl_on_open_error() */
} nl;

void nl_on_open_error(void (*say)(int err))
{
	nl.open_failed = say;
}

unsigned nl_bad_attrs(void)
{
	return nl.bad_attrs;
}

const char *nl_error_msg(void)
{
	return nl.err_msg;
}

bool nl_reply_not_recorded(void)
{
	return nl.no_recording;
}

/* ---- validation ---- */

static void warn_bad_attr(const struct nlattr *attr, const char *why)
{
	uint16_t type = mnl_attr_get_type(attr);

	/* One line per bad attribute would flood on a broken kernel; say it once. */
	if (nl.bad_attrs++ == 0)
		fprintf(stderr, "rdmadiag: warning: kernel reply has a malformed attribute %s (%u, length %u): %s; "
				"it is ignored (further ones silently)\n",
			nl_attr_name(type), type, mnl_attr_get_payload_len(attr), why);
}

/* The policy's checks with their warnings (libmnl's, plus no empty string). */
static bool attr_valid_slow(const struct nlattr *attr, enum mnl_attr_data_type t, uint16_t max)
{
	if (t == MNL_TYPE_BINARY) {
		if (mnl_attr_get_payload_len(attr) > max) {
			warn_bad_attr(attr, "longer than expected");
			return false;
		}
	} else if (mnl_attr_validate(attr, t) < 0) {
		warn_bad_attr(attr, strerror(errno));
		return false;
	}
	if (t == MNL_TYPE_NUL_STRING && mnl_attr_get_payload_len(attr) == 0) {
		warn_bad_attr(attr, "empty string");
		return false;
	}
	return true;
}

/* The common types checked here without a call into libmnl (a 10k QP dump
 * has a hundred thousand attributes); anything else, and every attribute
 * that fails, goes the slow way, which says what is wrong. */
static bool attr_valid(const struct nlattr *attr, enum mnl_attr_data_type t, uint16_t max)
{
	uint16_t len = (uint16_t)(attr->nla_len - MNL_ATTR_HDRLEN);
	const char *p = (const char *)attr + MNL_ATTR_HDRLEN;

	switch (t) {
	case MNL_TYPE_U8:
		if (len == 1)
			return true;
		break;
	case MNL_TYPE_U32:
		if (len == 4)
			return true;
		break;
	case MNL_TYPE_U64:
		if (len == 8)
			return true;
		break;
	case MNL_TYPE_NUL_STRING:
		if (len > 0 && p[len - 1] == '\0')
			return true;
		break;
	default:
		break;
	}
	return attr_valid_slow(attr, t, max);
}

bool nl_attr_valid(const struct nlattr *attr)
{
	uint16_t exact, max;
	enum mnl_attr_data_type t = nl_attr_policy(nl_attr_type(attr), &exact, &max);

	return t != MNL_TYPE_UNSPEC && attr_valid(attr, t, max);
}

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);
	uint16_t exact, max;
	enum mnl_attr_data_type t = nl_attr_policy(type, &exact, &max);

	if (t == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;	/* unknown: a newer kernel; ignore */
	if (attr_valid(attr, t, max))
		tb[type] = attr;
	return MNL_CB_OK;
}

int nl_parse_nested(const struct nlattr *nest, nl_tb tb)
{
	memset(tb, 0, sizeof(nl_tb));
	if (mnl_attr_get_payload_len(nest) == 0)
		return 0;
	if (mnl_attr_parse_nested(nest, attr_cb, tb) < 0) {
		warn_bad_attr(nest, "nested attributes overrun their container");
		return -EINVAL;
	}
	return 0;
}

int nl_parse_msg(const struct nlmsghdr *nlh, nl_tb tb)
{
	memset(tb, 0, sizeof(nl_tb));
	if (mnl_attr_parse(nlh, 0, attr_cb, tb) < 0) {
		nl.bad_attrs++;
		return -EINVAL;
	}
	return 0;
}

/* ---- replies ---- */

struct run_ctx {
	nl_msg_cb cb;
	void *data;
	bool stopped;	/* the callback asked to stop: drain the rest unseen */
	int cb_errno;	/* the callback failed: drain, then report this */
};

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *rc = data;
	nl_tb tb = { 0 };

	/* The rest of a dump must still be read off the socket, or the next
	 * request would take it for its own answer: skip, don't stop. */
	if (rc->stopped || rc->cb_errno)
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, 0, attr_cb, tb) < 0) {
		fprintf(stderr, "rdmadiag: warning: kernel reply message with broken attributes ignored\n");
		nl.bad_attrs++;
		return MNL_CB_OK;
	}
	errno = 0;
	int ret = rc->cb(tb, rc->data);

	if (ret == MNL_CB_STOP)
		rc->stopped = true;
	else if (ret < MNL_CB_STOP)
		rc->cb_errno = errno ? errno : EIO;
	return MNL_CB_OK;
}

static int ext_ack_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == NLMSGERR_ATTR_MSG && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		tb[NLMSGERR_ATTR_MSG] = attr;
	return MNL_CB_OK;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	(void)data;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error == 0)
		return MNL_CB_STOP;
	/* With NETLINK_CAP_ACK the request is not echoed: TLVs follow directly. */
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { 0 };

		if (mnl_attr_parse(nlh, sizeof(*err), ext_ack_cb, tb) >= 0 && tb[NLMSGERR_ATTR_MSG]) {
			snprintf(nl.err_msg, sizeof(nl.err_msg), "%s", mnl_attr_get_str(tb[NLMSGERR_ATTR_MSG]));
			/* it ends up on a terminal: no control bytes */
			for (char *c = nl.err_msg; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
		}
	}
	nl.kernel_err = true;
	/* errno values are small; anything else (INT_MIN cannot even be negated) is a broken reply */
	if (err->error > -4096 && err->error < 4096)
		errno = err->error < 0 ? -err->error : err->error;
	else
		errno = EPROTO;
	return MNL_CB_ERROR;
}

static int noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh, (void)data;
	return MNL_CB_OK;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh, (void)data;
	return MNL_CB_STOP;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = noop_cb,
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = done_cb,
	[NLMSG_OVERRUN] = noop_cb,
};

/* ---- socket ---- */

static int open_socket(void)
{
	struct timeval tv = { .tv_sec = NL_TIMEOUT_SEC };
	int one = 1;

	nl.sock = mnl_socket_open(NETLINK_RDMA);
	if (!nl.sock)
		return -errno;
	/* Both are best effort: older kernels lack extended ACKs. */
	setsockopt(mnl_socket_get_fd(nl.sock), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(mnl_socket_get_fd(nl.sock), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(mnl_socket_get_fd(nl.sock), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (mnl_socket_bind(nl.sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int e = errno;

		mnl_socket_close(nl.sock);
		nl.sock = NULL;
		return -e;
	}
	nl.portid = mnl_socket_get_portid(nl.sock);
	nl.seq = (unsigned)time(NULL);
	return 0;
}

/* A host without RDMA is recorded too (snapshots of broken hosts): the
 * socket's errno in netlink/open-error. */
#define OPEN_ERROR_FIXTURE "netlink/open-error"

static void record_open_error(int err)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "%d\n", -err);

	source_save(OPEN_ERROR_FIXTURE, line, (size_t)n, false);
}

static int replayed_open_error(void)
{
	FILE *fp = source_open(OPEN_ERROR_FIXTURE);
	int e = 0;

	if (fp) {
		if (fscanf(fp, "%d", &e) != 1 || e <= 0)
			e = EIO;
		fclose(fp);
	}
	return -e;
}

int nl_open(void)
{
	int err;

	if (nl.opened)
		return 0;
	/* A failed open keeps the buffer for the next attempt (a replayed open
	 * error is asked again by every command); nl_close frees it. */
	if (!nl.buf)
		nl.buf = malloc(NL_BUF_SIZE);
	if (!nl.buf)
		return -ENOMEM;
	err = source_replaying() ? replayed_open_error() : open_socket();
	if (source_recording() && err)
		record_open_error(err);
	if (err == 0)
		nl.opened = true;
	return err;
}

void nl_close(void)
{
	if (nl.sock)
		mnl_socket_close(nl.sock);
	nl.sock = NULL;
	free(nl.buf);
	nl.buf = NULL;
	nl.opened = false;
}

/* ---- requests ---- */

void nl_req_init(struct nl_req *r, uint16_t cmd, bool dump)
{
	memset(r, 0, sizeof(*r));
	r->cmd = cmd;
	r->dump = dump;
}

void nl_req_u32(struct nl_req *r, uint16_t type, uint32_t value)
{
	if (r->nattrs < (int)(sizeof(r->attr) / sizeof(r->attr[0]))) {
		r->attr[r->nattrs].type = type;
		r->attr[r->nattrs].value = value;
		r->nattrs++;
	}
}

void nl_req_str(struct nl_req *r, uint16_t type, const char *value)
{
	if (r->nattrs < (int)(sizeof(r->attr) / sizeof(r->attr[0]))) {
		r->attr[r->nattrs].type = type;
		r->attr[r->nattrs].str = value;
		r->nattrs++;
	}
}

/* Fixture file of a request: depends only on what was asked, not on seq/pid. */
static void fixture_name(const struct nl_req *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "netlink/cmd%u%s", r->cmd, r->dump ? "-dump" : "");

	for (int i = 0; i < r->nattrs && n > 0 && (size_t)n < len; i++) {
		if (r->attr[i].str)
			n += snprintf(buf + n, len - n, "-a%u=%s", r->attr[i].type, r->attr[i].str);
		else
			n += snprintf(buf + n, len - n, "-a%u=%u", r->attr[i].type, r->attr[i].value);
	}
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ".bin");
}

bool nl_chunk_ok(const void *buf, size_t len)
{
	const char *p = buf;

	while (len >= sizeof(struct nlmsghdr)) {
		struct nlmsghdr h;

		memcpy(&h, p, sizeof(h));	/* the chunk need not be aligned */
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
			return false;
		if (NLMSG_ALIGN(h.nlmsg_len) >= len)
			return true;
		p += NLMSG_ALIGN(h.nlmsg_len);
		len -= NLMSG_ALIGN(h.nlmsg_len);
	}
	return true;	/* a tail shorter than a header is ignored by libmnl too */
}

/* Parses one received chunk. A failure that is not the kernel's own error
 * reply means the bytes themselves are bad (or a dump raced a change: EINTR). */
static int feed(const char *chunk, size_t len, unsigned seq, unsigned portid, struct run_ctx *rc)
{
	if (!nl_chunk_ok(chunk, len)) {
		snprintf(nl.err_msg, sizeof(nl.err_msg), "malformed netlink reply (a message length runs past the data)");
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	int ret = mnl_cb_run2(chunk, len, seq, portid, data_cb, rc, ctl_cbs, NLMSG_MIN_TYPE);

	if (ret < 0 && !nl.kernel_err && (errno != EINTR || source_replaying())) {
		snprintf(nl.err_msg, sizeof(nl.err_msg), "malformed netlink reply (%s)", strerror(errno));
		errno = EBADMSG;
	}
	return ret;
}

static int run_replay(const struct nl_req *r, struct run_ctx *rc)
{
	char name[PATH_MAX];
	FILE *fp;
	int ret = MNL_CB_OK;

	fixture_name(r, name, sizeof(name));
	fp = source_open(name);
	if (!fp) {
		snprintf(nl.err_msg, sizeof(nl.err_msg), "the recording has no reply for this request (%s)", name);
		nl.no_recording = true;
		return -ENOENT;
	}
	while (ret > MNL_CB_STOP) {
		uint32_t len;

		if (fread(&len, sizeof(len), 1, fp) != 1)
			break;
		if (len == 0 || len > NL_BUF_SIZE || fread(nl.buf, 1, len, fp) != len) {
			fclose(fp);
			snprintf(nl.err_msg, sizeof(nl.err_msg), "fixture %s is truncated or corrupt", name);
			return -EBADMSG;
		}
		ret = feed(nl.buf, len, 0, 0, rc);
	}
	fclose(fp);
	return ret < 0 ? -(errno ? errno : EIO) : 0;
}

static int run_live(const struct nl_req *r, struct run_ctx *rc)
{
	char name[PATH_MAX];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl.buf);
	unsigned seq = ++nl.seq;
	int ret = MNL_CB_OK;

	nlh->nlmsg_type = NL_RDMA_TYPE(r->cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (r->dump ? NLM_F_DUMP : 0);
	nlh->nlmsg_seq = seq;
	for (int i = 0; i < r->nattrs; i++) {
		if (r->attr[i].str)
			mnl_attr_put_strz(nlh, r->attr[i].type, r->attr[i].str);
		else
			mnl_attr_put_u32(nlh, r->attr[i].type, r->attr[i].value);
	}
	if (mnl_socket_sendto(nl.sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	if (source_recording()) {
		fixture_name(r, name, sizeof(name));
		source_save(name, "", 0, false);
	}
	while (ret > MNL_CB_STOP) {
		ssize_t n = mnl_socket_recvfrom(nl.sock, nl.buf, NL_BUF_SIZE);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				snprintf(nl.err_msg, sizeof(nl.err_msg),
					 "the kernel did not answer within %d s", NL_TIMEOUT_SEC);
				return -ETIMEDOUT;
			}
			return -errno;
		}
		if (source_recording()) {
			uint32_t len = (uint32_t)n;

			source_save(name, &len, sizeof(len), true);
			source_save(name, nl.buf, n, true);
		}
		ret = feed(nl.buf, n, seq, nl.portid, rc);
	}
	return ret < 0 ? -(errno ? errno : EIO) : 0;
}

int nl_run(const struct nl_req *r, nl_msg_cb cb, void *data)
{
	struct run_ctx rc = { .cb = cb, .data = data };

	nl.err_msg[0] = '\0';
	nl.no_recording = false;
	if (!nl.opened) {
		int e = nl_open();

		if (e) {
			if (nl.open_failed)
				nl.open_failed(e);
			return -ENODEV;
		}
	}
	if (nl.busy) {
		/* One socket, one buffer: a nested request would eat the outer
		 * dump's messages. Collect first, then ask (see rd_dev_each). */
		snprintf(nl.err_msg, sizeof(nl.err_msg), "internal error: nested netlink request");
		return -EDEADLK;
	}
	nl.busy = true;
	int ret;

	/* NLM_F_DUMP_INTR (EINTR): the objects changed during the dump; ask again. */
	for (int attempt = 0; attempt < 3; attempt++) {
		errno = 0;
		nl.kernel_err = false;
		ret = source_replaying() ? run_replay(r, &rc) : run_live(r, &rc);
		if (ret != -EINTR || source_replaying())
			break;
	}

	nl.busy = false;
	if (ret == 0 && rc.cb_errno)
		ret = -rc.cb_errno;
	return ret;
}
