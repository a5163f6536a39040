// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat -r N: each figure's spread over the windows, with a
 * confidence interval of its mean, and whether the asked width was met. */
#include "reports/stat.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "reports/spread.h"

static double rts(const struct profile_repeat *rp)
{
	return (double)rp->round_trips;
}

static double lat_mean(const struct profile_repeat *rp, size_t e)
{
	return rp->latency.mean / 1e3;
}

static double lat_p50(const struct profile_repeat *rp, size_t e)
{
	return (double)rp->latency.p50 / 1e3;
}

static double lat_p99(const struct profile_repeat *rp, size_t e)
{
	return (double)rp->latency.p99 / 1e3;
}

static double rate(const struct profile_repeat *rp, size_t e)
{
	return rp->window_ns ? rts(rp) * 1e9 / (double)rp->window_ns : 0;
}

static double client_us(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 ? (double)rp->client_cpu_ns / rts(rp) / 1e3 : 0;
}

static double responder_us(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 ? (double)rp->responder_cpu_ns / rts(rp) / 1e3 : 0;
}

static double event_per_rt(const struct profile_repeat *rp, size_t e)
{
	return rts(rp) > 0 && rp->counts ? (double)rp->counts[e] / rts(rp) : 0;
}

static int add_figure(const struct profile *p, double confidence,
		      const char *label, double (*get)(const struct profile_repeat *, size_t),
		      size_t e, struct stat_figure *out)
{
	double *v = calloc(p->nrepeats, sizeof(*v));
	size_t r;

	if (!v)
		return 0;
	for (r = 0; r < p->nrepeats; r++)
		v[r] = get(&p->repeats[r], e);
	snprintf(out->name, sizeof(out->name), "%s", label);
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
	int n = 0;
	size_t e;

	if (p->nrepeats < 2 || max < 6)
		return 0;
	n += add_figure(p, confidence, "latency mean (us)", lat_mean, 0, &out[n]);
	n += add_figure(p, confidence, "latency p50 (us)", lat_p50, 0, &out[n]);
	n += add_figure(p, confidence, "latency p99 (us)", lat_p99, 0, &out[n]);
	n += add_figure(p, confidence, "round trips/s", rate, 0, &out[n]);
	if (p->ntasks) {
		n += add_figure(p, confidence, "client CPU/RT (us)", client_us, 0, &out[n]);
		n += add_figure(p, confidence, "responder CPU/RT (us)", responder_us, 0,
				&out[n]);
	}
	for (e = 0; e < p->nevents && n < max; e++) {
		char label[48];

		if (!strcmp(p->events[e].name, "cpu-clock"))
			continue;
		snprintf(label, sizeof(label), "%.40s/RT", p->events[e].name);
		n += add_figure(p, confidence, label, event_per_rt, e, &out[n]);
	}
	return n;
}

int stat_confidence_reached(const struct stat_figure *f, int n,
			    const struct stat_options *o)
{
	/* netperf's -I L,W: the whole interval within W% of the mean */
	return !n || !o->width_pct || 2 * spread_rel_pct(&f[0].s) <= o->width_pct;
}

void stat_repeats_text(FILE *f, const struct profile *p,
		       const struct stat_options *o)
{
	struct stat_figure fig[STAT_MAX_ROWS];
	int n = stat_repeat_figures(p, o->confidence, fig, STAT_MAX_ROWS), i;

	if (!n)
		return;
	fprintf(f, "\nacross %d windows: mean, sd, and the %g%% confidence\n"
		   "interval of the mean (Student t, %d degrees of freedom)\n",
		fig[0].s.n, 100 * o->confidence, fig[0].s.n - 1);
	fprintf(f, "  %-26s %11s %9s %9s %7s\n", "", "mean", "sd", "+-", "+-%");
	for (i = 0; i < n; i++)
		fprintf(f, "  %-26.26s %11.3f %9.3f %9.3f %6.2f%%\n", fig[i].name,
			fig[i].s.mean, fig[i].s.sd, fig[i].s.half,
			spread_rel_pct(&fig[i].s));
	if (!o->width_pct)
		return;
	if (stat_confidence_reached(fig, n, o))
		fprintf(f, "confidence reached: the %g%% interval of the mean latency\n"
			   "  is %.2f%% wide, within the asked %g%%\n", 100 * o->confidence,
			2 * spread_rel_pct(&fig[0].s), o->width_pct);
	else
		fprintf(f, "confidence NOT reached: the %g%% interval of the mean\n"
			   "  latency is %.2f%% wide, not within the asked %g%%: more\n"
			   "  windows (-r) or longer ones (-d) narrow it\n",
			100 * o->confidence, 2 * spread_rel_pct(&fig[0].s),
			o->width_pct);
}

json_t *stat_repeats_json(const struct profile *p, const struct stat_options *o)
{
	struct stat_figure fig[STAT_MAX_ROWS];
	int n = stat_repeat_figures(p, o->confidence, fig, STAT_MAX_ROWS), i;
	json_t *a, *root;

	if (!n)
		return json_null();
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:f, s:f}",
			"name", fig[i].name, "mean", fig[i].s.mean,
			"sd", fig[i].s.sd, "ci_half_width", fig[i].s.half,
			"ci_half_width_pct", spread_rel_pct(&fig[i].s)));
	root = json_pack("{s:i, s:f, s:o}", "windows", fig[0].s.n,
			 "confidence", o->confidence, "figures", a);
	if (root && o->width_pct) {
		json_object_set_new(root, "asked_width_pct", json_real(o->width_pct));
		json_object_set_new(root, "reached",
				    json_boolean(stat_confidence_reached(fig, n, o)));
	}
	return root;
}
