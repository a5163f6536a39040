// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exact plugin's cache model (lab/plugin/cachemodel.h) into the
 * profile: its misses per kernel address and vCPU become three events
 * beside "instructions", sampled at every address that missed, so every
 * report's rows, per round trip and per function, carry them as they
 * carry any event.
 */
#include "lab/exact-counts.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lab/plugin/cachemodel.h"

static const char *const miss_events[CACHE_NLEVELS] = {
	PROFILE_MISS_L1I, PROFILE_MISS_L1D, PROFILE_MISS_L2,
};
/* perf's generic cache events nearest each (reads and writes alike here;
 * perf has no L2, its last level stands in) */
static const uint64_t miss_config[CACHE_NLEVELS] = {
	PERF_COUNT_HW_CACHE_L1I | PERF_COUNT_HW_CACHE_RESULT_MISS << 16,
	PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_RESULT_MISS << 16,
	PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_RESULT_MISS << 16,
};

int lab_exact_read_cache(struct lab_exact *x, size_t *cap, const char *line)
{
	unsigned long long ip, a, b, c;
	int cpu;

	if (!strncmp(line, "cache ", 6)) {
		if (sscanf(line, "cache %255s", x->cache) != 1 || !x->nvcpus || x->umiss)
			return -1;
		x->umiss = calloc((size_t)x->nvcpus, sizeof(*x->umiss));
		return x->umiss ? 0 : -1;
	}
	if (!x->umiss)
		return -1;  /* m and um lines come after "cache" */
	if (sscanf(line, "um %d %llu %llu %llu", &cpu, &a, &b, &c) == 4) {
		if (cpu < 0 || cpu >= x->nvcpus)
			return -1;
		x->umiss[cpu][0] = a, x->umiss[cpu][1] = b, x->umiss[cpu][2] = c;
		return 0;
	}
	if (sscanf(line, "m %llx %d %llu %llu %llu", &ip, &cpu, &a, &b, &c) != 5 ||
	    cpu < 0 || cpu >= x->nvcpus)
		return -1;
	if (x->nmisses == *cap) {
		size_t n = *cap ? *cap * 2 : 16384;
		struct lab_exact_miss *v = realloc(x->misses, n * sizeof(*v));

		if (!v)
			return -1;
		x->misses = v;
		*cap = n;
	}
	x->misses[x->nmisses++] = (struct lab_exact_miss){ ip, (uint32_t)cpu, { a, b, c } };
	return 0;
}

static int cmp_miss(const void *a, const void *b)
{
	const struct lab_exact_miss *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* a block translated twice counts its misses in both */
void lab_exact_cache_merge(struct lab_exact *x)
{
	size_t i, k, n = 0;

	if (x->nmisses > 1)
		qsort(x->misses, x->nmisses, sizeof(*x->misses), cmp_miss);
	for (i = 0; i < x->nmisses; i++) {
		struct lab_exact_miss *last = n ? &x->misses[n - 1] : NULL;

		if (last && !cmp_miss(last, &x->misses[i]))
			for (k = 0; k < CACHE_NLEVELS; k++)
				last->n[k] += x->misses[i].n[k];
		else
			x->misses[n++] = x->misses[i];
	}
	x->nmisses = n;
}

/* Level k's misses as event e of p: its samples, counts and windows. */
static int add_event(struct profile *p, const struct lab_exact *x, int k, uint32_t e)
{
	struct profile_event *ev = &p->events[e];
	struct profile_count *counts;
	uint64_t total = 0, *cpu = calloc((size_t)x->nvcpus, sizeof(*cpu));
	size_t i, nsamples = 0;
	int v;

	if (!cpu)
		return -1;
	for (i = 0; i < x->nmisses; i++) {
		const struct lab_exact_miss *m = &x->misses[i];

		if (!m->n[k])
			continue;
		p->samples[p->nsamples++] = (struct profile_sample){
			.event = e, .cpu = m->cpu, .ip = m->ip,
			.role = lab_exact_role(p, (int)m->cpu),
			.count = m->n[k], .weight = m->n[k],
		};
		cpu[m->cpu] += m->n[k];
		total += m->n[k];
		nsamples += m->n[k];
	}
	*ev = (struct profile_event){
		.name = strdup(miss_events[k]), .requested = strdup(miss_events[k]),
		.pmu = strdup(PROFILE_EXACT_PMU), .encoding = strdup("perpkt-exact.so cache model"),
		.unit = strdup("events"), .type = PERF_TYPE_HW_CACHE,
		.config = miss_config[k], .samples = nsamples, .count = total,
		.enabled_ns = p->window_ns, .running_ns = p->window_ns,
	};
	counts = realloc(p->counts, (p->ncounts + (size_t)x->nvcpus) * sizeof(*counts));
	if (!counts) {
		free(cpu);
		return -1;
	}
	p->counts = counts;
	for (v = 0; v < x->nvcpus; v++)
		p->counts[p->ncounts++] = (struct profile_count){
			.name = strdup(miss_events[k]), .cpu = v, .value = cpu[v],
			.raw = cpu[v], .enabled_ns = p->window_ns, .running_ns = p->window_ns,
		};
	free(cpu);
	for (i = 0; i < p->nrepeats; i++)
		p->repeats[i].counts[e] = total;
	return ev->name && ev->requested && ev->pmu && ev->encoding && ev->unit ? 0 : -1;
}

int lab_exact_fold_cache(struct profile *p, const struct lab_exact *x)
{
	struct cachemodel_geometry g;
	struct profile_event *ev;
	struct profile_sample *s;
	uint64_t user[CACHE_NLEVELS] = { 0 }, kernel[CACHE_NLEVELS] = { 0 };
	char why[512], words[200], buf[1024];
	size_t i, n = 0;
	int k, v;

	if (!x->cache[0])
		return 0;
	if (cachemodel_parse(x->cache, &g, why, sizeof(why)))
		return error("the QEMU plugin's cache model: %s", why);
	if (p->nevents != 1)
		return error("the exact profile has %zu events before its misses, not 1",
			     p->nevents);
	for (i = 0; i < x->nmisses; i++)
		for (k = 0; k < CACHE_NLEVELS; k++) {
			n += x->misses[i].n[k] != 0;
			kernel[k] += x->misses[i].n[k];
		}
	ev = realloc(p->events, (1 + CACHE_NLEVELS) * sizeof(*ev));
	if (ev)
		p->events = ev;
	s = realloc(p->samples, (p->nsamples + n + 1) * sizeof(*s));
	if (s)
		p->samples = s;
	for (i = 0; ev && i < p->nrepeats; i++) {
		uint64_t *c = realloc(p->repeats[i].counts, (1 + CACHE_NLEVELS) * sizeof(*c));

		if (!c)
			return error("out of memory");
		p->repeats[i].counts = c;
	}
	if (!ev || !s)
		return error("out of memory for the cache misses");
	for (k = 0; k < CACHE_NLEVELS; k++) {
		if (add_event(p, x, k, (uint32_t)p->nevents))
			return error("out of memory for the cache misses");
		p->nevents++;
	}
	for (v = 0; v < x->nvcpus; v++)
		for (k = 0; k < CACHE_NLEVELS; k++)
			user[k] += x->umiss[v][k];
	cachemodel_describe(&g, words, sizeof(words));
	snprintf(buf, sizeof(buf), "%s: %s; a model of one core per vCPU (its own L1I, L1D "
		 "and L2; no L3, no sharing between vCPUs), LRU, the guest's accesses in "
		 "program order (instructions by virtual, data by physical address); no "
		 "prefetcher, out-of-order or speculative access, TLB or write-backs; "
		 "in the window %llu, %llu and %llu kernel misses (L1I, L1D, L2), user "
		 "space %llu, %llu and %llu", g.name, words,
		 (unsigned long long)kernel[0], (unsigned long long)kernel[1],
		 (unsigned long long)kernel[2], (unsigned long long)user[0],
		 (unsigned long long)user[1], (unsigned long long)user[2]);
	return profile_add_condition(p, PROFILE_COND_MISS_MODEL, buf) ?
	       error("out of memory") : 0;
}
