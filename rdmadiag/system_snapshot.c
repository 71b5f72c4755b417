// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag system snapshot; see snapshot.h. Every replayable command runs as
 * a child `rdmadiag --record DIR -d -j ...` (all at once, so the counter
 * intervals overlap), then this process records a host inventory the same
 * way, and packs the directory into a tar with a MANIFEST of SHA-256
 * checksums (snapshot/inventory.c, snapshot/pack.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../snapshot/snapshot.h"
#include "common.h"
#include "lower_err.h"
#include "output.h"
#include "snapshot.h"

static const struct snap_cmd snap_cmds[] = {
	{ "dev-show", "dev", "show", false },
	{ "link-show", "link", "show", false },
	{ "gid-show", "gid", "show", false },
	{ "qp-show", "qp", "show", false },
	{ "counter-show", "counter", "show", false },
	{ "counter-check", "counter", "check", true },
	{ "link-check", "link", "check", false },
	{ "topo-show", "topo", "show", false },
	{ "system-check", "system", "check", true },
};
#define N_SNAP_CMDS (sizeof(snap_cmds) / sizeof(snap_cmds[0]))

#define CHILD_TIMEOUT_MS 120000

/* ---- the command tables ---- */

static const struct action *action_named(const struct object *obj, const char *name)
{
	for (const struct action *a = obj->actions; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

static const struct action *snap_cmd_action(const struct snap_cmd *c)
{
	int ambiguous;
	const struct object *obj = object_find(c->object, &ambiguous);

	return obj && !strcmp(obj->name, c->object) ? action_named(obj, c->action) : NULL;
}

const struct snap_cmd *snap_cmd_for(const struct action *a)
{
	for (size_t i = 0; i < N_SNAP_CMDS; i++) {
		const struct action *c = snap_cmd_action(&snap_cmds[i]);

		if (c && a && c->run == a->run)
			return &snap_cmds[i];
	}
	return NULL;
}

struct child {
	const struct snap_cmd *cmd;
	pid_t pid;
	int status;		/* exit code, or -1 killed / not started */
};

static pid_t start_child(const char *work, const struct snap_cmd *c, const char *interval)
{
	char rec[PATH_MAX], out[PATH_MAX], err[PATH_MAX];
	pid_t pid;

	snprintf(rec, sizeof(rec), "%s/rec/%s", work, c->slug);
	snprintf(out, sizeof(out), "%s/out/%s.json", work, c->slug);
	snprintf(err, sizeof(err), "%s/out/%s.stderr", work, c->slug);
	fflush(NULL);
	pid = fork();
	if (pid != 0)
		return pid;
	/* child: its own stdout/stderr files, nothing inherited that redirects the source */
	int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
		_exit(127);
	unsetenv("RDMADIAG_REPLAY");
	unsetenv("RDMADIAG_RECORD");
	char *argv[] = { "rdmadiag", "--record", rec, "-d", "-j", (char *)c->object, (char *)c->action,
			 c->interval && interval ? "--interval" : NULL, (char *)interval, NULL };

	execv("/proc/self/exe", argv);
	_exit(127);
}

/* Waits for every child, killing those past the deadline. */
static void wait_children(struct child *ch, int n)
{
	int left = 0;

	for (int i = 0; i < n; i++)
		left += ch[i].pid > 0;
	for (int waited = 0; left > 0; waited += 50) {
		for (int i = 0; i < n; i++) {
			int st;

			if (ch[i].pid <= 0 || waitpid(ch[i].pid, &st, waited >= CHILD_TIMEOUT_MS ? 0 : WNOHANG) <= 0)
				continue;
			ch[i].status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
			ch[i].pid = 0;
			left--;
		}
		if (waited == CHILD_TIMEOUT_MS)
			for (int i = 0; i < n; i++)
				if (ch[i].pid > 0)
					kill(ch[i].pid, SIGKILL);
		if (left)
			poll(NULL, 0, 50);
	}
}

static int run_commands(const char *work, const char *interval, struct child *ch)
{
	char dir[PATH_MAX];
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/out", work);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/rec", work);
	mkdir(dir, 0700);
	for (size_t i = 0; i < N_SNAP_CMDS; i++) {
		if (!snap_cmd_action(&snap_cmds[i]))
			continue;	/* not in this build */
		ch[n].cmd = &snap_cmds[i];
		ch[n].status = -1;
		ch[n].pid = start_child(work, &snap_cmds[i], interval);
		if (ch[n].pid < 0) {
			report_error("cannot start a command for the snapshot", strerror(errno),
				     "retry; the host may be out of processes or memory");
			wait_children(ch, n);
			return -1;
		}
		n++;
	}
	wait_children(ch, n);
	return n;
}

static const struct field snap_fields[] = {
	{ "file", NULL, FT_STR, FF_HEAD, NULL },
	{ "size_bytes", NULL, FT_U64, 0, NULL },
	{ "files", NULL, FT_U64, 0, NULL },
	{ "redacted", NULL, FT_BOOL, 0, NULL },
	{ "command", NULL, FT_STR, FF_HEAD, NULL },
	{ "exit_code", NULL, FT_S64, 0, NULL },
};

static void print_result(const char *file, const struct pack_result *pr, const struct child *ch, int n,
			 bool redact)
{
	out_obj_begin("snapshot");
	out_str(&snap_fields[0], file);
	out_u64(&snap_fields[1], pr->bytes);
	out_u64(&snap_fields[2], (uint64_t)pr->files);
	out_bool(&snap_fields[3], redact);
	out_obj_end();
	out_list_begin("commands");
	for (int i = 0; i < n; i++) {
		char words[64];

		snprintf(words, sizeof(words), "%s %s", ch[i].cmd->object, ch[i].cmd->action);
		out_obj_begin(NULL);
		out_str(&snap_fields[4], words);
		out_s64(&snap_fields[5], ch[i].status);
		out_obj_end();
	}
	out_list_end();
}

/* "command SLUG EXIT OBJECT ACTION" lines of the MANIFEST. */
static char *command_lines(const struct child *ch, int n)
{
	size_t cap = 128 * (size_t)(n + 1);
	char *s = malloc(cap);
	size_t len = 0;

	for (int i = 0; s && i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "command %s %d %s %s\n", ch[i].cmd->slug, ch[i].status,
					ch[i].cmd->object, ch[i].cmd->action);
	if (s && !n)
		s[0] = '\0';
	return s;
}

static void default_name(char *buf, size_t len)
{
	char host[128] = "host";
	time_t now = time(NULL);
	struct tm tm;

	gethostname(host, sizeof(host) - 1);
	gmtime_r(&now, &tm);
	snprintf(buf, len, "rdmadiag-snapshot-%s-%04d%02d%02dT%02d%02d%02dZ.tar", host, tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* The snapshot replaces FILE by rename(): only a regular file, or nothing,
 * may be there. A device (-o /dev/null) or a link would be replaced, not
 * written to; a directory cannot be. */
static bool target_refused(const char *file)
{
	char what[PATH_MAX + 64];
	struct stat st;

	snprintf(what, sizeof(what), "cannot write the snapshot to '%s'", file);
	if (lstat(file, &st)) {
		/* a new file: its directory must be there (found now, not after
		 * the commands have run for seconds) */
		char dir[PATH_MAX];
		const char *slash = strrchr(file, '/');

		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) + 1 : 1, slash ? file : ".");
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return false;
		report_error(what, "its directory does not exist", "create it, or give another place: -o DIR/NAME.tar");
		return true;
	}
	if (S_ISREG(st.st_mode))
		return false;
	report_error(what,
		     S_ISDIR(st.st_mode) ? "it is a directory"
		     : S_ISLNK(st.st_mode) ? "it is a symbolic link, which the snapshot would replace, not follow"
					   : "it is a device or special file, which the snapshot would replace",
		     "give the name of a new or regular file: -o DIR/NAME.tar");
	return true;
}

int system_snapshot(struct cmd_ctx *ctx)
{
	const struct opt_value *out = ctx_opt(ctx, O_OUTPUT);
	bool redact = ctx_opt(ctx, O_REDACT)->set;
	struct child ch[N_SNAP_CMDS];
	struct pack_result pr = { 0 };
	struct snap_error e;
	char work[PATH_MAX], file[PATH_MAX];
	int n, rc;

	if (g_opts.record_dir || g_opts.replay_dir) {
		usage_error("system snapshot reads this host; it cannot run under --record, --replay or --snapshot");
		return EXIT_USAGE;
	}
	if (out->set && ctx_opt(ctx, O_OUTPUT_SHORT)->set) {
		usage_error("-o and --output are the same option: give the file once");
		return EXIT_USAGE;
	}
	if (!out->set)
		out = ctx_opt(ctx, O_OUTPUT_SHORT);
	if (out->set)
		snprintf(file, sizeof(file), "%s", out->str);
	else
		default_name(file, sizeof(file));
	if (target_refused(file))
		return EXIT_USAGE;
	if (snap_work_dir(work, sizeof(work), &e)) {
		report_snap_error(&e);
		return EXIT_RUNTIME;
	}
	/* Without --interval each command samples at its own default (counter
	 * check 2 s, system check 1 s), so a plain replay prints what the plain
	 * command printed live. */
	n = run_commands(work, ctx_opt_str(ctx, O_INTERVAL, NULL), ch);
	rc = n < 0 ? EXIT_RUNTIME : 0;
	if (!rc && snap_host_inventory(work, snap_tool(), &e)) {
		report_snap_error(&e);
		rc = EXIT_RUNTIME;
	}
	if (!rc) {
		char *commands = command_lines(ch, n);

		if (!commands)
			rc = EXIT_RUNTIME;
		else if (snap_pack(work, file, commands, redact, snap_tool(), &pr, &e)) {
			report_snap_error(&e);
			rc = EXIT_RUNTIME;
		}
		free(commands);
	}
	snap_remove_tree(work);
	if (!rc)
		print_result(file, &pr, ch, n, redact);
	return rc;
}

const struct cmd_opt system_snapshot_opts[] = {
	{ .id = O_OUTPUT, .kind = OPT_STR, .metavar = "FILE",
	  .help = "where to write it (default rdmadiag-snapshot-HOST-TIME.tar here)", .complete = COMPLETE_FILE },
	{ .id = O_OUTPUT_SHORT, .kind = OPT_STR, .metavar = "FILE", .help = "same as --output",
	  .complete = COMPLETE_FILE },
	{ .id = O_REDACT, .kind = OPT_FLAG,
	  .help = "replace addresses, GIDs, GUIDs, MACs and host names by placeholders" },
	{ .id = O_INTERVAL, .kind = OPT_SECONDS, .metavar = "S",
	  .help = "seconds between the two samples of counter check and system check (default: their own, 2 and 1)",
	  .max = 60 },
	{ 0 },
};
