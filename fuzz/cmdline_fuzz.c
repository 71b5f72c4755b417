// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the command line, from main() on (global options, object and
 * action words, per-action options, DEV[/PORT], filters, completion).
 *
 * Input: argv words separated by NUL bytes. The whole program runs in
 * process (main.c is built with main renamed) against the recorded lab
 * fixture (RDMADIAG_REPLAY), so handlers really run, on replayed data:
 * nothing reaches the kernel or the network. Handlers that use the network
 * (path) or wait (watch, counter check) are parsed but not run; --record is
 * refused so that no input writes files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../rdmadiag/output.h"
#include "../rdmadiag/rdmadiag.h"
#include "fuzz_common.h"

#define MAX_WORDS 48
#define MAX_INPUT 4096

int rdmadiag_main(int argc, char **argv);

static bool waits_or_connects(const struct cmd_ctx *ctx)
{
	const char *obj = ctx->object->name, *act = ctx->action->name;

	return !strcmp(obj, "path") || !strcmp(act, "watch") || (ctx->action->flags & OUTPUT_STREAM) ||
	       (!strcmp(obj, "counter") && !strcmp(act, "check"));
}

static int fuzz_runner(struct cmd_ctx *ctx)
{
	if (waits_or_connects(ctx))
		return EXIT_OK;
	return cmd_run(ctx);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY);

	(void)argc, (void)argv;
	/* results are not the point; their memory safety is */
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	setenv("RDMADIAG_REPLAY", FUZZ_FIXTURE_DIR, 1);
	unsetenv("RDMADIAG_RECORD");
	cmd_set_runner(fuzz_runner);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[MAX_INPUT + 1];
	char *argv[MAX_WORDS + 2];
	int argc = 0;

	if (size > MAX_INPUT)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "rdmadiag";
	for (char *w = buf; w <= buf + size && argc <= MAX_WORDS; w += strlen(w) + 1) {
		if (!strncmp(w, "--rec", 5))
			return 0;	/* would write the fixture it names */
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	memset(&g_opts, 0, sizeof(g_opts));
	out_set_stream(false);
	rdmadiag_main(argc, argv);
	fflush(stdout);
	return 0;
}
