// SPDX-License-Identifier: GPL-2.0-only
#include "profile/stack-nodes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512  /* a stack's addresses, as the kernel's callchain */
/*
 * The addresses of all stacks, each expanded from its leaf node: a
 * 70-byte stack can name a 512-deep node, so 200,000 of them (15 MB)
 * asked 800 MB of addresses and a flame graph of 4 GB. A 60 s `record
 * -a -g` has 117,730 (see stack-nodes.h); 2^22 costs 32 MB here, and
 * a flame graph of them 3 s and 180 MB (t0624).
 */
#define MAX_ADDRESSES (1u << 22)

/* Kernel addresses exceed 2^53, so they travel as hex strings. */
static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* stack a's and b's addresses, root first, compared as words */
static int cmp_root_first(const void *x, const void *y, void *arg)
{
	const struct profile *p = arg;
	const struct profile_stack *a = &p->stacks[*(const size_t *)x];
	const struct profile_stack *b = &p->stacks[*(const size_t *)y];
	uint32_t k, n = a->depth < b->depth ? a->depth : b->depth;

	for (k = 0; k < n; k++) {
		uint64_t u = a->ips[a->depth - 1 - k], v = b->ips[b->depth - 1 - k];

		if (u != v)
			return u < v ? -1 : 1;
	}
	return (a->depth > b->depth) - (a->depth < b->depth);
}

void stack_tree_free(struct stack_tree *t)
{
	free(t->parent);
	free(t->ip);
	free(t->depth);
	free(t->leaf);
	memset(t, 0, sizeof(*t));
}

/*
 * Stacks in root-first order share with the one before them exactly
 * the prefix they have in common: the tree's nodes are what lies past
 * it, made in that order, so a parent always comes before its children.
 */
int stack_tree_build(const struct profile *p, struct stack_tree *t)
{
	size_t total = 0, i, path[MAX_DEPTH];
	const struct profile_stack *prev = NULL;
	size_t *order;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < p->nstacks; i++)
		total += p->stacks[i].depth;
	order = malloc((p->nstacks ? p->nstacks : 1) * sizeof(*order));
	t->leaf = malloc((p->nstacks ? p->nstacks : 1) * sizeof(*t->leaf));
	t->parent = malloc((total ? total : 1) * sizeof(*t->parent));
	t->ip = malloc((total ? total : 1) * sizeof(*t->ip));
	if (!order || !t->leaf || !t->parent || !t->ip) {
		free(order);
		stack_tree_free(t);
		return -1;
	}
	for (i = 0; i < p->nstacks; i++)
		order[i] = i;
	qsort_r(order, p->nstacks, sizeof(*order), cmp_root_first, (void *)p);
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[order[i]];
		uint32_t k = 0, depth = st->depth < MAX_DEPTH ? st->depth : MAX_DEPTH;

		while (prev && k < depth && k < prev->depth &&
		       prev->ips[prev->depth - 1 - k] == st->ips[st->depth - 1 - k])
			k++;
		for (; k < depth; k++) {
			t->parent[t->n] = k ? (int64_t)path[k - 1] : -1;
			t->ip[t->n] = st->ips[st->depth - 1 - k];
			path[k] = t->n++;
		}
		t->leaf[order[i]] = depth ? path[depth - 1] : 0;
		prev = st;
	}
	free(order);
	return 0;
}

json_t *stack_node_json(const struct stack_tree *t, size_t i)
{
	return json_pack("[I, o]", (json_int_t)t->parent[i], hex(t->ip[i]));
}

json_t *stack_json(const struct profile *p, const struct stack_tree *t, size_t i)
{
	const struct profile_stack *st = &p->stacks[i];
	json_t *o = json_pack("{s:I, s:s, s:I, s:I, s:I}",
			      "event", (json_int_t)st->event, "role", role_name(st->role),
			      "count", (json_int_t)st->count,
			      "weight", (json_int_t)st->weight, "node", (json_int_t)t->leaf[i]);

	if (o && st->turn)
		json_object_set_new(o, "turn", json_integer(st->turn - 1));
	return o;
}

static int read_tree(struct reader *r, json_t *a, struct stack_tree *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!json_is_array(a))
		return reader_bad(r, "'stack_nodes' must be an array (format version 3 "
				  "lists the stacks' addresses there)");
	t->n = json_array_size(a);
	t->parent = calloc(t->n ? t->n : 1, sizeof(*t->parent));
	t->ip = calloc(t->n ? t->n : 1, sizeof(*t->ip));
	t->depth = calloc(t->n ? t->n : 1, sizeof(*t->depth));
	if (!t->parent || !t->ip || !t->depth)
		return reader_bad(r, "out of memory");
	for (i = 0; i < t->n; i++) {
		json_t *e = json_array_get(a, i), *par = json_array_get(e, 0);

		if (!json_is_array(e) || json_array_size(e) != 2 ||
		    !json_is_integer(par))
			return reader_bad(r, "stack_nodes[] entries must be "
					  "[parent, \"0xaddress\"]");
		t->parent[i] = json_integer_value(par);
		/* an earlier node: no cycle, and depth is known */
		if (t->parent[i] < -1 || t->parent[i] >= (int64_t)i)
			return reader_bad(r, "a stack node's parent must be -1 or "
					  "an earlier node");
		t->ip[i] = reader_hex_value(r, json_array_get(e, 1), "stack_nodes[][1]");
		t->depth[i] = t->parent[i] < 0 ? 1 : t->depth[t->parent[i]] + 1;
		if (t->depth[i] > MAX_DEPTH)
			return reader_bad(r, "a stack must have 1 to 512 addresses");
		if (r->failed)
			return -1;
	}
	return 0;
}

/* The addresses of a stack: from version 3 its leaf node's path to the
 * root, before that its "ips" list. */
static int read_ips(struct reader *r, json_t *o, const struct stack_tree *t,
		    struct profile_stack *st, uint64_t *total, size_t at_stack,
		    size_t nstacks)
{
	json_t *ips = NULL;
	uint64_t node = 0;
	int64_t at;
	uint32_t d;

	if (t) {
		node = reader_u64(r, o, "node");
		if (r->failed)
			return -1;
		if (node >= t->n)
			return reader_bad(r, "a stack names a node that is not listed");
		st->depth = t->depth[node];
	} else {
		ips = reader_array(r, o, "ips");
		if (!ips)
			return -1;
		st->depth = (uint32_t)json_array_size(ips);
		if (!st->depth || st->depth > MAX_DEPTH)
			return reader_bad(r, "a stack must have 1 to 512 addresses");
	}
	*total += st->depth;
	if (*total > MAX_ADDRESSES) {
		char msg[200];

		snprintf(msg, sizeof(msg), "its stacks hold more than %u addresses "
			 "in all (stack %zu of %zu reaches %llu): more than this "
			 "perpkt expands", MAX_ADDRESSES, at_stack, nstacks,
			 (unsigned long long)*total);
		return reader_bad(r, msg);
	}
	st->ips = calloc(st->depth, sizeof(*st->ips));
	if (!st->ips)
		return reader_bad(r, "out of memory");
	for (d = 0, at = (int64_t)node; d < st->depth && !r->failed; d++) {
		if (t) {
			st->ips[d] = t->ip[at];
			at = t->parent[at];
		} else {
			st->ips[d] = reader_hex_value(r, json_array_get(ips, d), "ips[]");
		}
	}
	return r->failed ? -1 : 0;
}

void stack_nodes_read(struct reader *r, json_t *a, json_t *nodes,
		      int version, struct profile *p)
{
	struct stack_tree t;
	uint64_t total = 0;   /* addresses expanded so far */
	size_t i;

	if (!a)
		return;
	if (!json_is_array(a)) {
		reader_bad(r, "'stacks' must be an array");
		return;
	}
	if (version >= 3 && read_tree(r, nodes, &t)) {
		stack_tree_free(&t);
		return;
	}
	p->nstacks = json_array_size(a);
	p->stacks = calloc(p->nstacks ? p->nstacks : 1, sizeof(*p->stacks));
	if (!p->stacks)
		reader_bad(r, "out of memory");
	for (i = 0; p->stacks && i < p->nstacks && !r->failed; i++) {
		struct profile_stack *st = &p->stacks[i];
		json_t *o = json_array_get(a, i), *role;

		if (!json_is_object(o)) {
			reader_bad(r, "stacks[] entries must be objects");
			break;
		}
		st->event = reader_u32(r, o, "event");
		if (st->event >= p->nevents)
			reader_bad(r, "a stack refers to an event that is not listed");
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &st->role))
			reader_bad(r, "a stack has an unknown role");
		st->count = reader_u64(r, o, "count");
		st->weight = reader_u64(r, o, "weight");
		st->turn = 0;
		if (json_object_get(o, "turn")) {
			st->turn = reader_int(r, o, "turn") + 1;
			if (st->turn != 1 && st->turn != 2)
				reader_bad(r, "a stack's turn is 0 (off) or 1 (on)");
		}
		if (!r->failed)
			read_ips(r, o, version >= 3 ? &t : NULL, st, &total, i,
				 p->nstacks);
	}
	if (version >= 3)
		stack_tree_free(&t);
}
