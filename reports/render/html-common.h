/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_HTML_COMMON_H
#define PERPKT_HTML_COMMON_H

#include <stdio.h>

/* What the HTML report and the HTML diff share: one look (the escaper
 * is reports/render/markup.h's). */

/* The page's whole stylesheet: the pages fetch nothing. */
extern const char html_style[];

#endif
