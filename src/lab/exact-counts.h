/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_EXACT_H
#define PERPKT_LAB_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * record --kernel --exact: the guest's instructions counted exactly by
 * the QEMU plugin perpkt-exact.so (src/lab/plugin/perpkt-exact.c) between the
 * window's marks (src/workload/marks.h), folded into the profile the
 * guest perpkt wrote, as the event "instructions" whose samples are the
 * executions of each kernel instruction address on each vCPU.
 */

/* One kernel instruction address on one vCPU: how often it ran. */
struct lab_exact_insn {
	uint64_t ip;
	uint32_t cpu;
	uint64_t n;
};

/* A call path of one vCPU: its parent's and a call (or interrupt) at
 * site; path 0 is the empty one. */
struct lab_exact_node {
	uint32_t parent;
	uint64_t site;
};

/* One kernel instruction address on one path of one vCPU. */
struct lab_exact_path {
	uint32_t cpu, node;
	uint64_t ip, n;
};

/* A jump or branch at ip taken to target n times on a vCPU. */
struct lab_exact_jump {
	uint64_t ip, target, n;
	uint32_t cpu;
};

/* Cache model misses (record --cache-model) at one kernel instruction
 * address on one vCPU: n[CACHE_L1I], n[CACHE_L1D], n[CACHE_L2]. */
struct lab_exact_miss {
	uint64_t ip;
	uint32_t cpu;
	uint64_t n[3];
};

/* How a vCPU's calls were followed (the plugin's "follow" line). */
struct lab_exact_follow {
	uint64_t calls, irqs, unmatched, deep, resets, switches, resumed, retaken;
};

/* A counts file as the plugin wrote it. */
struct lab_exact {
	char target[32];         /* QEMU's target, "x86_64", "aarch64" */
	int nvcpus;
	uint64_t opens, closes;  /* window marks seen */
	int whole;               /* 0: the plugin ran out of memory */
	uint64_t *kernel, *user; /* instructions per vCPU in the window */
	struct lab_exact_insn *insns;  /* by (ip, cpu), each once */
	size_t ninsns;
	/* executions that entered ip by a call, by (ip, cpu), each once */
	struct lab_exact_insn *calls;
	size_t ncalls;
	struct lab_exact_jump *jumps;     /* as the plugin wrote them */
	size_t njumps;
	struct lab_exact_follow *follow;  /* per vCPU */
	int paths;               /* the plugin counted per call path */
	struct lab_exact_node **nodes;    /* per vCPU, by path number */
	size_t *nnodes;
	struct lab_exact_path *path;      /* by (cpu, node, ip), each once */
	size_t npath;
	/* the cache model's figures as the plugin wrote them
	 * (lab/plugin/cachemodel.h), "" without one */
	char cache[256];
	struct lab_exact_miss *misses;    /* by (ip, cpu), each once */
	size_t nmisses;
	uint64_t (*umiss)[3];             /* per vCPU: user space's */
};

/* The plugin next to this perpkt (or $PERPKT_EXACT_PLUGIN); NULL with
 * the reason in why when there is none. */
char *lab_exact_plugin(char *why, size_t len);

/* Read a counts file; -1 after printing why. */
int lab_exact_read(const char *path, struct lab_exact *x);
void lab_exact_free(struct lab_exact *x);

/*
 * Into p (the guest's counting-only profile of one window): the event
 * "instructions" as its only event (the guest's counted ones stay in
 * its per-CPU counts), its samples (role by vCPU: the client's, the
 * responder's, the workload's when they share one, else other), its
 * counts per CPU and in the window, mode "exact", and the kallsyms
 * entries and modules of its addresses from the guest's own tables
 * (kallsyms, proc_modules: copies the guest sent out). -1 after
 * printing why: no window marks, more than one window, counts cut.
 */
int lab_exact_fold(struct profile *p, const struct lab_exact *x,
		   const char *kallsyms, const char *proc_modules);

/* The role of vCPU cpu's instructions in p: client, responder, both
 * (workload) or other. */
enum role lab_exact_role(const struct profile *p, int cpu);

/* lab/exact-paths.c: a counts file's n and s lines into x; -1 for a
 * line that is not one (nothing printed). */
int lab_exact_read_node(struct lab_exact *x, const char *line);
int lab_exact_read_path(struct lab_exact *x, size_t *cap, const char *line);
int lab_exact_read_jump(struct lab_exact *x, size_t *cap, const char *line);
/* Sort and merge x's paths, and check that they add up, per address
 * and vCPU, to its counts: -1 after printing why. */
int lab_exact_paths_check(struct lab_exact *x);
/* lab/exact-cache.c: a counts file's cache, m and um lines into x; -1
 * for a line that is not one (nothing printed). */
int lab_exact_read_cache(struct lab_exact *x, size_t *cap, const char *line);
/* Sort and merge x's misses. */
void lab_exact_cache_merge(struct lab_exact *x);
/*
 * x's misses as p's events "l1i-misses", "l1d-misses" and "l2-misses"
 * after its "instructions" (unit events; samples per address and vCPU,
 * counts per vCPU and window), and the condition lab.miss_model: the
 * model's figures and what it is. Nothing without a model. -1 after
 * printing why.
 */
int lab_exact_fold_cache(struct profile *p, const struct lab_exact *x);

/*
 * x's paths as p's stacks (event 0, leaf first: the address, then the
 * site of each call from the innermost out, as a sampled callchain's
 * return addresses), each path's executions as count and weight; the
 * condition lab.exact_paths says how the calls were followed. The
 * samples' calls: a function's entries by a call (x->calls) or by a
 * jump from another function, a tail call (x->jumps, functions by the
 * text symbols of kallsyms); never a loop back to the entry. -1 after
 * printing why.
 */
int lab_exact_fold_paths(struct profile *p, const struct lab_exact *x,
			 const char *kallsyms);

#endif
