// SPDX-License-Identifier: GPL-2.0-only
/* Which of the events asked for this machine can measure, and how often. */
#include "record/event-choice.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters/cpuclock.h"
#include "error.h"
#include "system/conditions.h"
#include "system/procfile.h"
#include "counters/perf-groups.h"
#include "counters/stacks.h"

static int is_missing_pmu(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

static long max_sample_rate(void)
{
	long max = 100000;

	procfile_long("/proc/sys/kernel/perf_event_max_sample_rate", &max);
	return max;
}

/*
 * Default sample rate per event and CPU: 4 kHz as perf uses, but 1 kHz
 * for cpu-clock, whose every sample is a timer interrupt (on a VM here
 * 15-20 us each: 10 kHz lengthened the mean round trip by a quarter;
 * every report shows this observer cost). At most a quarter of
 * kernel.perf_event_max_sample_rate, which the kernel lowers when perf
 * interrupts take too long; the kernel throttles each event on its own,
 * so the limit applies per event.
 */
static double default_rate(const struct event_spec *ev)
{
	long max = max_sample_rate();
	double rate = ev->software_clock ? 1000 : 4000;

	if (rate > (double)max / 4)
		rate = (double)max / 4;
	return rate < 100 ? 100 : rate;
}

/* A hardware PMU exists when generic cycles can be counted on the CPU:
 * then a missing event is missing from that PMU, not for want of one. */
static int have_hardware_pmu(int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_user = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Why an event is missing, in words that fit the machine. */
static void missing_reason(char *buf, size_t len, int cpu, int err)
{
	if (have_hardware_pmu(cpu))
		snprintf(buf, len, "the hardware PMU has no such event: %s",
			 strerror(err));
	else
		snprintf(buf, len, "no hardware PMU: %s", strerror(err));
}

/*
 * The clock that turns a sample rate into a cycle period: cpufreq, then
 * /proc/cpuinfo, then a short counted calibration with the first cycles
 * event. Recorded in the profile so the report can tell the period in
 * time; -1 (with a warning) when none gives it.
 */
static int find_clock(const struct event_spec *evs, int n, int cpu,
		      struct profile *p)
{
	const struct event_spec *cycles = NULL;
	struct cpu_clock c;
	int i;

	for (i = 0; i < n && !cycles; i++)
		if (!evs[i].software_clock && !strcmp(evs[i].unit, "cycles"))
			cycles = &evs[i];
	if (cpu_clock_find(cpu, cycles, &c)) {
		warning("the CPU clock rate is unknown (no cpufreq, no 'cpu MHz' "
			"in /proc/cpuinfo, no cycles to calibrate with): sampling "
			"at a frequency instead of a fixed period; give -c to fix it");
		return -1;
	}
	p->clock_mhz = c.mhz;
	free(p->clock_source);
	p->clock_source = strdup(c.source);
	return 0;
}

static int add_missing(struct profile *p, const char *name, const char *reason)
{
	struct profile_missing *m = realloc(p->missing, sizeof(*m) * (p->nmissing + 1));

	if (!m)
		return error("out of memory");
	p->missing = m;
	m[p->nmissing].name = strdup(name);
	m[p->nmissing].reason = strdup(reason);
	p->nmissing++;
	return 0;
}

static int asked_for(const struct event_spec *evs, int n, uint64_t sw_config)
{
	int i;

	for (i = 0; i < n; i++)
		if (evs[i].attr.type == PERF_TYPE_SOFTWARE &&
		    evs[i].attr.config == sw_config)
			return 1;
	return 0;
}

/*
 * Encode the -e list and find out what this machine can run. Without a
 * PMU, the first cycle-like event falls back to cpu-clock; the others are
 * recorded as not available, never as zero.
 */
int record_choose_events(const struct sampling_request *o, int probe_cpu,
			 struct event_spec *evs, int *nev, struct profile *p)
{
	char *list = strdup(o->events), *name, *save = NULL;
	int n = 0, have_clock = 0, clock_known = 0, i;
	struct sampler_failure why;
	char reason[128];
	double rate;

	if (!list)
		return error("out of memory");
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		struct event_spec *ev = &evs[n];

		if (n >= MAX_EVENTS - 2) {
			free(list);
			return error("too many events: at most %d", MAX_EVENTS - 2);
		}
		if (event_encode(name, o->include_user, 0, ev)) {
			free(list);
			return -1;
		}
		ev->count_only = o->counting_only;
		if (!sampler_probe(ev, probe_cpu, &why)) {
			have_clock |= ev->software_clock;
			n++;
			continue;
		}
		if (!is_missing_pmu(why.err)) {
			free(list);
			return error("%s", why.msg);
		}
		missing_reason(reason, sizeof(reason), probe_cpu, why.err);
		if (!have_clock && (!n || !strcmp(ev->unit, "cycles"))) {
			/* --no-fallback refuses this and only this */
			if (o->no_fallback) {
				error("'%s' cannot be measured here (%s), and "
				      "--no-fallback refuses the cpu-clock "
				      "fallback", name, reason);
				free(list);  /* name points into it */
				return -1;
			}
			warning("'%s' cannot be measured here (%s): using "
				"cpu-clock, so values are ns of CPU time, not "
				"cycles", name, reason);
			if (!p->fallback_reason)
				p->fallback_reason = strdup(why.msg);
			event_cpu_clock(ev, name, o->include_user, 0);
			ev->count_only = o->counting_only;
			have_clock = 1;
			n++;
			continue;
		}
		warning("'%s' is not available here (%s): reported as not "
			"available, not as zero", name, reason);
		if (add_missing(p, name, reason)) {
			free(list);
			return -1;
		}
	}
	free(list);
	if (!n)
		return error("no event in '%s' can be measured here", o->events);

	/* periods: -c or -F for every sampled event, else the default rate */
	for (i = 0; i < n; i++) {
		struct event_spec *ev = &evs[i];

		if (ev->count_only)
			continue;
		rate = default_rate(ev);
		if (o->freq) {
			ev->freq = 1;
			ev->period = o->freq;
		} else if (o->period) {
			ev->period = o->period;
		} else if (!strcmp(ev->unit, "ns")) {
			ev->period = (uint64_t)(1e9 / rate + 0.5);
		} else if (!strcmp(ev->unit, "cycles") ||
			   !strcmp(ev->unit, "instructions")) {
			if (!clock_known)
				clock_known = find_clock(evs, n, probe_cpu, p) ? -1 : 1;
			if (clock_known < 0) {
				/* no rate to divide by: let the kernel find
				 * the period for this many samples a second */
				ev->freq = 1;
				ev->period = (uint64_t)rate;
			} else {
				/* odd, so the period does not beat with loop
				 * lengths */
				ev->period = (uint64_t)(p->clock_mhz * 1e6 / rate) | 1;
			}
		} else if (ev->attr.type == PERF_TYPE_SOFTWARE) {
			/* the kernel samples software events on every
			 * occurrence anyway when the period is recorded */
			ev->period = 1;
		} else {
			ev->period = 10007;
		}
		if (ev->software_clock && !ev->freq && ev->period < MIN_CLOCK_PERIOD_NS)
			return error("period %llu ns is below the kernel's minimum for "
				     "cpu-clock (%llu ns): use -c %llu or more",
				     (unsigned long long)ev->period,
				     (unsigned long long)MIN_CLOCK_PERIOD_NS,
				     (unsigned long long)MIN_CLOCK_PERIOD_NS);
	}
	/* every cpu-clock sample is a timer interrupt (15-20 us each on a
	 * VM here): above a quarter of the kernel's maximum rate, which it
	 * lowers when samples take too long, they starve the workload and
	 * the window may never open; refused before it starts */
	for (i = 0; i < n; i++) {
		const struct event_spec *ev = &evs[i];
		double hz = ev->freq ? (double)ev->period :
			    ev->period ? 1e9 / (double)ev->period : 0;

		if (ev->count_only || !ev->software_clock || hz <= (double)max_sample_rate() / 4)
			continue;
		return error("%s %llu: cpu-clock at %.0f Hz per CPU is more than this "
			     "machine can sample: every sample is a timer interrupt, and "
			     "perpkt allows a quarter of kernel.perf_event_max_sample_rate "
			     "(%ld); use %s %llu or %s, or raise the sysctl",
			     ev->freq ? "-F" : "-c", (unsigned long long)ev->period, hz,
			     max_sample_rate(), ev->freq ? "-F" : "-c",
			     ev->freq ? (unsigned long long)(max_sample_rate() / 4) :
			     (unsigned long long)(4e9 / (double)max_sample_rate() + 0.5),
			     ev->freq ? "less" : "more");
	}
	if (o->freq && (long)o->freq > max_sample_rate())
		return error("-F %llu is above kernel.perf_event_max_sample_rate (%ld): "
			     "lower it or raise the sysctl", (unsigned long long)o->freq,
			     max_sample_rate());
	/* where the round trip switches and migrates: always counted by
	 * stat, by record only when -e names one of the two. An enabled
	 * software counter costs every context switch a perf event (two
	 * a round trip on one CPU): 0.65% of it here, by turns at 1 kHz
	 * (tests/bench/bench-probe.sh), which perf record does not pay;
	 * record's report takes the tasks' switches from schedstat */
	if (o->counting_only ||
	    asked_for(evs, n, PERF_COUNT_SW_CONTEXT_SWITCHES) ||
	    asked_for(evs, n, PERF_COUNT_SW_CPU_MIGRATIONS)) {
		if (!asked_for(evs, n, PERF_COUNT_SW_CONTEXT_SWITCHES))
			event_software_counter(&evs[n++], "context-switches",
					       PERF_COUNT_SW_CONTEXT_SWITCHES);
		if (!asked_for(evs, n, PERF_COUNT_SW_CPU_MIGRATIONS))
			event_software_counter(&evs[n++], "cpu-migrations",
					       PERF_COUNT_SW_CPU_MIGRATIONS);
	}
	*nev = n;
	return 0;
}

/*
 * Ring pages per CPU unless --ring-pages says: 128 (512 KiB, what
 * kernel.perf_event_mlock_kb allows an unprivileged user per CPU), and as
 * root, which that limit does not bind, up to 512 so a reader starved on
 * a busy machine has seconds, not one, before samples are lost; fewer
 * when many CPUs are sampled, to keep the pinned total near 8 MiB.
 */
unsigned record_ring_pages(unsigned asked, int ncpus)
{
	unsigned pages = 512;

	if (asked)
		return asked;
	if (geteuid() != 0)
		return 128;
	while (pages > 128 && pages * (unsigned)ncpus > 2048)
		pages /= 2;
	return pages;
}

int record_callchain_depth(const struct sampling_request *rq,
			   const struct event_spec *evs, int nev)
{
	int i;

	if (rq->counting_only || rq->callchain < 0)
		return 0;
	if (rq->callchain > 0)
		return STACK_MAX_DEPTH;
	for (i = 0; i < nev; i++)
		if (evs[i].software_clock && !evs[i].count_only)
			return RECORD_SHORT_STACK;
	/* an arm64 PMU without pseudo-NMI is masked like cpu-clock's timer */
	for (i = 0; i < nev; i++)
		if (!evs[i].count_only && conditions_pmu_irq_maskable())
			return RECORD_SHORT_STACK;
	return 0;
}
