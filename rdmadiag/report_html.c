// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report merge --format html: the fleet picture (report_svg.c) inline in one
 * HTML page that needs nothing else: no script, no style sheet, no font or
 * image to fetch, so it can be mailed or attached to a ticket as it is.
 */
#include "report_svg.h"
#include "report_svg_int.h"

int html_fleet(FILE *fp, const struct merged *mg)
{
	return svg_write(fp, mg,
			 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<title>rdmadiag report merge</title>\n</head>\n<body style=\"margin:0\">\n",
			 "</body>\n</html>\n");
}
