/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report merge --format svg|html: the merged fleet as a picture. The pair
 * matrix of path test reports is a heatmap (rows testers, columns peers, both
 * worst nodes first), each cell coloured by its verdict and, when it passed,
 * shaded by its bandwidth (else latency) against the fleet's median; nodes x
 * failing check ids for check reports. Failing cells carry their check ids as
 * tooltips (<title>). Colours are attributes, not style sheets: any SVG
 * renderer draws it, and the HTML form is one file with nothing to fetch.
 */
#ifndef RDMADIAG_REPORT_SVG_H
#define RDMADIAG_REPORT_SVG_H

#include <stdio.h>

#include "report_fleet.h"

/* 0, or -ENOMEM (nothing written then). */
int svg_fleet(FILE *fp, const struct merged *mg);
/* The same picture inside one self-contained HTML page. */
int html_fleet(FILE *fp, const struct merged *mg);

#endif
