/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_BASE_U64MAP_H
#define PERPKT_BASE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * The one hash table: a 64-bit key (an address, a pointer) to a
 * pointer, open addressing with linear probing, at most half full. A
 * zeroed struct is an empty map. The caller owns the values.
 */
struct u64map_slot {
	uint64_t key;
	void *val;
	int used;
};

struct u64map {
	struct u64map_slot *slot;
	size_t n, cap;
};

/*
 * The value of key, as a place to read or set: made (holding NULL,
 * *added set) when key is new. NULL when out of memory. Valid until
 * the next call on m.
 */
void **u64map_at(struct u64map *m, uint64_t key, int *added);
/* Each value, for the caller to free them; then u64map_free */
#define u64map_for_each(m, s) \
	for ((s) = (m)->slot; (s) < (m)->slot + (m)->cap; (s)++) \
		if ((s)->used)
void u64map_free(struct u64map *m);

#endif
