// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The candidates of shell completion (complete.c) for one value: a list of
 * choices, an item of a comma separated list, or live values (devices and
 * their ports from sysfs, QP numbers from netlink, peers of recent path
 * tests). See complete_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/source.h"
#include "../host/sysfs.h"
#include "../netlink/nl.h"
#include "../netlink/rdma.h"
#include "../netlink/res.h"
#include "complete_int.h"
#include "lower_err.h"
#include "recent.h"

#define IB_CLASS "/sys/class/infiniband"

void compl_emit(const char *head, const char *word, const char *cur)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", head, word);
	if (starts_with(full, cur))
		puts(full);
}

void compl_emit_list(const char *head, const char *const *words, const char *cur)
{
	for (int i = 0; words && words[i]; i++)
		compl_emit(head, words[i], cur);
}

/* --- live values ------------------------------------------------------- */

struct live_walk {
	const char *head;	/* printed before each candidate ("--dev=") */
	const char *part;	/* what is typed after head */
	bool with_ports;
	int matches;		/* devices whose name starts with part */
	const char *dev;	/* device whose ports are listed */
};

static int count_device(const char *name, void *data)
{
	struct live_walk *w = data;

	if (starts_with(name, w->part))
		w->matches++;
	return 0;
}

static int emit_port(const char *name, void *data)
{
	struct live_walk *w = data;
	char word[256];

	snprintf(word, sizeof(word), "%s%s/%s", w->head, w->dev, name);
	if (starts_with(word + strlen(w->head), w->part))
		puts(word);
	return 0;
}

static int emit_device(const char *name, void *data)
{
	struct live_walk *w = data;
	char dir[512];
	size_t len = strlen(name);
	bool typed_dev = !strncmp(w->part, name, len) && w->part[len] == '/';

	if (starts_with(name, w->part))
		printf("%s%s\n", w->head, name);
	/* Ports once the device is typed or the only match, so lists stay short. */
	if (!w->with_ports || !(typed_dev || (starts_with(name, w->part) && w->matches == 1)))
		return 0;
	snprintf(dir, sizeof(dir), IB_CLASS "/%s/ports", name);
	w->dev = name;
	fs_list(dir, emit_port, w);
	return 0;
}

/* Missing /sys/class/infiniband (no RDMA here) simply gives no candidates. */
static void emit_devices(const char *head, const char *part, bool with_ports)
{
	struct live_walk w = { head, part, with_ports, 0, NULL };

	if (with_ports)
		fs_list(IB_CLASS, count_device, &w);
	fs_list(IB_CLASS, emit_device, &w);
}

/* QP numbers: one dump per device, at most QPN_MAX candidates (a host with
 * 10k QPs gets a short list; typing digits narrows it). */
#define QPN_MAX 200
#define QPN_DEVS 64

struct qpn_walk {
	const char *head, *part;
	bool remote;		/* rqpn rather than lqpn */
	int emitted;
	uint32_t dev[QPN_DEVS];
	int ndev;
};

static int note_device(const struct rd_dev *d, void *data)
{
	struct qpn_walk *w = data;

	if (w->ndev < QPN_DEVS)
		w->dev[w->ndev++] = d->index;
	return 0;
}

static int emit_qpn(const struct rd_res *r, void *data)
{
	struct qpn_walk *w = data;
	char word[16];

	if (w->remote && !rd_res_has(r, RF_RQPN))
		return 0;
	snprintf(word, sizeof(word), "%u", w->remote ? r->rqpn : r->id);
	if (starts_with(word, w->part)) {
		printf("%s%s\n", w->head, word);
		w->emitted++;
	}
	return w->emitted >= QPN_MAX;
}

static int count_any(const char *name, void *data)
{
	(void)name;
	++*(int *)data;
	return 1;
}

static void emit_qp_numbers(const char *head, const char *part, bool remote)
{
	struct qpn_walk w = { .head = head, .part = part, .remote = remote };
	int devices = 0;

	/* A fixture is asked as it is; a live host without devices is left alone. */
	if (!source_replaying())
		fs_list(IB_CLASS, count_any, &devices);
	if ((!source_replaying() && !devices) || nl_require() != 0)
		return;
	rd_dev_each(NULL, note_device, &w);
	for (int i = 0; i < w.ndev && w.emitted < QPN_MAX; i++)
		rd_res_each(RD_RES_QP, w.dev[i], false, 0, emit_qpn, &w);
}

static int emit_peer(const char *addr, void *data)
{
	const char *const *hp = data;

	compl_emit(hp[0], addr, hp[1]);
	return 0;
}

/* Check ids are the choices of the option that completes COMPLETE_CHECK_ID. */
static const char *const *find_check_ids(void)
{
	for (int i = 0; all_objects[i]; i++)
		for (const struct action *a = all_objects[i]->actions; a->name; a++)
			for (const struct cmd_opt *o = a->opts; o && o->id; o++)
				if (o->complete == COMPLETE_CHECK_ID && o->choices)
					return o->choices;
	return NULL;
}

/* Completes one item of a comma separated list: "a,b,c<TAB>". */
void compl_emit_list_item(const char *head, const char *part, const char *const *choices)
{
	const char *comma = strrchr(part, ',');
	char prefix[512];

	snprintf(prefix, sizeof(prefix), "%s%.*s", head, comma ? (int)(comma - part + 1) : 0, part);
	for (int i = 0; choices && choices[i]; i++) {
		char item[256];

		/* skip what the list already holds */
		snprintf(item, sizeof(item), ",%s,", choices[i]);
		char have[1024];

		snprintf(have, sizeof(have), ",%.*s", comma ? (int)(comma - part + 1) : 0, part);
		if (strstr(have, item))
			continue;
		char full[768];

		snprintf(full, sizeof(full), "%s%s", prefix, choices[i]);
		if (starts_with(full + strlen(head), part))
			puts(full);
	}
}

void compl_emit_kind(enum complete_kind kind, const char *head, const char *part)
{
	switch (kind) {
	case COMPLETE_DEV:
	case COMPLETE_DEV_PORT:
		emit_devices(head, part, kind == COMPLETE_DEV_PORT);
		return;
	case COMPLETE_CHECK_ID:
		compl_emit_list_item(head, part, find_check_ids());
		return;
	case COMPLETE_FILE:
		puts(":file");
		return;
	case COMPLETE_DIR:
		puts(":dir");
		return;
	case COMPLETE_HOST: {
		const char *hp[2] = { head, part };
		char full[512];

		snprintf(full, sizeof(full), "%s%s", head, part);
		hp[1] = full;
		recent_peer_each(emit_peer, hp);
		puts(":host");
		return;
	}
	case COMPLETE_QPN:
	case COMPLETE_RQPN:
		emit_qp_numbers(head, part, kind == COMPLETE_RQPN);
		return;
	default:	/* COMPLETE_NONE, and kinds this file does not know yet */
		return;
	}
}

void compl_emit_opt_value(const struct cmd_opt *o, const char *head, const char *part)
{
	char full[512];

	switch (o->kind) {
	case OPT_CHOICE:
		snprintf(full, sizeof(full), "%s%s", head, part);
		compl_emit_list(head, o->choices, full);
		return;
	case OPT_LIST:
		if (o->choices) {
			compl_emit_list_item(head, part, o->choices);
			return;
		}
		compl_emit_kind(o->complete, head, part);
		return;
	case OPT_STR:
		if (o->choices) {
			snprintf(full, sizeof(full), "%s%s", head, part);
			compl_emit_list(head, o->choices, full);
			return;
		}
		compl_emit_kind(o->complete, head, part);
		return;
	default:
		/* flags and numbers: nothing to offer; new kinds complete as their choices */
		if (o->kind != OPT_FLAG && o->choices) {
			snprintf(full, sizeof(full), "%s%s", head, part);
			compl_emit_list(head, o->choices, full);
		}
		return;
	}
}
