// SPDX-License-Identifier: GPL-2.0-or-later
/* rdmadiag: global options (global_opts.c), then the dispatcher (cmd.c). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/source.h"
#include "common.h"
#include "global_opts.h"
#include "lower_err.h"
#include "output.h"
#include "rdmadiag.h"
#include "snapshot.h"

int main(int argc, char **argv)
{
	int rc = EXIT_OK;
	int first;

	/* A closed pipe (rdmadiag ... | head) must not kill us mid-cleanup. */
	signal(SIGPIPE, SIG_IGN);
	out_init(stdout, (struct out_mode){ 0 });
	lower_layers_setup();
	/* Hidden commands of the completion functions: before anything opens. */
	if (argc >= 2 && !strcmp(argv[1], "__complete"))
		return complete_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "__tables"))
		return tables_main();
	first = global_opts_parse(argc, argv, &rc);
	if (first < 0 || first > argc)
		return rc;
	out_init(stdout, global_opts_out_mode());
	/* Help and a wrong command line need neither the host nor a recording:
	 * answered before --snapshot unpacks, --replay (or RDMADIAG_REPLAY)
	 * opens or --record makes its directory, so that they behave the same
	 * with any of them as without (exit 0 or 2, nothing read or left). */
	rc = cmd_check_line(argc - first, argv + first);
	if (rc >= 0)
		return rc;
	if (g_opts.snapshot) {
		snapshot_signals_catch();
		rc = snapshot_replay_begin(g_opts.snapshot, argc - first, argv + first, &g_opts.replay_dir);
		if (rc)
			return snapshot_signals_end(rc);
	} else if (!g_opts.replay_dir) {
		g_opts.replay_dir = getenv("RDMADIAG_REPLAY");
		/* as --record with --replay: one would be silently ignored */
		if (g_opts.replay_dir && g_opts.record_dir) {
			usage_error("--record cannot be used while RDMADIAG_REPLAY is set (%s): unset it to record this host",
				    g_opts.replay_dir);
			return EXIT_USAGE;
		}
	}
	if (!g_opts.record_dir && !g_opts.replay_dir)
		g_opts.record_dir = getenv("RDMADIAG_RECORD");
	if (source_start(g_opts.record_dir, g_opts.replay_dir)) {
		snapshot_replay_end();
		return snapshot_signals_end(EXIT_HOST);
	}
	rc = cmd_dispatch(argc - first, argv + first);
	/* a recording that lacks a reply the command needed says nothing about
	 * the host: the command has said what was missing (rdmadiag(8), exit 2) */
	if (replay_gap() && (rc == EXIT_HOST || rc == EXIT_RUNTIME))
		rc = EXIT_USAGE;
	source_close();
	snapshot_replay_end();
	return snapshot_signals_end(rc < 0 || rc > 255 ? EXIT_RUNTIME : rc);
}
