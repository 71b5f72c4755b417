// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "netdev.h"
#include "sysfs.h"

int netdev_read(const char *name, struct netdev_info *out)
{
	char path[256];
	uint64_t v;

	memset(out, 0, sizeof(*out));
	out->carrier = -1;
	out->admin_up = -1;
	if (!name[0] || strchr(name, '/') || strlen(name) > 32)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", name);
	if (fs_read_u64(path, &v))
		return -ENODEV;
	out->found = true;
	out->mtu = (unsigned)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", name);
	if (!fs_read_u64(path, &v))
		out->ifindex = (unsigned)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/carrier", name);
	/* reading carrier of a device that is down fails with EINVAL */
	if (!fs_read_u64(path, &v))
		out->carrier = v ? 1 : 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", name);
	if (!fs_read_u64(path, &v))	/* "0x1003": base 0 reads the hex */
		out->admin_up = v & IFF_UP ? 1 : 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", name);
	if (fs_read(path, out->operstate, sizeof(out->operstate)) < 0)
		snprintf(out->operstate, sizeof(out->operstate), "unknown");
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", name);
	fs_readlink_base(path, out->driver, sizeof(out->driver));
	return 0;
}
