/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_STAT_H
#define PERPKT_STAT_H

#include "profile/profile.h"
#include "reports/model/facts.h"
#include "stats/stats.h"

/*
 * perpkt stat: exact counts per round trip, no sampling. Built from a
 * profile that has counts, cpu_times, irqs and tasks but no samples;
 * the stat renderers read only this.
 */

#define STAT_MAX_ROWS 64

struct stat_value {
	char name[48];
	double total;       /* over the window, all counted CPUs */
	double per_rt;
	/* events: why it measured nothing although it ran, NULL when it
	 * counts (its values are then not available, not zero) */
	const char *not_counting;
};

/* An event asked for that cannot be measured here. */
struct stat_missing {
	const char *name, *reason;
};

struct stat_cpu {
	int cpu;
	double busy_pct, user_pct, system_pct, irq_pct, softirq_pct, idle_pct;
	double busy_us_per_rt;
	double events_per_rt[STAT_MAX_ROWS];  /* parallel to stat_model.events */
};

/* With stat -r N: the confidence of the interval (0.95) and, when
 * width_pct > 0, the whole interval's width that was asked for, in
 * percent of the mean (netperf's -I 99,5). */
struct stat_options {
	double confidence;
	double width_pct;
};

/* One figure followed across the windows of stat -r N. Its spread is
 * in the JSON's units (ns, per s, per round trip); the text shows times
 * in us, value / text_scale. */
struct stat_figure {
	char name[48];      /* the whole run's JSON key it follows:
			     * "latency_ns.mean", "per_rt.cycles" */
	char label[48];     /* in the text: "latency mean (us)" */
	double text_scale;  /* 1e3 for a time, else 1 */
	struct spread s;
};

/* One side's device interrupts, softirqs and NAPI polls per round trip
 * (the responder's: its own round trips answered); napi_function NULL
 * when the polls were not counted (only --exact counts them). */
struct stat_side {
	int present;
	const char *host;
	double device_irqs, softirqs, napi_polls;
	const char *napi_function;
};

struct stat_model {
	/* what the run was (reports/model/facts.h); strings point into the
	 * profile, which the command frees after rendering */
	struct run_facts run;
	double rt;                 /* round trips */
	double window_s;
	double latency_us;         /* mean round trip, stalls set apart
				    * (profile/latency-stalls.h) */
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
	/* per RT on this side and, with a remote side (--net nic,
	 * --peer), on the responder's */
	struct stat_side local, remote;
	double client_us, responder_us, rest_us;  /* decomposition of latency */
	double steal_us;     /* of the rest: steal on the workload's CPUs
			      * (profile_steal), -1 when unknown */
	int have_tasks;
	struct stat_missing missing[STAT_MAX_ROWS];
	int nmissing;
	/* stat -r N: each figure across the windows; its interval is at
	 * STAT_CONFIDENCE until stat_figures() puts it at rep.confidence */
	struct stat_figure figures[STAT_MAX_ROWS];
	int nfigures;
	struct stat_options rep;   /* set by the command before rendering */
};

/* The confidence stat_build states the figures' intervals at. */
#define STAT_CONFIDENCE 0.95

/* Renders through stat_renderers (reports/render/render.h). 0, or -1 after
 * printing why. */
int stat_build(struct stat_model *m, const struct profile *p);

/* reports/stat/stat-repeats.c: the figures (mean latency first), 0 with fewer
 * than two windows; the model's figures at m->rep.confidence into out
 * (STAT_MAX_ROWS of them), their number; whether the mean latency's
 * interval is within o->width_pct. */
int stat_repeat_figures(const struct profile *p, double confidence,
			struct stat_figure *out, int max);
int stat_figures(const struct stat_model *m, struct stat_figure *out);
int stat_confidence_reached(const struct stat_figure *f, int n,
			    const struct stat_options *o);

#endif
