// SPDX-License-Identifier: GPL-2.0-or-later
/* Port counters from netlink, sysfs and ethtool, live or replayed; see stat.h. */
#include <errno.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../host/source.h"
#include "../host/sysfs.h"
#include "nl.h"
#include "stat.h"

/* ethtool string sets are bounded by the driver; refuse absurd counts. */
#define ETHTOOL_MAX_STATS 65536

const char *stat_source_token(enum stat_source src)
{
	switch (src) {
	case STAT_SRC_NETLINK: return "netlink";
	case STAT_SRC_HW_SYSFS: return "hw_counters";
	case STAT_SRC_IB_SYSFS: return "counters";
	default: return "ethtool";
	}
}

static int set_add(struct stat_set *s, const char *name, uint64_t value, enum stat_source src)
{
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 64;
		struct stat_counter *c = realloc(s->c, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		s->c = c;
		s->cap = cap;
	}
	struct stat_counter *c = &s->c[s->n++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->value = value;
	c->src = src;
	return 0;
}

void stat_set_free(struct stat_set *s)
{
	free(s->c);
	memset(s, 0, sizeof(*s));
}

const struct stat_counter *stat_find(const struct stat_set *s, const char *name, enum stat_source src)
{
	for (int i = 0; i < s->n; i++)
		if (s->c[i].src == src && !strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

/* ---- netlink ---- */

struct nl_walk {
	struct stat_set *s;
	uint32_t port;
	int added;
};

static int add_hwcounter(const struct nlattr *entry, struct nl_walk *w)
{
	nl_tb etb;

	if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY || nl_parse_nested(entry, etb))
		return 0;
	const char *name = nl_str(etb, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME);

	if (!name || !etb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
		return 0;
	w->added++;
	return set_add(w->s, name, nl_u64(etb, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 0), STAT_SRC_NETLINK);
}

int stat_add_hwcounters(const struct nlattr *table, struct stat_set *s)
{
	struct nl_walk w = { .s = s };
	const struct nlattr *a;

	/* Entries share one attribute type, so walk them instead of a table. */
	mnl_attr_for_each_nested(a, table) {
		if (add_hwcounter(a, &w))
			return -ENOMEM;
	}
	return w.added;
}

static int stat_msg(const nl_tb tb, void *data)
{
	struct nl_walk *w = data;
	int n;

	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return MNL_CB_OK;
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX] && nl_u32(tb, RDMA_NLDEV_ATTR_PORT_INDEX, 0) != w->port)
		return MNL_CB_OK;
	n = stat_add_hwcounters(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS], w->s);
	if (n < 0)
		return MNL_CB_ERROR;
	w->added += n;
	return MNL_CB_OK;
}

int stat_port_netlink(uint32_t dev_index, uint32_t port, struct stat_set *s)
{
	struct nl_walk w = { .s = s, .port = port };
	struct nl_req r;
	int err;

	/* Without STAT_RES the kernel answers with the port's default counters. */
	nl_req_init(&r, RDMA_NLDEV_CMD_STAT_GET, false);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, dev_index);
	nl_req_u32(&r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	err = nl_run(&r, stat_msg, &w);
	if (err)
		return err;
	s->from_netlink = w.added > 0;
	return w.added > 0 ? 0 : -ENODATA;
}

/* ---- sysfs ---- */

struct dir_walk {
	struct stat_set *s;
	const char *dir;
	enum stat_source src;
	int added;
};

static int add_file(const char *name, void *data)
{
	struct dir_walk *w = data;
	char path[PATH_MAX];
	uint64_t v;

	if (!strcmp(name, "lifespan"))
		return 0;
	if (w->src == STAT_SRC_HW_SYSFS && stat_find(w->s, name, STAT_SRC_NETLINK))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", w->dir, name);
	/* Some PMA counters fail to read on RoCE ports: skip those, keep the rest. */
	if (fs_read_u64(path, &v))
		return 0;
	w->added++;
	return set_add(w->s, name, v, w->src);
}

static int read_dir(const char *dir, enum stat_source src, struct stat_set *s)
{
	struct dir_walk w = { .s = s, .dir = dir, .src = src };
	int n = fs_list(dir, add_file, &w);

	return n < 0 ? n : w.added;
}

int stat_port_sysfs(const char *dev, uint32_t port, bool hw_counters, struct stat_set *s)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	uint64_t v;
	int nhw = 0, nib;

	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/hw_counters", dev, port);
	snprintf(path, sizeof(path), "%s/lifespan", dir);
	if (!fs_read_u64(path, &v))
		s->lifespan_ms = (unsigned)v;
	if (hw_counters)
		nhw = read_dir(dir, STAT_SRC_HW_SYSFS, s);
	snprintf(dir, sizeof(dir), "/sys/class/infiniband/%s/ports/%u/counters", dev, port);
	nib = read_dir(dir, STAT_SRC_IB_SYSFS, s);
	if (nhw > 0 || nib > 0)
		return 0;
	return nhw < 0 ? nhw : nib < 0 ? nib : -ENODATA;
}

/* ---- ethtool ---- */

bool stat_ethtool_is_pause(const char *name)
{
	static const char *const words[] = { "pause", "pfc", "xon", "xoff", NULL };

	for (int i = 0; words[i]; i++)
		if (strcasestr(name, words[i]))
			return true;
	return false;
}

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int ethtool_count(int fd, const char *ifname)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} info = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	int err = ethtool_ioctl(fd, ifname, &info);

	if (err)
		return err;
	if (!info.hdr.sset_mask)
		return 0;
	return info.len > ETHTOOL_MAX_STATS ? -E2BIG : (int)info.len;
}

/* Fills names and values of the driver's statistics; returns their count. */
static int ethtool_query(int fd, const char *ifname, struct ethtool_gstrings **names, struct ethtool_stats **vals)
{
	int n = ethtool_count(fd, ifname), err;

	*names = NULL;
	*vals = NULL;
	if (n <= 0)
		return n;
	*names = calloc(1, sizeof(**names) + (size_t)n * ETH_GSTRING_LEN);
	*vals = calloc(1, sizeof(**vals) + (size_t)n * sizeof(uint64_t));
	if (!*names || !*vals)
		return -ENOMEM;
	(*names)->cmd = ETHTOOL_GSTRINGS;
	(*names)->string_set = ETH_SS_STATS;
	(*names)->len = n;
	(*vals)->cmd = ETHTOOL_GSTATS;
	(*vals)->n_stats = n;
	err = ethtool_ioctl(fd, ifname, *names);
	if (!err)
		err = ethtool_ioctl(fd, ifname, *vals);
	if (err)
		return err;
	/* The set may shrink between the calls; trust the smaller count. */
	return (int)((*names)->len < (*vals)->n_stats ? (*names)->len : (*vals)->n_stats);
}

static void ethtool_record(const char *rel, const char *name, uint64_t v)
{
	char line[ETH_GSTRING_LEN + 32];
	int n = snprintf(line, sizeof(line), "%s=%llu\n", name, (unsigned long long)v);

	source_save(rel, line, n, true);
}

static int ethtool_live(const char *ifname, const char *rel, struct stat_set *s)
{
	struct ethtool_gstrings *names;
	struct ethtool_stats *vals;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), n;

	if (fd < 0)
		return -errno;
	n = ethtool_query(fd, ifname, &names, &vals);
	close(fd);
	if (source_recording())
		source_save(rel, "", 0, false);	/* also records "no statistics" */
	for (int i = 0; i < n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		memcpy(name, names->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		if (!stat_ethtool_is_pause(name))
			continue;
		if (source_recording())
			ethtool_record(rel, name, vals->data[i]);
		set_add(s, name, vals->data[i], STAT_SRC_ETHTOOL);
	}
	free(names);
	free(vals);
	return n < 0 ? n : 0;
}

static int ethtool_replay(const char *rel, struct stat_set *s)
{
	char line[256];
	FILE *fp = source_open(rel);

	if (!fp)
		return -ENOENT;
	while (fgets(line, sizeof(line), fp)) {
		char *eq = strrchr(line, '='), *end;

		if (!eq || eq == line)
			continue;
		*eq = '\0';
		unsigned long long v = strtoull(eq + 1, &end, 10);

		if (end == eq + 1 || !stat_ethtool_is_pause(line))
			continue;
		set_add(s, line, v, STAT_SRC_ETHTOOL);
	}
	fclose(fp);
	return 0;
}

int stat_netdev_ethtool(const char *ifname, struct stat_set *s)
{
	char rel[128];

	if (!ifname[0] || strlen(ifname) >= IFNAMSIZ || strchr(ifname, '/'))
		return -EINVAL;
	snprintf(rel, sizeof(rel), "ethtool/%s", ifname);
	return source_replaying() ? ethtool_replay(rel, s) : ethtool_live(ifname, rel, s);
}

/* ---- everything ---- */

int stat_port_read(const char *dev, uint32_t dev_index, uint32_t port, const char *netdev, struct stat_set *s)
{
	int nl_err = stat_port_netlink(dev_index, port, s);
	int fs_err;

	s->nl_err = nl_err == -ENODATA ? 0 : nl_err;
	/* hw_counters from sysfs only when netlink had none (kernels before 5.x). */
	fs_err = stat_port_sysfs(dev, port, nl_err != 0, s);
	if (netdev && netdev[0])
		stat_netdev_ethtool(netdev, s);
	if (nl_err == 0 || fs_err == 0 || s->n > 0)
		return 0;
	return nl_err != -ENODATA && nl_err != -ENOENT ? nl_err : fs_err;
}
