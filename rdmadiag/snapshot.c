// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdmadiag system snapshot and --snapshot FILE; see snapshot.h.
 *
 * Taking one: every replayable command runs as a child `rdmadiag --record
 * DIR -d -j ...` (all at once, so the counter intervals overlap), then this
 * process records a host inventory the same way, and packs the directory
 * into a tar with a MANIFEST of SHA-256 checksums. Replaying: the archive is
 * checked against the MANIFEST while it is unpacked into a private
 * directory, and the command runs with --replay on its own recording.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../host/source.h"
#include "../util/sha256.h"
#include "../util/snapshot_tar.h"
#include "common.h"
#include "output.h"
#include "snapshot.h"
#include "snapshot_int.h"

/* What a snapshot records: the read-only commands, each replayable alone. */
static const struct snap_cmd {
	const char *slug;
	const char *object, *action;
	bool interval;		/* takes --interval */
} snap_cmds[] = {
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

/* ---- small file helpers ---- */

static int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	for (size_t done = 0; done < len; done += (size_t)n) {
		n = write(fd, (const char *)data + done, len - done);
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			close(fd);
			return -e;
		}
	}
	return close(fd) ? -errno : 0;
}

/* mkdir -p for the parents of root/rel (rel already checked safe). */
static int make_parents(const char *root, const char *rel)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return unlink(path);
	while ((e = readdir(d))) {
		char sub[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			remove_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	return rmdir(path);
}

static int make_work_dir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/rdmadiag-snapshot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "cannot create a temporary directory in %s: %s",
			 tmp && *tmp ? tmp : "/tmp", strerror(errno));
		report_error(what, NULL, "set TMPDIR to a writable directory with some free space");
		return -1;
	}
	return 0;
}

/* ---- replay ---- */

static char replay_root[PATH_MAX];
static char replay_rec[PATH_MAX + 64];

static void snapshot_refused(const char *file, const char *why, const char *next)
{
	char what[PATH_MAX + 512];

	snprintf(what, sizeof(what), "cannot use snapshot '%s': %s", file, why);
	report_error(what, NULL, next ? next : "take a new one on the host: rdmadiag system snapshot -o FILE");
}

/* Writes one checked member under the unpack directory. */
static int unpack_member(const char *file, struct manifest *m, const struct tar_entry *e)
{
	struct man_file *f = manifest_find(m, e->name);
	char sha[65], path[PATH_MAX], why[TAR_NAME_MAX + 128];
	int err;

	if (!f || f->seen) {
		snprintf(why, sizeof(why), "member '%s' is %s the MANIFEST (tampered)", e->name,
			 f ? "twice in the archive, once in" : "not listed in");
		snapshot_refused(file, why, NULL);
		return -1;
	}
	f->seen = true;
	sha256_hex(e->data, e->size, sha);
	if (f->size != e->size || strcmp(f->sha, sha)) {
		snprintf(why, sizeof(why), "checksum mismatch for '%s' (the file was changed or damaged)", e->name);
		snapshot_refused(file, why, NULL);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", replay_root, e->name);
	err = make_parents(replay_root, e->name);
	if (!err)
		err = write_file(path, e->data, e->size);
	if (err) {
		snprintf(why, sizeof(why), "cannot unpack '%s': %s", e->name, strerror(-err));
		snapshot_refused(file, why, "set TMPDIR to a writable directory with some free space");
		return -1;
	}
	return 0;
}

static int read_manifest(const char *file, FILE *fp, struct manifest *m)
{
	struct tar_entry e;
	enum tar_status st = tar_next(fp, &e);
	char why[512];

	if (st != TAR_OK || strcmp(e.name, "MANIFEST")) {
		snprintf(why, sizeof(why), "not an rdmadiag snapshot (%s)",
			 st == TAR_OK ? "the first member is not MANIFEST" :
			 st == TAR_END ? "the archive is empty" : tar_status_text(st));
		free(e.data);
		snapshot_refused(file, why, NULL);
		return -1;
	}
	int rc = manifest_parse(m, (char *)e.data, e.size, why, sizeof(why));

	free(e.data);
	if (rc) {
		snapshot_refused(file, why,
				 rc == MANIFEST_NEWER ? "replay it with a newer rdmadiag (see rdmadiag -V on the host "
							"that took it), or take a new one with this version" : NULL);
		return -1;
	}
	return 0;
}

static int unpack_members(const char *file, FILE *fp, struct manifest *m)
{
	struct tar_entry e;
	enum tar_status st;
	char why[TAR_NAME_MAX + 128];

	while ((st = tar_next(fp, &e)) == TAR_OK) {
		int r = unpack_member(file, m, &e);

		free(e.data);
		if (r)
			return -1;
	}
	if (st != TAR_END) {
		snprintf(why, sizeof(why), "%s", tar_status_text(st));
		snapshot_refused(file, why, NULL);
		return -1;
	}
	const struct man_file *missing = manifest_first_unseen(m);

	if (missing) {
		snprintf(why, sizeof(why), "'%s' listed in the MANIFEST is missing (truncated)", missing->path);
		snapshot_refused(file, why, NULL);
		return -1;
	}
	return 0;
}

static const struct snap_cmd *snap_cmd_for(const struct action *a)
{
	for (size_t i = 0; i < N_SNAP_CMDS; i++) {
		const struct action *c = snap_cmd_action(&snap_cmds[i]);

		if (c && a && c->run == a->run)
			return &snap_cmds[i];
	}
	return NULL;
}

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
		int n = snprintf(next, sizeof(next), "replay one of the commands it holds: ");

		snprintf(why, sizeof(why), "it has no recording for '%s %s'", argv[0], argc > 1 ? argv[1] : "");
		manifest_command_list(m, next + n, sizeof(next) - n);
		snapshot_refused(file, why, next);
		return EXIT_USAGE;
	}
	snprintf(replay_rec, sizeof(replay_rec), "%s/rec/%s", replay_root, c->slug);
	return 0;
}

int snapshot_replay_begin(const char *file, int argc, char **argv, const char **replay_dir)
{
	struct manifest m = { 0 };
	FILE *fp = fopen(file, "rb");
	int rc = EXIT_HOST;
	struct stat st;

	if (!fp) {
		snapshot_refused(file, strerror(errno), "check the path given to --snapshot");
		return EXIT_HOST;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		/* fopen() takes a directory; its first read fails as if truncated */
		snapshot_refused(file, "it is a directory", "give --snapshot the .tar file that system snapshot wrote");
		fclose(fp);
		return EXIT_HOST;
	}
	if (read_manifest(file, fp, &m) == 0 && make_work_dir(replay_root, sizeof(replay_root)) == 0) {
		if (unpack_members(file, fp, &m) == 0)
			rc = choose_recording(file, &m, argc, argv);
	}
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
		remove_tree(replay_root);
	replay_root[0] = '\0';
	replay_rec[0] = '\0';
}

/* ---- taking one ---- */

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
	if (make_work_dir(work, sizeof(work)))
		return EXIT_RUNTIME;
	/* Without --interval each command samples at its own default (counter
	 * check 2 s, system check 1 s), so a plain replay prints what the plain
	 * command printed live. */
	n = run_commands(work, ctx_opt_str(ctx, O_INTERVAL, NULL), ch);
	rc = n < 0 ? EXIT_RUNTIME : 0;
	if (!rc)
		rc = snap_host_inventory(work);
	if (!rc) {
		char *commands = command_lines(ch, n);

		rc = commands ? snap_pack(work, file, commands, redact, &pr) : EXIT_RUNTIME;
		free(commands);
	}
	remove_tree(work);
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
