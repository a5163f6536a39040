// SPDX-License-Identifier: GPL-2.0-only
/* A profile's fields against each other, as record writes them. */
#include "profile/read-check.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "profile/histogram-quantile.h"

static void check_latency(struct reader *r, const struct profile *p, const char *side)
{
	static const struct { const char *name; double q; size_t off; } pct[] = {
		{ "p50", 0.50, offsetof(struct latency_summary, p50) },
		{ "p90", 0.90, offsetof(struct latency_summary, p90) },
		{ "p99", 0.99, offsetof(struct latency_summary, p99) },
		{ "p999", 0.999, offsetof(struct latency_summary, p999) },
		{ "p9999", 0.9999, offsetof(struct latency_summary, p9999) },
	};
	const struct latency_summary *l = &p->latency;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < p->nhistogram; i++)
		sum += p->histogram[i].count;
	if (sum != l->count) {
		if (!p->nhistogram)
			reader_inconsistent(r, "%sworkload.latency_histogram is empty, but "
					    "%sworkload.latency_ns.count says %llu round "
					    "trips were timed: its percentiles come from "
					    "no histogram", side, side,
					    (unsigned long long)l->count);
		else
			reader_inconsistent(r, "%sworkload.latency_histogram holds %llu "
					    "round trips, but %sworkload.latency_ns.count "
					    "says %llu", side, (unsigned long long)sum,
					    side, (unsigned long long)l->count);
		return;
	}
	/* every round trip of the built-in workload's window is timed */
	if (l->count && profile_unit_is_rt(p) && l->count != p->round_trips) {
		reader_inconsistent(r, "%sworkload.latency_ns.count is %llu, but "
				    "%sworkload.round_trips is %llu", side,
				    (unsigned long long)l->count, side,
				    (unsigned long long)p->round_trips);
		return;
	}
	if (!l->count)
		return;
	if (l->min < p->histogram[0].lo || l->min >= p->histogram[0].hi ||
	    l->max < p->histogram[p->nhistogram - 1].lo ||
	    l->max >= p->histogram[p->nhistogram - 1].hi) {
		reader_inconsistent(r, "%sworkload.latency_ns.%s is %llu ns, outside "
				    "the %s bucket of %sworkload.latency_histogram",
				    side, l->min < p->histogram[0].lo ||
				    l->min >= p->histogram[0].hi ? "min" : "max",
				    (unsigned long long)(l->min < p->histogram[0].lo ||
				    l->min >= p->histogram[0].hi ? l->min : l->max),
				    l->min < p->histogram[0].lo ||
				    l->min >= p->histogram[0].hi ? "first" : "last", side);
		return;
	}
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		uint64_t have = *(const uint64_t *)((const char *)l + pct[i].off),
			 want = profile_histogram_quantile(p->histogram, p->nhistogram,
							   l, pct[i].q);

		/* p9999 0: not stated (older profiles) */
		if (have == want || (!have && !strcmp(pct[i].name, "p9999")))
			continue;
		reader_inconsistent(r, "%sworkload.latency_ns.%s is %llu ns, but "
				    "%sworkload.latency_histogram puts it at %llu ns",
				    side, pct[i].name, (unsigned long long)have, side,
				    (unsigned long long)want);
		return;
	}
}

/*
 * A mean, a spread and percentiles of round trips timed: none below
 * zero, the mean between min and max (a merge's weighted mean too, but
 * for rounding).
 */
static int check_summary(struct reader *r, const struct latency_summary *l,
			 const char *side, const char *field)
{
	double slack = 1e-9 * (double)l->max + 1e-6;

	if (!l->count)
		return 0;
	if (l->min > l->max) {
		reader_inconsistent(r, "%s%s.min is %llu ns, above its max %llu ns",
				    side, field, (unsigned long long)l->min,
				    (unsigned long long)l->max);
		return -1;
	}
	if (!isfinite(l->mean) || l->mean < (double)l->min - slack ||
	    l->mean > (double)l->max + slack) {
		reader_inconsistent(r, "%s%s.mean is %g ns, outside its min %llu and "
				    "max %llu ns", side, field, l->mean,
				    (unsigned long long)l->min,
				    (unsigned long long)l->max);
		return -1;
	}
	if (!isfinite(l->stddev) || l->stddev < 0 ||
	    l->stddev > (double)(l->max - l->min) + slack) {
		reader_inconsistent(r, "%s%s.stddev is %g ns: no spread of round trips "
				    "between %llu and %llu ns", side, field, l->stddev,
				    (unsigned long long)l->min,
				    (unsigned long long)l->max);
		return -1;
	}
	return 0;
}

static int check_summaries(struct reader *r, const struct profile *p,
			   const char *side)
{
	char field[64];
	size_t k;

	const struct latency_summary *u = &p->latency_unsampled;

	if (check_summary(r, &p->latency, side, "workload.latency_ns"))
		return -1;
	/* the round trips no sample fell in: only a mean and a count are
	 * sure to be there */
	if (u->count && (!isfinite(u->mean) || u->mean < 0)) {
		reader_inconsistent(r, "%sworkload.latency_unsampled_ns.mean is %g "
				    "ns: a time is not below zero", side, u->mean);
		return -1;
	}
	for (k = 0; k < p->nrepeats; k++) {
		snprintf(field, sizeof(field), "workload.repeats[%zu].latency_ns", k);
		if (check_summary(r, &p->repeats[k].latency, side, field))
			return -1;
		snprintf(field, sizeof(field), "workload.repeats[%zu].latency_before_ns", k);
		if (p->repeats[k].before.count &&
		    check_summary(r, &p->repeats[k].before, side, field))
			return -1;
	}
	return 0;
}

/* The longest period a sample of event e stands for, at least: every
 * entry's weight is its samples' periods summed. */
static uint64_t longest_period(const struct profile *p, size_t e)
{
	uint64_t most = p->events[e].period;
	size_t i;

	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];

		if (s->event == e && s->count &&
		    (s->weight + s->count - 1) / s->count > most)
			most = (s->weight + s->count - 1) / s->count;
	}
	return most;
}

/*
 * What samples weigh cannot be more than what was counted meanwhile:
 * a sample is taken when its period of the count has passed. The
 * slack: the period a sample may carry past a window's end on each CPU
 * (twice), and 1/32 for counts read a little apart from the samples.
 * Less is normal (throttled, lost, multiplexed, CPUs counted but not
 * sampled), so only more is refused.
 */
static int weight_fits(uint64_t weight, uint64_t count, uint64_t period,
		       size_t ncpus)
{
	unsigned __int128 slack = (unsigned __int128)2 * period * (ncpus ? ncpus : 1);

	return weight <= (unsigned __int128)count + count / 32 + slack;
}

/*
 * A callchain is taken with a sample and counted in both, so the stacks
 * of an event hold no more samples, and weigh no more, than its samples
 * (fewer where a chain could not be read). Unchecked, one stack's
 * weight made the flame graphs, folded and --callers say 10^14 ns per
 * round trip under a text headline of 18,289.
 */
static int check_stacks(struct reader *r, const struct profile *p, size_t e,
			uint64_t samples, uint64_t weight, const char *side)
{
	uint64_t count = 0, w = 0;
	int more = 0;   /* 1: more samples than listed, 2: more weight */
	size_t i;

	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];

		if (st->event != e)
			continue;
		if (st->weight < st->count) {
			reader_inconsistent(r, "%sstacks[%zu] weighs %llu for %llu "
					    "samples of '%s': a sample stands for a "
					    "period of at least 1", side, i,
					    (unsigned long long)st->weight,
					    (unsigned long long)st->count,
					    p->events[e].name);
			return -1;
		}
		/* compared before adding: no sum can wrap */
		more = st->count > samples - count ? 1 :
		       st->weight > weight - w ? 2 : 0;
		if (more)
			break;
		count += st->count;
		w += st->weight;
	}
	if (more == 1)
		reader_inconsistent(r, "%sstacks hold more samples of '%s' than the "
				    "%llu %ssamples lists", side, p->events[e].name,
				    (unsigned long long)samples, side);
	else if (more == 2)
		reader_inconsistent(r, "%sstacks of '%s' weigh more than the %llu "
				    "its %ssamples weigh: the call paths' figures "
				    "would not be the samples'", side,
				    p->events[e].name, (unsigned long long)weight,
				    side);
	return more ? -1 : 0;
}

static void check_samples(struct reader *r, const struct profile *p, const char *side)
{
	size_t e, i, k, ncpus = p->ncpus_sampled ? p->ncpus_sampled :
				(size_t)(p->ncpus > 0 ? p->ncpus : 1);

	for (e = 0; e < p->nevents; e++) {
		uint64_t listed = 0, weight = 0, period;

		for (i = 0; i < p->nsamples; i++) {
			const struct profile_sample *s = &p->samples[i];

			if (s->event != e)
				continue;
			/* every sample's period is 1 or more */
			if (s->weight < s->count) {
				reader_inconsistent(r, "%ssamples[%zu] weighs %llu for "
						    "%llu samples of '%s': a sample "
						    "stands for a period of at least 1",
						    side, i,
						    (unsigned long long)s->weight,
						    (unsigned long long)s->count,
						    p->events[e].name);
				return;
			}
			listed += s->count;
			weight += s->weight;
		}
		/* record lists every sample it counts, no more, no fewer */
		if (listed != p->events[e].samples) {
			reader_inconsistent(r, "%ssamples lists %llu samples of '%s', but "
					    "%scounters.events[%zu].samples says %llu "
					    "were taken", side, (unsigned long long)listed,
					    p->events[e].name, side, e,
					    (unsigned long long)p->events[e].samples);
			return;
		}
		if (check_stacks(r, p, e, listed, weight, side))
			return;
		if (!listed)
			continue;
		period = longest_period(p, e);
		if (!weight_fits(weight, p->events[e].count, period,
				 ncpus * (p->nrepeats ? p->nrepeats : 1))) {
			reader_inconsistent(r, "%ssamples of '%s' weigh %llu, more than "
					    "the %llu %scounters.events[%zu].count says "
					    "were counted", side, p->events[e].name,
					    (unsigned long long)weight,
					    (unsigned long long)p->events[e].count,
					    side, e);
			return;
		}
		/* each window's samples against that window's count: windows
		 * out of order carry another window's samples */
		for (k = 0; k < p->nrepeats; k++) {
			uint64_t w = 0;

			if (!p->repeats[k].counts)
				continue;
			for (i = 0; i < p->nsamples; i++)
				if (p->samples[i].event == e && p->samples[i].repeat == k)
					w += p->samples[i].weight;
			if (weight_fits(w, p->repeats[k].counts[e], period, ncpus))
				continue;
			reader_inconsistent(r, "%sthe samples of window %zu weigh %llu "
					    "of '%s', more than the %llu "
					    "%sworkload.repeats[%zu].counts says were "
					    "counted: the windows are out of order, or "
					    "not the samples'", side, k,
					    (unsigned long long)w, p->events[e].name,
					    (unsigned long long)p->repeats[k].counts[e],
					    side, k);
			return;
		}
	}
}

/*
 * A profile whose kallsyms was read at record time (text_addr says
 * where the kernel's text starts) carries the entries its samples fall
 * in: a sample in the core kernel's text is in a function, so none at
 * all is a profile whose symbols were taken out.
 */
#define CORE_TEXT_MAX (64ULL << 20)
static void check_ksyms(struct reader *r, const struct profile *p, const char *side)
{
	size_t i;

	if (p->nksyms || !p->text_addr)
		return;
	for (i = 0; i < p->nsamples; i++) {
		uint64_t ip = p->samples[i].ip;

		if (ip >= p->text_addr && ip - p->text_addr < CORE_TEXT_MAX) {
			reader_inconsistent(r, "%skallsyms is empty, but %ssamples[%zu] "
					    "is at 0x%llx in the kernel's text (from "
					    "%ssystem.text_addr 0x%llx): a profile "
					    "recorded with kallsyms carries the "
					    "functions its samples fall in", side, side,
					    i, (unsigned long long)ip, side,
					    (unsigned long long)p->text_addr);
			return;
		}
	}
}

/* Version 2 profiles: the count of every event on every CPU sampled,
 * and the windows, which add up to the run. */
static void check_v2(struct reader *r, const struct profile *p, const char *side)
{
	uint64_t rt = 0, ns = 0;
	size_t e, i;

	for (e = 0; e < p->nevents; e++) {
		for (i = 0; i < p->ncounts; i++)
			if (p->counts[i].name && !strcmp(p->counts[i].name, p->events[e].name))
				break;
		if (i == p->ncounts) {
			reader_inconsistent(r, "%scounters.counts has no count of '%s': "
					    "a version %d profile counts every event on "
					    "every CPU sampled", side, p->events[e].name,
					    p->version);
			return;
		}
	}
	if (!p->nrepeats) {
		if (p->round_trips)
			reader_inconsistent(r, "%sworkload.repeats is empty, but "
					    "%sworkload.round_trips is %llu: a version %d "
					    "profile lists its windows", side, side,
					    (unsigned long long)p->round_trips, p->version);
		return;
	}
	for (i = 0; i < p->nrepeats; i++) {
		rt += p->repeats[i].round_trips;
		ns += p->repeats[i].window_ns;
	}
	if (rt != p->round_trips || ns != p->window_ns)
		reader_inconsistent(r, "%sworkload.repeats add up to %llu %ss in %llu "
				    "ns, but the run says %llu in %llu ns", side,
				    (unsigned long long)rt, profile_unit_name(p),
				    (unsigned long long)ns,
				    (unsigned long long)p->round_trips,
				    (unsigned long long)p->window_ns);
}

/* What an event name, as libpfm4 and perf spell them, is made of
 * ("cycles", "skl::INST_RETIRED:ANY_P:k=1", "cpu/event=0x3c/"). */
static int event_word(const char *s)
{
	return s && *s && strlen(s) < 256 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.:=,/+@-") == strlen(s);
}

static int one_of(const char *s, const char *const *words, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(s, words[i]))
			return 1;
	return 0;
}

/*
 * Fields of a known vocabulary are checked, not only escaped: a unit
 * other than event-encode.c's, a --per unit other than
 * src/system/unit.c's names (a heading says "ns per <name>") or an
 * event name of other characters is no profile perpkt wrote.
 */
static int check_words(struct reader *r, const struct profile *p,
		       const char *side)
{
	static const char *const units[] = { "ns", "cycles", "instructions",
					     "events" };
	static const char *const per[] = { "round trip", "packet",
		"udp-datagram", "tcp-segment", "irq", "transaction" };
	size_t i;

	if (p->unit.name && !one_of(p->unit.name, per, sizeof(per) / sizeof(per[0]))) {
		reader_inconsistent(r, "%sworkload.unit.name '%.40s' is not a unit "
				    "this perpkt knows (round trip, packet, "
				    "udp-datagram, tcp-segment, irq or transaction)",
				    side, p->unit.name);
		return -1;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];

		if (!one_of(e->unit, units, sizeof(units) / sizeof(units[0]))) {
			reader_inconsistent(r, "%scounters.events[%zu].unit '%.40s' is "
					    "not a unit this perpkt knows (ns, cycles, "
					    "instructions or events)", side, i,
					    e->unit ? e->unit : "");
			return -1;
		}
		if (!event_word(e->name) || !event_word(e->requested) ||
		    !event_word(e->pmu)) {
			reader_inconsistent(r, "%scounters.events[%zu]: its name, "
					    "requested name or PMU '%.40s' is no event "
					    "name (letters, digits and _.:=,/+@-)", side, i,
					    !event_word(e->name) ? e->name :
					    !event_word(e->requested) ? e->requested :
					    e->pmu);
			return -1;
		}
	}
	return 0;
}

void profile_check(struct reader *r, const struct profile *p, const char *side)
{
	if (check_words(r, p, side))
		return;
	check_latency(r, p, side);
	if (check_summaries(r, p, side))
		return;
	check_samples(r, p, side);
	check_ksyms(r, p, side);
	if (p->version >= 2)
		check_v2(r, p, side);
}
