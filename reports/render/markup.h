/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_MARKUP_H
#define PERPKT_MARKUP_H

#include <stdio.h>

/*
 * The one way text reaches HTML and SVG (the HTML report and diff, the
 * flame graphs, --format svg). One escaping serves every place a string
 * can stand there: text and a double-quoted attribute (the only kind
 * these writers make) of HTML, and of XML, which is stricter: & < > "
 * as entities, and what
 * src/escape.h's rule takes out (controls but tab and newline, bytes
 * that are no UTF-8, U+FFFE, U+FFFF, bidirectional overrides) as '?' or
 * U+FFFD, since XML forbids some and none is a name's.
 */

/* s escaped; NULL writes nothing. */
void markup_escape(FILE *f, const char *s);

/*
 * printf for markup, the only one the HTML and SVG writers use: every
 * %s (and %c) argument is escaped by markup_escape, so a string can
 * reach the page only as text; markup itself is only ever the format,
 * a literal. Conversions: d i u x X o c s f e g E G and %%, with
 * flags, width, precision (also *) and the lengths hh h l ll z j t.
 * Returns 0, or -1 on a format it does not know (a bug: said on stderr).
 */
int markup_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
