/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_EVENTS_H
#define PERPKT_RECORD_EVENTS_H

#include <stdint.h>

#include "counters/event-encode.h"
#include "profile/profile.h"

#define RECORD_DEFAULT_EVENTS "cycles,instructions"

/* What to count and sample, and how often (record and serve alike). */
struct sampling_request {
	const char *events;        /* comma-separated libpfm4 names */
	uint64_t period;           /* -c; 0: chosen from the sample-rate limit */
	uint64_t freq;             /* -F; samples per second, 0: use periods */
	int callchain;             /* -g: 1; --no-call-graph: -1; 0: a short
				    * one in software-clock mode */
	int include_user;          /* --user */
	int no_fallback;           /* --no-fallback */
	int counting_only;         /* perpkt stat: count, never sample */
	unsigned ring_pages;       /* --ring-pages; 0: by the number of CPUs */
};

/* Encode the event list, probe each event on probe_cpu, fall back to
 * cpu-clock without a PMU (the others go to p->missing), choose
 * periods, add the companions (context switches, migrations: stat's
 * always, record's when -e names one). -1 after printing why. */
int record_choose_events(const struct sampling_request *rq, int probe_cpu,
			 struct event_spec *evs, int *nev, struct profile *p);

/* Kernel frames to record per sample, 0 for none: all (-g), none
 * (--no-call-graph, counting), else RECORD_SHORT_STACK when an event is
 * cpu-clock or an arm64 PMU's without pseudo-NMI: enough to charge a sample at an irq-enable point to its
 * caller and to see interrupt work under the idle task. */
#define RECORD_SHORT_STACK 16
int record_callchain_depth(const struct sampling_request *rq,
			   const struct event_spec *evs, int nev);

/* Data pages per ring for ncpus rings: `asked` (--ring-pages) when
 * given, else fewer per ring the more CPUs, so the locked total stays
 * bounded. */
unsigned record_ring_pages(unsigned asked, int ncpus);

#endif
