// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libibverbs and librdmacm, opened on first use instead of at start-up.
 *
 * Linked in, they and libnl-3/libnl-route behind them are mapped and
 * relocated before main() of every command, also of those that only speak
 * netlink (qp show, dev show, counter ...): under emulation that costs more
 * than the whole netlink dump of a thousand QPs. So the binary does not link
 * them; each function it uses is defined here with the library's own
 * prototype (the compiler checks them against the headers) and forwards to
 * the real one, resolved with dlsym on the first call.
 *
 * The entry points (ibv_get_device_list, rdma_create_event_channel) fail as
 * the libraries do when a library is missing; every other function takes an
 * object only those give, so it cannot be reached without its library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "verbs.h"

struct dl_lib {
	const char *soname;
	void *handle;
	bool tried;
};

static struct dl_lib ibverbs = { "libibverbs.so.1", NULL, false };
static struct dl_lib rdmacm = { "librdmacm.so.1", NULL, false };

static bool dl_open(struct dl_lib *l)
{
	if (!l->tried) {
		l->tried = true;
		/* RTLD_LAZY as at start-up (binding all their symbols now costs); RTLD_GLOBAL:
		 * the providers libibverbs loads resolve against it */
		l->handle = dlopen(l->soname, RTLD_LAZY | RTLD_GLOBAL);
	}
	return l->handle != NULL;
}

bool vb_library_load(void)
{
	return dl_open(&ibverbs);
}

/* lib<provider>-rdmav<ABI>.so beside libibverbs, as libibverbs names them */
static bool provider_path(const char *provider, char *out, size_t len)
{
	struct link_map *lm = NULL;
	char pattern[PATH_MAX];
	const char *slash;
	glob_t g;
	bool found;

	if (!dl_open(&ibverbs) || dlinfo(ibverbs.handle, RTLD_DI_LINKMAP, &lm) || !lm || !lm->l_name ||
	    !(slash = strrchr(lm->l_name, '/')))
		return false;
	snprintf(pattern, sizeof(pattern), "%.*s/libibverbs/lib%s-rdmav*.so", (int)(slash - lm->l_name), lm->l_name,
		 provider);
	if (glob(pattern, 0, NULL, &g))
		return false;
	found = g.gl_pathc == 1 && snprintf(out, len, "%s", g.gl_pathv[0]) < (int)len;
	globfree(&g);
	return found;
}

bool vb_preload_provider(const char *provider)
{
	char path[PATH_MAX];

	/* Its constructor registers it with libibverbs: a device it drives is
	 * then matched without libibverbs loading every other provider. */
	return provider_path(provider, path, sizeof(path)) && dlopen(path, RTLD_LAZY | RTLD_GLOBAL);
}

/* The symbol, or NULL when the library or the symbol is missing. */
static void *dl_sym(struct dl_lib *l, const char *name)
{
	return dl_open(l) ? dlsym(l->handle, name) : NULL;
}

/* For functions past an entry point: the library is loaded by then. */
static void *dl_need(struct dl_lib *l, const char *name)
{
	void *f = dl_sym(l, name);

	if (!f) {
		fprintf(stderr, "rdmadiag: %s has no %s (%s); reinstall the rdma-core libraries\n", l->soname, name,
			dlerror());
		abort();
	}
	return f;
}

/* Defines NAME with the library's prototype; the parentheses keep headers'
 * function-like macros of the same name (ibv_query_port, ibv_reg_mr) out. */
#define DL_FORWARD(lib, ret, name, params, args)                             \
	ret(name) params                                                     \
	{                                                                    \
		static ret(*fn) params;                                      \
		if (!fn)                                                     \
			*(void **)&fn = dl_need(&lib, #name);                \
		return fn args;                                              \
	}

/* ---- entry points: fail like the library when it is not there ---- */

struct ibv_device **ibv_get_device_list(int *num_devices)
{
	static struct ibv_device **(*fn)(int *);

	if (!fn)
		*(void **)&fn = dl_sym(&ibverbs, "ibv_get_device_list");
	if (!fn) {
		errno = ENOSYS;
		return NULL;
	}
	return fn(num_devices);
}

struct rdma_event_channel *rdma_create_event_channel(void)
{
	static struct rdma_event_channel *(*fn)(void);

	if (!fn)
		*(void **)&fn = dl_sym(&rdmacm, "rdma_create_event_channel");
	if (!fn) {
		errno = ENOSYS;
		return NULL;
	}
	return fn();
}

/* Strings for enums: callers may use them before anything is open. */
const char *ibv_port_state_str(enum ibv_port_state port_state)
{
	static const char *(*fn)(enum ibv_port_state);

	if (!fn)
		*(void **)&fn = dl_sym(&ibverbs, "ibv_port_state_str");
	return fn ? fn(port_state) : "unknown";
}

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	static const char *(*fn)(enum ibv_wc_status);

	if (!fn)
		*(void **)&fn = dl_sym(&ibverbs, "ibv_wc_status_str");
	return fn ? fn(status) : "unknown";
}

const char *rdma_event_str(enum rdma_cm_event_type event)
{
	static const char *(*fn)(enum rdma_cm_event_type);

	if (!fn)
		*(void **)&fn = dl_sym(&rdmacm, "rdma_event_str");
	return fn ? fn(event) : "UNKNOWN EVENT";
}

/* ---- libibverbs ---- */

DL_FORWARD(ibverbs, void, ibv_free_device_list, (struct ibv_device **list), (list))
DL_FORWARD(ibverbs, const char *, ibv_get_device_name, (struct ibv_device *device), (device))
DL_FORWARD(ibverbs, struct ibv_context *, ibv_open_device, (struct ibv_device *device), (device))
DL_FORWARD(ibverbs, int, ibv_close_device, (struct ibv_context *context), (context))
DL_FORWARD(ibverbs, int, ibv_query_device, (struct ibv_context *context, struct ibv_device_attr *device_attr),
	   (context, device_attr))
DL_FORWARD(ibverbs, int, ibv_query_port,
	   (struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr),
	   (context, port_num, port_attr))
DL_FORWARD(ibverbs, int, _ibv_query_gid_ex,
	   (struct ibv_context *context, uint32_t port_num, uint32_t gid_index, struct ibv_gid_entry *entry,
	    uint32_t flags, size_t entry_size),
	   (context, port_num, gid_index, entry, flags, entry_size))
DL_FORWARD(ibverbs, ssize_t, _ibv_query_gid_table,
	   (struct ibv_context *context, struct ibv_gid_entry *entries, size_t max_entries, uint32_t flags,
	    size_t entry_size),
	   (context, entries, max_entries, flags, entry_size))
DL_FORWARD(ibverbs, struct ibv_pd *, ibv_alloc_pd, (struct ibv_context *context), (context))
DL_FORWARD(ibverbs, int, ibv_dealloc_pd, (struct ibv_pd *pd), (pd))
DL_FORWARD(ibverbs, struct ibv_mr *, ibv_reg_mr, (struct ibv_pd *pd, void *addr, size_t length, int access),
	   (pd, addr, length, access))
DL_FORWARD(ibverbs, int, ibv_dereg_mr, (struct ibv_mr *mr), (mr))
DL_FORWARD(ibverbs, struct ibv_comp_channel *, ibv_create_comp_channel, (struct ibv_context *context), (context))
DL_FORWARD(ibverbs, int, ibv_destroy_comp_channel, (struct ibv_comp_channel *channel), (channel))
DL_FORWARD(ibverbs, struct ibv_cq *, ibv_create_cq,
	   (struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel,
	    int comp_vector),
	   (context, cqe, cq_context, channel, comp_vector))
DL_FORWARD(ibverbs, int, ibv_destroy_cq, (struct ibv_cq *cq), (cq))
DL_FORWARD(ibverbs, int, ibv_get_cq_event, (struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context),
	   (channel, cq, cq_context))
DL_FORWARD(ibverbs, void, ibv_ack_cq_events, (struct ibv_cq *cq, unsigned int nevents), (cq, nevents))
DL_FORWARD(ibverbs, struct ibv_qp *, ibv_create_qp, (struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr),
	   (pd, qp_init_attr))
DL_FORWARD(ibverbs, int, ibv_destroy_qp, (struct ibv_qp *qp), (qp))
DL_FORWARD(ibverbs, int, ibv_modify_qp, (struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask),
	   (qp, attr, attr_mask))
DL_FORWARD(ibverbs, int, ibv_query_qp,
	   (struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr),
	   (qp, attr, attr_mask, init_attr))
DL_FORWARD(ibverbs, struct ibv_ah *, ibv_create_ah, (struct ibv_pd *pd, struct ibv_ah_attr *attr), (pd, attr))
DL_FORWARD(ibverbs, int, ibv_destroy_ah, (struct ibv_ah *ah), (ah))

/* ---- librdmacm ---- */

DL_FORWARD(rdmacm, void, rdma_destroy_event_channel, (struct rdma_event_channel *channel), (channel))
DL_FORWARD(rdmacm, int, rdma_create_id,
	   (struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context, enum rdma_port_space ps),
	   (channel, id, context, ps))
DL_FORWARD(rdmacm, int, rdma_destroy_id, (struct rdma_cm_id *id), (id))
DL_FORWARD(rdmacm, int, rdma_bind_addr, (struct rdma_cm_id *id, struct sockaddr *addr), (id, addr))
DL_FORWARD(rdmacm, int, rdma_resolve_addr,
	   (struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms),
	   (id, src_addr, dst_addr, timeout_ms))
DL_FORWARD(rdmacm, int, rdma_resolve_route, (struct rdma_cm_id *id, int timeout_ms), (id, timeout_ms))
DL_FORWARD(rdmacm, int, rdma_get_cm_event, (struct rdma_event_channel *channel, struct rdma_cm_event **event),
	   (channel, event))
DL_FORWARD(rdmacm, int, rdma_ack_cm_event, (struct rdma_cm_event *event), (event))
