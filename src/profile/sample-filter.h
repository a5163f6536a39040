/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SAMPLE_FILTER_H
#define PERPKT_SAMPLE_FILTER_H

#include "parse.h"
#include "profile/profile.h"

/*
 * report and diff --role, --cpu, --pid: keep only the samples (and
 * callchains) that match, before the model is built, so every table,
 * total and format shows the same subset. perf report's --cpu, --pid
 * and --comm, for what a profile can tell apart: samples carry a role
 * and a CPU, not a pid, so --pid names the workload's client or
 * responder by the pid the profile recorded for it.
 */
struct sample_filter {
	unsigned roles;         /* bit per enum role; 0: every role */
	int cpus[MAX_CPUS];     /* ncpus 0: every CPU */
	int ncpus;
	int pids[8];            /* resolved to roles at apply time */
	int npids;
};

/* What a filter option names (the commands' --role, --cpu, --pid). */
enum sample_filter_key {
	SAMPLE_FILTER_ROLE,
	SAMPLE_FILTER_CPU,
	SAMPLE_FILTER_PID,
};

/* Add arg (a role list, a CPU list, a pid) to f; -1 after printing why
 * it is bad. */
int sample_filter_add(struct sample_filter *f, enum sample_filter_key k,
		      const char *arg);
int sample_filter_active(const struct sample_filter *f);
/* Drop what does not match from p; -1 after printing why (a pid the
 * profile does not know, --cpu with --callers). Adds a condition
 * "report.filter" that the reports show at the top. */
int sample_filter_apply(const struct sample_filter *f, struct profile *p);

#endif
