// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lower layers stand alone (issue #22): the Makefile links this file with
 * every object of util/, host/, netlink/, verbs/, path/ and snapshot/ and with no object
 * of the front end (rdmadiag/), so that a call back up (report_error(),
 * g_opts, an exit code) is an undefined symbol and `make unit` fails. What runs here checks the error record such a layer returns
 * instead of printing: the errno, the kind, and the words a message needs.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../host/source.h"
#include "../../netlink/nl.h"
#include "../../snapshot/snapshot.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/rdmadiag-lower-XXXXXX", sub[64];
	struct source_error e = { 0 };

	ok(source_init(NULL, "/nonexistent/rdmadiag-lower", &e) == -EINVAL && e.kind == SOURCE_REPLAY_UNUSABLE &&
		   e.why && !strcmp(e.why, strerror(ENOENT)),
	   "a replay directory that is not there: an error record with why, nothing printed");
	if (!mkdtemp(dir))
		return 1;
	ok(source_init(NULL, dir, &e) == -EINVAL && e.kind == SOURCE_REPLAY_UNUSABLE &&
		   !strcmp(e.why, "not a recording (it has neither netlink/ nor fs/)"),
	   "an empty directory is not a recording");
	snprintf(sub, sizeof(sub), "%s/netlink", dir);
	if (mkdir(sub, 0755))
		return 1;
	ok(source_init(NULL, dir, &e) == 0 && source_replaying(), "a recording replays");
	ok(nl_open() == 0, "the netlink layer opens a replay by itself, with no front end");
	nl_close();
	source_close();
	rmdir(sub);
	rmdir(dir);

	/* snapshot/: a refusal is an error record with the message's parts */
	struct snap_error se;
	FILE *fp;

	ok(snap_open("/nonexistent/rdmadiag-lower.tar", &fp, &se) == -ENOENT &&
		   !strcmp(se.what, "cannot use snapshot '/nonexistent/rdmadiag-lower.tar': No such file or directory") &&
		   !se.why[0] && !strcmp(se.next, "check the path given to --snapshot"),
	   "a snapshot that is not there: what and next, nothing printed");
	ok(snap_open("/tmp", &fp, &se) == -EISDIR && !strcmp(se.what, "cannot use snapshot '/tmp': it is a directory"),
	   "a directory is not a snapshot");
	return tap_done();
}
