// SPDX-License-Identifier: GPL-2.0-only
/* The profile from what was measured: samples, stacks, exact counts and
 * the kallsyms entries the samples fall in. */
#include "record/internal.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "system/kernel-symbols.h"

int record_fill_unit(struct profile *p, const struct unit *u)
{
	p->unit.spec = strdup(u->spec);
	p->unit.name = strdup(u->name);
	p->unit.source = strdup(u->source);
	if (!p->unit.spec || !p->unit.name || !p->unit.source)
		return error("out of memory");
	return 0;
}

int record_collect_samples(struct profile *p, const struct aggregate *a)
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
	profile_sort_samples(p);
	return 0;
}

void record_window_counts(const struct event_spec *evs, int nev, int ncpus,
			  const struct sampler_count *prev,
			  const struct sampler_count *cur, uint64_t *counts)
{
	int e, i, k = 0;

	for (e = 0; e < nev; e++) {
		if (evs[e].companion)
			continue;
		counts[k] = 0;
		for (i = 0; i < ncpus; i++)
			counts[k] += record_scaled(&cur[i * nev + e]) -
				     record_scaled(&prev[i * nev + e]);
		k++;
	}
}

void record_fill_mode(struct profile *p, const struct event_spec *evs, int nev)
{
	int e;

	for (e = 0; e < nev; e++)
		if (evs[e].software_clock)
			break;
	free(p->mode);
	p->mode = strdup(e < nev ? "software-clock" : "hardware");
}

int record_collect(struct profile *p, struct sampler *s)
{
	if (record_collect_samples(p, sampler_aggregate(s)) ||
	    record_collect_stacks(p, sampler_stacks(s)))
		return -1;
	kernel_symbols_attach(p, "/proc/kallsyms");
	kernel_modules_attach(p, "/sys/module", "/proc/modules");
	return 0;
}

/* Scale a count that was multiplexed: the usual perf estimate. */
uint64_t record_scaled(const struct sampler_count *c)
{
	if (!c->running_ns || c->running_ns >= c->enabled_ns)
		return c->value;
	return (uint64_t)((double)c->value * (double)c->enabled_ns /
			  (double)c->running_ns);
}

/* Events, exact counts per CPU and ring statistics into the profile. */
int record_fill_counters(struct profile *p, const struct event_spec *evs, int nev,
			 struct sampler *s, const int *cpus, int ncpus)
{
	struct sampler_count *counts;
	int nmain = 0, e, i;

	counts = calloc((size_t)(nev * ncpus), sizeof(*counts));
	p->events = calloc((size_t)nev, sizeof(*p->events));
	p->counts = calloc((size_t)(nev * ncpus), sizeof(*p->counts));
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

		for (i = 0; i < ncpus; i++) {
			const struct sampler_count *c = &counts[i * nev + e];
			struct profile_count *pc = &p->counts[p->ncounts++];

			pc->name = strdup(ev->name);
			pc->cpu = cpus[i];
			pc->raw = c->value;
			pc->value = record_scaled(c);
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
		pe->user = !ev->attr.exclude_user;
		pe->config = ev->attr.config;
		pe->period = ev->count_only || ev->freq ? 0 : ev->period;
		pe->freq = ev->freq && !ev->count_only ? ev->period : 0;
		pe->samples = sampler_samples(s, e);
		for (i = 0; i < ncpus; i++) {
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
	for (i = 0; i < ncpus; i++) {
		struct ring_stats st;
		size_t k;

		sampler_ring_stats(s, i, &st);
		for (k = 0; k < p->ncpu_times; k++) {
			if (p->cpu_times[k].cpu == cpus[i]) {
				p->cpu_times[k].lost = st.lost + st.lost_samples;
				p->cpu_times[k].throttled = st.throttle;
			}
		}
		if (st.bad)
			warning("%llu malformed records in the ring of CPU %d were "
				"skipped", (unsigned long long)st.bad, cpus[i]);
	}
	return 0;
}

int record_collect_stacks(struct profile *p, const struct stack_table *t)
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
			st->turn = e->turn;
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
