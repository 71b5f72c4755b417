// SPDX-License-Identifier: GPL-2.0-or-later
/* Peer lists of path test; see path_peers.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "path_peers.h"
#include "rdmadiag.h"

int peers_add(struct peer_list *pl, const char *addr, const char *where)
{
	if (strlen(addr) >= PEER_ADDR_MAX || !is_ip_address(addr)) {
		usage_error("%s: '%.80s' is not an IP address (path test wants the peers' IPs on the RDMA network)",
			    where, addr);
		return -1;
	}
	if (pl->n >= PEERS_MAX) {
		usage_error("%s: more than %d peers; split the list and run path test once per part", where,
			    PEERS_MAX);
		return -1;
	}
	if (!pl->addr) {
		pl->addr = calloc(PEERS_MAX, sizeof(*pl->addr));
		if (!pl->addr) {
			report_error("out of memory for the peer list", NULL, NULL);
			return -1;
		}
	}
	snprintf(pl->addr[pl->n++], PEER_ADDR_MAX, "%s", addr);
	return 0;
}

/* The address of one line: comment cut, blanks trimmed; "" when none. */
static char *line_address(char *line)
{
	char *hash = strchr(line, '#'), *end;

	if (hash)
		*hash = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return line;
}

/* errno says why FILE could not be opened or read. */
static int peer_list_unreadable(const char *file)
{
	char what[300];

	snprintf(what, sizeof(what), "cannot read the peer list %s: %s", file, strerror(errno));
	report_error(what, NULL, "give --peers a file with one peer IP address per line");
	return -1;
}

int peers_read_file(struct peer_list *pl, const char *file)
{
	FILE *fp = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[512], where[PEER_ADDR_MAX + 256];
	unsigned lineno = 0, before = pl->n;
	int rc = 0;

	if (!fp)
		return peer_list_unreadable(file);
	while (!rc && fgets(line, sizeof(line), fp)) {
		char *addr;

		lineno++;
		snprintf(where, sizeof(where), "%.200s:%u", file, lineno);
		if (!strchr(line, '\n') && !feof(fp)) {
			usage_error("%s: line longer than %zu characters", where, sizeof(line) - 2);
			rc = -1;
			break;
		}
		addr = line_address(line);
		if (*addr && strpbrk(addr, " \t")) {
			usage_error("%s: one address per line, got '%.80s'", where, addr);
			rc = -1;
		} else if (*addr) {
			rc = peers_add(pl, addr, where);
		}
	}
	if (!rc && ferror(fp))	/* a directory, an I/O error: not an empty list */
		rc = peer_list_unreadable(file);
	if (fp != stdin)
		fclose(fp);
	if (!rc && pl->n == before) {
		usage_error("%s: no peer address in the file (one IP address per line, '#' comments)", file);
		rc = -1;
	}
	return rc;
}

void peers_free(struct peer_list *pl)
{
	free(pl->addr);
	pl->addr = NULL;
	pl->n = 0;
}
