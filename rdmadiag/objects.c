// SPDX-License-Identifier: GPL-2.0-or-later
/* Every object rdmadiag knows, in help order. Adding an object: one line. */
#include <stddef.h>

#include "objects.h"

const struct object *const all_objects[] = {
	&obj_dev,
	&obj_link,
	&obj_gid,
	&obj_counter,
	&obj_path,
	&obj_qp,
	&obj_res,
	&obj_cq,
	&obj_mr,
	&obj_pd,
	&obj_cm,
	&obj_srq,
	&obj_topo,
	&obj_system,
	&obj_report,
	NULL,
};
