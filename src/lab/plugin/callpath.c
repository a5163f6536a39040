// SPDX-License-Identifier: GPL-2.0-only
/* Calls and call paths from the order of executed blocks (callpath.h). */
#include "lab/plugin/callpath.h"

#include <stdlib.h>
#include <string.h>

static void settle(struct callpath_vcpu *c);

static int32_t rel32(const unsigned char *d)
{
	return (int32_t)((uint32_t)d[0] | (uint32_t)d[1] << 8 |
			 (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24);
}

/* x86_64: the kinds that end a block; anything else falls through. */
static void classify_x86(struct callpath_block *b, const unsigned char *d, size_t n)
{
	size_t i = 0;
	unsigned op;

	while (i < n && (d[i] == 0x66 || d[i] == 0x67 || d[i] == 0xf2 || d[i] == 0xf3 ||
			 d[i] == 0x2e || d[i] == 0x3e || d[i] == 0x26 || d[i] == 0x36 ||
			 d[i] == 0x64 || d[i] == 0x65 || d[i] == 0xf0))
		i++;
	if (i < n && (d[i] & 0xf0) == 0x40)  /* REX */
		i++;
	if (i >= n)
		return;
	op = d[i];
	if (op == 0xe8 && i + 5 <= n) {
		b->kind = CP_CALL;
		b->target = b->next + (uint64_t)(int64_t)rel32(d + i + 1);
	} else if (op == 0xe9 && i + 5 <= n) {
		b->kind = CP_JUMP;
		b->target = b->next + (uint64_t)(int64_t)rel32(d + i + 1);
	} else if ((op == 0xeb || (op >= 0x70 && op <= 0x7f) ||
		    (op >= 0xe0 && op <= 0xe3)) && i + 2 <= n) {
		b->kind = op == 0xeb ? CP_JUMP : CP_BRANCH;
		b->target = b->next + (uint64_t)(int64_t)(int8_t)d[i + 1];
	} else if (op == 0x0f && i + 2 <= n) {
		op = d[i + 1];
		if (op >= 0x80 && op <= 0x8f && i + 6 <= n) {
			b->kind = CP_BRANCH;
			b->target = b->next + (uint64_t)(int64_t)rel32(d + i + 2);
		} else if (op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35) {
			b->kind = CP_ANY;  /* syscall, sysret, sysenter, sysexit */
		}
	} else if (op == 0xc3 || op == 0xc2) {
		b->kind = CP_RET;
	} else if (op == 0xcf) {
		b->kind = CP_IRET;
	} else if (op == 0xca || op == 0xcb || op == 0x9a || op == 0xea) {
		b->kind = CP_ANY;  /* far return, call, jump */
	} else if (op == 0xff && i + 2 <= n) {
		unsigned reg = (d[i + 1] >> 3) & 7;

		b->kind = reg == 2 ? CP_ICALL : reg == 4 ? CP_IJUMP :
			  reg == 3 || reg == 5 ? CP_ANY : CP_NEXT;
	}
}

static uint64_t sext(uint32_t v, int bits)
{
	return (uint64_t)((int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits));
}

/* arm64: branch targets are relative to the instruction itself. */
static void classify_a64(struct callpath_block *b, const unsigned char *d, size_t n)
{
	uint32_t w;

	if (n != 4)
		return;
	w = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
	    (uint32_t)d[3] << 24;
	if ((w & 0xfc000000) == 0x94000000) {
		b->kind = CP_CALL;   /* bl */
		b->target = b->last + 4 * sext(w & 0x3ffffff, 26);
	} else if ((w & 0xfc000000) == 0x14000000) {
		b->kind = CP_JUMP;   /* b */
		b->target = b->last + 4 * sext(w & 0x3ffffff, 26);
	} else if ((w & 0xff000010) == 0x54000000 || (w & 0x7e000000) == 0x34000000) {
		b->kind = CP_BRANCH; /* b.cond, cbz, cbnz */
		b->target = b->last + 4 * sext((w >> 5) & 0x7ffff, 19);
	} else if ((w & 0x7e000000) == 0x36000000) {
		b->kind = CP_BRANCH; /* tbz, tbnz */
		b->target = b->last + 4 * sext((w >> 5) & 0x3fff, 14);
	} else if ((w & 0xfffffc1f) == 0xd63f0000) {
		b->kind = CP_ICALL;  /* blr */
	} else if ((w & 0xfffffc1f) == 0xd61f0000) {
		b->kind = CP_IJUMP;  /* br */
	} else if ((w & 0xfffffc1f) == 0xd65f0000 || w == 0xd65f0bff || w == 0xd65f0fff) {
		b->kind = CP_RET;    /* ret, retaa, retab */
	} else if (w == 0xd69f03e0) {
		b->kind = CP_IRET;   /* eret */
	}
}

void callpath_classify(struct callpath_block *b, const unsigned char *d,
		       size_t n, int a64)
{
	b->kind = CP_NEXT;
	b->target = 0;
	if (a64)
		classify_a64(b, d, n);
	else
		classify_x86(b, d, n);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

void callpath_init(struct callpath_vcpu *c, int paths)
{
	memset(c, 0, sizeof(*c));
	c->paths = paths;
}

void callpath_free(struct callpath_vcpu *c)
{
	free(c->tasks);
	free(c->nodes);
	free(c->child);
	free(c->counts);
	callpath_init(c, c->paths);
}

void callpath_forget(struct callpath_vcpu *c)
{
	settle(c);
	c->prev = c->entered = NULL;
	c->node = c->depth = 0;
	c->rop = 0;
	c->pending = 0;
}

static uint32_t *child_slot(struct callpath_vcpu *c, uint32_t parent, uint64_t site)
{
	size_t i = mix(site ^ (uint64_t)parent << 40) & (c->childcap - 1);

	for (;; i = (i + 1) & (c->childcap - 1)) {
		uint32_t k = c->child[i];

		if (!k || (c->nodes[k - 1].parent == parent && c->nodes[k - 1].site == site))
			return &c->child[i];
	}
}

static int grow_children(struct callpath_vcpu *c)
{
	size_t cap = c->childcap ? c->childcap * 2 : 4096, i;
	uint32_t *old = c->child, oldcap = (uint32_t)c->childcap;

	c->child = calloc(cap, sizeof(*c->child));
	if (!c->child) {
		c->child = old;
		return -1;
	}
	c->childcap = cap;
	for (i = 0; i < oldcap; i++)
		if (old[i])
			*child_slot(c, c->nodes[old[i] - 1].parent,
				    c->nodes[old[i] - 1].site) = old[i];
	free(old);
	return 0;
}

/* The node of parent's path and a call at site, made when new. */
static uint32_t child(struct callpath_vcpu *c, uint32_t parent, uint64_t site)
{
	uint32_t *slot;

	if (!c->nnodes || 2 * (c->nnodes + 1) > c->childcap) {
		if (grow_children(c))
			goto fail;
	}
	if (c->nnodes == c->nodecap) {
		size_t cap = c->nodecap ? c->nodecap * 2 : 4096;
		struct callpath_node *v = realloc(c->nodes, cap * sizeof(*v));

		if (!v)
			goto fail;
		c->nodes = v;
		c->nodecap = cap;
	}
	if (!c->nnodes)  /* the root */
		c->nodes[c->nnodes++] = (struct callpath_node){ 0, 0 };
	slot = child_slot(c, parent, site);
	if (!*slot) {
		c->nodes[c->nnodes] = (struct callpath_node){ parent, site };
		*slot = (uint32_t)++c->nnodes;
	}
	return *slot - 1;
fail:
	c->failed = 1;
	return parent;
}

static struct callpath_count *count_slot(struct callpath_count *t, size_t cap,
					 uint64_t key)
{
	size_t i = mix(key) & (cap - 1);

	while (t[i].key && t[i].key != key)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static void count(struct callpath_vcpu *c, uint32_t node, uint32_t id)
{
	uint64_t key = ((uint64_t)node << 32 | id) + 1;
	struct callpath_count *s;

	if (2 * (c->ncounts + 1) > c->countcap) {
		size_t cap = c->countcap ? c->countcap * 2 : 65536, i;
		struct callpath_count *t = calloc(cap, sizeof(*t));

		if (!t) {
			c->failed = 1;
			return;
		}
		for (i = 0; i < c->countcap; i++)
			if (c->counts[i].key)
				*count_slot(t, cap, c->counts[i].key) = c->counts[i];
		free(c->counts);
		c->counts = t;
		c->countcap = cap;
	}
	s = count_slot(c->counts, c->countcap, key);
	if (!s->key) {
		s->key = key;
		c->ncounts++;
	}
	s->n++;
}

static void push(struct callpath_vcpu *c, uint64_t ret, uint64_t site,
		 const struct callpath_block *from)
{
	if (c->depth == CALLPATH_DEPTH) {
		c->deep++;
		return;
	}
	c->stack[c->depth++] = (struct callpath_frame){ ret, site, c->node, from };
	if (c->paths)
		c->node = child(c, c->node, site);
}

/* To the topmost frame returning to addr: 1, or 0 when none does. */
static int pop_to(struct callpath_vcpu *c, uint64_t addr)
{
	uint32_t i;

	for (i = c->depth; i-- > 0;)
		if (c->stack[i].ret == addr) {
			c->node = c->stack[i].node;
			c->depth = i;
			return 1;
		}
	return 0;
}

/* Whether a return to addr leaves the frames from `depth` up: no frame
 * there returns to it. */
static int below(const struct callpath_vcpu *c, uint64_t addr, uint32_t depth)
{
	uint32_t i;

	for (i = c->depth; i-- > depth;)
		if (c->stack[i].ret == addr)
			return 0;
	return 1;
}

static int enter(struct callpath_vcpu *c, const struct callpath_block *p,
		 const struct callpath_block *b)
{
	/* a retpoline: "call 1f; <trap>; 1: mov %reg,(%rsp); ret" */
	if (p->kind == CP_CALL && p->target > p->next && p->target - p->next <= 32) {
		c->rop = 1;
		return 0;
	}
	c->calls++;
	c->entered = b;
	push(c, p->next, p->last, NULL);
	return 1;
}

static int follow(struct callpath_vcpu *c, const struct callpath_block *p,
		  const struct callpath_block *b, int interrupts);
static int resume(struct callpath_vcpu *c, uint64_t addr);
static int narrow(struct callpath_vcpu *c, uint64_t addr);

static int iret(struct callpath_vcpu *c, const struct callpath_block *p,
		const struct callpath_block *b)
{
	uint32_t i;

	if (b->start == p->next)  /* an iret to itself (sync_core) */
		return 0;
	for (i = c->depth; i-- > 0;)
		if (!c->stack[i].ret) {
			const struct callpath_block *from = c->stack[i].from;

			c->node = c->stack[i].node;
			c->depth = i;
			/* what the interrupt came between, followed now */
			return from ? follow(c, from, b, 0) : 0;
		}
	if (!pop_to(c, b->start))
		c->unmatched++;
	return 0;
}

static int follow(struct callpath_vcpu *c, const struct callpath_block *p,
		  const struct callpath_block *b, int interrupts)
{
	/* the last instruction again: a rep-prefixed string instruction,
	 * which TCG runs an iteration a block */
	if (b->start == p->last && p->kind == CP_NEXT)
		return 0;
	switch (p->kind) {
	case CP_CALL:
		if (b->start == p->target)
			return enter(c, p, b);
		break;
	case CP_ICALL:
		return enter(c, p, b);
	case CP_RET:
		if (c->rop) {  /* the retpoline's return: its target called */
			c->rop = 0;
			c->calls++;
			c->entered = b;
			return 1;
		}
		/* after a task switch, a return past the frames pushed since */
		if (c->pending && below(c, b->start, c->pending_depth)) {
			if (resume(c, b->start))
				return 0;
			/* a task parked before the window: no frames known */
			c->depth = c->node = 0;
		} else if (c->tentative && below(c, b->start, c->taken_depth)) {
			if (narrow(c, b->start))
				return 0;
		}
		if (!pop_to(c, b->start))
			c->unmatched++;
		return 0;
	case CP_IJUMP:
		if (p == c->entered) {  /* a thunk's "jmp *%reg" */
			c->calls++;
			c->entered = b;
			return 1;
		}
		return 0;
	case CP_IRET:
		return iret(c, p, b);
	case CP_ANY:
		return 0;
	case CP_NEXT:
		if (b->start == p->next)
			return 0;
		break;
	case CP_BRANCH:
		if (b->start == p->next || b->start == p->target)
			return 0;
		break;
	case CP_JUMP:
		if (b->start == p->target)
			return 0;
		break;
	}
	/* where p cannot lead: an interrupt or exception came in between */
	if (interrupts) {
		c->irqs++;
		push(c, 0, p->last, p);
	}
	return 0;
}

int callpath_stack_op(const unsigned char *d, size_t n, int a64)
{
	/* "mov %rsp, disp32(%rdi)": __switch_to_asm saving prev's stack
	 * pointer in prev->thread.sp; no other kernel code has it */
	return !a64 && n == 7 && d[0] == 0x48 && d[1] == 0x89 && d[2] == 0xa7;
}

void callpath_park(struct callpath_vcpu *c, uint64_t key)
{
	struct callpath_tasks *t = c->tasks;
	struct callpath_parked *out = NULL;
	uint32_t i;

	if (!t) {
		t = c->tasks = calloc(1, sizeof(*t));
		if (!t) {
			c->failed = 1;
			return;
		}
	}
	settle(c);
	c->switches++;
	/* its own slot, else a free one, else the oldest */
	for (i = 0; i < CALLPATH_TASKS && !out; i++)
		if (t->slot[i].key == key)
			out = &t->slot[i];
	for (i = 0; i < CALLPATH_TASKS && !out; i++)
		if (!t->slot[i].key)
			out = &t->slot[i];
	if (!out) {
		for (i = 0; i < CALLPATH_TASKS; i++)
			if (!out || t->slot[i].used < out->used)
				out = &t->slot[i];
		t->evicted++;
	}
	out->key = key;
	out->used = ++t->clock;
	out->depth = c->depth;
	memcpy(out->stack, c->stack, c->depth * sizeof(*c->stack));
	c->pending = key;
	c->pending_depth = c->depth;
}

/* Whether s's top frames return, in order, to c->rets. */
static int holds(const struct callpath_vcpu *c, const struct callpath_parked *s)
{
	uint32_t j;

	if (!s->key || s->key == c->excluded || s->depth < c->nrets)
		return 0;
	for (j = 0; j < c->nrets; j++)
		if (s->stack[s->depth - 1 - j].ret != c->rets[j])
			return 0;
	return 1;
}

/* The task parked longest ago whose top frames hold c->rets, but not. */
static struct callpath_parked *candidate(const struct callpath_vcpu *c,
					 const struct callpath_parked *but)
{
	struct callpath_parked *best = NULL;
	uint32_t i;

	for (i = 0; c->tasks && i < CALLPATH_TASKS; i++) {
		struct callpath_parked *s = &c->tasks->slot[i];

		if (s != but && holds(c, s) && (!best || s->used < best->used))
			best = s;
	}
	return best;
}

/* s's frames but its top n, their paths made again on this vCPU. */
static void take_up(struct callpath_vcpu *c, struct callpath_parked *s, uint32_t n)
{
	uint32_t k;

	c->node = 0;
	for (k = 0; k + n < s->depth; k++) {
		c->stack[k] = s->stack[k];
		c->stack[k].node = c->node;
		if (c->paths)
			c->node = child(c, c->node, s->stack[k].site);
	}
	c->depth = c->taken_depth = s->depth - n;
	c->tentative = s;
	/* no other task holds these returns: it is this one */
	if (!candidate(c, s) || c->nrets == CALLPATH_NARROW)
		settle(c);
}

/* The task taken up is running: its slot is free. */
static void settle(struct callpath_vcpu *c)
{
	if (c->tentative)
		c->tentative->key = 0;
	c->tentative = NULL;
	c->nrets = 0;
}

/*
 * The first return after a switch: the task parked longest ago whose
 * top frame returns there is taken up, else (the frames of a task that
 * did not switch at __switch_to_asm's top) the one with any frame that
 * does. 1 when one was.
 */
static int resume(struct callpath_vcpu *c, uint64_t addr)
{
	struct callpath_tasks *t = c->tasks;
	struct callpath_parked *best;
	uint32_t i, k, at = 0;

	c->excluded = c->pending;
	c->pending = 0;
	c->nrets = 1;
	c->rets[0] = addr;
	best = candidate(c, NULL);
	if (best) {
		c->resumed++;
		take_up(c, best, 1);
		return 1;
	}
	c->nrets = 0;
	for (i = 0; t && i < CALLPATH_TASKS; i++) {
		struct callpath_parked *s = &t->slot[i];

		if (!s->key || s->key == c->excluded || (best && s->used > best->used))
			continue;
		for (k = s->depth; k-- > 0;)
			if (s->stack[k].ret == addr) {
				best = s;
				at = k;
				break;
			}
	}
	if (!best)
		return 0;
	c->resumed++;
	take_up(c, best, best->depth - at);
	settle(c);
	return 1;
}

/* A return into the frames taken up: theirs, or another task's. */
static int narrow(struct callpath_vcpu *c, uint64_t addr)
{
	struct callpath_parked *s;

	if (!c->taken_depth) {
		settle(c);
		return 0;
	}
	c->rets[c->nrets++] = addr;
	if (c->stack[c->taken_depth - 1].ret == addr) {
		c->depth = --c->taken_depth;
		c->node = c->stack[c->depth].node;
		if (!candidate(c, c->tentative) || c->nrets == CALLPATH_NARROW)
			settle(c);
		return 1;
	}
	s = candidate(c, c->tentative);
	if (!s) {
		settle(c);
		return 0;
	}
	c->retaken++;
	take_up(c, s, c->nrets);
	return 1;
}

int callpath_step(struct callpath_vcpu *c, const struct callpath_block *b)
{
	const struct callpath_block *p = c->prev;
	int call = 0;

	c->prev = b;
	if (!b->kernel) {
		settle(c);
		c->pending = 0;
		if (c->depth)
			c->resets++;
		c->node = c->depth = 0;
		c->rop = 0;
		c->entered = NULL;
		return 0;
	}
	if (p && p->kernel)
		call = follow(c, p, b, 1);
	if (c->paths)
		count(c, c->node, b->id);
	return call;
}
