/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared setup of the libFuzzer targets (fuzz/README.md): an empty replay
 * fixture directory, so that nothing a target calls can reach the kernel or
 * the network, and a sink that consumes decoded values (so the compiler
 * cannot drop the reads the sanitizers are meant to check).
 */
#ifndef RDMADIAG_FUZZ_COMMON_H
#define RDMADIAG_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Creates a private replay directory (removed at exit) and enters replay
 * mode on it; returns its path. Aborts when that fails. */
const char *fuzz_replay_dir(void);
/* Writes len bytes as DIR/rel (parents created). */
void fuzz_put_file(const char *rel, const void *data, size_t len);
/* Consumes a value / a string (reads every byte up to the NUL). */
void fuzz_sink_u64(uint64_t v);
void fuzz_sink_str(const char *s);

#endif
