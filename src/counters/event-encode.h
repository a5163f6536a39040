/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_EVENTS_H
#define PERPKT_EVENTS_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * Event names -> perf_event_attr through libpfm4. The hardware/software
 * difference lives only in the attr this produces: everything downstream
 * treats a cpu-clock event exactly like a cycles event.
 */
struct event_spec {
	char name[128];      /* as measured: "cycles", "cpu-clock" */
	char requested[128]; /* as the user wrote it */
	char fstr[256];      /* libpfm4's fully qualified name */
	char pmu[64];        /* PMU libpfm4 resolved it to */
	char unit[16];       /* "cycles", "instructions", "ns", "events" */
	struct perf_event_attr attr;  /* encoding and privilege bits only */
	uint64_t period;     /* sample period; with freq, samples per second */
	int freq;            /* period is a frequency (-F) */
	int count_only;      /* counted for exact totals, never sampled */
	int companion;       /* counted beside every run, not asked for */
	int software_clock;  /* cpu-clock: period and values are ns */
};

/* Encode `name` (libpfm4 syntax, e.g. "cycles", "skl::INST_RETIRED:ANY_P").
 * Kernel only unless include_user. period 0 picks the default. */
int event_encode(const char *name, int include_user, uint64_t period,
		 struct event_spec *ev);
/* The stand-in when there is no PMU: cpu-clock, period in ns. */
void event_cpu_clock(struct event_spec *ev, const char *requested,
		     int include_user, uint64_t period_ns);

/* A software counter counted beside the sampled events (a companion). */
void event_software_counter(struct event_spec *ev, const char *name,
			    uint64_t config);

/* Events in one group: up to 8 asked for, plus the software counters. */
#define MAX_EVENTS 10

#define DEFAULT_HW_PERIOD 1000003ULL   /* ~1-3 kHz at 1-3 GHz */
#define DEFAULT_CLOCK_PERIOD_NS 100000ULL  /* 10 kHz per CPU */
/* The kernel clamps cpu-clock periods below this (10 us) */
#define MIN_CLOCK_PERIOD_NS 10000ULL

#endif
