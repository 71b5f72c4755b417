/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading sysfs and procfs files, live or from a fixture (source.h).
 * Paths are absolute ("/sys/class/infiniband/rxe0/ports/1/rate").
 */
#ifndef RDMADIAG_SYSFS_H
#define RDMADIAG_SYSFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Reads a whole (small) file, strips one trailing newline. Returns the length
 * or -errno; the buffer is always NUL terminated. */
ssize_t fs_read(const char *path, char *buf, size_t size);
/* A binary file (PCI config space): up to size bytes as they are, nothing
 * stripped (size at most 8191). Returns the length or -errno. */
ssize_t fs_read_bin(const char *path, void *buf, size_t size);
int fs_read_u64(const char *path, uint64_t *out);
/* printf-style path builders around fs_read */
__attribute__((format(printf, 3, 4))) ssize_t fs_readf(char *buf, size_t size, const char *fmt, ...);
/* Calls cb for each entry of dir (not . or ..), sorted by name. Returns the
 * number of entries or -errno. A non-zero return of cb stops the walk. */
int fs_list(const char *dir, int (*cb)(const char *name, void *data), void *data);
/* readlink; returns the length or -errno */
ssize_t fs_readlink(const char *path, char *buf, size_t size);
/* Last path element of a link target ("../../devices/.../0000:01:00.0" -> "0000:01:00.0") */
ssize_t fs_readlink_base(const char *path, char *buf, size_t size);

#endif
