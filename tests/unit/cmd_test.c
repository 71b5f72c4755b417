// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher against a table of test objects (this file's all_objects
 * replaces the real one at link time): prefixes, ambiguity, option kinds,
 * bounds, repeated options, positional words, DEV/PORT. Its options are real
 * ids (opt_id.h) in a table of their own kinds.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../rdmadiag/output.h"
#include "../../rdmadiag/rdmadiag.h"
#include "tap.h"

static struct cmd_ctx last;
static int runs;

static int record(struct cmd_ctx *ctx)
{
	last = *ctx;
	runs++;
	return 0;
}

static const char *const colors[] = { "red", "green", NULL };
static const struct cmd_opt opts[] = {
	{ .id = O_COUNT, .kind = OPT_UINT, .metavar = "N", .help = "how many", .min = 1, .max = 100 },
	{ .id = O_FORMAT, .kind = OPT_CHOICE, .metavar = "C", .help = "a colour", .choices = colors },
	{ .id = O_ONLY, .kind = OPT_LIST, .metavar = "IDS", .help = "some colours", .choices = colors },
	{ .id = O_BIND, .kind = OPT_STR, .metavar = "S", .help = "a name" },
	{ .id = O_STRICT, .kind = OPT_FLAG, .help = "be strict" },
	{ 0 },
};
static const struct action alpha_actions[] = {
	{ .name = "show", .synopsis = "[X]", .summary = "show", .run = record, .opts = opts },
	{ .name = "shout", .summary = "shout", .run = record },
	{ .name = "check", .summary = "check", .run = record, .opts = opts },
	{ 0 },
};
static const struct object alpha = { .name = "alpha", .summary = "first", .actions = alpha_actions };
static const struct object alpine = { .name = "alpine", .summary = "second", .actions = alpha_actions };
static const struct object beta = { .name = "beta", .summary = "third", .actions = alpha_actions };
const struct object *const all_objects[] = { &alpha, &alpine, &beta, NULL };

/* Runs the dispatcher on a space-separated command line. */
static int run(const char *line)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	memset(&last, 0, sizeof(last));
	runs = 0;
	fflush(stdout);
	return cmd_dispatch(argc, argv);
}

static const struct opt_value *opt(enum opt_id id)
{
	return ctx_opt(&last, id);
}

/* Reads an option the last action does not declare, in a child: true when
 * that ends as the build promises (an abort with STRICT_OPT_LOOKUP, else
 * "not given"). */
static bool undeclared_read_caught(FILE *tap)
{
	int status;
	pid_t pid;

	fflush(tap);
	pid = fork();
	if (pid == 0)
		_exit(opt(O_PEERS)->set ? 1 : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
#ifdef STRICT_OPT_LOOKUP
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
#else
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
#endif
}

int main(void)
{
	struct dev_port dp;

	out_init(fopen("/dev/null", "w"), (struct out_mode){ .color = COLOR_NEVER });
	/* help and usage errors are not part of the TAP stream */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	int tap_fd = dup(1);
	FILE *tap = fdopen(tap_fd, "w");

	if (!tap || !freopen("/dev/null", "w", stdout))
		return 1;
	tap_out = tap;

	ok(run("alpha show") == 0 && runs == 1 && last.action == &alpha_actions[0], "exact words dispatch");
	ok(run("be che") == 0 && last.object == &beta && last.action == &alpha_actions[2],
	   "unique prefixes of object and action");
	ok(run("alp show") == EXIT_USAGE && runs == 0, "an ambiguous object prefix exits 2");
	ok(run("alpha sh") == EXIT_USAGE && runs == 0, "an ambiguous action prefix exits 2");
	ok(run("alpha") == 0 && last.action == &alpha_actions[0], "no action runs the first one");
	ok(run("gamma") == EXIT_USAGE, "an unknown object exits 2");
	ok(run("alpha show --count 7 x") == 0 && opt(O_COUNT)->num == 7 && last.argc == 1 &&
		   !strcmp(last.argv[0], "x"),
	   "a number option and a positional word");
	ok(run("alpha show --count=100") == 0 && opt(O_COUNT)->num == 100, "--opt=value form, upper bound");
	ok(run("alpha show --count 101") == EXIT_USAGE, "above the bound exits 2");
	ok(run("alpha show --count 0") == EXIT_USAGE, "below the bound exits 2");
	ok(run("alpha show --count -5") == EXIT_USAGE, "a negative number exits 2");
	ok(run("alpha show --count 5x") == EXIT_USAGE, "trailing garbage exits 2");
	ok(run("alpha show --count 99999999999999999999999") == EXIT_USAGE, "overflow exits 2");
	ok(run("alpha show --count") == EXIT_USAGE, "a missing value exits 2");
	ok(run("alpha show --count 1 --count 2") == EXIT_USAGE, "an option given twice exits 2");
	ok(run("alpha show --cou 3") == 0 && opt(O_COUNT)->num == 3, "unique prefixes of options");
	ok(run("alpha show --format green") == 0 && !strcmp(opt(O_FORMAT)->str, "green"), "a choice");
	ok(run("alpha show --format blue") == EXIT_USAGE, "a value outside the choices exits 2");
	ok(run("alpha show --only red,green") == 0 && opt(O_ONLY)->set, "a list of choices");
	ok(run("alpha show --only red,,blue") == EXIT_USAGE, "a list with an unknown item exits 2");
	ok(run("alpha show --only ,") == EXIT_USAGE, "an empty list exits 2");
	ok(run("alpha show --strict") == 0 && opt(O_STRICT)->set, "a flag");
	ok(run("alpha show --strict=yes") == EXIT_USAGE, "a flag with a value exits 2");
	ok(run("alpha show --nope") == EXIT_USAGE, "an unknown option exits 2");
	ok(run("alpha show -z") == EXIT_USAGE, "a short option after the action exits 2");
	ok(run("alpha show -- --count") == 0 && last.argc == 1 && !strcmp(last.argv[0], "--count"),
	   "-- ends the options");
	ok(run("alpha shout --count 1") == EXIT_USAGE, "an action without options refuses them");
	ok(run("alpha show help") == 0 && runs == 0, "ACTION help prints help without running");
	ok(run("alpha help") == 0 && runs == 0, "OBJECT help prints help without running");
	ok(run("help alpha") == 0 && runs == 0, "help OBJECT prints help without running");
	ok(run("help be che") == 0 && runs == 0, "help OBJECT ACTION takes prefixes as the command does");
	ok(run("help gamma") == EXIT_USAGE, "help of an unknown object exits 2");
	ok(run("help alp") == EXIT_USAGE, "help of an ambiguous object exits 2");
	ok(run("help alpha frob") == EXIT_USAGE, "help of an unknown action exits 2");
	ok(run("help alpha show x") == EXIT_USAGE && runs == 0, "help OBJECT ACTION takes nothing more");
	ok(run("alpha show -count 1") == EXIT_USAGE && runs == 0, "a long option with one dash exits 2");
	ok(run("alpha show --bind x") == 0 && !strcmp(opt(O_BIND)->str, "x"), "a string");
	ok(opt_index(last.action, O_PEERS) < 0 && opt_index_name(last.action, "--peers") < 0,
	   "an option the action lacks has no index, by id or by name");
	ok(opt_index(last.action, O_STRICT) == 4 && opt_index_name(last.action, "--strict") == 4,
	   "the parser's name of a row is the name of its id");
	ok(undeclared_read_caught(tap), "reading an option the action lacks %s",
#ifdef STRICT_OPT_LOOKUP
	   "aborts (STRICT_OPT_LOOKUP)"
#else
	   "reads as not given"
#endif
	);

	ok(parse_dev_port("mlx5_0/1", &dp) == 0 && !strcmp(dp.dev, "mlx5_0") && dp.port == 1, "DEV/PORT");
	ok(parse_dev_port("rxe0", &dp) == 0 && dp.port == 0, "DEV alone means every port");
	ok(parse_dev_port("rxe0/0", &dp) < 0, "port 0 is refused");
	ok(parse_dev_port("rxe0/256", &dp) < 0, "port above 255 is refused");
	ok(parse_dev_port("/1", &dp) < 0, "an empty device is refused");
	ok(parse_dev_port("rxe0/", &dp) < 0, "an empty port is refused");
	ok(parse_dev_port("rx\te0", &dp) < 0, "control characters are refused");
	ok(parse_dev_port("\xff\xfe", &dp) < 0, "bytes that are not ASCII are refused");
	char longname[200];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ok(parse_dev_port(longname, &dp) < 0, "a name longer than any device is refused");
	return tap_done();
}
