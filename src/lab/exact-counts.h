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

/* A counts file as the plugin wrote it. */
struct lab_exact {
	char target[32];         /* QEMU's target, "x86_64", "aarch64" */
	int nvcpus;
	uint64_t opens, closes;  /* window marks seen */
	int whole;               /* 0: the plugin ran out of memory */
	uint64_t *kernel, *user; /* instructions per vCPU in the window */
	struct lab_exact_insn *insns;  /* by (ip, cpu), each once */
	size_t ninsns;
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

#endif
