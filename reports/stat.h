/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_STAT_H
#define PERPKT_STAT_H

#include <stdio.h>

#include "profile.h"

/*
 * perpkt stat: exact counts per round trip, no sampling. Built from a
 * profile that has counts, cpu_times, irqs and tasks but no samples.
 */

#define STAT_MAX_ROWS 64

struct stat_value {
	char name[48];
	double total;       /* over the window, all counted CPUs */
	double per_rt;
};

struct stat_cpu {
	int cpu;
	double busy_pct, user_pct, system_pct, irq_pct, softirq_pct, idle_pct;
	double busy_us_per_rt;
	double events_per_rt[STAT_MAX_ROWS];  /* parallel to stat_model.events */
};

struct stat_model {
	const struct profile *p;
	double rt;                 /* round trips */
	double window_s;
	double latency_us;         /* mean round trip */
	struct stat_value events[STAT_MAX_ROWS];  /* counted events */
	int nevents;
	double ipc;                /* < 0 when not both cycles and instructions */
	struct stat_cpu cpus[STAT_MAX_ROWS];
	int ncpus;
	struct stat_value irqs[STAT_MAX_ROWS];     /* by source, per RT desc */
	int nirqs;
	struct stat_value softirqs[STAT_MAX_ROWS];
	int nsoftirqs;
	double service_demand_us;  /* busy CPU us per transaction, counted CPUs */
	double client_us, responder_us, rest_us;  /* decomposition of latency */
	int have_tasks;
};

/* Renders through stat_renderers (reports/render.h). */
int stat_build(struct stat_model *m, const struct profile *p);
/* Why the event called `name` measured nothing, NULL when it counts. */
const char *stat_not_counting(const struct profile *p, const char *name);

#endif
