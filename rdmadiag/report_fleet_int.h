/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the fleet model (report_fleet.h), shared by its parts and by
 * nothing else:
 *   report_fleet_map.c    growable arrays, interning, the string and pair maps
 *   report_fleet_read.c   one report read into the model, skipped files
 *   report_fleet.c        the files and directories, and the model resolved
 */
#ifndef RDMADIAG_REPORT_FLEET_INT_H
#define RDMADIAG_REPORT_FLEET_INT_H

#include "../util/json_read.h"
#include "report_fleet.h"

#define NAME_MAX_LEN 63

/* ---- report_fleet_map.c ---- */
int rf_grow(void **arr, size_t *cap, size_t n, size_t elem);
/* A new element at the end of arr (n elements, cap allocated); NULL without memory. */
#define PUSH(arr, n, cap) (rf_grow((void **)&(arr), &(cap), (n), sizeof(*(arr))) ? NULL : &(arr)[(n)++])

uint32_t *strmap_slot(struct strmap *m, const char *key, bool insert, const char **stored);
void strmap_free(struct strmap *m);
void rf_clean_name(char *out, size_t len, const char *in);
/* The index of a node, check id or address text, added when new; RF_NONE without memory. */
uint32_t rf_node_index(struct fleet_model *m, const char *raw);
uint32_t rf_id_index(struct fleet_model *m, const char *raw);
uint32_t rf_addr_index(struct fleet_model *m, const char *raw);
uint64_t rf_pair_key(uint32_t node, uint32_t addr);
uint32_t *pairmap_slot(struct pairmap *pm, uint64_t key, bool insert);

/* ---- report_fleet_read.c ---- */
struct rf_skip *rf_skip_file(struct fleet_model *m, const char *file, const char *why);
/* Merges the parsed report root of file, or skips it saying why. */
void rf_read_report(struct fleet_model *m, const char *file, const struct json *root);

#endif
