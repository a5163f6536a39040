/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_REPORT_OPTIONS_H
#define PERPKT_REPORT_OPTIONS_H

#include "commands/commands.h"
#include "profile/sample-filter.h"

/*
 * The options the commands that read profiles share (report, diff,
 * annotate, table, resolve; --format stat and sweep too): their
 * getopt_long codes, declared once.
 */
enum report_option_code {
	OPT_FORMAT = OPTS_REPORT,
	OPT_WIDTH,
	OPT_LIMIT,
	OPT_SIDE,
	OPT_VMLINUX,
	OPT_KALLSYMS,
	OPT_MODULES,
	OPT_FORCE,
	OPT_BUCKETS,
	OPT_ANONYMIZE,
	OPT_INCLUDE_PARTIAL,
	OPT_ROLE,
	OPT_CPU,
	OPT_PID,
};

/* --role, --cpu, --pid (report, diff): which samples a report keeps. */
#define SAMPLE_FILTER_HELP \
"      --role LIST        only samples of these roles: client, responder,\n" \
"                         workload (-- CMD, -p), perpkt, idle, other\n" \
"                         (comma-separated)\n" \
"      --cpu LIST         only samples taken on these CPUs, e.g. 0,2-3\n" \
"      --pid PID          only the workload process with this pid (the\n" \
"                         profile's client or responder)\n"
#define SAMPLE_FILTER_OPTIONS \
	{ "role", required_argument, NULL, OPT_ROLE }, \
	{ "cpu", required_argument, NULL, OPT_CPU }, \
	{ "pid", required_argument, NULL, OPT_PID }
/* 1 when c was a filter option and arg is added to f, 0 when it is not
 * one, -1 after printing why arg is bad. */
int sample_filter_option(struct sample_filter *f, int c, const char *arg);

#endif
