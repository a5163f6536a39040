// SPDX-License-Identifier: GPL-2.0-only
#include "counters/cpuclock.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "system/procfile.h"

#define CALIBRATION_NS 20000000LL

int cpu_clock_from_files(const char *cpufreq_max, const char *cpuinfo,
			 struct cpu_clock *c)
{
	char line[256];
	double mhz = 0;
	long khz = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (cpufreq_max && !procfile_long(cpufreq_max, &khz) && khz > 0) {
		c->mhz = khz / 1000.0;
		snprintf(c->source, sizeof(c->source), "cpufreq cpuinfo_max_freq");
		return 0;
	}
	f = cpuinfo ? fopen(cpuinfo, "r") : NULL;
	while (f && !mhz && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) != 1)
			mhz = 0;
	if (f)
		fclose(f);
	if (mhz <= 0)
		return -1;
	c->mhz = mhz;
	snprintf(c->source, sizeof(c->source), "/proc/cpuinfo cpu MHz");
	return 0;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int cpu_clock_calibrate(const struct event_spec *cycles, struct cpu_clock *c)
{
	struct perf_event_attr attr = cycles->attr;
	struct { uint64_t value, enabled, running; } r;
	volatile unsigned long spin = 0;
	long long end;
	int fd;

	memset(c, 0, sizeof(*c));
	attr.size = sizeof(attr);
	attr.sample_period = 0;
	attr.sample_type = 0;
	attr.freq = 0;
	attr.disabled = 0;
	/* all of this thread's time, so the count covers what ran */
	attr.exclude_user = 0;
	attr.exclude_kernel = 0;
	attr.exclude_idle = 0;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	/* until either clock says 20 ms: under QEMU's cortex-a57 the
	 * monotonic clock once crawled and the spin took 9.7 s */
	memset(&r, 0, sizeof(r));
	for (end = now_ns() + CALIBRATION_NS; now_ns() < end;) {
		if (!(++spin & 4095) &&
		    (read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r) ||
		     r.running >= CALIBRATION_NS))
			break;
	}
	if (read(fd, &r, sizeof(r)) != (ssize_t)sizeof(r) || !r.value ||
	    !r.running) {
		close(fd);
		return -1;
	}
	close(fd);
	c->mhz = (double)r.value * 1e3 / (double)r.running;
	snprintf(c->source, sizeof(c->source),
		 "calibrated: %.40s counted over %.0f ms of this thread",
		 cycles->name, r.running / 1e6);
	return 0;
}

int cpu_clock_find(int cpu, const struct event_spec *cycles, struct cpu_clock *c)
{
	char path[128];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq",
		 cpu < 0 ? 0 : cpu);
	if (!cpu_clock_from_files(path, "/proc/cpuinfo", c))
		return 0;
	if (cycles && !cpu_clock_calibrate(cycles, c))
		return 0;
	return -1;
}
