// SPDX-License-Identifier: GPL-2.0-only
#include "counters/stacks.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

int stacks_init(struct stack_table *t)
{
	t->nbuckets = 1024;
	t->used = 0;
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	return t->buckets ? 0 : error("out of memory");
}

static uint64_t hash_chain(uint32_t event, uint16_t role, const uint64_t *ips,
			   size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ event ^ ((uint64_t)role << 32);
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= ips[i];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

static int grow(struct stack_table *t)
{
	size_t n = t->nbuckets * 2, i;
	struct stack_entry **b = calloc(n, sizeof(*b));

	if (!b)
		return error("out of memory");
	for (i = 0; i < t->nbuckets; i++) {
		struct stack_entry *e = t->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (n - 1)];
			b[e->hash & (n - 1)] = e;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
	return 0;
}

int stacks_add(struct stack_table *t, uint32_t event, uint16_t role,
	       uint8_t turn, const uint64_t *chain, uint64_t nr,
	       uint64_t weight)
{
	uint64_t ips[STACK_MAX_DEPTH];
	struct stack_entry *e;
	size_t n = 0, i;
	uint64_t h;

	for (i = 0; i < nr && n < STACK_MAX_DEPTH; i++)
		if (chain[i] < (uint64_t)PERF_CONTEXT_MAX)
			ips[n++] = chain[i];
	if (!n)
		return 0;
	h = hash_chain(event, role, ips, n) ^ ((uint64_t)turn << 56);
	for (e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next) {
		if (e->hash == h && e->event == event && e->role == role &&
		    e->turn == turn &&
		    e->depth == n && !memcmp(e->ips, ips, n * sizeof(*ips))) {
			e->count++;
			e->weight += weight;
			return 0;
		}
	}
	if (t->used + 1 > t->nbuckets && grow(t))
		return -1;
	e = malloc(sizeof(*e) + n * sizeof(*ips));
	if (!e)
		return error("out of memory");
	e->hash = h;
	e->event = event;
	e->role = role;
	e->turn = turn;
	e->depth = (uint16_t)n;
	e->count = 1;
	e->weight = weight;
	memcpy(e->ips, ips, n * sizeof(*ips));
	e->next = t->buckets[h & (t->nbuckets - 1)];
	t->buckets[h & (t->nbuckets - 1)] = e;
	t->used++;
	return 0;
}

void stacks_free(struct stack_table *t)
{
	size_t i;

	for (i = 0; t->buckets && i < t->nbuckets; i++) {
		struct stack_entry *e = t->buckets[i], *next;

		for (; e; e = next) {
			next = e->next;
			free(e);
		}
	}
	free(t->buckets);
	memset(t, 0, sizeof(*t));
}
