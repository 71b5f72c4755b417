// SPDX-License-Identifier: GPL-2.0-or-later
/* Is a module's code in the running kernel? See module_presence.h. */
#include <dlfcn.h>
#include <errno.h>
#include <libkmod.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "module_presence.h"
#include "probe.h"
#include "source.h"
#include "sysfs.h"

static int noop_entry(const char *name, void *data)
{
	(void)name, (void)data;
	return 1;
}

/* /sys/module/NAME: with initstate live (or coming) a loaded module; without
 * initstate built in (code with parameters). Read through sysfs.h so it replays. */
static bool sysfs_module(const char *name, struct mod_answer *a)
{
	char path[128], state[32];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	if (fs_read(path, state, sizeof(state)) >= 0) {
		if (strcmp(state, "live") && strcmp(state, "coming"))
			return false;	/* going: being unloaded */
		a->presence = MOD_LOADED;
		return true;
	}
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (fs_list(path, noop_entry, NULL) < 0)
		return false;
	a->presence = MOD_BUILTIN;
	snprintf(a->how, sizeof(a->how), "/sys/module/%s", name);
	return true;
}

/* What the module's code makes once it runs, loaded or built in, in files
 * that exist on every kernel that has it (and replay): ib_uverbs registers
 * the infiniband_verbs class; rdma_ucm (which needs rdma_cm) the misc device
 * rdma_cm. Returns the sign seen in how, "" when none. Sets *decisive when a
 * missing sign means the code is not there. */
static void module_sign(const char *name, bool rdma_netlink, bool has_device, char *how, size_t len,
			bool *decisive)
{
	char buf[64];

	how[0] = '\0';
	*decisive = false;
	if (!strcmp(name, "ib_core")) {
		/* NETLINK_RDMA is ib_core's: the caller saw it answer */
		if (rdma_netlink)
			snprintf(how, len, "RDMA netlink");
	} else if (!strcmp(name, "ib_uverbs")) {
		*decisive = true;
		if (fs_read("/sys/class/infiniband_verbs/abi_version", buf, sizeof(buf)) >= 0)
			snprintf(how, len, "/sys/class/infiniband_verbs");
	} else if (!strcmp(name, "rdma_ucm") || !strcmp(name, "rdma_cm")) {
		*decisive = !strcmp(name, "rdma_ucm");
		if (fs_read("/sys/class/misc/rdma_cm/dev", buf, sizeof(buf)) >= 0)
			snprintf(how, len, "/sys/class/misc/rdma_cm");
		else if (probe_open("/dev/infiniband/rdma_cm") == 0)	/* a stale node does not open */
			snprintf(how, len, "/dev/infiniband/rdma_cm");
	} else if (has_device) {
		snprintf(how, len, "its device");	/* a device's driver is there */
	}
}

/* ---- libkmod ---- */

/* libkmod is opened only here, on the path of a module that is not loaded:
 * linked in, it (and libcrypto, libzstd, liblzma behind it) would be mapped
 * and relocated at the start of every rdmadiag command. */
struct kmod_api {
	struct kmod_ctx *(*new_ctx)(const char *dirname, const char *const *config_paths);
	void (*set_log_priority)(struct kmod_ctx *ctx, int priority);
	int (*lookup)(struct kmod_ctx *ctx, const char *alias, struct kmod_list **list);
	struct kmod_module *(*get_module)(const struct kmod_list *entry);
	int (*get_initstate)(const struct kmod_module *mod);
	struct kmod_module *(*unref_module)(struct kmod_module *mod);
	int (*unref_list)(struct kmod_list *list);
	struct kmod_ctx *(*unref)(struct kmod_ctx *ctx);
};

static bool kmod_api_load(struct kmod_api *api)
{
	void *h = dlopen("libkmod.so.2", RTLD_LAZY | RTLD_LOCAL);

	if (!h)
		return false;
	*(void **)&api->new_ctx = dlsym(h, "kmod_new");
	*(void **)&api->set_log_priority = dlsym(h, "kmod_set_log_priority");
	*(void **)&api->lookup = dlsym(h, "kmod_module_new_from_lookup");
	*(void **)&api->get_module = dlsym(h, "kmod_module_get_module");
	*(void **)&api->get_initstate = dlsym(h, "kmod_module_get_initstate");
	*(void **)&api->unref_module = dlsym(h, "kmod_module_unref");
	*(void **)&api->unref_list = dlsym(h, "kmod_module_unref_list");
	*(void **)&api->unref = dlsym(h, "kmod_unref");
	return api->new_ctx && api->set_log_priority && api->lookup && api->get_module && api->get_initstate &&
	       api->unref_module && api->unref_list && api->unref;
}

/* libkmod reads modules.builtin(.bin) for built-in code:
 * kmod_module_get_initstate() says KMOD_MODULE_BUILTIN for a name listed there. */
enum mod_index module_index_in(const char *name, const char *dir)
{
	static struct kmod_api api;
	static int state;	/* 0 not tried, 1 ok, -1 missing */
	struct kmod_list *l = NULL;
	enum mod_index idx = KMOD_IDX_NOT_FOUND;
	struct kmod_ctx *k;

	if (!state)
		state = kmod_api_load(&api) ? 1 : -1;
	if (state < 0)
		return KMOD_IDX_NO_LIB;
	k = api.new_ctx(dir, NULL);
	if (!k)
		return KMOD_IDX_NO_LIB;
	api.set_log_priority(k, 0);	/* its complaints about index files are not ours to print */
	if (api.lookup(k, name, &l) == 0 && l) {
		struct kmod_module *m = api.get_module(l);

		idx = m && api.get_initstate(m) == KMOD_MODULE_BUILTIN ? KMOD_IDX_BUILTIN : KMOD_IDX_MODULE;
		if (m)
			api.unref_module(m);
	}
	api.unref_list(l);
	api.unref(k);
	return idx;
}

static const char *const index_tokens[] = {
	[KMOD_IDX_MODULE] = "module",
	[KMOD_IDX_BUILTIN] = "builtin",
	[KMOD_IDX_NOT_FOUND] = "not-found",
	[KMOD_IDX_NO_DIR] = "no-dir",
	[KMOD_IDX_NO_LIB] = "no-lib",
};

/* kmod/NAME holds "TOKEN [DIR]": what the host's libkmod said. A recording
 * made before these were kept has none: then the module is taken as one
 * modprobe can load, which is what replays of it always said. */
static enum mod_index kmod_replayed(const char *rel, char *dir, size_t len)
{
	FILE *fp = source_open(rel);
	char line[PATH_MAX + 32], tok[32] = "";

	dir[0] = '\0';
	if (!fp)
		return KMOD_IDX_MODULE;
	if (fgets(line, sizeof(line), fp)) {
		char *sp = strchr(line, ' ');

		line[strcspn(line, "\n")] = '\0';
		if (sp) {
			*sp = '\0';
			snprintf(dir, len, "%s", sp + 1);
		}
		snprintf(tok, sizeof(tok), "%s", line);
	}
	fclose(fp);
	for (size_t i = 0; i < sizeof(index_tokens) / sizeof(index_tokens[0]); i++)
		if (!strcmp(tok, index_tokens[i]))
			return (enum mod_index)i;
	return KMOD_IDX_MODULE;
}

/* What libkmod knows of name for the running kernel; dir gets the module
 * directory it looked in. Recorded, and replayed, as kmod/NAME. */
static enum mod_index kmod_index(const char *name, char *dir, size_t len)
{
	char rel[128], line[PATH_MAX + 32];
	enum mod_index idx;
	struct utsname u;
	struct stat st;

	snprintf(rel, sizeof(rel), "kmod/%s", name);
	if (source_replaying())
		return kmod_replayed(rel, dir, len);
	snprintf(dir, len, "/lib/modules/%s", uname(&u) ? "?" : u.release);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		idx = KMOD_IDX_NO_DIR;	/* libkmod would find nothing, built in or not */
	else
		idx = module_index_in(name, dir);
	if (source_recording()) {
		int n = snprintf(line, sizeof(line), "%s %s\n", index_tokens[idx], dir);

		source_save(rel, line, (size_t)n, false);
	}
	return idx;
}

void module_presence(const char *name, bool rdma_netlink, bool has_device, struct mod_answer *a)
{
	char dir[PATH_MAX];
	bool decisive;

	memset(a, 0, sizeof(*a));
	a->index = KMOD_IDX_MODULE;
	if (sysfs_module(name, a))
		return;
	module_sign(name, rdma_netlink, has_device, a->how, sizeof(a->how), &decisive);
	if (a->how[0]) {
		a->presence = MOD_BUILTIN;	/* running, and no /sys/module entry: not a loaded module */
		return;
	}
	a->index = kmod_index(name, dir, sizeof(dir));
	if (a->index == KMOD_IDX_BUILTIN) {
		a->presence = MOD_BUILTIN;
		snprintf(a->how, sizeof(a->how), "modules.builtin");
		return;
	}
	if (a->index == KMOD_IDX_NO_DIR)
		snprintf(a->how, sizeof(a->how), "%s", dir);
	if (decisive || a->index == KMOD_IDX_MODULE || a->index == KMOD_IDX_NOT_FOUND)
		a->presence = MOD_ABSENT;
	else
		a->presence = MOD_UNKNOWN;
}
