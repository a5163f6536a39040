/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SIDES_H
#define PERPKT_SIDES_H

#include <stddef.h>

#include "reports/model/model.h"

/*
 * Both sides of a two-host run (record --peer) side by side, as
 * netperf puts local and remote service demand side by side: one line
 * per figure, the local value and the remote one, each per its own
 * side's round trips. Worded once for every format.
 */

struct side_line {
	char *label;
	char *local, *remote;      /* shown: "12.4 us", "n/a" */
	double vlocal, vremote;    /* the numbers, < 0 when unknown; -2
				    * for a line of text (host, kernel) */
	const char *unit;          /* of the numbers: "ns", "cycles", NULL */
	int bucket;                /* a bucket's row (label is its name) */
};

struct sides {
	char *title;
	struct side_line lines[40];
	size_t n;
	char *tops;                /* "top function: X here, Y there" */
	char *note;                /* how to read it */
};

/* From m and m->remote; 0 with s->n == 0 when there is no remote side.
 * -1 when out of memory (printed). */
int sides_build(struct sides *s, const struct model *m);
void sides_free(struct sides *s);

#endif
