// SPDX-License-Identifier: GPL-2.0-only
#include "recording.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "exitcode.h"
#include "profile.h"
#include "sampler.h"
#include "symbolize.h"
#include "sysinfo.h"
#include "workload.h"

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

static int place(const struct record_options *o, struct placement *pl)
{
	int i;

	pl->nonline = sysinfo_online_cpus(pl->online, MAX_CPUS);
	if (pl->nonline <= 0)
		return error("cannot read '/sys/devices/system/cpu/online'");
	pl->client = o->client_cpu >= 0 ? o->client_cpu : pl->online[pl->nonline - 1];
	pl->server = o->server_cpu >= 0 ? o->server_cpu : pl->client;
	if (!contains(pl->online, pl->nonline, pl->client))
		return error("client CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->client);
	if (!contains(pl->online, pl->nonline, pl->server))
		return error("server CPU %d is not online (online CPUs: see "
			     "/sys/devices/system/cpu/online)", pl->server);
	if (o->ncpus) {
		for (i = 0; i < o->ncpus; i++)
			if (!contains(pl->online, pl->nonline, o->cpus[i]))
				return error("CPU %d in --cpus is not online", o->cpus[i]);
		memcpy(pl->sample, o->cpus, sizeof(int) * (size_t)o->ncpus);
		pl->nsample = o->ncpus;
	} else {
		memcpy(pl->sample, pl->online, sizeof(int) * (size_t)pl->nonline);
		pl->nsample = pl->nonline;
	}
	/* keep perpkt's own work off the workload's CPUs when it can */
	pl->self = -1;
	for (i = 0; i < pl->nonline; i++) {
		if (pl->online[i] != pl->client && pl->online[i] != pl->server) {
			pl->self = pl->online[i];
			break;
		}
	}
	return 0;
}

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		warning("cannot pin perpkt to CPU %d: %s", cpu, strerror(errno));
}

static int is_missing_pmu(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV;
}

/* Open the sampler, falling back to cpu-clock when there is no PMU. */
static int open_counters(const struct record_options *o,
			 const struct placement *pl, struct event_spec *ev,
			 struct sampler **s, char **fallback_reason)
{
	struct sampler_config cfg = {
		.events = ev, .nevents = 1,
		.cpus = pl->sample, .ncpus = pl->nsample,
		.ring_pages = o->ring_pages,
	};
	struct sampler_failure why;

	if (event_encode(o->event, 0, o->period, ev))
		return -1;
	if (!sampler_open(s, &cfg, &why))
		return 0;
	if (ev->software_clock || !is_missing_pmu(why.err) || o->no_fallback) {
		if (o->no_fallback && is_missing_pmu(why.err))
			return error("%s; --no-fallback was given", why.msg);
		return error("%s", why.msg);
	}
	*fallback_reason = strdup(why.msg);
	warning("'%s' cannot be opened here: %s", o->event, strerror(why.err));
	warning("falling back to cpu-clock sampling: values are ns of CPU time, "
		"not cycles; code with interrupts off is charged to where they "
		"come back on");
	if (o->period)
		warning("--period %llu was for '%s'; cpu-clock uses its default "
			"%llu ns", (unsigned long long)o->period, o->event,
			(unsigned long long)DEFAULT_CLOCK_PERIOD_NS);
	event_cpu_clock(ev, o->event, 0, 0);
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
		n++;
	}
	p->nsamples = n;
	/* a stable order makes profiles diffable with plain tools */
	qsort(p->samples, n, sizeof(*p->samples), cmp_sample);
	return 0;
}

static int fill_event(struct profile *p, const struct event_spec *ev,
		      struct sampler *s)
{
	struct profile_event *pe;
	struct ring_stats st;
	uint64_t value, enabled, running;

	p->events = calloc(1, sizeof(*p->events));
	if (!p->events)
		return error("out of memory");
	p->nevents = 1;
	pe = &p->events[0];
	sampler_stats(s, 0, &st);
	pe->name = strdup(ev->name);
	pe->requested = strdup(ev->requested);
	pe->pmu = strdup(ev->pmu);
	pe->unit = strdup(ev->unit);
	pe->type = ev->attr.type;
	pe->config = ev->attr.config;
	pe->period = ev->period;
	pe->samples = st.samples;
	pe->lost = st.lost + st.lost_samples;
	pe->throttled = st.throttle;
	if (!sampler_count(s, 0, &value, &enabled, &running))
		pe->count = value;
	return 0;
}

static void progress(const struct record_options *o, double elapsed)
{
	if (o->quiet || !isatty(STDERR_FILENO) || o->duration < 2)
		return;
	fprintf(stderr, "\rperpkt: recording %.0f/%.0f s ", elapsed, o->duration);
}

int record_run(const struct record_options *o)
{
	struct placement pl;
	struct event_spec ev;
	struct sampler *s = NULL;
	struct workload *w = NULL;
	struct workload_result res;
	struct profile p;
	const int *fds;
	int nfds, code = PERPKT_EXIT_FAILURE;
	double t0;

	memset(&p, 0, sizeof(p));
	memset(&res, 0, sizeof(res));
	if (place(o, &pl))
		return PERPKT_EXIT_FAILURE;
	if (open_counters(o, &pl, &ev, &s, &p.fallback_reason))
		goto out;
	nfds = sampler_fds(s, &fds);
	if (!o->quiet)
		info("udp ping-pong on loopback, %u-byte messages, client CPU %d, "
		     "server CPU %d; sampling %s every %llu %s on %d CPU%s for %g s",
		     o->message_size, pl.client, pl.server, ev.name,
		     (unsigned long long)ev.period, ev.unit, pl.nsample,
		     pl.nsample == 1 ? "" : "s", o->duration);
	{
		struct workload_config wc = {
			.transport = "udp", .network = "loopback",
			.client_cpu = pl.client, .server_cpu = pl.server,
			.message_size = o->message_size,
			.window_fds = fds, .nwindow_fds = nfds,
		};

		if (workload_start(&w, &wc))
			goto out;
	}
	/* after the fork: the children must not inherit perpkt's CPU */
	pin_self(pl.self);
	sampler_set_roles(s, workload_client_pid(w), workload_responder_pid(w),
			  getpid());
	t0 = now_s();
	while (!*o->interrupted && now_s() - t0 < o->warmup)
		usleep(10000);
	if (*o->interrupted) {
		error("interrupted during warm-up: no profile written");
		goto out;
	}
	if (workload_window_open(w))
		goto out;
	t0 = now_s();
	while (!*o->interrupted && now_s() - t0 < o->duration) {
		double left_ms = (o->duration - (now_s() - t0)) * 1000;

		if (sampler_poll(s, left_ms < 100 ? (int)left_ms + 1 : 100))
			break;
		progress(o, now_s() - t0);
	}
	if (!o->quiet && isatty(STDERR_FILENO) && o->duration >= 2)
		fputc('\n', stderr);
	if (workload_window_close(w, &res))
		goto out;
	sampler_drain(s);
	workload_stop(w);  /* before the slow part: symbols and the write */
	w = NULL;

	sysinfo_fill(&p);
	p.version = PROFILE_VERSION;
	p.tool_version = strdup("perpkt " PERPKT_VERSION);
	p.command = join_args(o->argc, o->argv);
	p.transport = strdup("udp");
	p.network = strdup("loopback");
	p.message_size = o->message_size;
	p.client_cpu = pl.client;
	p.server_cpu = pl.server;
	p.warmup_s = o->warmup;
	p.round_trips = res.round_trips;
	p.window_ns = res.window_ns;
	histogram_summary(&res.latency, &p.latency);
	p.mode = strdup(ev.software_clock ? "software-clock" : "hardware");
	p.cpus = malloc(sizeof(int) * (size_t)pl.nsample);
	if (p.cpus) {
		memcpy(p.cpus, pl.sample, sizeof(int) * (size_t)pl.nsample);
		p.ncpus_sampled = (size_t)pl.nsample;
	}
	if (fill_event(&p, &ev, s) || collect_samples(&p, sampler_aggregate(s)))
		goto out;
	attach_ksyms(&p);
	if (profile_write(&p, o->output))
		goto out;

	code = PERPKT_EXIT_OK;
	if (*o->interrupted) {
		warning("interrupted: the window was cut short; profile is partial");
		code = PERPKT_EXIT_PARTIAL;
	}
	if (p.events[0].lost) {
		warning("%llu samples lost: raise --ring-pages or the period",
			(unsigned long long)p.events[0].lost);
		code = PERPKT_EXIT_PARTIAL;
	}
	if (!o->quiet)
		info("%llu round trips in %.3f s (%.0f/s, p50 %.1f us); %llu samples; "
		     "wrote '%s'", (unsigned long long)p.round_trips,
		     (double)p.window_ns * 1e-9,
		     p.window_ns ? (double)p.round_trips * 1e9 / (double)p.window_ns : 0,
		     (double)p.latency.p50 / 1000, (unsigned long long)p.events[0].samples,
		     o->output);
out:
	if (w)
		workload_stop(w);
	sampler_close(s);
	profile_free(&p);
	return code;
}
