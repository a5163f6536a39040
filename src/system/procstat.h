/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROCSTAT_H
#define PERPKT_PROCSTAT_H

#include <stdint.h>
#include <sys/types.h>

#include "profile/profile.h"

/*
 * Snapshots of the kernel's own accounting, taken at the edges of the
 * window and subtracted: CPU time per CPU (/proc/stat), CPU time per
 * task (/proc/<pid>/schedstat, /proc/<pid>/stat), interrupts and
 * softirqs per source and CPU (/proc/interrupts, /proc/softirqs).
 */

struct irq_row {
	char kind[8];        /* "irq" or "softirq" */
	char name[32];
	char desc[96];
	uint64_t *counts;    /* per column of the file */
};

struct procstat {
	int ncpus;           /* columns: CPU numbers in col_cpu[] */
	int *col_cpu;
	struct profile_cpu *cpu;      /* per column */
	struct irq_row *rows;
	size_t nrows;
	struct profile_task task[2];  /* client, responder */
	int ntasks;
	uint64_t task_ns;    /* CLOCK_MONOTONIC when the tasks were read */
};

/* Take a snapshot; pids <= 0 are skipped. */
int procstat_take(struct procstat *s, pid_t client, pid_t responder);
/* The same for --flows: each role's task the sum of its n pids (the
 * first one's pid kept, so two snapshots still match). */
int procstat_take_flows(struct procstat *s, const pid_t *clients,
			const pid_t *responders, int n);
/* after - before into the profile: cpu_times and irqs for the CPUs in
 * cpus[], tasks for the workload's processes unless p has them. */
int procstat_delta(const struct procstat *before, const struct procstat *after,
		   const int *cpus, int ncpus, struct profile *p);
/* The tasks' part of procstat_delta for one window, added to p->tasks
 * by role (record --restart: each window has processes of its own);
 * procstat_delta then leaves p->tasks as they are. */
int procstat_tasks_add(const struct procstat *before,
		       const struct procstat *after, struct profile *p);
/* CPU time of the task of `role` between two snapshots; 0 when either
 * lacks it. */
uint64_t procstat_task_cpu(const struct procstat *before,
			   const struct procstat *after, enum role role);
/* ns between the two snapshots' task reads (0 when unknown): what the
 * tasks' CPU times between them span */
uint64_t procstat_span(const struct procstat *before,
		       const struct procstat *after);
void procstat_free(struct procstat *s);

/* Parsers, public for tests. */
int procstat_parse_stat(const char *text, struct procstat *s);
int procstat_parse_irqs(const char *text, const char *kind, struct procstat *s);

#endif
