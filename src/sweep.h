/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SWEEP_H
#define PERPKT_SWEEP_H

#include <stddef.h>

/*
 * The table of `perpkt table` over profile files, shared with `perpkt
 * sweep`, which prints it over the profiles of its cells.
 * labels may be NULL or hold NULLs: then the kernel release labels a
 * row, or the file name when two profiles share a release.
 * Returns an enum result after printing any error.
 */
int table_files(const char *const *paths, const char *const *labels,
		size_t n, const char *value, const char *format,
		const char *buckets);
/* The same with rows of several files each: row i is the next
 * per_row[i] paths, their windows side by side; labels required. */
int table_groups(const char *const *paths, const size_t *per_row,
		 const char *const *labels, size_t nrows, const char *value,
		 const char *format, const char *buckets);

#endif
