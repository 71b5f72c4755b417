// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag --snapshot FILE CMD; see snapshot.h. The archive is checked
 * against its MANIFEST while it is unpacked into a private directory
 * (snapshot/unpack.c), and the command runs with --replay on its own
 * recording, chosen here from the command tables.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../snapshot/snapshot.h"
#include "common.h"
#include "lower_err.h"
#include "snapshot.h"

/* The action argv names (unique prefixes, hidden aliases in full), as the
 * dispatcher would pick it; NULL when it names none. */
static const struct action *resolve_action(int argc, char **argv)
{
	int ambiguous, found = -1, n = 0;
	const struct object *obj;

	if (argc < 1 || !(obj = object_find(argv[0], &ambiguous)))
		return NULL;
	if (argc < 2 || argv[1][0] == '-')
		return obj->actions;
	for (int i = 0; obj->actions[i].name; i++) {
		const struct action *a = &obj->actions[i];

		if (!strcmp(a->name, argv[1]))
			return a;
		if (!(a->flags & HIDDEN) && !strncmp(a->name, argv[1], strlen(argv[1]))) {
			found = i;
			n++;
		}
	}
	return n == 1 ? &obj->actions[found] : NULL;
}

static char replay_root[PATH_MAX];
static char replay_rec[PATH_MAX + 64];

static int choose_recording(const char *file, const struct manifest *m, int argc, char **argv)
{
	const struct action *a = resolve_action(argc, argv);
	const struct snap_cmd *c;

	if (!a) {
		/* help, or a typo the dispatcher explains; nothing may be read live */
		snprintf(replay_rec, sizeof(replay_rec), "%s/rec", replay_root);
		return 0;
	}
	if (a->run == system_snapshot) {
		usage_error("--snapshot replays commands from a snapshot; it cannot take one");
		return EXIT_USAGE;
	}
	c = snap_cmd_for(a);
	if (!c || !manifest_has_command(m, c->slug)) {
		char why[512], next[512];
		struct snap_error e;
		int n = snprintf(next, sizeof(next), "replay one of the commands it holds: ");

		snprintf(why, sizeof(why), "it has no recording for '%s %s'", argv[0], argc > 1 ? argv[1] : "");
		manifest_command_list(m, next + n, sizeof(next) - n);
		snap_refused(&e, file, why, next);
		report_snap_error(&e);
		return EXIT_USAGE;
	}
	snprintf(replay_rec, sizeof(replay_rec), "%s/rec/%s", replay_root, c->slug);
	return 0;
}

int snapshot_replay_begin(const char *file, int argc, char **argv, const char **replay_dir)
{
	struct manifest m = { 0 };
	struct snap_error e;
	FILE *fp;
	int rc = EXIT_HOST;

	if (snap_open(file, &fp, &e)) {
		report_snap_error(&e);
		return EXIT_HOST;
	}
	if (snap_read_manifest(file, fp, snap_tool(), &m, &e) || snap_work_dir(replay_root, sizeof(replay_root), &e) ||
	    snap_unpack_members(file, fp, &m, replay_root, &e))
		report_snap_error(&e);
	else
		rc = choose_recording(file, &m, argc, argv);
	fclose(fp);
	manifest_free(&m);
	if (rc)
		snapshot_replay_end();
	*replay_dir = rc == 0 && replay_rec[0] ? replay_rec : NULL;
	if (rc == 0 && !*replay_dir)
		snapshot_replay_end();
	return rc;
}

static volatile sig_atomic_t replay_signal;

static void on_replay_signal(int sig)
{
	replay_signal = sig;
	interrupt_note(sig);	/* a command between its own handlers stops too */
}

void snapshot_signals_catch(void)
{
	struct sigaction sa = { .sa_handler = on_replay_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int snapshot_signals_end(int rc)
{
	int sig = replay_signal;

	if (sig) {
		/* the tree is gone: end as the signal would have, for the shell */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}

void snapshot_replay_end(void)
{
	if (replay_root[0])
		snap_remove_tree(replay_root);
	replay_root[0] = '\0';
	replay_rec[0] = '\0';
}
