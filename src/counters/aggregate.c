// SPDX-License-Identifier: GPL-2.0-only
#include "counters/aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

static uint64_t key_hash(const struct agg_key *k)
{
	uint64_t h = k->ip ^ ((uint64_t)k->event << 48) ^
		     ((uint64_t)k->repeat << 40) ^ ((uint64_t)k->cpu << 32) ^
		     ((uint64_t)k->role << 56);

	/* splitmix64 finaliser: kernel text addresses differ in low bits */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static int key_eq(const struct agg_key *a, const struct agg_key *b)
{
	return a->ip == b->ip && a->event == b->event && a->repeat == b->repeat &&
	       a->cpu == b->cpu && a->role == b->role;
}

int aggregate_init(struct aggregate *a)
{
	a->cap = 4096;
	a->used = 0;
	a->slots = calloc(a->cap, sizeof(*a->slots));
	if (!a->slots)
		return error("out of memory");
	return 0;
}

static struct agg_entry *find(struct agg_entry *slots, size_t cap,
			      const struct agg_key *k)
{
	size_t i = key_hash(k) & (cap - 1);

	while (slots[i].used && !key_eq(&slots[i].key, k))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct aggregate *a)
{
	size_t ncap = a->cap * 2, i;
	struct agg_entry *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return error("out of memory");
	for (i = 0; i < a->cap; i++)
		if (a->slots[i].used)
			*find(ns, ncap, &a->slots[i].key) = a->slots[i];
	free(a->slots);
	a->slots = ns;
	a->cap = ncap;
	return 0;
}

int aggregate_add(struct aggregate *a, const struct agg_key *k, uint64_t weight)
{
	struct agg_entry *e;

	if ((a->used + 1) * 4 > a->cap * 3 && grow(a))
		return -1;
	e = find(a->slots, a->cap, k);
	if (!e->used) {
		e->used = 1;
		e->key = *k;
		a->used++;
	}
	e->count++;
	e->weight += weight;
	return 0;
}

void aggregate_free(struct aggregate *a)
{
	free(a->slots);
	memset(a, 0, sizeof(*a));
}
