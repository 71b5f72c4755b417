/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the resource objects (qp, cq, mr, pd, cm, srq) share: the
 * "[DEV[/PORT]] [KEY VALUE]..." command line with iproute2-style filters, the
 * per-device dump loop, and the owner (pid, comm) of an object.
 */
#ifndef RDMADIAG_RESOURCE_H
#define RDMADIAG_RESOURCE_H

#include "../netlink/res.h"
#include "output.h"
#include "rdmadiag.h"

enum rfilter_kind {
	RFK_NUM,	/* "5", "5-9", "1,3,7-9" */
	RFK_ENUM,	/* tokens or names, comma separated ("RTR,init") */
	RFK_COMM,	/* owner names, comma separated */
};

struct rfilter_key {
	const char *name;		/* keyword */
	enum rd_res_field field;	/* unused for RFK_COMM */
	enum rfilter_kind kind;
	int (*parse)(const char *);	/* RFK_ENUM: token -> value, -1 unknown */
	const char *values;		/* RFK_ENUM: the accepted tokens, space separated: the errors
					 * list them and completion offers them, so parse must take each */
	enum complete_kind complete;	/* live values completion offers (QP numbers) */
};

#define RFILTER_MAX_TERMS 8
#define RFILTER_MAX_VALS 16

struct rfilter_term {
	const struct rfilter_key *key;
	int n;
	struct {
		uint64_t lo, hi;
	} range[RFILTER_MAX_VALS];
	const char *str[RFILTER_MAX_VALS];
};

/* The parsed command line of a resource action. */
struct res_query {
	bool has_dev;
	struct dev_port sel;
	int nterms;
	struct rfilter_term term[RFILTER_MAX_TERMS];
	bool needs_comm;		/* a comm filter: resolve owners before matching */
};

/* Parses "[DEV[/PORT]] [KEY VALUE]..." against keys (NULL-name terminated).
 * PORT selects the objects on that port and the device's objects that have
 * no port (res_query_match()). Prints a usage error and returns -1 on bad
 * input. */
int res_query_parse(const struct cmd_ctx *ctx, const struct rfilter_key *keys, struct res_query *q);
/* check_args of an action whose words are "[DEV[/PORT]] [KEY VALUE]..."
 * against its row's filters: ARGS_VALID or EXIT_USAGE after the usage error.
 * The words are parsed once (a list is split in place): the action's run
 * takes the query from res_checked(). res_args_with() does the same for the
 * words and keys its caller names (counter show qp, counter bind). */
int res_args(struct cmd_ctx *ctx);
int res_args_with(const struct cmd_ctx *ctx, const struct rfilter_key *keys);
const struct res_query *res_checked(void);
/* True when the filters ask for exactly one object id (key `id_key`). */
bool res_query_single_id(const struct res_query *q, const char *id_key, uint32_t *id);
bool res_query_match(const struct res_query *q, const struct rd_res *r);
/* Whether a numeric term (RFK_NUM, RFK_ENUM) accepts v. */
bool rfilter_term_has(const struct rfilter_term *t, uint64_t v);

/* Owner name: the kernel module, or /proc/PID/comm (cached, replayable);
 * NULL when unknown (process gone). */
const char *res_comm(const struct rd_res *r);

/* Runs cb for every object of `kind` on the selected devices (one dump per
 * device, or one GET when the filters name a single id), applying the port
 * and the filters. Reports errors itself; returns an exit code. `count` gets
 * the number of devices walked. */
int res_walk(const struct res_query *q, enum rd_res_kind kind, const char *id_key, rd_res_cb cb, void *data,
	     int *ndevs);

/* A DEV/PORT whose device has no such port is reported (as link show does)
 * and its exit code returned; 0 when it has, or no port was given. res_walk()
 * checks this itself; qp watch, which keeps its own device list, asks. */
int res_query_check_port(const struct res_query *q);

/* The same for one device the caller already knows (qp watch keeps its own
 * device list). Reports nothing; returns 0 or -errno. */
int res_walk_dev(const struct res_query *q, enum rd_res_kind kind, const char *id_key, uint32_t dev_index,
		 rd_res_cb cb, void *data);

/* Text the cells of a resource row point to: it must outlive the row. */
struct res_row_text {
	char link[96];		/* "rxe0/1" */
	char owner[80];		/* "[ib_core]" */
};

/* The shared fields below as cells of a row (out_row()), for objects printed
 * by the thousand (qp show). */
void res_row_link(struct out_row *row, const struct rd_res *r, bool as_head, struct res_row_text *t);
void res_row_owner(struct out_row *row, const struct rd_res *r, struct res_row_text *t);

/* Shared fields: "rxe0/1:" head (text; "link rxe0/1" when not as_head) or
 * dev + port (JSON), then the owner. */
void res_out_link(const struct rd_res *r, bool as_head);
void res_out_owner(const struct rd_res *r);

/* Keys every resource object accepts. */
#define RFILTER_KEY_PID { .name = "pid", .field = RF_PID, .kind = RFK_NUM }
#define RFILTER_KEY_COMM { .name = "comm", .field = RF_COUNT, .kind = RFK_COMM }

#endif
