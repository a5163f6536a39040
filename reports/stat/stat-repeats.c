// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat -r N: each figure's spread over the windows, with a
 * confidence interval of its mean, and whether the asked width was met. */
#include "reports/stat/stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

static double rts(const struct profile_repeat *rp)
{
	return (double)rp->round_trips;
}

static double lat_mean(const struct profile_repeat *rp, size_t e)
{
	return rp->latency.mean;
}

static double lat_p50(const struct profile_repeat *rp, size_t e)
{
	return (double)rp->latency.p50;
}

static double lat_p99(const struct profile_repeat *rp, size_t e)
{
	return (double)rp->latency.p99;
}

static double rate(const struct profile_repeat *rp, size_t e)
{
	return rp->window_ns ? rts(rp) * 1e9 / (double)rp->window_ns : 0;
}

static double client_ns(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 ? (double)rp->client_cpu_ns / rts(rp) : 0;
}

static double responder_ns(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 ? (double)rp->responder_cpu_ns / rts(rp) : 0;
}

static double event_per_rt(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 && rp->counts ? (double)rp->counts[e] / rts(rp) : 0;
}

/* A figure's JSON name, its text label and whether it is a time (ns,
 * shown in us); the event index for event_per_rt. */
struct figure_spec {
	const char *name, *label;
	int is_time;
	double (*get)(const struct profile_repeat *, size_t);
};

static int add_figure(const struct profile *p, double confidence,
		      const struct figure_spec *f, size_t e,
		      struct stat_figure *out)
{
	double *v = calloc(p->nrepeats, sizeof(*v));
	size_t r;

	if (!v)
		return 0;
	for (r = 0; r < p->nrepeats; r++)
		v[r] = f->get(&p->repeats[r], e);
	snprintf(out->name, sizeof(out->name), "%s", f->name);
	snprintf(out->label, sizeof(out->label), "%s", f->label);
	out->text_scale = f->is_time ? 1e3 : 1;
	spread_of(v, (int)p->nrepeats, confidence, &out->s);
	free(v);
	return 1;
}

/* The figures followed across windows: latency, CPU time per round trip,
 * and each counted event per round trip (cpu-clock counts idle too). The
 * mean latency comes first: it is the one --confidence checks. */
int stat_repeat_figures(const struct profile *p, double confidence,
			struct stat_figure *out, int max)
{
	static const struct figure_spec fixed[] = {
		{ "latency_ns.mean", "latency mean (us)", 1, lat_mean },
		{ "latency_ns.p50", "latency p50 (us)", 1, lat_p50 },
		{ "latency_ns.p99", "latency p99 (us)", 1, lat_p99 },
		{ "round_trips_per_s", "round trips/s", 0, rate },
		/* the tasks' CPU time: only when the profile has tasks */
		{ "decomposition.client_ns", "client CPU/RT (us)", 1, client_ns },
		{ "decomposition.responder_ns", "responder CPU/RT (us)", 1, responder_ns },
	};
	size_t nfixed = p->ntasks ? 6 : 4, e;
	int n = 0;

	if (p->nrepeats < 2 || max < 6)
		return 0;
	for (e = 0; e < nfixed; e++)
		n += add_figure(p, confidence, &fixed[e], 0, &out[n]);
	for (e = 0; e < p->nevents && n < max; e++) {
		char name[48], label[48];
		struct figure_spec f = { name, label, 0, event_per_rt };

		if (!strcmp(p->events[e].name, "cpu-clock"))
			continue;
		snprintf(name, sizeof(name), "per_rt.%.40s", p->events[e].name);
		snprintf(label, sizeof(label), "%.40s/RT", p->events[e].name);
		n += add_figure(p, confidence, &f, e, &out[n]);
	}
	return n;
}

int stat_confidence_reached(const struct stat_figure *f, int n,
			    const struct stat_options *o)
{
	/* netperf's -I L,W: the whole interval within W% of the mean */
	return !n || !o->width_pct || 2 * spread_rel_pct(&f[0].s) <= o->width_pct;
}

int stat_figures(const struct stat_model *m, struct stat_figure *out)
{
	int i;

	for (i = 0; i < m->nfigures; i++) {
		out[i] = m->figures[i];
		spread_at(&out[i].s, m->rep.confidence);
	}
	return m->nfigures;
}
