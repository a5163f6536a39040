// SPDX-License-Identifier: GPL-2.0-only
/*
 * One profile from the windows of several runs of one configuration:
 * each run's windows become repeats of the result, so the spread across
 * runs (boots, under QEMU) is what reports and diff use.
 */
#include "profile/merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/fields.h"
#include "profile/histogram-quantile.h"
#include "profile/latency-stalls.h"

/* A sum that would wrap stays at the top, so the writer refuses it with
 * the field named (past PROFILE_INT_MAX) instead of writing a small
 * number that looks right. */
#define SUM(a, b) do {						\
	if (__builtin_add_overflow((a), (b), &(a)))		\
		(a) = UINT64_MAX;				\
} while (0)

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* What must agree for the windows to be of one configuration. */
static int comparable(const struct profile *a, const struct profile *b,
		      const char *what)
{
	size_t e;

	if (!same(a->build_id, b->build_id) || !same(a->kernel_release, b->kernel_release))
		return error("%s: another kernel (%s) than the first (%s)", what,
			     b->kernel_release ? b->kernel_release : "unknown",
			     a->kernel_release ? a->kernel_release : "unknown");
	if (!same(a->mode, b->mode) || !same(a->unit.spec, b->unit.spec) ||
	    !same(a->transport, b->transport) || !same(a->network, b->network))
		return error("%s: recorded otherwise than the first (mode, unit, "
			     "transport or network differ)", what);
	if (a->nevents != b->nevents)
		return error("%s: %zu events, the first has %zu", what, b->nevents,
			     a->nevents);
	for (e = 0; e < a->nevents; e++)
		if (strcmp(a->events[e].name, b->events[e].name))
			return error("%s: event %zu is '%s', the first's is '%s'", what,
				     e, b->events[e].name, a->events[e].name);
	if (a->text_addr != b->text_addr && a->nksyms && b->nksyms)
		return error("%s: the kernel's _text is at 0x%llx, the first's at 0x%llx "
			     "(KASLR): its addresses are not the first's", what,
			     (unsigned long long)b->text_addr,
			     (unsigned long long)a->text_addr);
	return 0;
}

static void *grow(void *v, size_t n, size_t more, size_t size)
{
	return realloc(v, (n + more ? n + more : 1) * size);
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct profile_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Kallsyms entries and modules: the union, each once. */
static int merge_symbols(struct profile *into, struct profile *from)
{
	struct profile_ksym *k = grow(into->ksyms, into->nksyms, from->nksyms,
				      sizeof(*k));
	size_t i, j, n = 0;

	if (!k)
		return -1;
	into->ksyms = k;
	memcpy(k + into->nksyms, from->ksyms, from->nksyms * sizeof(*k));
	into->nksyms += from->nksyms;
	from->nksyms = 0;  /* the names are into's now */
	qsort(k, into->nksyms, sizeof(*k), cmp_ksym);
	for (i = 0; i < into->nksyms; i++) {
		if (n && k[n - 1].addr == k[i].addr) {
			free(k[i].name);
			free(k[i].module);
			continue;
		}
		k[n++] = k[i];
	}
	into->nksyms = n;
	for (i = 0; i < from->nmodules; i++) {
		struct profile_module *m;

		for (j = 0; j < into->nmodules; j++)
			if (!strcmp(into->modules[j].name, from->modules[i].name))
				break;
		if (j < into->nmodules)
			continue;
		m = grow(into->modules, into->nmodules, 1, sizeof(*m));
		if (!m)
			return -1;
		into->modules = m;
		m[into->nmodules++] = from->modules[i];
		memset(&from->modules[i], 0, sizeof(from->modules[i]));
		from->modules[i].name = NULL;
	}
	return 0;
}

/* Samples of from's windows, numbered after into's; stacks added. */
static int merge_samples(struct profile *into, struct profile *from)
{
	struct profile_sample *s = grow(into->samples, into->nsamples,
					from->nsamples, sizeof(*s));
	struct profile_stack *st;
	size_t i;

	if (!s)
		return -1;
	into->samples = s;
	for (i = 0; i < from->nsamples; i++) {
		s[into->nsamples] = from->samples[i];
		s[into->nsamples++].repeat += (uint32_t)into->nrepeats;
	}
	profile_sort_samples(into);
	st = grow(into->stacks, into->nstacks, from->nstacks, sizeof(*st));
	if (!st)
		return -1;
	into->stacks = st;
	memcpy(st + into->nstacks, from->stacks, from->nstacks * sizeof(*st));
	into->nstacks += from->nstacks;
	from->nstacks = 0;  /* the ips are into's now */
	return 0;
}

static int merge_counts(struct profile *into, struct profile *from)
{
	struct profile_repeat *r = grow(into->repeats, into->nrepeats,
					from->nrepeats, sizeof(*r));
	size_t i, j, e;

	if (!r)
		return -1;
	into->repeats = r;
	memcpy(r + into->nrepeats, from->repeats, from->nrepeats * sizeof(*r));
	into->nrepeats += from->nrepeats;
	from->nrepeats = 0;  /* their counts are into's now */
	for (e = 0; e < into->nevents; e++) {
		struct profile_event *a = &into->events[e];
		const struct profile_event *b = &from->events[e];

		SUM(a->samples, b->samples);
		SUM(a->lost, b->lost);
		SUM(a->throttled, b->throttled);
		SUM(a->count, b->count);
		SUM(a->enabled_ns, b->enabled_ns);
		SUM(a->running_ns, b->running_ns);
	}
	for (i = 0; i < from->ncounts; i++) {
		const struct profile_count *b = &from->counts[i];

		for (j = 0; j < into->ncounts; j++) {
			struct profile_count *a = &into->counts[j];

			if (a->cpu == b->cpu && !strcmp(a->name, b->name)) {
				profile_fields_sum(a, b, profile_count_fields);
				break;
			}
		}
	}
	for (i = 0; i < from->ncpu_times; i++) {
		const struct profile_cpu *b = &from->cpu_times[i];

		for (j = 0; j < into->ncpu_times; j++) {
			struct profile_cpu *a = &into->cpu_times[j];

			if (a->cpu == b->cpu)
				profile_fields_sum(a, b, profile_cpu_fields);
		}
	}
	for (i = 0; i < from->ntasks; i++)
		for (j = 0; j < into->ntasks; j++)
			if (into->tasks[j].role == from->tasks[i].role) {
				profile_fields_sum(&into->tasks[j], &from->tasks[i],
						   profile_task_fields);
				break;
			}
	for (i = 0; i < from->nirqs; i++) {
		const struct profile_irq *b = &from->irqs[i];

		for (j = 0; j < into->nirqs; j++)
			if (into->irqs[j].cpu == b->cpu && !strcmp(into->irqs[j].kind, b->kind) &&
			    !strcmp(into->irqs[j].name, b->name))
				break;
		if (j < into->nirqs) {
			SUM(into->irqs[j].count, b->count);
		} else {
			struct profile_irq *v = grow(into->irqs, into->nirqs, 1, sizeof(*v));

			if (!v)
				return -1;
			into->irqs = v;
			v[into->nirqs++] = *b;
			from->irqs[i].kind = from->irqs[i].name = from->irqs[i].desc = NULL;
		}
	}
	return 0;
}

static int merge_latency(struct profile *into, const struct profile *from)
{
	struct latency_summary *a = &into->latency;
	const struct latency_summary *b = &from->latency;
	size_t i, j;
	double n, mean, var;

	for (i = 0; i < from->nhistogram; i++) {
		for (j = 0; j < into->nhistogram; j++)
			if (into->histogram[j].lo == from->histogram[i].lo)
				break;
		if (j < into->nhistogram) {
			SUM(into->histogram[j].count, from->histogram[i].count);
		} else {
			struct profile_hist_bucket *h = grow(into->histogram,
							     into->nhistogram, 1,
							     sizeof(*h));

			if (!h)
				return -1;
			into->histogram = h;
			h[into->nhistogram++] = from->histogram[i];
		}
	}
	for (i = 1; i < into->nhistogram; i++)  /* by lo, as written */
		for (j = i; j > 0 && into->histogram[j - 1].lo > into->histogram[j].lo; j--) {
			struct profile_hist_bucket t = into->histogram[j];

			into->histogram[j] = into->histogram[j - 1];
			into->histogram[j - 1] = t;
		}
	if (!b->count)
		return 0;
	n = (double)a->count + (double)b->count;
	mean = ((double)a->count * a->mean + (double)b->count * b->mean) / n;
	var = ((double)a->count * (a->stddev * a->stddev + (a->mean - mean) * (a->mean - mean)) +
	       (double)b->count * (b->stddev * b->stddev + (b->mean - mean) * (b->mean - mean))) / n;
	if (!a->count || b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	SUM(a->count, b->count);
	a->mean = mean;
	a->stddev = var > 0 ? sqrt(var) : 0;
	a->p50 = profile_histogram_quantile(into->histogram, into->nhistogram, a, 0.50);
	a->p90 = profile_histogram_quantile(into->histogram, into->nhistogram, a, 0.90);
	a->p99 = profile_histogram_quantile(into->histogram, into->nhistogram, a, 0.99);
	a->p999 = profile_histogram_quantile(into->histogram, into->nhistogram, a, 0.999);
	a->p9999 = profile_histogram_quantile(into->histogram, into->nhistogram, a, 0.9999);
	/* the stalls of both, over the merged p50's cut */
	a->stalls_known = 0;
	latency_set_apart_stalls_hist(a, into->histogram, into->nhistogram);
	return 0;
}

int profile_merge(struct profile *into, struct profile *from, const char *what)
{
	char side[256];

	snprintf(side, sizeof(side), "%s (the responder's side)", what);
	if (comparable(into, from, what) ||
	    (into->remote && from->remote && comparable(into->remote, from->remote, side)))
		return -1;
	/* two-host runs: each side with its own kind */
	if (into->remote && from->remote && profile_merge(into->remote, from->remote, side))
		return -1;
	if (!into->remote != !from->remote) {
		warning("%s: the responder's side is in only %s: left out of the merge",
			what, into->remote ? "the first" : "this one");
		profile_free(into->remote);
		free(into->remote);
		into->remote = NULL;
	}
	if (merge_symbols(into, from) || merge_samples(into, from) ||
	    merge_latency(into, from) || merge_counts(into, from))
		return error("out of memory merging %s", what);
	SUM(into->round_trips, from->round_trips);
	SUM(into->window_ns, from->window_ns);
	SUM(into->asked_window_ns, from->asked_window_ns);
	SUM(into->asked_ns, from->asked_ns);
	SUM(into->wall_ns, from->wall_ns);
	return 0;
}
