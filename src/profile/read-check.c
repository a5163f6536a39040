// SPDX-License-Identifier: GPL-2.0-only
/* A profile's fields against each other, as record writes them. */
#include "profile/read-check.h"

#include <stddef.h>
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

static void check_samples(struct reader *r, const struct profile *p, const char *side)
{
	size_t e, i;

	for (e = 0; e < p->nevents; e++) {
		uint64_t listed = 0;

		for (i = 0; i < p->nsamples; i++)
			if (p->samples[i].event == e)
				listed += p->samples[i].count;
		if (listed > p->events[e].samples ||
		    (!listed && p->events[e].samples)) {
			reader_inconsistent(r, "%ssamples lists %llu samples of '%s', but "
					    "%scounters.events[%zu].samples says %llu "
					    "were taken", side, (unsigned long long)listed,
					    p->events[e].name, side, e,
					    (unsigned long long)p->events[e].samples);
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

void profile_check(struct reader *r, const struct profile *p, const char *side)
{
	check_latency(r, p, side);
	check_samples(r, p, side);
	if (p->version >= 2)
		check_v2(r, p, side);
}
