/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where data comes from: the live kernel, or a fixture directory.
 *
 * With --record DIR every netlink reply, sysfs/procfs file and verbs query a
 * command reads is also saved under DIR; with --replay DIR (or
 * RDMADIAG_REPLAY) they are read back from DIR instead of the kernel, through
 * the same parsing code. Layout of DIR:
 *   netlink/<request key>.bin   reply chunks as received: [u32 length][bytes]...
 *   fs/<absolute path>          file contents; fs/<dir>/.listing for listings
 *   links                       "path<TAB>target" lines for readlink()
 *   verbs/<name>                key=value text from libibverbs queries
 *   probe/<path>                whether a device node opens (probe.h)
 *   kmod/<module>               what libkmod said of a module not loaded
 *                               (host/module_presence.c)
 *   meta                        who recorded it, when, with which kernel
 *   clock                       "NAME SECONDS" lines: clock readings, in order
 * A thing read N times while recording is saved N times: rel, rel~2, rel~3...
 * (counter samples); in replay the Nth read gets rel~N or the last there is.
 * Hand-written fixtures may be plain trees under fs/ without .listing files.
 */
#ifndef RDMADIAG_SOURCE_H
#define RDMADIAG_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Why source_init() refused, for the message the front end makes of it. */
enum source_error_kind {
	SOURCE_DIR_TOO_LONG,		/* the directory's path leaves no room for rel */
	SOURCE_REPLAY_UNUSABLE,		/* why: source_replay_unusable()'s answer */
	SOURCE_RECORD_MKDIR,		/* err: mkdir() of the record directory */
};
struct source_error {
	enum source_error_kind kind;
	int err;			/* -errno */
	const char *why;		/* SOURCE_REPLAY_UNUSABLE: why, as text */
};

/* Who records, written into meta ("rdmadiag 0.1.0"): the front end knows. */
void source_set_recorder(const char *who);
/* 0, or -errno with *e saying why (nothing is printed: the caller says it). */
int source_init(const char *record_dir, const char *replay_dir, struct source_error *e);
/* Why DIR cannot be replayed (not there, not a directory, not a recording), or NULL. */
const char *source_replay_unusable(const char *dir);
void source_close(void);
bool source_replaying(void);
bool source_recording(void);

/* Path of a fixture file, for replay or record: DIR/rel. */
int source_path(char *buf, size_t len, const char *rel);
/* Create every parent directory of DIR/rel (record mode). */
int source_mkparents(const char *rel);
/* Save a whole blob as DIR/rel (record mode); append adds to it. */
int source_save(const char *rel, const void *data, size_t len, bool append);
/* Open DIR/rel for reading (replay mode); NULL with errno set. */
FILE *source_open(const char *rel);
/* Fuzzing: while set, every netlink reply replayed (netlink/...) is read from
 * these bytes instead of a file, through the same parser. NULL to unset. */
void source_replay_netlink_bytes(const void *data, size_t len);
/* Path of the generation of DIR/rel the next replayed read gets. */
int source_read_path(char *buf, size_t len, const char *rel);

/* A clock reading (seconds) under NAME: recorded in record mode; in replay
 * the recorded readings in order when the fixture has them, else live. */
double source_clock(const char *name, double live);
/* Replaying a fixture with recorded clock readings: waits are not needed. */
bool source_clock_replayed(void);

#endif
