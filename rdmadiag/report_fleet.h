/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model behind `report merge`: per-node -j reports of link check, system
 * check and path test, read one file at a time (each document is freed once
 * its findings are taken), reduced to
 *   - nodes (named by the report's "host", else the file name),
 *   - failing check cells (node x check id, fail or warn only),
 *   - path pairs (tester node x peer node, one cell each),
 * so memory grows with the findings and the N x N pairs, never with the files
 * (but for the name of each file merged, kept to name it as a duplicate's twin).
 * A second report of a node and kind, or of a pair, is a duplicate: skipped.
 */
#ifndef RDMADIAG_REPORT_FLEET_H
#define RDMADIAG_REPORT_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/json_read.h"
#include "check.h"

#define RF_NONE UINT32_MAX
#define RF_MAX_FILE (64u << 20)	/* bytes of one report */

/* String -> index map with its own copies of the keys (open addressing). */
struct strmap {
	char **keys;
	uint32_t *vals;
	size_t cap, n;
};

/* What a report is; a node has at most one of each kind but path test, whose
 * reports may each hold other peers (one file per peer, or per peer list). */
enum rf_kind { RK_LINK, RK_COUNTER, RK_SYSTEM, RK_LOOPBACK, RK_PATH, RK_NONE };

/* (tester node, peer address) -> index in files of the report that held the
 * pair, while reading (open addressing). */
struct pairmap {
	uint64_t *keys;		/* node << 32 | address + 1; 0 empty */
	uint32_t *vals;
	size_t cap, n;
};

struct rf_node {
	const char *name;
	bool has_report;
	bool checked;				/* a check report of it was merged */
	unsigned judged;			/* checks of its check reports that did not skip */
	uint32_t read_from[RK_PATH];		/* files index + 1 of its report of each kind; 0 none */
	unsigned check_fail, check_warn;	/* failing cells of check reports */
	unsigned fail_from, fail_to;		/* failed pairs as tester / as peer */
	unsigned warn_pairs, pairs;		/* pairs it is part of */
};

struct rf_check {
	uint32_t node, id;
	enum verdict verdict;
};

struct rf_pair {
	uint32_t from, to_addr, to, stage;	/* to: node, once addresses are resolved */
	float gbps, p50_us;			/* NAN when not measured */
	enum verdict verdict;
};

struct rf_id {
	const char *id;
	unsigned fail_nodes, warn_nodes;
};

struct rf_addr {
	const char *text;
	uint32_t owner;		/* node whose report lists the address; RF_NONE unknown */
};

struct rf_skip {
	char *file, *why;
	char *dup_of;	/* a duplicate: the file whose report was merged instead; else NULL */
};

struct fleet_model {
	struct strmap node_map, addr_map, id_map;
	struct pairmap pair_map;
	char **files;		/* the files merged, in reading order */
	size_t nfiles, cap_files;
	struct rf_node *nodes;
	size_t nnodes, cap_nodes;
	struct rf_id *ids;
	size_t nids, cap_ids;
	struct rf_check *checks;
	size_t nchecks, cap_checks;
	struct rf_pair *pairs;
	size_t npairs, cap_pairs;
	struct rf_skip *skipped;
	size_t nskipped, cap_skipped;
	struct rf_addr *addrs;
	size_t naddrs, cap_addrs;
	unsigned files_read, check_reports, path_reports, loopback_reports;
	unsigned nodes_checked;	/* nodes with a check report merged */
	unsigned nodes_unchecked;	/* of those, nodes whose every check skipped */
	/* Reading (private): the buffer and JSON arena every file reuses. */
	char *read_buf;
	size_t read_cap;
	struct json_doc read_doc;
	unsigned read_docs;	/* documents parsed into read_doc */
};

/* The model ranked for printing (report.c): nodes by failures, pairs worst
 * first (rf_pair order), check cells by node rank; text, -j and the picture
 * (report_svg.h) read it. */
struct merged {
	struct fleet_model m;
	uint32_t *order;	/* node indexes, most failures first */
	uint32_t *rank_of;	/* node index -> position in order */
	unsigned pairs_fail, pairs_warn, nodes_check_fail;
	unsigned nodes_check_cells;	/* nodes with a failing or warning check */
};

/* Adds one file (or every regular, non-hidden file of a directory, sorted).
 * What cannot be used is recorded in skipped, never fatal; -ENOMEM aside. */
int fleet_add_path(struct fleet_model *m, const char *path);
/* Maps peer addresses to the nodes that own them and counts failures. */
void fleet_resolve(struct fleet_model *m);
void fleet_free(struct fleet_model *m);

#endif
