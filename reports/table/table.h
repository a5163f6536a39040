/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TABLE_H
#define PERPKT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/model/model.h"

/*
 * perpkt table: one row per profile, one column per repeat, then the
 * mean and the spread, like the kernel-by-test-run tables of the netdev
 * threads ("Kernel / Test 1..4 / Average").
 */

struct table_row {
	char *label;
	double *vals;        /* one per repeat; NAN where the window had no data */
	size_t nvals;
	double mean, sd;     /* over the windows with data; sd < 0 with one */
};

struct table {
	char *title;         /* "latency mean", "bucket udp", ... */
	char unit[32];       /* "us", "ns", "cycles" */
	/* "round trip" or the profiles' --per unit: a copy, the table
	 * outlives the profiles it is made from */
	char per[64];
	struct table_row *rows;
	size_t n;
	size_t ncols;        /* the most repeats of any row */
};

/* "latency", "latency-p50", "total", "busy", "bucket:NAME",
 * "function:NAME"; 0, or -1 (nothing printed) when unknown. */
int table_value_check(const char *value);

/*
 * One row per group of models, labelled by labels[i]: row i takes the
 * next per_row[i] models of m (per_row NULL: one each), their windows
 * side by side (sweep without record --repeat: one record per window).
 * -1 after printing why (units that differ, out of memory).
 */
int table_build(struct table *t, const struct model *const *m,
		const size_t *per_row, const char *const *labels, size_t n,
		const char *value);
void table_free(struct table *t);

/* A value as the human formats show it: "-" for none, latency in us
 * to the ns, per-round-trip values in tenths. */
void table_fmt(char *buf, size_t len, const struct table *t, double v);

#endif
