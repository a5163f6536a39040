/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_WINDOW_H
#define PERPKT_RECORD_WINDOW_H

#include "counters/perf-groups.h"
#include "profile/profile.h"
#include "record/plan.h"
#include "record/workload-ops.h"
#include "system/procstat.h"

/*
 * The warm-up, then w->window->repeat windows around the workload, each
 * opened and closed by it (the built-in's client at round-trip
 * boundaries, perpkt itself for a command), with fresh counts: p gets
 * one profile_repeat per window, its units, length, latency, CPU time
 * and event counts. first and last are the /proc snapshots at the first
 * open and the last close. *cut is set when a signal ended a window.
 * -1 after printing why (nothing measured, or a window that failed).
 */
int record_windows(struct record_workload *w, const struct record_plan *plan,
		   struct sampler *s, struct profile *p, struct procstat *first,
		   struct procstat *last, int *cut);

/* Monotonic seconds, the clock the windows are timed by. */
double record_now(void);

/* The client's and responder's CPU time in p->tasks as the windows'
 * edges read it (cpu_at_edges), when every window was read so: the
 * /proc snapshots around the windows also hold the gaps between them
 * and however long perpkt took to reach /proc, at load seconds. Their
 * other times (user, system, waiting, switches) stay the snapshots',
 * scaled to the windows' length. Call after procstat_delta. */
void record_tasks_at_edges(struct profile *p);

#endif
