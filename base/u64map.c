// SPDX-License-Identifier: GPL-2.0-only
#include "base/u64map.h"

#include <stdlib.h>

static size_t hash(uint64_t a, size_t mask)
{
	a ^= a >> 31;
	a *= 0x7fb5d329728ea185ULL;
	a ^= a >> 27;
	return a & mask;
}

static int grow(struct u64map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256, i, h;
	struct u64map_slot *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (i = 0; i < m->cap; i++) {
		if (!m->slot[i].used)
			continue;
		for (h = hash(m->slot[i].key, cap - 1); t[h].used;
		     h = (h + 1) & (cap - 1))
			;
		t[h] = m->slot[i];
	}
	free(m->slot);
	m->slot = t;
	m->cap = cap;
	return 0;
}

void **u64map_at(struct u64map *m, uint64_t key, int *added)
{
	size_t h;

	*added = 0;
	if (2 * (m->n + 1) > m->cap && grow(m))
		return NULL;
	for (h = hash(key, m->cap - 1); m->slot[h].used;
	     h = (h + 1) & (m->cap - 1))
		if (m->slot[h].key == key)
			return &m->slot[h].val;
	m->slot[h] = (struct u64map_slot){ key, NULL, 1 };
	m->n++;
	*added = 1;
	return &m->slot[h].val;
}

void u64map_free(struct u64map *m)
{
	free(m->slot);
	*m = (struct u64map){ 0 };
}
