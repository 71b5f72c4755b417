/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `rdmadiag link check`: the checks and what they look at.
 *
 * Every check is one row of the table in link_checks.c: its definition (id,
 * title: check.h), scope (once per host, per device or per port), which
 * ports it applies to, an option it needs (expectations), and a small run
 * function that fills a check_result.
 * Adding a check: write the function, add the row.
 */
#ifndef RDMADIAG_LINK_CHECK_H
#define RDMADIAG_LINK_CHECK_H

#include "../host/gid.h"
#include "../host/pcitopo.h"
#include "../netlink/addr.h"
#include "check.h"
#include "link.h"
#include "rdmadiag.h"

#define LC_MAX_DEVS 64
#define LC_MAX_PORTS 128
#define LC_MAX_ADDRS 32

struct lc_dev {
	struct rd_dev d;
	char driver[64];	/* kernel module, "" when unknown */
	char chardev[64];	/* "uverbs0", "" when none */
};

struct lc_port {
	struct link_port lp;
	char subject[RD_NAME_LEN + 8];	/* "rxe0/1" */
	int gid_err;			/* 0 or -errno of reading the GID table */
	struct gid_table gids;
	int naddr;			/* -1: addresses unknown */
	struct nd_addr addrs[LC_MAX_ADDRS];
};

struct lc_env {
	const struct cmd_ctx *ctx;
	int total_devs;			/* on the host, before DEV filtering */
	int ndev, nport;
	struct lc_dev devs[LC_MAX_DEVS];
	struct lc_port ports[LC_MAX_PORTS];
	struct pci_topo *topo;		/* GPUs and RDMA devices on PCIe (link_checks_gpu.c); NULL: none read */
	struct pt_pairing pairing;	/* the NIC each GPU gets */
};

/* LC_GPU: once per GPU; LC_GPU_HOST: once, on a host with a GPU. Both are
 * left out without a word on hosts without one. */
enum lc_scope { LC_HOST, LC_DEV, LC_PORT, LC_GPU, LC_GPU_HOST };
enum lc_applies { LC_ANY, LC_IB, LC_ETH };

struct lc_check {
	struct check_def def;		/* id, title */
	enum lc_scope scope;
	enum lc_applies applies;	/* ports only */
	enum opt_id needs_opt;		/* run only when this option is given; O_NONE: always */
	/* subject: NULL (host), struct lc_dev * or struct lc_port * */
	void (*run)(const struct lc_env *env, const void *subject, struct check_result *r);
	enum opt_id judges_opt;		/* the --expect option it compares with; O_NONE: none */
	/* an LC_DEV check that also judges each GPU (pci.link): subject a struct pt_fn * */
	void (*run_gpu)(const struct lc_env *env, const void *subject, struct check_result *r);
};

extern const struct lc_check lc_checks[];	/* terminated by { .def.id = NULL } */
/* The definition of the i-th check, NULL past the last (struct action's checks). */
const struct check_def *lc_check_def(size_t i);

/* GPUDirect readiness (link_checks_gpu.c): reads the topology into env
 * (left NULL when the host has no GPU), frees it. Its checks, and those of
 * the other link_checks_*.c files, are declared in link_checks_int.h. */
void lc_gpu_gather(struct lc_env *env);
void lc_gpu_free(struct lc_env *env);

/* The action: link.c lists it in its command table. */
/* The action's hooks (struct action): its words and options (--list
 * answered there), what it says when RDMA netlink cannot open, its run. */
int link_check_args(struct cmd_ctx *ctx);
int link_check_no_netlink(struct cmd_ctx *ctx, int rc);
int link_check(struct cmd_ctx *ctx);
extern const struct cmd_opt link_check_opts[];

/* Parsers of sysfs/procfs text the checks use (exported for the fuzz target):
 * "8.0 GT/s PCIe" -> 8.0 (0 unknown); 8.0 -> generation 3 (0 unknown);
 * /proc/self/limits text -> the soft RLIMIT_MEMLOCK (0 or -EINVAL). */
double lc_pcie_gts(const char *s);
int lc_pcie_gen(double gts);
int lc_memlock_parse(const char *limits, unsigned long long *soft, bool *unlimited);

#endif
