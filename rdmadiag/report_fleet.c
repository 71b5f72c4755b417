// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading per-node reports into the fleet model: the files and directories
 * named, and what is worked out once all are read; see report_fleet.h. One
 * report is read by report_fleet_read.c into the indexes of
 * report_fleet_map.c (report_fleet_int.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_fleet_int.h"

/* ---- files ---- */

/* The read buffer of the model, grown to size bytes; it serves every file, so
 * memory follows the largest report, not the sum of them. NULL: no memory. */
static char *read_buffer(struct fleet_model *m, size_t size)
{
	if (size > m->read_cap) {
		char *p = realloc(m->read_buf, size);

		if (!p)
			return NULL;
		m->read_buf = p;
		m->read_cap = size;
	}
	return m->read_buf;
}

/* Reads a regular file of at most RF_MAX_FILE bytes into the model's read
 * buffer. NULL with why set. */
static char *slurp(struct fleet_model *m, const char *file, size_t *len, char *why, size_t wlen)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, wlen, "cannot read: %s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, wlen, "not a regular file");
		goto out;
	}
	if ((uintmax_t)st.st_size > RF_MAX_FILE) {
		snprintf(why, wlen, "%jd bytes: larger than the %u MiB a report may have", (intmax_t)st.st_size,
			 RF_MAX_FILE >> 20);
		goto out;
	}
	buf = read_buffer(m, (size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (!buf || got != (size_t)st.st_size) {
		snprintf(why, wlen, buf ? "short read" : "out of memory");
		buf = NULL;
	}
	*len = got;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

static void add_file(struct fleet_model *m, const char *file)
{
	char why[200];
	size_t len = 0;
	char *text = slurp(m, file, &len, why, sizeof(why));
	struct json_doc *doc = &m->read_doc;
	int rc;

	if (!text) {
		rf_skip_file(m, file, why);
		return;
	}
	/* One arena for every document: the tree of the last file is dropped. */
	rc = m->read_docs++ ? json_parse_again(text, len, NULL, doc) : json_parse(text, len, NULL, doc);
	if (rc) {
		snprintf(why, sizeof(why), "not JSON at byte %zu: %s", doc->error_offset, doc->error);
		rf_skip_file(m, file, why);
	} else {
		rf_read_report(m, file, doc->root);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(struct fleet_model *m, const char *dir, DIR *d)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int rc = 0;

	while ((e = readdir(d))) {
		char **slot;

		if (e->d_name[0] == '.')
			continue;
		slot = PUSH(names, n, cap);
		if (!slot || !(*slot = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
			if (slot)
				n--;
			rc = -ENOMEM;
			break;
		}
		sprintf(*slot, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			add_file(m, names[i]);
		free(names[i]);
	}
	free(names);
	if (!rc && n == 0)
		rf_skip_file(m, dir, "empty directory: no report in it");
	return rc;
}

int fleet_add_path(struct fleet_model *m, const char *path)
{
	struct stat st;
	DIR *d;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		d = opendir(path);
		if (!d) {
			char why[160];

			snprintf(why, sizeof(why), "cannot list the directory: %s", strerror(errno));
			rf_skip_file(m, path, why);
			return 0;
		}
		return add_dir(m, path, d);
	}
	add_file(m, path);
	return 0;
}

/* ---- after reading ---- */

static void count_pair(struct fleet_model *m, const struct rf_pair *p)
{
	struct rf_node *from = &m->nodes[p->from], *to = &m->nodes[p->to];

	from->pairs++;
	if (p->to != p->from)
		to->pairs++;
	if (p->verdict == V_FAIL) {
		from->fail_from++;
		to->fail_to++;
	} else if (p->verdict == V_WARN) {
		from->warn_pairs++;
		to->warn_pairs++;
	}
}

static int cmp_cell(const void *a, const void *b)
{
	const struct rf_check *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* One cell per node and check id, the worst verdict of all its reports: link
 * check and system check (which holds a link check) of one node name the same
 * failing port.state, and it is one failure of one node. */
static void merge_cells(struct fleet_model *m)
{
	size_t out = 0;

	if (!m->nchecks)
		return;
	qsort(m->checks, m->nchecks, sizeof(*m->checks), cmp_cell);
	for (size_t i = 0; i < m->nchecks; i++) {
		struct rf_check *last = out ? &m->checks[out - 1] : NULL;

		if (last && last->node == m->checks[i].node && last->id == m->checks[i].id) {
			if (m->checks[i].verdict == V_FAIL)
				last->verdict = V_FAIL;
			continue;
		}
		m->checks[out++] = m->checks[i];
	}
	m->nchecks = out;
}

void fleet_resolve(struct fleet_model *m)
{
	for (size_t i = 0; i < m->npairs; i++) {
		struct rf_pair *p = &m->pairs[i];
		struct rf_addr *a = &m->addrs[p->to_addr];

		/* A peer no report claims (its node wrote none) is named by its address. */
		if (a->owner == RF_NONE)
			a->owner = rf_node_index(m, a->text);
		p->to = a->owner;
		if (p->to == RF_NONE) {
			p->to = p->from;	/* out of memory: keep the cell, count it once */
			continue;
		}
		count_pair(m, p);
	}
	merge_cells(m);
	for (size_t i = 0; i < m->nnodes; i++)	/* as empty as a report without checks (holds_results) */
		m->nodes_unchecked += m->nodes[i].checked && !m->nodes[i].judged;
	for (size_t i = 0; i < m->nchecks; i++) {
		struct rf_id *id = &m->ids[m->checks[i].id];
		struct rf_node *n = &m->nodes[m->checks[i].node];

		if (m->checks[i].verdict == V_FAIL) {
			id->fail_nodes++;
			n->check_fail++;
		} else {
			id->warn_nodes++;
			n->check_warn++;
		}
	}
}

void fleet_free(struct fleet_model *m)
{
	for (size_t i = 0; i < m->nskipped; i++) {
		free(m->skipped[i].file);
		free(m->skipped[i].why);
		free(m->skipped[i].dup_of);
	}
	free(m->skipped);
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	free(m->pair_map.keys);
	free(m->pair_map.vals);
	free(m->nodes);
	free(m->ids);
	free(m->checks);
	free(m->pairs);
	free(m->addrs);
	free(m->read_buf);
	if (m->read_docs)
		json_free(&m->read_doc);
	strmap_free(&m->node_map);
	strmap_free(&m->addr_map);
	strmap_free(&m->id_map);
	memset(m, 0, sizeof(*m));
}
