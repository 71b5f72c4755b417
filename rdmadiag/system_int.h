/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside `rdmadiag system check` (system.c), shared by its parts and by
 * nothing else:
 *   system.c          the command line and the command
 *   system_layers.c   the layers, run in order through their commands' engines
 *   system_report.c   the answer: a line per layer, findings, fix first, exit code
 */
#ifndef RDMADIAG_SYSTEM_INT_H
#define RDMADIAG_SYSTEM_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "output.h"
#include "rdmadiag.h"

/* L_TOPOLOGY runs second but comes last here: system_skip_rest() names the others by index */
enum layer_kind { L_DEVICE, L_RESOURCE, L_COUNTER, L_CONNECTION, L_PERFORMANCE, L_TOPOLOGY };

/* A layer's name and the command it runs, by kind (system_layers.c). */
struct layer_info {
	const char *token;
	const char *command;
};
extern const struct layer_info system_layer_info[];

#define MAX_PEERS 16
#define MAX_LAYERS (4 + 2 * MAX_PEERS)
#define MAX_FINDINGS 50		/* per layer in the summary; the sub-report has all */
#define MAX_IDS 96		/* check ids of the device, resource and counter layers */
#define ID_LIST_MAX 2048	/* a --skip list handed to a layer's command */

struct layer {
	enum layer_kind kind;
	const char *peer;		/* connection and performance layers */
	bool ran;
	int rc;				/* exit code of the command's engine */
	struct check_summary sum;
	char note[160];			/* said instead of the counts */
	int nfind, more;
	struct check_result *find;	/* MAX_FINDINGS, allocated on the first */
};

struct system_args {
	const char *dev_word;		/* DEV[/PORT] as typed, NULL: all */
	const char *peers[MAX_PEERS];
	int npeers;
	bool quick, strict;
	double interval;
	const char *interval_str;
	const char *only, *skip;	/* --only/--skip ID,... as given, NULL: not given */
};

struct system_run {
	const struct system_args *args;
	const struct cmd_ctx *ctx;	/* system check's own options */
	struct layer layer[MAX_LAYERS];
	int nlayers;
	struct layer *cur;		/* the layer the observer feeds */
	bool split_path;		/* path stages: connection, or the next layer */
	bool gpu_host;			/* a GPU on the PCI bus: the topology layer runs */
	bool prom;			/* --format prometheus or openmetrics */
	enum out_format format;
	FILE *devnull;			/* text and metrics: where the commands' own lines go */
	struct check_result *qp_results;	/* resource layer, emitted after the sample */
	int nqp_results, qp_capacity;
};

/* ---- system_layers.c ---- */
/* What --only/--skip accept: the ids of link check, the resource layer and
 * counter check, taken from their tables at start-up. */
extern const char *system_ids[MAX_IDS + 1];
/* The layers in order; Ctrl-C stops between them (each command also cuts
 * its own waits short). EXIT_OK, or EXIT_USAGE/EXIT_HOST as the device or
 * resource layer found. */
int system_run_layers(struct system_run *s);
/* The layers not reached (the device layer found no RDMA to check, or
 * Ctrl-C): listed, not run, with the reason. Layers come in a fixed order:
 * device, resource, counter, then connection and performance per peer. */
void system_skip_rest(struct system_run *s, const char *why);

/* ---- system_report.c ---- */
void system_print_report(const struct system_run *s);
/* --format prometheus/openmetrics: a verdict series per layer, then every
 * check the layers ran (observe() collected them). */
void system_prom_report(const struct system_run *s);
/* 0, or 1 when a layer fails (or warns, with --strict); exit codes as link check. */
int system_exit_code(const struct system_run *s);

#endif
