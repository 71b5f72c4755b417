// SPDX-License-Identifier: GPL-2.0-or-later
/* Host readers joined with netlink and verbs; see lower_join.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../host/sysfs.h"
#include "../netlink/rdma.h"
#include "../verbs/verbs.h"
#include "lower_join.h"

/* The used slots from one libibverbs query (what sysfs gives slot by slot).
 * Returns 0, or -errno when the caller should read sysfs instead. */
static int read_verbs(const char *dev, unsigned port, struct gid_table *t)
{
	struct vb_gid *v;
	int n = vb_gid_table(dev, port, &v);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		enum gid_type type = GID_TYPE_UNKNOWN;

		/* verbs names the type as sysfs does: IB and RoCE v1 are one kernel type */
		if (v[i].type == 2)
			type = GID_TYPE_ROCE_V2;
		else if (v[i].type <= 1)
			type = t->ethernet ? GID_TYPE_ROCE_V1 : GID_TYPE_IB;
		if (gid_table_add(t, v[i].index, v[i].text, type, v[i].ndev)) {
			free(v);
			return -ENOMEM;
		}
	}
	free(v);
	return 0;
}

int gid_table_read(const char *dev, unsigned port, bool with_empty, struct gid_table *t)
{
	int err = gid_table_init(dev, port, t);

	if (err)
		return err;
	/* Empty slots (gid show -d) are only in sysfs. */
	if (with_empty || !vb_gid_table_cheap() || read_verbs(dev, port, t)) {
		gid_table_free(t);
		err = gid_table_read_sysfs(dev, port, with_empty, t);
		if (err)
			return err;
	}
	gid_table_sort(t);
	return 0;
}

#define MAX_NAMES PT_MAX_RDMA

struct name_list {
	int n;
	char name[MAX_NAMES][64];
};

static int collect_name(const struct rd_dev *d, void *data)
{
	struct name_list *l = data;

	if (l->n < MAX_NAMES)
		snprintf(l->name[l->n++], sizeof(l->name[0]), "%s", d->name);
	return 0;
}

static int count_none(const char *name, void *data)
{
	(void)name, (void)data;
	return 0;
}

int pt_read_host(struct pci_topo *t, bool gpu_hosts_only)
{
	static struct name_list l;
	int err = pt_read_gpus(t);

	if (err || (gpu_hosts_only && !t->ngpu))
		return err;
	l.n = 0;
	/* no RDMA core (no class directory): not asked, so no netlink error is
	 * printed where the GPUs alone are the answer */
	if (fs_list("/sys/class/infiniband", count_none, NULL) < 0 || rd_dev_each(NULL, collect_name, &l))
		l.n = 0;	/* no RDMA netlink: the GPUs alone */
	for (int i = 0; i < l.n && t->nrdma < PT_MAX_RDMA; i++)
		pt_add_rdma(t, l.name[i]);
	return 0;
}
