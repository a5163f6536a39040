/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORDING_H
#define PERPKT_RECORDING_H

#include <signal.h>
#include <stdint.h>

#include "options.h"

/* What `perpkt record` was asked to do, after option parsing. */
struct record_options {
	const char *output;
	double duration, warmup;   /* seconds */
	const char *event;
	uint64_t period;           /* 0: the event's default */
	int cpus[MAX_CPUS];        /* CPUs to sample; ncpus 0: all online */
	int ncpus;
	int client_cpu, server_cpu;/* -1: default */
	uint32_t message_size;
	unsigned ring_pages;
	int no_fallback;
	int quiet;
	int help;
	int argc;
	char **argv;
	volatile sig_atomic_t *interrupted;  /* set by the signal handler */
};

/* Run the workload under the counters and write the profile.
 * Returns a PERPKT_EXIT_* code. */
int record_run(const struct record_options *o);

#endif
