// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Peers that answered a recent `path test`, so that `path test peer <TAB>`
 * offers them first. The list is a plain file, one address a line, most
 * recent first:
 *
 *   $RDMADIAG_STATE_DIR/peers, else $XDG_STATE_HOME/rdmadiag/peers,
 *   else $HOME/.local/state/rdmadiag/peers
 *
 * It is a convenience only: every failure to read or write it is silent, a
 * line that is not a plausible address is ignored (the file may be edited or
 * damaged), and replayed runs never write it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../host/source.h"
#include "recent.h"

#define RECENT_MAX 20
#define ADDR_MAX 256

static bool state_dir(char *dir, size_t len)
{
	const char *env = getenv("RDMADIAG_STATE_DIR");
	int n;

	if (env && *env)
		n = snprintf(dir, len, "%s", env);
	else if ((env = getenv("XDG_STATE_HOME")) && *env)
		n = snprintf(dir, len, "%s/rdmadiag", env);
	else if ((env = getenv("HOME")) && *env)
		n = snprintf(dir, len, "%s/.local/state/rdmadiag", env);
	else
		return false;
	return n > 0 && (size_t)n < len;
}

/* Host names, IPv4 and IPv6 literals (with a %scope): nothing else. */
static bool plausible_address(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= ADDR_MAX || s[0] == '-')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:-_%[]") == n;
}

/* Reads up to max entries into list (each ADDR_MAX); returns the count. */
static int read_list(const char *file, char list[][ADDR_MAX], int max)
{
	FILE *f = fopen(file, "r");
	char line[ADDR_MAX + 2];
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");

		if (line[len] == '\0' && !feof(f)) {	/* overlong line: skip the rest of it */
			int c;

			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			continue;
		}
		line[len] = '\0';
		if (plausible_address(line))
			snprintf(list[n++], ADDR_MAX, "%s", line);
	}
	fclose(f);
	return n;
}

static void mkdir_parents(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	mkdir(path, 0700);
}

void recent_peer_add(const char *addr)
{
	char dir[PATH_MAX], file[PATH_MAX + 8], tmp[PATH_MAX + 32];
	static char list[RECENT_MAX][ADDR_MAX];
	FILE *f;
	int n;

	if (source_replaying() || !plausible_address(addr) || !state_dir(dir, sizeof(dir)))
		return;
	snprintf(file, sizeof(file), "%s/peers", dir);
	n = read_list(file, list, RECENT_MAX);
	mkdir_parents(dir);
	snprintf(tmp, sizeof(tmp), "%s/.peers.%ld", dir, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", addr);
	for (int i = 0, kept = 1; i < n && kept < RECENT_MAX; i++) {
		if (strcmp(list[i], addr)) {
			fprintf(f, "%s\n", list[i]);
			kept++;
		}
	}
	/* rename() is atomic: concurrent runs never leave a half-written list. */
	if (fclose(f) != 0 || rename(tmp, file) != 0)
		unlink(tmp);
}

int recent_peer_each(int (*cb)(const char *addr, void *data), void *data)
{
	char dir[PATH_MAX], file[PATH_MAX + 8];
	static char list[RECENT_MAX][ADDR_MAX];
	int n;

	if (!state_dir(dir, sizeof(dir)))
		return 0;
	snprintf(file, sizeof(file), "%s/peers", dir);
	n = read_list(file, list, RECENT_MAX);
	for (int i = 0; i < n; i++)
		if (cb(list[i], data))
			break;
	return n;
}
