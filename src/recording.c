// SPDX-License-Identifier: GPL-2.0-only
#include "recording.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conditions.h"
#include "error.h"
#include "exitcode.h"
#include "procstat.h"
#include "profile.h"
#include "sampler.h"
#include "stat.h"
#include "symbolize.h"
#include "sysinfo.h"
#include "workload.h"
#include "procfile.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int contains(const int *v, int n, int x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Work out which CPUs to use; the choices are printed so runs can be
 * repeated exactly. */
struct placement {
	int online[MAX_CPUS];
	int nonline;
	int sample[MAX_CPUS];
	int nsample;
	int client, server, self;  /* self -1: not pinned */
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void add_cpu(struct placement *pl, int cpu)
{
	if (cpu >= 0 && !contains(pl->sample, pl->nsample, cpu))
		pl->sample[pl->nsample++] = cpu;
}

static int place(const struct record_options *o, struct placement *pl)
{
	int i;

	pl->nonline = sysinfo_online_cpus(pl->online, MAX_CPUS);
	if (pl->nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	pl->client = o->client_cpu;
	pl->server = o->server_cpu;
	if (o->placement && workload_place(o->placement, pl->online, pl->nonline,
					   &pl->client, &pl->server))
		return -1;
	if (pl->client < 0)
		pl->client = pl->online[pl->nonline - 1];
	if (pl->server < 0)
		pl->server = pl->client;
	if (!contains(pl->online, pl->nonline, pl->client))
		return error("client CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->client);
	if (!contains(pl->online, pl->nonline, pl->server))
		return error("server CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->server);
	/* keep perpkt's own work off the workload's CPUs when it can */
	pl->self = -1;
	for (i = 0; i < pl->nonline; i++) {
		if (pl->online[i] != pl->client && pl->online[i] != pl->server) {
			pl->self = pl->online[i];
			break;
		}
	}
	pl->nsample = 0;
	if (o->all_cpus) {
		memcpy(pl->sample, pl->online, sizeof(int) * (size_t)pl->nonline);
		pl->nsample = pl->nonline;
	} else if (o->ncpus) {
		for (i = 0; i < o->ncpus; i++)
			if (!contains(pl->online, pl->nonline, o->cpus[i]))
				return error("CPU %d in --cpus is not online "
					     "(see /sys/devices/system/cpu/online)",
					     o->cpus[i]);
		memcpy(pl->sample, o->cpus, sizeof(int) * (size_t)o->ncpus);
		pl->nsample = o->ncpus;
	} else {
		/* the workload's CPUs, where loopback softirqs run too, and
		 * perpkt's own, so its cost is seen rather than hidden */
		add_cpu(pl, pl->client);
		add_cpu(pl, pl->server);
		add_cpu(pl, pl->self);
	}
	qsort(pl->sample, (size_t)pl->nsample, sizeof(int), cmp_int);
	return 0;
}

static int is_missing_pmu(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

/* Nominal MHz of the first CPU, to turn a sample rate into a cycle period. */
static double cpu_mhz(void)
{
	char line[256];
	double mhz = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && !mhz && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) != 1)
			mhz = 0;
	if (f)
		fclose(f);
	return mhz > 0 ? mhz : 3000;
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
static int choose_events(const struct record_options *o, const struct placement *pl,
			 struct event_spec *evs, int *nev, struct profile *p)
{
	char *list = strdup(o->events), *name, *save = NULL;
	int n = 0, have_clock = 0, i;
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
		if (!sampler_probe(ev, pl->sample[0], &why)) {
			have_clock |= ev->software_clock;
			n++;
			continue;
		}
		if (!is_missing_pmu(why.err) || o->no_fallback) {
			free(list);
			if (is_missing_pmu(why.err))
				return error("%s; --no-fallback was given", why.msg);
			return error("%s", why.msg);
		}
		if (!have_clock && (!n || !strcmp(ev->unit, "cycles"))) {
			warning("no hardware PMU ('%s': %s): using cpu-clock, so "
				"values are ns of CPU time, not cycles", name,
				strerror(why.err));
			if (!p->fallback_reason)
				p->fallback_reason = strdup(why.msg);
			event_cpu_clock(ev, name, o->include_user, 0);
			ev->count_only = o->counting_only;
			have_clock = 1;
			n++;
			continue;
		}
		snprintf(reason, sizeof(reason), "no hardware PMU: %s",
			 strerror(why.err));
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
			/* odd, so the period does not beat with loop lengths */
			ev->period = (uint64_t)(cpu_mhz() * 1e6 / rate) | 1;
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
	if (o->freq && (long)o->freq > max_sample_rate())
		return error("-F %llu is above kernel.perf_event_max_sample_rate (%ld): "
			     "lower it or raise the sysctl", (unsigned long long)o->freq,
			     max_sample_rate());
	/* always counted: where the round trip switches and migrates */
	if (!asked_for(evs, n, PERF_COUNT_SW_CONTEXT_SWITCHES))
		event_software_counter(&evs[n++], "context-switches",
				       PERF_COUNT_SW_CONTEXT_SWITCHES);
	if (!asked_for(evs, n, PERF_COUNT_SW_CPU_MIGRATIONS))
		event_software_counter(&evs[n++], "cpu-migrations",
				       PERF_COUNT_SW_CPU_MIGRATIONS);
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
static unsigned ring_pages(const struct record_options *o, int ncpus)
{
	unsigned pages = 512;

	if (o->ring_pages)
		return o->ring_pages;
	if (geteuid() != 0)
		return 128;
	while (pages > 128 && pages * (unsigned)ncpus > 2048)
		pages /= 2;
	return pages;
}

static int open_counters(const struct record_options *o, const struct placement *pl,
			 const struct event_spec *evs, int nev, struct sampler **s)
{
	struct sampler_config cfg = {
		.events = evs, .nevents = nev,
		.cpus = pl->sample, .ncpus = pl->nsample,
		.ring_pages = ring_pages(o, pl->nsample), .callchain = o->callchain,
	};
	struct sampler_failure why;

	if (sampler_open(s, &cfg, &why))
		return error("%s", why.msg);
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = strlen("perpkt") + 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "perpkt");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct profile_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Save the kallsyms entries the samples fall in, so the profile can be
 * symbolised anywhere later. */
static void attach_ksyms(struct profile *p)
{
	struct symbolizer *sym;
	size_t i, n = 0;

	if (symbolizer_open_kallsyms(&sym, "/proc/kallsyms")) {
		warning("profile will carry no symbols: reports show raw addresses");
		return;
	}
	p->text_addr = symbolizer_text_addr(sym);
	p->ksyms = calloc(p->nsamples ? p->nsamples : 1, sizeof(*p->ksyms));
	for (i = 0; p->ksyms && i < p->nsamples; i++) {
		struct sym_entry e;

		if (symbolizer_symbol(sym, p->samples[i].ip, &e))
			continue;
		p->ksyms[n].addr = e.addr;
		p->ksyms[n].size = e.size;
		p->ksyms[n].type = e.type;
		p->ksyms[n].name = (char *)e.name;    /* copied below, once unique */
		p->ksyms[n].module = (char *)e.module;
		n++;
	}
	qsort(p->ksyms, n, sizeof(*p->ksyms), cmp_ksym);
	p->nksyms = 0;
	for (i = 0; i < n; i++) {
		struct profile_ksym k = p->ksyms[i];

		if (p->nksyms && p->ksyms[p->nksyms - 1].addr == k.addr)
			continue;
		k.name = strdup(k.name);
		k.module = k.module ? strdup(k.module) : NULL;
		p->ksyms[p->nksyms++] = k;
	}
	symbolizer_close(sym);
}

static int cmp_sample(const void *a, const void *b)
{
	const struct profile_sample *x = a, *y = b;

	if (x->event != y->event)
		return x->event < y->event ? -1 : 1;
	if (x->repeat != y->repeat)
		return x->repeat < y->repeat ? -1 : 1;
	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (int)x->role - (int)y->role;
}

static int collect_samples(struct profile *p, const struct aggregate *a)
{
	size_t i, n = 0;

	p->samples = calloc(a->used ? a->used : 1, sizeof(*p->samples));
	if (!p->samples)
		return error("out of memory");
	for (i = 0; i < a->cap; i++) {
		const struct agg_entry *e = &a->slots[i];

		if (!e->used)
			continue;
		p->samples[n].event = e->key.event;
		p->samples[n].cpu = e->key.cpu;
		p->samples[n].ip = e->key.ip;
		p->samples[n].role = (enum role)e->key.role;
		p->samples[n].count = e->count;
		p->samples[n].weight = e->weight;
		p->samples[n].repeat = e->key.repeat;
		n++;
	}
	p->nsamples = n;
	/* a stable order makes profiles diffable with plain tools */
	qsort(p->samples, n, sizeof(*p->samples), cmp_sample);
	return 0;
}

/* Scale a count that was multiplexed: the usual perf estimate. */
static uint64_t scaled(const struct sampler_count *c)
{
	if (!c->running_ns || c->running_ns >= c->enabled_ns)
		return c->value;
	return (uint64_t)((double)c->value * (double)c->enabled_ns /
			  (double)c->running_ns);
}

/* Events, exact counts per CPU and ring statistics into the profile. */
static int fill_counters(struct profile *p, const struct event_spec *evs, int nev,
			 struct sampler *s, const struct placement *pl)
{
	struct sampler_count *counts;
	int nmain = 0, e, i;

	counts = calloc((size_t)(nev * pl->nsample), sizeof(*counts));
	p->events = calloc((size_t)nev, sizeof(*p->events));
	p->counts = calloc((size_t)(nev * pl->nsample), sizeof(*p->counts));
	if (!counts || !p->events || !p->counts) {
		free(counts);
		return error("out of memory");
	}
	if (sampler_read(s, counts)) {
		free(counts);
		return -1;
	}
	for (e = 0; e < nev; e++) {
		const struct event_spec *ev = &evs[e];
		struct profile_event *pe = &p->events[nmain];
		int main_event = !ev->companion;

		for (i = 0; i < pl->nsample; i++) {
			const struct sampler_count *c = &counts[i * nev + e];
			struct profile_count *pc = &p->counts[p->ncounts++];

			pc->name = strdup(ev->name);
			pc->cpu = pl->sample[i];
			pc->raw = c->value;
			pc->value = scaled(c);
			pc->enabled_ns = c->enabled_ns;
			pc->running_ns = c->running_ns;
			if (main_event) {
				pe->count += pc->value;
				pe->enabled_ns += c->enabled_ns;
				pe->running_ns += c->running_ns;
			}
		}
		if (!main_event)
			continue;
		pe->name = strdup(ev->name);
		pe->requested = strdup(ev->requested);
		pe->pmu = strdup(ev->pmu);
		pe->encoding = strdup(ev->fstr);
		pe->unit = strdup(ev->unit);
		pe->type = ev->attr.type;
		pe->config = ev->attr.config;
		pe->period = ev->count_only || ev->freq ? 0 : ev->period;
		pe->freq = ev->freq && !ev->count_only ? ev->period : 0;
		pe->samples = sampler_samples(s, e);
		for (i = 0; i < pl->nsample; i++) {
			struct ring_stats st;

			sampler_ring_stats(s, i, &st);
			/* the events of a CPU share its ring, and its losses */
			pe->lost += st.lost + st.lost_samples;
			pe->throttled += st.throttle;
		}
		nmain++;
	}
	p->nevents = (size_t)nmain;
	free(counts);
	for (i = 0; i < pl->nsample; i++) {
		struct ring_stats st;
		size_t k;

		sampler_ring_stats(s, i, &st);
		for (k = 0; k < p->ncpu_times; k++) {
			if (p->cpu_times[k].cpu == pl->sample[i]) {
				p->cpu_times[k].lost = st.lost + st.lost_samples;
				p->cpu_times[k].throttled = st.throttle;
			}
		}
		if (st.bad)
			warning("%llu malformed records in the ring of CPU %d were "
				"skipped", (unsigned long long)st.bad, pl->sample[i]);
	}
	return 0;
}

static int collect_stacks(struct profile *p, const struct stack_table *t)
{
	size_t i, n = 0;

	if (!t->used)
		return 0;
	p->stacks = calloc(t->used, sizeof(*p->stacks));
	if (!p->stacks)
		return error("out of memory");
	for (i = 0; i < t->nbuckets; i++) {
		const struct stack_entry *e;

		for (e = t->buckets[i]; e; e = e->next) {
			struct profile_stack *st = &p->stacks[n];

			st->event = e->event;
			st->role = (enum role)e->role;
			st->count = e->count;
			st->weight = e->weight;
			st->depth = e->depth;
			st->ips = malloc(sizeof(uint64_t) * e->depth);
			if (!st->ips)
				return error("out of memory");
			memcpy(st->ips, e->ips, sizeof(uint64_t) * e->depth);
			n++;
			p->nstacks = n;
		}
	}
	return 0;
}

static void progress(const struct record_options *o, const struct workload *w,
		     double elapsed)
{
	unsigned long long rts = workload_window_progress(w);

	if (o->quiet || !isatty(STDERR_FILENO) ||
	    (o->count ? elapsed < 2 : o->duration < 2))
		return;
	if (o->count)
		fprintf(stderr, "\rperpkt: recording %llu/%llu round trips, %.0f s ",
			rts, (unsigned long long)o->count, elapsed);
	else
		fprintf(stderr, "\rperpkt: recording %.0f/%.0f s, %llu round trips ",
			elapsed, o->duration, rts);
}

/* Say what is about to run, so the run can be repeated exactly. */
static void describe(const struct record_options *o, const struct placement *pl,
		     const struct event_spec *evs, int nev)
{
	char events[512] = "", cpus[256] = "";
	size_t len = 0, clen = 0;
	int e, i;

	for (e = 0; e < nev && len < sizeof(events); e++) {
		if (evs[e].companion)
			continue;
		len += (size_t)snprintf(events + len, sizeof(events) - len, "%s%s",
					len ? ", " : "", evs[e].name);
		if (evs[e].count_only || len >= sizeof(events))
			continue;
		if (evs[e].freq)
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" at %llu Hz",
						(unsigned long long)evs[e].period);
		else
			len += (size_t)snprintf(events + len, sizeof(events) - len,
						" every %llu %s",
						(unsigned long long)evs[e].period,
						evs[e].unit);
	}
	for (i = 0; i < pl->nsample && clen < sizeof(cpus); i++)
		clen += (size_t)snprintf(cpus + clen, sizeof(cpus) - clen, "%s%d",
					 i ? "," : "", pl->sample[i]);
	info("%s ping-pong %s %s, %u-byte messages, client CPU %d, "
	     "server CPU %d, perpkt on CPU %d",
	     o->transport ? o->transport : "udp",
	     o->peer ? "with peer" : o->echo ? "with echo service" : "on",
	     o->peer ? o->peer : o->echo ? o->echo : o->network ? o->network : "loopback",
	     o->message_size, pl->client, pl->server, pl->self);
	info("%s %s on CPU %s for %g s%s", o->counting_only ? "counting" : "sampling",
	     events, cpus, o->duration, o->callchain ? ", with callchains" : "");
}

static void fill_workload(struct profile *p, const struct record_options *o,
			  const struct placement *pl,
			  const struct workload_result *res)
{
	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt " PERPKT_VERSION);
	p->command = join_args(o->argc, o->argv);
	p->transport = strdup(o->transport ? o->transport : "udp");
	p->network = strdup(o->peer ? "peer" : o->echo ? "echo" :
			    o->network ? o->network : "loopback");
	p->message_size = o->message_size;
	p->client_cpu = pl->client;
	p->server_cpu = pl->server;
	p->warmup_s = o->warmup;
	p->round_trips = res->round_trips;
	p->window_ns = res->window_ns;
	histogram_summary(&res->latency, &p->latency);
	histogram_summary(&res->unsampled, &p->latency_unsampled);
	if (histogram_export(&res->latency, &p->histogram, &p->nhistogram))
		warning("out of memory: the latency histogram is left out");
	p->cpus = malloc(sizeof(int) * (size_t)pl->nsample);
	if (p->cpus) {
		memcpy(p->cpus, pl->sample, sizeof(int) * (size_t)pl->nsample);
		p->ncpus_sampled = (size_t)pl->nsample;
	}
}

/* Write the profile (record) or print the counts (stat). */
static int finish(const struct record_options *o, struct profile *p,
		  struct sampler *s)
{
	uint64_t lost = 0, samples = 0;
	int code = PERPKT_EXIT_OK;
	size_t e;

	/* a group the PMU could never schedule counted nothing: no result */
	for (e = 0; e < p->nevents; e++) {
		if (p->events[e].running_ns == 0 && p->events[e].enabled_ns) {
			error("'%s' never ran: too many events for the PMU to "
			      "count together; ask for fewer with -e",
			      p->events[e].name);
			return PERPKT_EXIT_FAILURE;
		}
	}
	if (o->counting_only) {
		if (report_stat(stdout, p, o->format))
			return PERPKT_EXIT_FAILURE;
	} else {
		if (collect_samples(p, sampler_aggregate(s)) ||
		    collect_stacks(p, sampler_stacks(s)))
			return PERPKT_EXIT_FAILURE;
		attach_ksyms(p);
		if (profile_write(p, o->output))
			return PERPKT_EXIT_FAILURE;
	}
	for (e = 0; e < p->nevents; e++) {
		samples += p->events[e].samples;
		if (p->events[e].running_ns < p->events[e].enabled_ns)
			warning("'%s' was multiplexed (ran %.0f%% of the window): "
				"counts are scaled estimates", p->events[e].name,
				100.0 * (double)p->events[e].running_ns /
				(double)p->events[e].enabled_ns);
	}
	if (p->nevents)
		lost = p->events[0].lost;
	if (*o->interrupted) {
		warning("interrupted: the window was cut short; the result is partial");
		code = PERPKT_EXIT_PARTIAL;
	}
	if (lost) {
		warning("%llu samples lost: raise --ring-pages or the period",
			(unsigned long long)lost);
		code = PERPKT_EXIT_PARTIAL;
	}
	if (!o->quiet) {
		char done[160] = "";

		if (!o->counting_only)
			snprintf(done, sizeof(done), "; %llu samples; wrote '%s'",
				 (unsigned long long)samples, o->output);
		info("%llu round trips in %.3f s (%.0f/s, p50 %.1f us)%s",
		     (unsigned long long)p->round_trips, (double)p->window_ns * 1e-9,
		     p->window_ns ? (double)p->round_trips * 1e9 / (double)p->window_ns : 0,
		     (double)p->latency.p50 / 1000, done);
	}
	return code;
}

/* One measurement window: open at a round-trip boundary, drain the
 * rings until the duration or count is reached, close at a boundary. */
static int run_window(const struct record_options *o, struct workload *w,
		      struct sampler *s, struct procstat *a, struct procstat *b,
		      struct workload_result *res)
{
	double t0;

	memset(res, 0, sizeof(*res));
	if (workload_window_open(w) ||
	    procstat_take(a, workload_client_pid(w), workload_responder_pid(w)))
		return -1;
	t0 = now_s();
	/* -n: the client closes the window itself after that many */
	while (!*o->interrupted && (o->count ? !workload_window_done(w) :
				    now_s() - t0 < o->duration)) {
		double left_ms = o->count ? 100 : (o->duration - (now_s() - t0)) * 1000;

		if (sampler_poll(s, left_ms < 100 ? (int)left_ms + 1 : 100))
			break;
		progress(o, w, now_s() - t0);
	}
	if (!o->quiet && isatty(STDERR_FILENO) &&
	    (o->count ? now_s() - t0 >= 2 : o->duration >= 2))
		fputc('\n', stderr);
	/* a responder that died mid-run leaves a partial, labelled result */
	if ((workload_window_close(w, res) && !res->partial) ||
	    procstat_take(b, workload_client_pid(w), workload_responder_pid(w)))
		return -1;
	/* every sample of this window is read before the next one starts */
	sampler_drain(s);
	return 0;
}

static uint64_t task_cpu(const struct procstat *a, const struct procstat *b,
			 enum role role)
{
	int i, j;

	for (i = 0; i < b->ntasks; i++)
		for (j = 0; j < a->ntasks; j++)
			if (b->task[i].role == role && a->task[j].pid == b->task[i].pid)
				return b->task[i].cpu_ns - a->task[j].cpu_ns;
	return 0;
}

/*
 * --repeat N: N windows in one run, same set-up, fresh counts for each.
 * Samples carry their window's index; each window's round trips,
 * latency, event totals and CPU time are kept, and `total` sums them.
 * first/last are the /proc snapshots at the first open and last close.
 */
static int run_windows(const struct record_options *o, struct workload *w,
		       struct sampler *s, const struct event_spec *evs, int nev,
		       const struct placement *pl, struct profile *p,
		       struct procstat *first, struct procstat *last,
		       struct workload_result *total)
{
	size_t ncounts = (size_t)(nev * pl->nsample);
	struct sampler_count *prev = calloc(ncounts, sizeof(*prev));
	struct sampler_count *cur = calloc(ncounts, sizeof(*cur));
	int nrep = o->repeat > 0 ? o->repeat : 1, r, e, i, ret = -1;

	memset(total, 0, sizeof(*total));
	histogram_init(&total->latency);
	p->repeats = calloc((size_t)nrep, sizeof(*p->repeats));
	if (!prev || !cur || !p->repeats) {
		error("out of memory");
		goto out;
	}
	for (r = 0; r < nrep && !*o->interrupted && !total->partial; r++) {
		struct profile_repeat *rp = &p->repeats[r];
		struct procstat a, b;
		struct workload_result res;
		int k = 0;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		sampler_set_repeat(s, r);
		if (run_window(o, w, s, &a, &b, &res) || sampler_read(s, cur)) {
			procstat_free(&a);
			procstat_free(&b);
			goto out;
		}
		rp->round_trips = res.round_trips;
		rp->window_ns = res.window_ns;
		histogram_summary(&res.latency, &rp->latency);
		rp->client_cpu_ns = task_cpu(&a, &b, ROLE_CLIENT);
		rp->responder_cpu_ns = task_cpu(&a, &b, ROLE_RESPONDER);
		rp->counts = calloc((size_t)nev, sizeof(uint64_t));
		if (!rp->counts) {
			procstat_free(&a);
			procstat_free(&b);
			error("out of memory");
			goto out;
		}
		/* group counts run on across windows: take the difference */
		for (e = 0; e < nev; e++) {
			if (evs[e].companion)
				continue;
			for (i = 0; i < pl->nsample; i++)
				rp->counts[k] += scaled(&cur[i * nev + e]) -
						 scaled(&prev[i * nev + e]);
			k++;
		}
		memcpy(prev, cur, ncounts * sizeof(*cur));
		p->nrepeats = (size_t)r + 1;

		total->round_trips += res.round_trips;
		total->window_ns += res.window_ns;
		total->timeouts += res.timeouts;
		total->late_replies += res.late_replies;
		total->duplicates += res.duplicates;
		histogram_merge(&total->latency, &res.latency);
		if (res.partial) {
			total->partial = 1;
			memcpy(total->error, res.error, sizeof(total->error));
		}
		total->remote = res.remote;
		if (r == 0) {
			total->unsampled = res.unsampled;
			*first = a;
		}
		else
			procstat_free(&a);
		procstat_free(last);
		*last = b;
		if (nrep > 1 && !o->quiet)
			info("window %d of %d: %llu round trips, p50 %.1f us", r + 1,
			     nrep, (unsigned long long)res.round_trips,
			     (double)rp->latency.p50 / 1000);
	}
	ret = 0;
out:
	free(prev);
	free(cur);
	return ret;
}

int record_run(const struct record_options *o)
{
	struct event_spec evs[MAX_EVENTS];
	struct procstat before, after;
	struct placement pl;
	struct sampler *s = NULL;
	struct workload *w = NULL;
	struct workload_result res;
	struct profile p;
	const int *fds;
	int nfds, nev = 0, code = PERPKT_EXIT_FAILURE, snapped = 0, e;
	double t0;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	if (place(o, &pl))
		return PERPKT_EXIT_FAILURE;
	if (choose_events(o, &pl, evs, &nev, &p) || open_counters(o, &pl, evs, nev, &s))
		goto out;
	nfds = sampler_fds(s, &fds);
	if (!o->quiet)
		describe(o, &pl, evs, nev);
	{
		struct workload_config wc = {
			.transport = o->transport, .network = o->network,
			.peer = o->peer, .echo = o->echo, .count = o->count,
			.gap_ns = o->gap_ns, .gap_spin = o->gap_spin,
			.rps_cpus = o->rps_cpus, .set_irq_cpu = o->irq_cpu >= 0,
			.irq_cpu = o->irq_cpu,
			.pin_self = pl.self >= 0, .self_cpu = pl.self,
			.client_cpu = pl.client, .server_cpu = pl.server,
			.message_size = o->message_size,
			.window_fds = fds, .nwindow_fds = nfds,
		};

		if (workload_start(&w, &wc))
			goto out;
	}
	sampler_set_roles(s, workload_client_pid(w), workload_responder_pid(w),
			  getpid());
	t0 = now_s();
	while (!*o->interrupted && now_s() - t0 < o->warmup)
		usleep(10000);
	if (*o->interrupted) {
		error("interrupted during warm-up: nothing measured");
		goto out;
	}
	if (run_windows(o, w, s, evs, nev, &pl, &p, &before, &after, &res))
		goto out;
	snapped = 1;
	workload_add_conditions(w, &p);
	workload_stop(w);  /* before the slow part: symbols and the write */
	w = NULL;

	sysinfo_fill(&p);
	conditions_capture(&p, pl.client, pl.server, o->message_size);
	conditions_add_result(&p, &res);
	fill_workload(&p, o, &pl, &res);
	for (e = 0; e < nev; e++)
		if (evs[e].software_clock)
			p.mode = strdup("software-clock");
	if (!p.mode)
		p.mode = strdup("hardware");
	if (procstat_delta(&before, &after, pl.sample, pl.nsample, &p) ||
	    fill_counters(&p, evs, nev, s, &pl))
		goto out;
	for (e = 0; e < (int)p.ntasks; e++)
		p.tasks[e].cpu = p.tasks[e].role == ROLE_CLIENT ? pl.client : pl.server;
	code = finish(o, &p, s);
	if (res.partial && code == PERPKT_EXIT_OK) {
		warning("%s: kept the %llu round trips before it", res.error,
			(unsigned long long)res.round_trips);
		code = PERPKT_EXIT_PARTIAL;
	}
out:
	if (!snapped && *o->interrupted)
		code = PERPKT_EXIT_FAILURE;
	procstat_free(&before);
	procstat_free(&after);
	workload_stop(w);
	sampler_close(s);
	profile_free(&p);
	return code;
}
