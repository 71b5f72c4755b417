// SPDX-License-Identifier: GPL-2.0-or-later
/* Device list of a watch, from monitor events or polling; see devwatch.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../host/source.h"
#include "../util/clock.h"

#include "common.h"
#include "devwatch.h"
#include "lower_err.h"
#include "output.h"
#include "rdmadiag.h"

enum { D_EVENT, D_TIME, D_DEV, D_PORT, D_OLD_DEV, D_DEV_INDEX, D_NETDEV, D_NETDEV_INDEX, D_SOURCE, D_MODE, D_REASON };

static const struct field dev_fields[] = {
	[D_EVENT] = { "event", NULL, FT_TOKEN, FF_HEAD, NULL },
	[D_TIME] = { "elapsed_s", NULL, FT_DOUBLE, 0, NULL },
	[D_DEV] = { "dev", NULL, FT_STR, 0, NULL },
	[D_PORT] = { "port", NULL, FT_U64, 0, NULL },
	[D_OLD_DEV] = { "old_dev", NULL, FT_STR, 0, NULL },
	[D_DEV_INDEX] = { "dev_index", NULL, FT_U64, FF_DETAIL, NULL },
	[D_NETDEV] = { "netdev", NULL, FT_STR, 0, NULL },
	[D_NETDEV_INDEX] = { "netdev_index", NULL, FT_U64, FF_DETAIL, NULL },
	[D_SOURCE] = { "source", NULL, FT_TOKEN, FF_DETAIL, NULL },	/* "netlink" or "poll" */
	[D_MODE] = { "mode", NULL, FT_TOKEN, 0, NULL },			/* "events" or "poll" */
	[D_REASON] = { "reason", NULL, FT_STR, 0, NULL },
};

struct devlist {
	int n;
	struct {
		uint32_t index;
		char name[RD_NAME_LEN];
	} dev[DEVWATCH_MAX];
};

static int cached_at(const struct devwatch *dw, uint32_t index)
{
	for (int i = 0; i < dw->n; i++)
		if (dw->dev[i].index == index)
			return i;
	return -1;
}

static const char *cached_name(const struct devwatch *dw, uint32_t index)
{
	int i = cached_at(dw, index);

	return i < 0 ? NULL : dw->dev[i].name;
}

/* Events of other devices are left out when the watch is limited to one. */
static bool wanted(const struct devwatch *dw, const char *name)
{
	return !dw->only || (name && !strcmp(name, dw->only));
}

static void event_begin(struct devwatch *dw, const char *event)
{
	dw->changes++;
	out_obj_begin(NULL);
	out_token(&dev_fields[D_EVENT], event);
	out_double(&dev_fields[D_TIME], dw->clock() - dw->t0, 3);
}

static void event_end(const char *source)
{
	out_token(&dev_fields[D_SOURCE], source);
	out_obj_end();
	out_flush();
}

/* ---- reading the list ---- */

static int collect(const struct rd_dev *d, void *data)
{
	struct devlist *l = data;

	if (l->n < DEVWATCH_MAX) {
		l->dev[l->n].index = d->index;
		snprintf(l->dev[l->n++].name, RD_NAME_LEN, "%s", d->name);
	}
	return 0;
}

/* -ENODEV (the watched device is not there) is an empty list. */
static int read_list(const struct devwatch *dw, struct devlist *l)
{
	int err;

	l->n = 0;
	err = rd_dev_each(dw->only, collect, l);
	return err == -ENODEV && dw->only ? 0 : err;
}

static int find(const struct devlist *l, uint32_t index)
{
	for (int i = 0; i < l->n; i++)
		if (l->dev[i].index == index)
			return i;
	return -1;
}

/* Prints what polling saw change between the kept list and l. Indexes are
 * never reused by the kernel, so a device deleted and created again under
 * the same name is a removal and an addition. */
static void print_diff(struct devwatch *dw, const struct devlist *l)
{
	for (int i = 0; i < dw->n; i++) {
		int j = find(l, dw->dev[i].index);

		if (j < 0) {
			event_begin(dw, "dev_removed");
			out_str(&dev_fields[D_DEV], dw->dev[i].name);
			out_u64(&dev_fields[D_DEV_INDEX], dw->dev[i].index);
			event_end("poll");
		} else if (strcmp(l->dev[j].name, dw->dev[i].name)) {
			event_begin(dw, "dev_renamed");
			out_str(&dev_fields[D_DEV], l->dev[j].name);
			out_str(&dev_fields[D_OLD_DEV], dw->dev[i].name);
			out_u64(&dev_fields[D_DEV_INDEX], l->dev[j].index);
			event_end("poll");
		}
	}
	for (int j = 0; j < l->n; j++) {
		if (cached_name(dw, l->dev[j].index))
			continue;
		event_begin(dw, "dev_added");
		out_str(&dev_fields[D_DEV], l->dev[j].name);
		out_u64(&dev_fields[D_DEV_INDEX], l->dev[j].index);
		event_end("poll");
	}
}

static void keep(struct devwatch *dw, const struct devlist *l)
{
	dw->n = l->n;
	memcpy(dw->dev, l->dev, sizeof(l->dev[0]) * (size_t)l->n);
}

/* Both modes compare the list every round: 6.12 sends no event for
 * `rdma dev set NAME name NEW`, and events can be lost (receive buffer
 * overrun). In events mode the kept list already holds what the events said,
 * so only what they did not say is printed here, as "poll". */
int devwatch_refresh(struct devwatch *dw)
{
	struct devlist l;
	int err;

	/* the list devwatch_start() read serves the first round */
	if (dw->fresh) {
		dw->fresh = false;
		return EXIT_OK;
	}
	err = read_list(dw, &l);
	if (err)
		return report_dev_error(dw->only, err);
	print_diff(dw, &l);
	keep(dw, &l);
	return EXIT_OK;
}

bool devwatch_gone(struct devwatch *dw, uint32_t index)
{
	struct devlist l;

	if (read_list(dw, &l) || find(&l, index) >= 0)
		return false;
	/* printed now, as a round's compare would: the kernel's own event,
	 * arriving later, then finds the device gone and is not printed again */
	print_diff(dw, &l);
	keep(dw, &l);
	return true;
}

/* ---- events ---- */

static bool dev_event(uint8_t type)
{
	return type == RD_MON_REGISTER || type == RD_MON_UNREGISTER || type == RD_MON_RENAME;
}

/* old: the kept name before the event (NULL: not kept), for "from". */
static void print_monitor_event(struct devwatch *dw, const struct mon_event *ev, const char *token,
				const char *old)
{
	const char *name = ev->dev_name ? ev->dev_name : old;

	event_begin(dw, token);
	out_str(&dev_fields[D_DEV], name);
	if (ev->has_port)
		out_u64(&dev_fields[D_PORT], ev->port);
	if (ev->type == RD_MON_RENAME && old && name && strcmp(old, name))
		out_str(&dev_fields[D_OLD_DEV], old);
	if (ev->has_dev_index)
		out_u64(&dev_fields[D_DEV_INDEX], ev->dev_index);
	out_str(&dev_fields[D_NETDEV], ev->ndev_name);
	if (ev->has_ndev_index)
		out_u64(&dev_fields[D_NETDEV_INDEX], ev->ndev_index);
	event_end("netlink");
}

/* A full list (more devices than a watch keeps) takes no more; the event is
 * printed all the same. */
static bool cache_add(struct devwatch *dw, uint32_t index, const char *name)
{
	if (dw->n < DEVWATCH_MAX) {
		dw->dev[dw->n].index = index;
		snprintf(dw->dev[dw->n++].name, RD_NAME_LEN, "%s", name);
	}
	return true;
}

static bool cache_drop(struct devwatch *dw, int i)
{
	memmove(&dw->dev[i], &dw->dev[i + 1], sizeof(dw->dev[0]) * (size_t)(dw->n - i - 1));
	dw->n--;
	return true;
}

static bool cache_rename(struct devwatch *dw, int i, const char *name)
{
	if (!strcmp(dw->dev[i].name, name))
		return false;
	snprintf(dw->dev[i].name, RD_NAME_LEN, "%s", name);
	return true;
}

/*
 * Leaves the kept list as a device event says, so that the next round's
 * compare prints only what no event said. Returns whether the list changed:
 * when it already showed the change, a compare printed it (its dump ran
 * between the change and the event's arrival) and the event is not printed
 * again. Devices outside the watch (`only`) are never kept, and an event
 * without index or name changes nothing: the compare reports those.
 */
static bool apply_dev_event(struct devwatch *dw, const struct mon_event *ev)
{
	int i = ev->has_dev_index ? cached_at(dw, ev->dev_index) : -1;
	bool watched = ev->dev_name && wanted(dw, ev->dev_name);

	if (!ev->has_dev_index)
		return false;
	if (ev->type == RD_MON_UNREGISTER)
		return i >= 0 && cache_drop(dw, i);
	if (!ev->dev_name)
		return false;
	if (i < 0)	/* registered, or renamed into the watch */
		return watched && cache_add(dw, ev->dev_index, ev->dev_name);
	if (!watched)	/* renamed out of the watch */
		return cache_drop(dw, i);
	return cache_rename(dw, i, ev->dev_name);
}

static void on_event(const struct mon_event *ev, void *data)
{
	struct devwatch *dw = data;
	const char *token = mon_event_token(ev->type);
	const char *cached = ev->has_dev_index ? cached_name(dw, ev->dev_index) : NULL;
	char old[RD_NAME_LEN];
	bool print;

	/* An event type newer than this code: the next compare says what changed. */
	if (!token)
		return;
	snprintf(old, sizeof(old), "%s", cached ? cached : "");
	if (dev_event(ev->type))
		print = apply_dev_event(dw, ev);
	else
		print = wanted(dw, ev->dev_name ? ev->dev_name : cached);
	if (print)
		print_monitor_event(dw, ev, token, cached ? old : NULL);
}

/* Lost events (mon_wait() < 0) need nothing here: the next compare finds
 * what they would have said. */
void devwatch_wait(struct devwatch *dw, double secs, volatile sig_atomic_t *stop)
{
	mon_wait(secs, on_event, dw, stop);
}

/* ---- start, stop ---- */

static void print_mode(struct devwatch *dw, const char *why)
{
	if (!g_opts.details)
		return;
	out_obj_begin(NULL);
	out_token(&dev_fields[D_EVENT], "device_watch");
	out_double(&dev_fields[D_TIME], 0, 3);
	out_token(&dev_fields[D_MODE], dw->mode == MON_EVENTS ? "events" : "poll");
	out_str(&dev_fields[D_REASON], why);
	out_obj_end();
	out_flush();
}

int devwatch_start(struct devwatch *dw, const char *only, bool wait_for_it, double t0, double (*clock)(void))
{
	char why[160];
	struct devlist l;
	int err;

	l.n = 0;
	memset(dw, 0, sizeof(*dw));
	dw->only = only;
	dw->t0 = t0;
	dw->clock = clock;
	/* join before the first read: a device added in between is not missed */
	dw->mode = mon_open(why, sizeof(why));
	print_mode(dw, why);
	err = rd_dev_each(only, collect, &l);
	if (err == -ENODEV && only && wait_for_it) {
		fprintf(stderr, "rdmadiag: no RDMA device named '%s' yet: waiting for it to be added "
				"('rdmadiag dev show' lists the devices here)\n", only);
		l.n = 0;
		err = 0;
	}
	if (err)
		return report_dev_error(only, err);
	/* dev monitor waits for a device to be added; a watch of what devices
	 * hold (qp watch) has nothing to watch: the caller says so and exits 3 */
	if (l.n == 0 && !only && wait_for_it)
		fprintf(stderr, "rdmadiag: no RDMA devices on this host yet: waiting for one to be added "
				"('rdmadiag dev show' lists the devices here)\n");
	keep(dw, &l);
	dw->fresh = true;
	return EXIT_OK;
}

void devwatch_stop(struct devwatch *dw)
{
	(void)dw;
	mon_close();
}

/* ---- dev monitor ---- */

double devwatch_clock(void)
{
	/* through the source: a recording replays the times it saw */
	return source_clock("mono", mono_s());
}

static volatile sig_atomic_t follow_stop;

static void on_follow_signal(int sig)
{
	(void)sig;
	follow_stop = 1;
}

int devwatch_follow(const char *only, double interval, unsigned long count)
{
	struct devwatch dw;
	unsigned long rounds = 0;
	int rc;

	/* No SA_RESTART (stop_signals_catch): SIGINT must cut the wait short. */
	stop_signals_catch(on_follow_signal);
	rc = devwatch_start(&dw, only, true, devwatch_clock(), devwatch_clock);
	while (!rc && !follow_stop) {
		rc = devwatch_refresh(&dw);
		if (rc || (count && ++rounds >= count))
			break;
		devwatch_wait(&dw, interval, &follow_stop);
	}
	devwatch_stop(&dw);
	return rc;
}
