/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_AGGREGATE_H
#define PERPKT_AGGREGATE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Samples summed per (event, repeat, cpu, ip, role) in an open-addressing hash
 * table, so memory grows with distinct addresses, not run length.
 */
struct agg_key {
	uint64_t ip;
	uint16_t event;
	uint16_t repeat;   /* measurement window, with --repeat */
	uint16_t cpu;
	uint16_t role;
};

struct agg_entry {
	struct agg_key key;
	uint64_t count;
	uint64_t weight;
	int used;
};

struct aggregate {
	struct agg_entry *slots;
	size_t cap;    /* power of two */
	size_t used;
};

int aggregate_init(struct aggregate *a);
int aggregate_add(struct aggregate *a, const struct agg_key *k, uint64_t weight);
void aggregate_free(struct aggregate *a);

#endif
