// SPDX-License-Identifier: GPL-2.0-or-later
/* Loss, retry and stall advice by provider; see path_hints.h. */
#include <stdio.h>
#include <string.h>

#include "../host/sysfs.h"
#include "path_hints.h"

static int count_entry(const char *name, void *data)
{
	(void)name;
	(void)data;
	return 0;
}

void provider_read(const char *dev, struct provider *p)
{
	char path[256], node[32] = "";

	memset(p, 0, sizeof(*p));
	snprintf(p->dev, sizeof(p->dev), "%s", dev ? dev : "");
	if (!dev || !*dev)
		return;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", dev);
	if (fs_list(path, count_entry, NULL) >= 0) {
		/* a bus device (PCI, auxiliary): hardware; its driver names it */
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/driver", dev);
		if (fs_readlink_base(path, p->driver, sizeof(p->driver)) < 0)
			p->driver[0] = '\0';
		return;
	}
	p->software = true;
	fs_readf(node, sizeof(node), "/sys/class/infiniband/%s/node_type", dev);
	/* "4: RNIC" is iWARP: siw; a software CA is Soft-RoCE */
	snprintf(p->driver, sizeof(p->driver), "%s", strstr(node, "RNIC") ? "siw" : "rdma_rxe");
}

const char *provider_text(const struct provider *p, char *buf, size_t len)
{
	if (p->software)
		snprintf(buf, len, "%s is a software provider (%s)", p->dev, p->driver);
	else
		snprintf(buf, len, "%s is a hardware device%s%s%s", p->dev, p->driver[0] ? " (" : "", p->driver,
			 p->driver[0] ? ")" : "");
	return buf;
}

/* Who drops the packets on a software provider: the provider itself. */
static const char *soft_drops(const struct provider *p, char *buf, size_t len)
{
	char who[256];

	snprintf(buf, len, "%s, which drops packets itself when the host's CPUs are busy",
		 provider_text(p, who, sizeof(who)));
	return buf;
}

const char *hint_loss(const struct provider *p, const char *when, char *buf, size_t len)
{
	char who[256];

	if (p->software)
		snprintf(buf, len, "packets were lost and retransmitted %s, which costs latency and bandwidth: %s; "
			 "check the CPU load on both hosts (top, mpstat), drops on the netdev (ip -s link) and for a "
			 "netem qdisc (tc qdisc show); switch PFC/ECN settings do not help a provider that drops in "
			 "software", when, soft_drops(p, who, sizeof(who)));
	else
		snprintf(buf, len, "packets were lost and retransmitted %s, which costs latency and bandwidth: RoCE "
			 "needs a lossless fabric (PFC) or ECN marking (DCQCN) on every NIC and switch of the path; "
			 "check them, the link's error counters (rdmadiag counter show) and for a lossy link or netem "
			 "qdisc (tc qdisc show)", when);
	return buf;
}

const char *hint_heavy_loss(const struct provider *p, char *buf, size_t len)
{
	char who[256];

	if (p->software)
		snprintf(buf, len, "%s: check the CPU load on both hosts (top), drops on the netdev (ip -s link) and "
			 "for a netem qdisc (tc qdisc show)", soft_drops(p, who, sizeof(who)));
	else
		snprintf(buf, len, "check PFC or ECN on every NIC and switch of the path, the link's error counters "
			 "(rdmadiag counter show) and for a netem qdisc (tc qdisc show)");
	return buf;
}

const char *hint_stall_extra(const struct provider *p, char *buf, size_t len)
{
	char who[256];

	buf[0] = '\0';
	if (p->software)
		snprintf(buf, len, "; %s: check the CPU load on both hosts (top)", soft_drops(p, who, sizeof(who)));
	return buf;
}
