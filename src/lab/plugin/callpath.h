/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_PLUGIN_CALLPATH_H
#define PERPKT_LAB_PLUGIN_CALLPATH_H

/*
 * Calls and call paths from the blocks a vCPU executes, for the exact
 * plugin (perpkt-exact.c): no register is read (QEMU 7.2's plugin API
 * has none), only which block follows which.
 *
 * Each translated block is classified by its last instruction
 * (callpath_classify): a call (direct, with its target, or indirect), a
 * return, an interrupt return, a branch or jump with its target, or an
 * instruction after which only the next one may come. A vCPU keeps a
 * shadow stack of the calls it followed (callpath_step):
 *
 *   - a block entered from a call block (to the call's target, or
 *     anywhere after an indirect call) is a call: a frame is pushed
 *     with the call's return address and the path grows by the call's
 *     site. Its entry is counted as one call of the function there.
 *   - a block entered from a return pops to the topmost frame whose
 *     return address it is (frames above it were left by a jump);
 *     none: "unmatched", the stack is kept, as after a jump.
 *   - a block no predecessor can lead to (not the next block, not the
 *     branch target) was entered by an interrupt or exception: an
 *     interrupt frame is pushed, the path grows by the last
 *     instruction executed before it. An interrupt return pops to it
 *     and then follows the transition it interrupted.
 *   - a user-space block empties the stack: kernel paths start at the
 *     kernel's entry (a syscall, an interrupt or fault from user).
 *   - a retpoline (a call a few bytes forward, then a return to the
 *     real target) is one indirect call: the return is a call to its
 *     target, and the thunk's own frame is not pushed; an indirect jump
 *     ending the first block a call entered (the thunk "jmp *%rax") is
 *     a call of its target too.
 *
 * A kernel task switch is seen on x86_64 by the memory operand of
 * __switch_to_asm's "mov %rsp, TASK_threadsp(%rdi)", which is the task
 * switched out's (QEMU 7.2 calls no memory callback for the load of
 * %rsp that follows, so the task switched in is not seen): its stack is
 * parked under that address (callpath_park). The first return after
 * it takes up the stack of the task parked longest ago whose frames
 * hold the address returned to (on one CPU, the task that has waited
 * longest), its paths made again from the frames' sites; while the
 * next returns go into its frames, one that another parked task's
 * frames hold but its own do not takes that task up instead (up to
 * CALLPATH_NARROW returns, or until no other task holds them). A task
 * switched out before the window has no frames: the stack starts empty
 * and its returns match none until it leaves the kernel. Without this,
 * a task would return along the frames of the one before it.
 *
 * A tail call (a jump to another function) keeps the caller's frame: the
 * function jumped to runs on its caller's path and is not counted as
 * called. The stack is CALLPATH_DEPTH deep; a call beyond is counted
 * ("deep") and not pushed.
 *
 * Read by the plugin and by the unit tests: no QEMU or perpkt header.
 */
#include <stddef.h>
#include <stdint.h>

enum callpath_kind {
	CP_NEXT,     /* only the next instruction follows */
	CP_BRANCH,   /* the next one or the target (a conditional branch) */
	CP_JUMP,     /* the target */
	CP_CALL,     /* the target, as a call */
	CP_ICALL,    /* anywhere, as a call */
	CP_RET,      /* a return */
	CP_IRET,     /* an interrupt return (iret, eret) */
	CP_IJUMP,    /* anywhere, as a jump (an indirect jump) */
	CP_ANY,      /* anywhere (syscall, sysret, a far transfer) */
};

/* What the plugin knows of a block for following it. */
struct callpath_block {
	uint64_t start;    /* its first instruction */
	uint64_t last;     /* its last instruction */
	uint64_t next;     /* the address after the last */
	uint64_t target;   /* a direct branch's or call's target */
	uint32_t id;       /* the plugin's number for it */
	uint8_t kind;      /* enum callpath_kind */
	uint8_t kernel;    /* a kernel address (top bit set) */
};

/* The last instruction's kind, from its bytes at addr: x86_64 or arm64
 * (a64 non-zero). Sets b->kind, b->target (b->next must be set). */
void callpath_classify(struct callpath_block *b, const unsigned char *d,
		       size_t n, int a64);

#define CALLPATH_DEPTH 96
/* returns into a task's frames after a switch that may still choose
 * another task whose frames hold them all */
#define CALLPATH_NARROW 8

struct callpath_frame {
	uint64_t ret;      /* the return address; 0 for an interrupt */
	uint64_t site;     /* the call's (the last instruction before) */
	uint32_t node;     /* the path before the call */
	const struct callpath_block *from;  /* an interrupt's: the block before */
};

/* Path node i: its parent's path, then a call or interrupt at site. */
struct callpath_node {
	uint32_t parent;
	uint64_t site;
};

/* (node, block) -> executions, an open-addressed table */
struct callpath_count {
	uint64_t key;      /* node << 32 | block id, + 1; 0 empty */
	uint64_t n;
};

struct callpath_vcpu {
	const struct callpath_block *prev;
	int paths;         /* keep the path tree and counts per path */
	int rop;           /* a retpoline's call was followed */
	const struct callpath_block *entered;  /* by the last call */
	uint32_t node, depth;
	struct callpath_frame stack[CALLPATH_DEPTH];
	struct callpath_node *nodes;   /* [0] is the root: the empty path */
	size_t nnodes, nodecap;
	uint32_t *child;   /* (parent, site) -> node + 1, open-addressed */
	size_t childcap;
	struct callpath_count *counts;
	size_t ncounts, countcap;
	struct callpath_tasks *tasks;  /* stacks parked, made when first used */
	uint64_t pending;  /* a task switched out under this key: the next
			    * return below pending_depth resumes another */
	uint32_t pending_depth;
	/* the task taken up at that return, while later returns into its
	 * frames may still show it to be another (callpath_narrow) */
	struct callpath_parked *tentative;
	uint64_t excluded; /* the task switched out meanwhile */
	uint32_t taken_depth, nrets;
	uint64_t rets[CALLPATH_NARROW];
	/* how the following went */
	uint64_t calls, irqs, unmatched, deep, resets;
	uint64_t switches, resumed;  /* task switches; to a parked stack */
	uint64_t retaken;  /* a later return chose another parked task */
	int failed;        /* out of memory: the paths are not whole */
};

/* Stacks parked under their tasks, per vCPU (a task resumed on
 * another vCPU is not followed there). */
#define CALLPATH_TASKS 64
struct callpath_parked {
	uint64_t key;      /* 0: free */
	uint64_t used;     /* when parked, for eviction */
	uint32_t depth;
	struct callpath_frame stack[CALLPATH_DEPTH];
};
struct callpath_tasks {
	struct callpath_parked slot[CALLPATH_TASKS];
	uint64_t clock, evicted;
};

/* 1 for the instruction whose store's address names the task switched
 * out (x86_64's __switch_to_asm), else 0 (arm64 always). */
int callpath_stack_op(const unsigned char *d, size_t n, int a64);
/* That instruction stored at key: park c's stack under it. */
void callpath_park(struct callpath_vcpu *c, uint64_t key);

/* A vCPU's state, paths kept or not (calls are always counted). */
void callpath_init(struct callpath_vcpu *c, int paths);
void callpath_free(struct callpath_vcpu *c);
/* Forget the block before: the next one starts afresh (the window
 * was closed while it ran). */
void callpath_forget(struct callpath_vcpu *c);
/*
 * b was entered on this vCPU: follow it from the block before. Returns
 * 1 when b's entry was a call. With paths, b's execution is counted on
 * the path it ran on (c->node).
 */
int callpath_step(struct callpath_vcpu *c, const struct callpath_block *b);

#endif
