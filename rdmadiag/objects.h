/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One `struct object` per file rdmadiag/OBJECT.c. */
#ifndef RDMADIAG_OBJECTS_H
#define RDMADIAG_OBJECTS_H

#include "rdmadiag.h"

extern const struct object obj_dev;	/* dev.c */
extern const struct object obj_link;	/* link.c */
extern const struct object obj_gid;	/* gid.c */
extern const struct object obj_counter;	/* counter.c */
extern const struct object obj_path;	/* path.c */
extern const struct object obj_qp;	/* qp.c */
extern const struct object obj_report;	/* report.c */
extern const struct object obj_res, obj_cq, obj_mr, obj_pd, obj_cm, obj_srq;	/* res.c, cq.c, mr.c, pd.c, cm.c, srq.c */
extern const struct object obj_system;	/* system.c */
extern const struct object obj_topo;	/* topo.c */

#endif
