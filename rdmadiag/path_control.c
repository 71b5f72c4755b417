// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tester's side of the control channel once the session runs: a request
 * and its reply, and the keepalive that a long one-sided stage sends without
 * waiting for its reply.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>

#include "path_int.h"

/* The serve answers requests in order, so the replies owed to keepalives
 * come before the reply to any later request: read past them, or, with
 * ARRIVED_ONLY, past those that have begun to arrive (whole within moments
 * then). */
static int read_owed(struct tester *t, int64_t deadline, bool arrived_only, char *why, size_t len)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };
	struct pp_msg m;

	while (t->counters_owed) {
		int rc;

		if (arrived_only && (poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN)))
			return 0;
		rc = pp_expect(t->fd, PP_COUNTERS, &m, deadline, why, len);
		if (rc)
			return rc;
		t->counters_owed--;
	}
	return 0;
}

int ctl_ask(struct tester *t, struct pp_msg *m, uint8_t reply, int64_t deadline, char *why, size_t len)
{
	int rc = pp_send(t->fd, m, deadline);

	if (rc) {
		snprintf(why, len, "control channel to %s: %s", peer_name(t), pp_strerror(rc));
		return rc;
	}
	rc = read_owed(t, deadline, false, why, len);
	return rc ? rc : pp_expect(t->fd, reply, m, deadline, why, len);
}

void ctl_collect(struct tester *t)
{
	char why[256];

	if (t->fd >= 0)
		(void)read_owed(t, pp_now_ms() + 200, true, why, sizeof(why));
}

/* A one-sided stage that runs long (a lossy path drains its operations
 * slowly, or a --duration longer than the serve's idle timeout) says nothing
 * on the control channel, and the peer's serve ends a session silent for its
 * idle timeout (30 s by default): a request every serve answers keeps the
 * session. Its reply is not waited for: under heavy loss the control
 * channel's TCP may take seconds to bring it, and the stage must go on. */
void peer_keepalive(struct tester *t)
{
	struct pp_msg m = { .type = PP_COUNTERS_REQ };

	if (!t->peer || t->fd < 0 || t->in_phase)
		return;
	ctl_collect(t);
	if (!pp_send(t->fd, &m, pp_now_ms() + 1000))
		t->counters_owed++;
}
