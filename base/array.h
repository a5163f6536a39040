/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_BASE_ARRAY_H
#define PERPKT_BASE_ARRAY_H

#include <stddef.h>

/*
 * The one growable array, in the manner of git's ALLOC_GROW: an array
 * is a pointer, a count and a room, fields of whatever struct holds it,
 *
 *	struct dw_range *v; size_t n, cap;
 *	if (ARRAY_GROW(r->v, r->n + 1, r->cap))
 *		return -1;
 *	r->v[r->n++] = range;
 *
 * ARRAY_GROW(v, need, cap) makes room in v for at least need elements:
 * 0, or -1 when out of memory (or need * size overflows), v and cap as
 * they were. The room doubles (at least 16), so n pushes cost O(n).
 */
#define ARRAY_GROW(v, need, cap) \
	((size_t)(need) <= (cap) ? 0 : \
	 array_grow_(&(v), &(cap), (size_t)(need), sizeof(*(v))))

/* ARRAY_GROW's slow path; pv is the address of the array's pointer */
int array_grow_(void *pv, size_t *cap, size_t need, size_t size);

#endif
