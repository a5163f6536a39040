/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_INTERNAL_H
#define PERPKT_RECORD_INTERNAL_H

#include <stdint.h>

#include "counters/aggregate.h"
#include "counters/event-encode.h"
#include "counters/perf-groups.h"
#include "counters/stacks.h"
#include "profile/profile.h"
#include "record/event-choice.h"
#include "system/unit.h"

/* The stages of the recording pipeline that record.c, window.c and
 * serve-recording.c share. */

/* record/collect.c: the profile from what was measured. */
/* The --per unit into p->unit (copies). */
int record_fill_unit(struct profile *p, const struct unit *u);
/* A multiplexed count scaled up by enabled/running, as perf does. */
uint64_t record_scaled(const struct sampler_count *c);
/* One window's count of each sampled (not companion) event, summed over
 * ncpus CPUs: cur - prev, as the group counts run on across windows.
 * counts[] has one slot per such event. */
void record_window_counts(const struct event_spec *evs, int nev, int ncpus,
			  const struct sampler_count *prev,
			  const struct sampler_count *cur, uint64_t *counts);
/* Events, exact counts per CPU and ring statistics into p. */
int record_fill_counters(struct profile *p, const struct event_spec *evs, int nev,
			 struct sampler *s, const int *cpus, int ncpus);
/* "software-clock" when an event fell back to cpu-clock, else
 * "hardware", into p->mode. */
void record_fill_mode(struct profile *p, const struct event_spec *evs, int nev);
int record_collect_samples(struct profile *p, const struct aggregate *a);
int record_collect_stacks(struct profile *p, const struct stack_table *t);
/* Samples, stacks, kallsyms entries and module sections from s into p:
 * what makes a sampled profile readable anywhere. */
int record_collect(struct profile *p, struct sampler *s);

#endif
