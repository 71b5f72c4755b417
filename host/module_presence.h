/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a kernel module's code is in the running kernel, loaded or built
 * in, for link check's kernel.modules.
 *
 * Built-in code has a /sys/module entry only when it has parameters, so an
 * absent entry proves nothing on a kernel that builds the RDMA core in (cloud
 * and vendor kernels). The answer comes, in order, from: /sys/module/NAME
 * (initstate: a loaded module; no initstate: built in), what the code makes
 * when it runs (module_sign() below), and libkmod's view of the kernel's
 * modules.builtin where /lib/modules/`uname -r` exists. What libkmod answered
 * is recorded (kmod/NAME in a --record directory), so a replay says what the
 * host said.
 */
#ifndef RDMADIAG_MODULE_PRESENCE_H
#define RDMADIAG_MODULE_PRESENCE_H

#include <stdbool.h>
#include <stddef.h>

enum mod_presence {
	MOD_LOADED,	/* a loadable module, live */
	MOD_BUILTIN,	/* built into the kernel */
	MOD_ABSENT,	/* not in the kernel now */
	MOD_UNKNOWN,	/* no sign of it, and nothing says whether it is built in */
};

/* What libkmod knows of a module that is not loaded. */
enum mod_index {
	KMOD_IDX_MODULE,	/* a .ko modprobe can load */
	KMOD_IDX_BUILTIN,	/* listed in modules.builtin */
	KMOD_IDX_NOT_FOUND,	/* neither: this kernel has no such module installed */
	KMOD_IDX_NO_DIR,	/* no /lib/modules/`uname -r` to look in */
	KMOD_IDX_NO_LIB,	/* libkmod.so.2 cannot be opened */
};

struct mod_answer {
	enum mod_presence presence;
	enum mod_index index;	/* when libkmod was asked (ABSENT, UNKNOWN) */
	char how[96];		/* the evidence, for the measured text */
};

/* The presence of module name. ib_core is known to be there when the caller
 * has seen RDMA netlink answer (rdma_netlink); a device driver when a device
 * of that driver exists (has_device). */
void module_presence(const char *name, bool rdma_netlink, bool has_device, struct mod_answer *a);

/* libkmod's answer for name in the module directory dir ("/lib/modules/KVER"),
 * live (not recorded): MODULE, BUILTIN, NOT_FOUND or NO_LIB. */
enum mod_index module_index_in(const char *name, const char *dir);

#endif
