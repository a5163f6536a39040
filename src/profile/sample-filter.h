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

#define SAMPLE_FILTER_HELP \
"      --role LIST        only samples of these roles: client, responder,\n" \
"                         workload (-- CMD, -p), perpkt, idle, other\n" \
"                         (comma-separated)\n" \
"      --cpu LIST         only samples taken on these CPUs, e.g. 0,2-3\n" \
"      --pid PID          only the workload process with this pid (the\n" \
"                         profile's client or responder)\n"

#define SAMPLE_FILTER_OPTIONS \
	{ "role", required_argument, NULL, 50 }, \
	{ "cpu", required_argument, NULL, 51 }, \
	{ "pid", required_argument, NULL, 52 }

/* 1 when c (50..52) was a filter option and is parsed, 0 when it is not
 * one, -1 after printing why its value is bad. */
int sample_filter_option(struct sample_filter *f, int c, const char *arg);
int sample_filter_active(const struct sample_filter *f);
/* Drop what does not match from p; -1 after printing why (a pid the
 * profile does not know, --cpu with --callers). Adds a condition
 * "report.filter" that the reports show at the top. */
int sample_filter_apply(const struct sample_filter *f, struct profile *p);

#endif
