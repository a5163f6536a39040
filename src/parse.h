/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PARSE_H
#define PERPKT_PARSE_H

#include <stdint.h>

/* Command-line value parsers shared by the commands. Each prints
 * "perpkt: invalid <what> '<text>': ..." and returns -1 on bad input. */

#define MAX_CPUS 1024

/* -q and -v, which every command takes (perf's letters; their entries
 * are OPT_VERBOSITY in commands/options.h): sets the level for 'q' or
 * 'v' and returns 1; 0 for any other letter. */
int parse_verbosity(int c);

int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out);
/* Seconds with an optional unit: "5", "2.5", "500ms", "30s", "2m". */
int parse_seconds(const char *s, const char *what, double min, double max,
		  double *out);
/* "0,2-3" -> {0,2,3}; returns the count, -1 on error. */
int parse_cpu_list(const char *s, int *cpus, int max);
/* 1 when cpu is one of cpus[0..n): a list as parse_cpu_list or
 * sysinfo_online_cpus fill it. */
int cpu_list_has(const int *cpus, int n, int cpu);

#endif
