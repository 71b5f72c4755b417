/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample: the counters of every selected port at one moment, and what the
 * counter map makes of them. `counter show` prints one, `watch` and `check`
 * compare two.
 */
#ifndef RDMADIAG_COUNTER_SAMPLE_H
#define RDMADIAG_COUNTER_SAMPLE_H

#include "../netlink/rdma.h"
#include "../netlink/stat.h"
#include "counter_map.h"
#include "rdmadiag.h"

struct port_ctr {
	char dev[RD_NAME_LEN];
	uint32_t dev_index, port;
	char netdev[RD_NAME_LEN];
	struct stat_set set;
	int err;		/* reading its counters failed: -errno */
	bool not_recorded;	/* replay: because the recording has no reply */
};

struct sample {
	struct port_ctr *p;
	int n;
	double mono;		/* CLOCK_MONOTONIC seconds when read */
	double wall;		/* Unix time when read */
	double started;		/* CLOCK_MONOTONIC when read, never recorded: for pacing only */
	bool no_devices;	/* sample_ports() found no device at all (none asked for) */
};

/* Lists the ports of dev (NULL: all devices), or only `port` when non-zero.
 * Returns 0 or an exit code after reporting the problem. */
int sample_ports(const char *dev, unsigned port, struct sample *s);
/* Reads the counters of every port listed; a copy of `ports` when not NULL. */
void sample_read(struct sample *s, const struct sample *ports);
void sample_free(struct sample *s);
/* The longest hw_counters cache lifespan of the sampled ports, in seconds. */
double sample_lifespan(const struct sample *s);

/* Sum of the counters of one kind, scaled to its unit. */
uint64_t ctr_kind_sum(const struct stat_set *set, enum ctr_kind k, bool *present);
enum ctr_kind ctr_kind_of(const struct stat_counter *c, unsigned *scale);

/* Parses a duration in seconds ("2", "0.5") within [min, max]. */
int parse_seconds(const char *opt, const char *s, double min, double max, double *out);
/* Sleeps; returns early (non-zero) when interrupted by SIGINT/SIGTERM. */
int sleep_seconds(double s);
/* Sleeps until `interval` seconds after s was read, so two samples are that
 * far apart however long reading took; as sleep_seconds otherwise. */
int sleep_after_sample(const struct sample *s, double interval);
double mono_now(void);		/* CLOCK_MONOTONIC in seconds */
void install_stop_handler(void);

/* What the counter commands do with samples (show, watch and check alike). */
/* "mlx5_0/1" */
void counter_port_name(const struct port_ctr *p, char *buf, size_t len);
/* The first sample of the ports that ctx->sel (the action's DEV[/PORT],
 * checked by its check_args) selects, RDMA netlink open; 0 or an exit code. */
int sample_take_first(const struct cmd_ctx *ctx, struct sample *s);
/* Exit code when some port had no counters at all, each said. */
int sample_port_errors(const struct sample *s);
/* Old value of the same counter of the same port, by name and source. */
const struct stat_counter *sample_find_old(const struct sample *old, const struct port_ctr *p,
					   const struct stat_counter *c);
/* A counter that went backwards was reset (driver reload): count from zero. */
uint64_t sample_delta_of(uint64_t now, uint64_t before);
/* How much the counters of kind k of port p rose since old, scaled. */
uint64_t sample_kind_delta(const struct sample *old, const struct port_ctr *p, enum ctr_kind k, bool *present);
/* The hw_counters cache: reading faster than its lifespan returns old values. */
double sample_respect_lifespan(double interval, const struct sample *s);
/* --interval of ctx, or dflt; EXIT_USAGE when malformed (system check hands it on as text). */
int sample_interval_opt(struct cmd_ctx *ctx, double dflt, double *out);

#endif
