/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ESCAPE_H
#define PERPKT_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The one rule for text someone else supplied (a profile, a peer, a
 * server's error line) on its way to a terminal: every byte of a
 * control character becomes '?', so an escape sequence can neither
 * move the cursor nor retitle the window. Control characters are C0
 * but tab and newline, DEL, C1 (U+0080..U+009F in UTF-8) and any byte
 * that is not part of valid UTF-8 (a lone 0x9b is CSI to an 8-bit
 * terminal). U+FFFE, U+FFFF and U+FDD0..U+FDEF (noncharacters: XML
 * refuses the first two) and the bidirectional overrides, embeddings
 * and isolates (U+202A..U+202E, U+2066..U+2069) become U+FFFD, so no
 * line shows in an order other than its own. Everything else, valid
 * UTF-8 included, passes unchanged; the length never changes.
 */

/* The rule over s[0..len), in place. */
void escape_controls(char *s, size_t len);

/*
 * A name or any one-line field of someone else's file, as the profile
 * reader keeps it: the rule, and tab and newline '?' too, so a name can
 * neither forge a line of folded stacks nor break a table's row.
 */
void escape_name(char *s);

/*
 * A stream that writes to f through the rule (fopencookie); fclose()
 * it to flush what it holds into f (f itself is not closed). NULL when
 * out of memory.
 */
FILE *escape_stream(FILE *f);

#endif
