/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TABLE_H
#define PERPKT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "reports/model.h"

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
	const char *per;     /* "round trip" or the profiles' --per unit */
	struct table_row *rows;
	size_t n;
	size_t ncols;        /* the most repeats of any row */
};

/* "latency", "latency-p50", "total", "busy", "bucket:NAME",
 * "function:NAME"; 0, or -1 (nothing printed) when unknown. */
int table_value_check(const char *value);

/*
 * Read, symbolize and model each profile and build the table: row i
 * takes the next per_row[i] paths (per_row NULL: one each), their
 * windows side by side. labels may be NULL or hold NULLs: then the
 * kernel release labels a row, or the file name when two profiles
 * share a release. `perpkt table` and `perpkt sweep` both build theirs
 * here. Windows cut short are left out of means unless include_partial
 * (and said so on stderr); anonymize: --anonymize, one mapping for all
 * the profiles. -1 after printing why.
 */
int table_load(struct table *t, const char *const *paths,
	       const size_t *per_row, const char *const *labels,
	       size_t nrows, const char *value, const char *buckets,
	       int include_partial, int anonymize);

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
