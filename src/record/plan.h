/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_PLAN_H
#define PERPKT_RECORD_PLAN_H

#include "counters/event-encode.h"
#include "counters/perf-groups.h"
#include "parse.h"
#include "profile/profile.h"
#include "record/event-choice.h"
#include "record/record.h"
#include "record/workload-ops.h"

/* What a run will measure, decided before anything runs. */
struct record_plan {
	int cpus[MAX_CPUS];        /* sampled, ascending */
	int ncpus;
	struct event_spec evs[MAX_EVENTS];
	int nev;
	const struct sampling_request *sampling;
};

/*
 * The CPUs to sample (-a: every online one; -C: those, each online;
 * else the workload's), then the events this machine can measure on
 * the first of them (the ones it cannot go to p->missing). -1 after
 * printing why.
 */
int record_plan_make(struct record_plan *plan, const struct cpu_request *cpus,
		     const struct sampling_request *smp,
		     struct record_workload *w, struct profile *p);

/* The sampler on the plan's CPUs, every counter disabled. */
int record_plan_open(const struct record_plan *plan, struct sampler **s);

#endif
