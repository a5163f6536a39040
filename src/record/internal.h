/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_INTERNAL_H
#define PERPKT_RECORD_INTERNAL_H

#include <stdint.h>

#include "counters/aggregate.h"
#include "counters/events.h"
#include "profile/profile.h"
#include "record/record.h"
#include "counters/sampler.h"
#include "counters/stacks.h"

/* The parts of record_run (src/recording.c) that live on their own. */

/* src/record-events.c: encode the -e list, probe each event on
 * probe_cpu, fall back to cpu-clock without a PMU (the others go to
 * p->missing), choose periods, add the always-counted companions. */
int record_choose_events(const struct record_options *o, int probe_cpu,
			 struct event_spec *evs, int *nev, struct profile *p);

/* src/recording.c: data pages per ring for ncpus rings (--ring-pages,
 * else fewer per ring the more CPUs, so the locked total stays bounded) */
unsigned record_ring_pages(const struct record_options *o, int ncpus);
/* src/recording.c: the sampler on cpus[], ring size by their number */
int record_open_counters(const struct record_options *o, const int *cpus,
			 int ncpus, const struct event_spec *evs, int nev,
			 struct sampler **s);
/* Write the profile (record) or print the counts (stat); warnings for
 * multiplexing, losses and interruption. cut_short: a signal cut the
 * window (one during the write leaves it complete). An enum result. */
struct profile_output;
int record_finish(const struct record_options *o, struct profile *p,
		  struct sampler *s, struct profile_output *out, int cut_short);

/* src/record-profile.c */
char *record_command_line(int argc, char **argv);
/* The --per unit into p->unit (copies). */
int record_fill_unit(struct profile *p, const struct unit *u);
/* A multiplexed count scaled up by enabled/running, as perf does. */
uint64_t record_scaled(const struct sampler_count *c);
/* Events, exact counts per CPU and ring statistics into p. */
int record_fill_counters(struct profile *p, const struct event_spec *evs, int nev,
			 struct sampler *s, const int *cpus, int ncpus);
int record_collect_samples(struct profile *p, const struct aggregate *a);
int record_collect_stacks(struct profile *p, const struct stack_table *t);
/* The kallsyms entries the samples fall in, so p reads anywhere. */
void record_attach_ksyms(struct profile *p);
/* The runtime text sections of the modules in p's ksyms, from
 * sys_module (/sys/module) or else proc_modules (/proc/modules). */
void record_attach_modules(struct profile *p, const char *sys_module,
			   const char *proc_modules);

#endif
