// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The completion engine over a table that has every kind of option, a check
 * id list and filter keywords (the real objects may not have them all yet).
 * This file defines all_objects itself, so objects.o is not linked in.
 */
#include <stdlib.h>
#include <unistd.h>

#include "../../rdmadiag/rdmadiag.h"
#include "../../rdmadiag/resource.h"
#include "tap.h"

static int run_nop(struct cmd_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static const char *const ids[] = { "port.state", "port.phys_state", "gid.roce_v2", "netdev.mtu", NULL };
static const char *const layers[] = { "ethernet", "infiniband", NULL };
static const char *const formats[] = { "text", "prometheus", NULL };

static const struct cmd_opt check_opts[] = {
	{ .id = O_LIST, .kind = OPT_FLAG, .help = "list the checks" },
	{ .id = O_ONLY, .kind = OPT_LIST, .metavar = "ID,...", .help = "run only these", .choices = ids,
	  .complete = COMPLETE_CHECK_ID },
	{ .id = O_SKIP, .kind = OPT_LIST, .metavar = "ID,...", .help = "skip these", .choices = ids,
	  .complete = COMPLETE_CHECK_ID },
	{ .id = O_EXPECT_MTU, .kind = OPT_UINT, .metavar = "N", .help = "expected MTU", .min = 256, .max = 9216 },
	{ .id = O_EXPECT_LINK_LAYER, .kind = OPT_CHOICE, .metavar = "L", .help = "link layer", .choices = layers },
	{ .id = O_FORMAT, .kind = OPT_CHOICE, .metavar = "F", .help = "format", .choices = formats },
	{ .id = O_PEERS, .kind = OPT_STR, .metavar = "FILE", .help = "a file", .complete = COMPLETE_FILE },
	{ 0 },
};

static const struct rfilter_key qp_keys[] = {
	{ .name = "lqpn", .field = RF_ID, .kind = RFK_NUM },
	{ .name = "state", .field = RF_STATE, .kind = RFK_ENUM, .values = "reset init rtr rts err" },
	{ .name = "type", .field = RF_TYPE, .kind = RFK_ENUM, .values = "rc ud" },
	{ .name = "pid", .field = RF_PID, .kind = RFK_NUM },
	{ NULL },
};

/* test { peer ADDR [peer ADDR]... | loop [DEV[/PORT]] | set DEV/PORT mode on|off } */
static const struct cmd_form loop_form = { .positional = COMPLETE_DEV_PORT };
static const struct cmd_word set_words[] = {
	{ .name = "mode", .values = "on off" },
	{ NULL },
};
static const struct cmd_form set_form = { .positional = COMPLETE_DEV_PORT, .words = set_words, .flags = ARG_FIRST };
static const struct cmd_word test_words[] = {
	{ .name = "peer", .complete = COMPLETE_FILE, .flags = WORD_REPEAT },
	{ .name = "loop", .form = &loop_form },
	{ .name = "set", .form = &set_form },
	{ NULL },
};

static const struct action fake_actions[] = {
	{ .name = "show", .synopsis = "[DEV[/PORT]]", .summary = "show", .run = run_nop,
	  .positional = COMPLETE_DEV_PORT, .filters = qp_keys },
	{ .name = "check", .synopsis = "[DEV[/PORT]]", .summary = "check", .run = run_nop, .opts = check_opts,
	  .positional = COMPLETE_DEV_PORT },
	{ .name = "test", .synopsis = "{ peer ADDR... | loop [DEV] | set DEV mode on|off }", .summary = "test",
	  .run = run_nop, .words = test_words },
	{ .name = "secret", .summary = "hidden", .run = run_nop, .flags = HIDDEN },
	{ 0 },
};

static const struct object fake_link = { .name = "link", .summary = "links", .actions = fake_actions };
static const struct object fake_lab = { .name = "lab", .summary = "labs", .actions = fake_actions };
const struct object *const all_objects[] = { &fake_link, &fake_lab, NULL };

/* Runs `rdmadiag __complete CWORD WORDS...` in-process; returns its stdout. */
static char *complete(const char *cword, const char *const *words)
{
	char *argv[32] = { "__complete", (char *)cword };
	int argc = 2;
	char path[] = "/tmp/complete_test.XXXXXX";
	int fd = mkstemp(path);
	int saved = dup(STDOUT_FILENO);
	static char out[8192];

	while (*words)
		argv[argc++] = (char *)*words++;
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	complete_main(argc, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	ssize_t n = pread(fd, out, sizeof(out) - 1, 0);

	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return out;
}

#define W(...) ((const char *const[]){ "rdmadiag", __VA_ARGS__, NULL })

int main(void)
{
	setenv("RDMADIAG_REPLAY", "tests/fixtures/complete-devs", 1);

	is_str(complete("1", W("l")), "link\nlab\n", "objects by prefix");
	is_str(complete("2", W("link", "")), "show\ncheck\ntest\nhelp\n", "actions; the hidden one is left out");
	is_str(complete("2", W("li", "ch")), "check\n", "object prefix then action prefix");
	is_str(complete("3", W("link", "check", "--o")), "--only\n", "option by prefix");
	is_str(complete("4", W("link", "check", "--only", "")),
	       "port.state\nport.phys_state\ngid.roce_v2\nnetdev.mtu\n", "check ids after --only");
	is_str(complete("4", W("link", "check", "--skip", "port.state,")),
	       "port.state,port.phys_state\nport.state,gid.roce_v2\nport.state,netdev.mtu\n",
	       "list item after a comma, without what the list already holds");
	is_str(complete("3", W("link", "check", "--only=gid")), "--only=gid.roce_v2\n", "--opt=value form");
	is_str(complete("4", W("link", "check", "--expect-link-layer", "")), "ethernet\ninfiniband\n",
	       "choices of an OPT_CHOICE");
	is_str(complete("3", W("link", "check", "--format=p")), "--format=prometheus\n", "choice in = form");
	is_str(complete("4", W("link", "check", "--expect-mtu", "")), "", "no guess for a number");
	is_str(complete("4", W("link", "check", "--peers", "")), ":file\n", "file names left to the shell");
	is_str(complete("5", W("link", "check", "--expect-mtu", "9000", "rxe")), "rxe0\nrxe0/1\n",
	       "positional after an option with its value: DEV/PORT");
	is_str(complete("3", W("link", "show", "s")), "state\n", "filter keyword");
	is_str(complete("5", W("link", "show", "rxe0", "state", "rt")), "rtr\nrts\n", "values of a filter");
	is_str(complete("5", W("link", "show", "rxe0", "state", "rts,i")), "rts,init\n", "filter value list");
	is_str(complete("4", W("link", "show", "rxe0", "r")), "", "DEV only once");
	is_str(complete("5", W("link", "show", "state", "rts", "")), "lqpn\ntype\npid\n",
	       "no DEV after a filter, no filter twice");
	is_str(complete("3", W("link", "test", "")), "peer\nloop\nset\n", "words, no positional of its own");
	is_str(complete("4", W("link", "test", "peer", "")), ":file\n", "the live kind of a word's value");
	is_str(complete("5", W("link", "test", "peer", "a", "")), "peer\n", "a repeated word; forms only first");
	is_str(complete("4", W("link", "test", "loop", "rx")), "rxe0\nrxe0/1\n", "a form's positional word");
	is_str(complete("5", W("link", "test", "loop", "rxe0", "")), "", "nothing after it");
	is_str(complete("4", W("link", "test", "set", "")), "mlx5_0\nmlx5_1\nrxe0\n", "ARG_FIRST: DEV first");
	is_str(complete("5", W("link", "test", "set", "rxe0/1", "")), "mode\n", "then the form's words");
	is_str(complete("6", W("link", "test", "set", "rxe0/1", "mode", "o")), "on\noff\n", "fixed values");
	is_str(complete("7", W("link", "test", "set", "rxe0/1", "mode", "on", "")), "", "a word once");
	is_str(complete("3", W("link", "show", "mlx5_0/")), "mlx5_0/1\nmlx5_0/2\n", "ports of a typed device");
	is_str(complete("3", W("link", "show", "mlx")), "mlx5_0\nmlx5_1\n", "two devices: no ports yet");
	is_str(complete("1", W("--color=a")), "--color=auto\n--color=always\n", "--color=WHEN");
	is_str(complete("4", W("--replay", "/nonexistent", "link", "")), "show\ncheck\ntest\nhelp\n",
	       "global option values are skipped");
	is_str(complete("2", W("--record", "")), ":dir\n", "directory after --record");
	is_str(complete("2", W("--snapshot", "")), ":file\n", "a file after --snapshot");
	is_str(complete("3", W("link", "check", "--")), "--list\n--only\n--skip\n--expect-mtu\n"
	       "--expect-link-layer\n--format\n--peers\n--help\n", "every option of the action");
	is_str(complete("2", W("link", "--")), "--help\n", "options of the default action at the action slot");
	is_str(complete("3", W("nosuch", "show", "")), "", "unknown object: nothing");
	is_str(complete("9", W("link")), "show\ncheck\ntest\nhelp\n", "CWORD past the end completes a new word");
	return tap_done();
}
