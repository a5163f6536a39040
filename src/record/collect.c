// SPDX-License-Identifier: GPL-2.0-only
/* The profile from what was measured: samples, stacks, exact counts and
 * the kallsyms entries the samples fall in. */
#include "record/internal.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "symbolize/symbolize.h"

int record_fill_unit(struct profile *p, const struct unit *u)
{
	p->unit.spec = strdup(u->spec);
	p->unit.name = strdup(u->name);
	p->unit.source = strdup(u->source);
	if (!p->unit.spec || !p->unit.name || !p->unit.source)
		return error("out of memory");
	return 0;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct profile_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every kernel address the profile refers to: the sampled IPs and, with
 * -g, every callchain frame, so callers resolve without --kallsyms. */
static uint64_t *profile_addresses(const struct profile *p, size_t *n)
{
	size_t i, k = p->nsamples;
	uint64_t *a;
	uint32_t d;

	for (i = 0; i < p->nstacks; i++)
		k += p->stacks[i].depth;
	a = malloc((k ? k : 1) * sizeof(*a));
	if (!a)
		return NULL;
	k = 0;
	for (i = 0; i < p->nsamples; i++)
		a[k++] = p->samples[i].ip;
	for (i = 0; i < p->nstacks; i++)
		for (d = 0; d < p->stacks[i].depth; d++)
			a[k++] = p->stacks[i].ips[d];
	*n = k;
	return a;
}

/* Save the kallsyms entries the samples and stacks fall in, so the
 * profile can be symbolised anywhere later. */
void record_attach_ksyms(struct profile *p)
{
	struct sym_error err;
	struct symbolizer *sym;
	size_t i, n = 0, naddr = 0;
	uint64_t *addr;

	if (symbolizer_open_kallsyms(&sym, "/proc/kallsyms", &err)) {
		warning("%s: the profile will carry no symbols, reports show raw addresses",
			err.msg);
		return;
	}
	p->text_addr = symbolizer_text_addr(sym);
	addr = profile_addresses(p, &naddr);
	p->ksyms = addr ? calloc(naddr ? naddr : 1, sizeof(*p->ksyms)) : NULL;
	for (i = 0; p->ksyms && i < naddr; i++) {
		struct sym_entry e;

		if (symbolizer_symbol(sym, addr[i], &e))
			continue;
		p->ksyms[n].addr = e.addr;
		p->ksyms[n].size = e.size;
		p->ksyms[n].type = e.type;
		p->ksyms[n].name = (char *)e.name;    /* copied below, once unique */
		p->ksyms[n].module = (char *)e.module;
		n++;
	}
	free(addr);
	if (!p->ksyms)
		warning("out of memory: the profile carries no symbols");
	else if (n > 1)
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
	/* a stable order makes profiles diffable with plain tools */
	if (n > 1)
		qsort(p->samples, n, sizeof(*p->samples), cmp_sample);
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
	record_attach_ksyms(p);
	record_attach_modules(p, "/sys/module", "/proc/modules");
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
