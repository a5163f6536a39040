/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_STACK_NODES_H
#define PERPKT_PROFILE_STACK_NODES_H

#include <jansson.h>
#include <stdint.h>

#include "profile/profile.h"
#include "profile/read-fields.h"

/*
 * A profile's call chains as a tree (format version 3): "stack_nodes"
 * lists each distinct (caller node, address) once, root side first,
 * as [parent, "0xaddr"] with parent -1 at the root and always an
 * earlier node; each stack names its leaf node. A 60 s `record -a -g`
 * had 117,730 addresses in 11,449 stacks but 10,378 nodes: the file
 * went from 5.9 to 3.2 MB, and report's instructions on it from 1.84 to
 * 1.17 billion (callgrind). Versions 1 and 2 listed every stack's
 * addresses ("ips", leaf first); both are read.
 */
struct stack_tree {
	int64_t *parent;   /* -1 at the root, else an earlier node */
	uint64_t *ip;
	uint32_t *depth;   /* the reader's: addresses from the root */
	size_t *leaf;      /* the writer's: each stack's leaf node */
	size_t n;
};

/* The tree of p's stacks; 0, or -1 out of memory. */
int stack_tree_build(const struct profile *p, struct stack_tree *t);
void stack_tree_free(struct stack_tree *t);
/* Node i as written: [parent, "0xaddr"]; stack i with its leaf node. */
json_t *stack_node_json(const struct stack_tree *t, size_t i);
json_t *stack_json(const struct profile *p, const struct stack_tree *t, size_t i);

/* p->stacks from a document's "stacks" (and, from version 3 on, its
 * "stack_nodes"), each stack's addresses leaf first as in memory. */
void stack_nodes_read(struct reader *r, json_t *stacks, json_t *nodes,
		      int version, struct profile *p);

#endif
