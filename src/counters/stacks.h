/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_STACKS_H
#define PERPKT_STACKS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Kernel callchains summed per (event, role, stack): each distinct stack
 * is stored once, so memory grows with distinct stacks, not samples.
 */
#define STACK_MAX_DEPTH 64

struct stack_entry {
	struct stack_entry *next;   /* hash chain */
	uint64_t hash;
	uint32_t event;
	uint16_t role;
	uint16_t depth;
	uint8_t turn;               /* by turns: 1 off, 2 on; 0 none */
	uint64_t count, weight;
	uint64_t ips[];             /* leaf first */
};

struct stack_table {
	struct stack_entry **buckets;
	size_t nbuckets;            /* power of two */
	size_t used;
};

int stacks_init(struct stack_table *t);
/* Add one sample's chain; context markers (PERF_CONTEXT_*) are dropped.
 * turn: a setting's side by turns (1 off, 2 on) kept apart, 0 none. */
int stacks_add(struct stack_table *t, uint32_t event, uint16_t role,
	       uint8_t turn, const uint64_t *chain, uint64_t nr,
	       uint64_t weight);
void stacks_free(struct stack_table *t);

#endif
