/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text into XML (SVG, HTML): every string that comes from a report or the
 * command line (node names, check ids, file names, reasons) goes through
 * here, so no file can add markup to the picture or make it ill-formed.
 */
#ifndef RDMADIAG_XML_OUT_H
#define RDMADIAG_XML_OUT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s as XML character data, fit for element text and for attribute
 * values in either quote: & < > " ' become entities; what XML 1.0 cannot hold
 * even escaped (control characters, bytes that are no well-formed UTF-8, as a
 * file name may have) becomes '?'. At most max characters; a longer string is
 * cut and ends in "...". Returns the characters written. */
size_t xml_put_max(FILE *fp, const char *s, size_t max);

static inline size_t xml_put(FILE *fp, const char *s)
{
	return xml_put_max(fp, s, (size_t)-1);
}

#endif
