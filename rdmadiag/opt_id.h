/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every option an action can take, once: its id and its name on the command
 * line. A row of an option table (struct cmd_opt) names its option by id, and
 * a handler reads it by id (ctx_opt_uint(ctx, O_COUNT, 0)), so a misspelt
 * option is a compile error rather than an option silently read as not given.
 * Help, completion, `__tables` and the docs print the name from this list,
 * so a table cannot call an option anything else.
 *
 * The global options (-j, --record, ...) have their own table and ids
 * (global_opts.h): they are parsed before OBJECT, never looked up by a handler.
 */
#ifndef RDMADIAG_OPT_ID_H
#define RDMADIAG_OPT_ID_H

#define OPT_IDS(X)                                    \
	X(O_ALL, "--all")                             \
	X(O_BIND, "--bind")                           \
	X(O_COUNT, "--count")                         \
	X(O_DEV, "--dev")                             \
	X(O_DURATION, "--duration")                   \
	X(O_EXPECT_BW, "--expect-bw")                 \
	X(O_EXPECT_DEVICES, "--expect-devices")       \
	X(O_EXPECT_GID_TYPE, "--expect-gid-type")     \
	X(O_EXPECT_LAT, "--expect-lat")               \
	X(O_EXPECT_LINK_LAYER, "--expect-link-layer") \
	X(O_EXPECT_MTU, "--expect-mtu")               \
	X(O_EXPECT_RATE, "--expect-rate")             \
	X(O_FORMAT, "--format")                       \
	X(O_GID_INDEX, "--gid-index")                 \
	X(O_IDLE_TIMEOUT, "--idle-timeout")           \
	X(O_INTERVAL, "--interval")                   \
	X(O_ITERS, "--iters")                         \
	X(O_LAT_SIZE, "--lat-size")                   \
	X(O_LIST, "--list")                           \
	X(O_MAX_SESSIONS, "--max-sessions")           \
	X(O_ONCE, "--once")                           \
	X(O_ONLY, "--only")                           \
	X(O_OUTPUT, "--output")                       \
	X(O_OUTPUT_SHORT, "-o")                       \
	X(O_PARALLEL, "--parallel")                   \
	X(O_PEERS, "--peers")                         \
	X(O_PORT, "--port")                           \
	X(O_QUICK, "--quick")                         \
	X(O_REDACT, "--redact")                       \
	X(O_SIZE, "--size")                           \
	X(O_SKIP, "--skip")                           \
	X(O_STRICT, "--strict")                       \
	X(O_STUCK, "--stuck")                         \
	X(O_TESTS, "--tests")                         \
	X(O_TIMEOUT, "--timeout")                     \
	X(O_UNTIL_STABLE, "--until-stable")

enum opt_id {
	/* 0, so that { 0 } ends an option table and a zeroed field names no option */
	O_NONE,
#define OPT_ID_ENUM(id, name) id,
	OPT_IDS(OPT_ID_ENUM)
#undef OPT_ID_ENUM
	N_OPT_IDS
};

/* The command-line name of each id ("--count"); NULL for O_NONE. */
extern const char *const opt_names[N_OPT_IDS];

#endif
