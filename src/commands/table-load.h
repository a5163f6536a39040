/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_TABLE_LOAD_H
#define PERPKT_TABLE_LOAD_H

#include <stddef.h>

#include "reports/table/table.h"

/*
 * The collect half of `perpkt table` and `perpkt sweep` (reports/ only
 * renders the table). Read, symbolize and model each profile and build the table: row i
 * takes the next per_row[i] paths (per_row NULL: one each), their
 * windows side by side. labels may be NULL or hold NULLs: then the
 * kernel release labels a row, or the file name when two profiles
 * share a release. `perpkt table` and `perpkt sweep` both build theirs
 * here. -1 after printing why.
 */
struct table_load_options {
	const char *value;     /* --value */
	const char *buckets;   /* --buckets FILE, or NULL */
	const char *side;      /* --side local|remote of two-host profiles */
	/* windows cut short are left out of means unless this (and said so
	 * on stderr) */
	int include_partial;
	int anonymize;         /* one mapping for all the profiles */
	int force;             /* --force: read inconsistent profiles */
};
int table_load(struct table *t, const char *const *paths,
	       const size_t *per_row, const char *const *labels,
	       size_t nrows, const struct table_load_options *o);

#endif
