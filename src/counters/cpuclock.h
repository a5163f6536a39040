/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_CPUCLOCK_H
#define PERPKT_CPUCLOCK_H

#include "counters/event-encode.h"

/*
 * The rate a cycles event counts at, to turn a sample rate into a cycle
 * period. arm64 /proc/cpuinfo has no "cpu MHz" line, and a guessed
 * 3 GHz made QEMU's 1 GHz virtual counter sample at a third of the rate
 * asked for: so each source says what it is, and none is guessed.
 */
struct cpu_clock {
	double mhz;          /* 0: unknown */
	char source[96];     /* "cpufreq cpuinfo_max_freq", ... */
};

/* From files only: cpufreq_max (kHz, such as
 * /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq), then the first
 * "cpu MHz" of cpuinfo. 0 when one of them gave the clock, -1 when
 * neither did (c->mhz stays 0). */
int cpu_clock_from_files(const char *cpufreq_max, const char *cpuinfo,
			 struct cpu_clock *c);

/* Count `cycles` (its encoding, user and kernel) on this thread over a
 * busy 20 ms and divide by the time it ran. 0 on success; -1 when the
 * event cannot be opened or counted nothing. */
int cpu_clock_calibrate(const struct event_spec *cycles, struct cpu_clock *c);

/* The files of `cpu`, then a calibration with `cycles` (may be NULL):
 * 0 with the clock, -1 when it stays unknown. */
int cpu_clock_find(int cpu, const struct event_spec *cycles, struct cpu_clock *c);

#endif
