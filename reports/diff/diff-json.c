// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as JSON (jansson, whole document or nothing). */
#include "reports/render/renderers.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"
#include "reports/render/json-common.h"

#define DIFF_JSON_VERSION 3

static void set(json_t *o, const char *k, json_t *v, int *bad)
{
	if (!v || json_object_set_new(o, k, v))
		*bad = 1;
}

static void push(json_t *a, json_t *v, int *bad)
{
	if (!a || !v || json_array_append_new(a, v))
		*bad = 1;
}

/* A number, or null for the "no value" markers. */
static json_t *num(double v)
{
	return isfinite(v) && v != DIFF_NO_REL ? json_real(v) : json_null();
}

/*
 * The comparisons against the baseline, as arrays indexed like
 * "profiles": element 0 (the baseline itself) is null. A row and the
 * latency share them, so one jq path reads both: .delta[1], .rel[1].
 */
static void cmps_json(json_t *o, const struct diff *d,
		      const struct diff_cmp *c, int *bad)
{
	json_t *delta = json_array(), *rel = json_array(),
	       *sigma = json_array(), *mark = json_array(),
	       *test = json_array(), *p = json_array(), *q = json_array(),
	       *df = json_array();
	size_t i;

	for (i = 0; i < d->n; i++) {
		int have = i && c[i].rel != DIFF_NO_REL;

		push(delta, i ? json_real(c[i].delta) : json_null(), bad);
		push(rel, have ? num(c[i].rel) : json_null(), bad);
		push(sigma, i ? json_real(c[i].sigma) : json_null(), bad);
		push(mark, i ? json_string(diff_mark(c[i].mark)) : json_null(),
		     bad);
		push(test, i ? json_string(!c[i].from_repeats ? "none" :
					   diff_deterministic(d) ? "exact" :
					   d->paired ? "paired" : "welch") :
		     json_null(), bad);
		push(p, i && c[i].from_repeats ? num(c[i].p) : json_null(), bad);
		push(q, i && c[i].from_repeats && !isnan(c[i].q) ? num(c[i].q) :
		     json_null(), bad);
		push(df, i && c[i].from_repeats && !diff_deterministic(d) ?
		     num(c[i].df) : json_null(), bad);
	}
	set(o, "delta", delta, bad);
	set(o, "rel", rel, bad);
	set(o, "sigma", sigma, bad);
	set(o, "mark", mark, bad);
	set(o, "test", test, bad);
	set(o, "p", p, bad);
	set(o, "q", q, bad);
	set(o, "df", df, bad);
}

/* The host's speed before the windows: each side's mean and B's
 * change against A's, as the latency's. */
static json_t *host_json(const struct diff *d, int *bad)
{
	static const char *const names[] = { "syscall", "loop" };
	json_t *o = json_object();
	size_t q, i;

	for (q = 0; q < 2; q++) {
		json_t *h = json_object(), *ns = json_array();

		for (i = 0; i < d->n; i++)
			push(ns, json_real(d->host[q][i]), bad);
		set(h, "mean_ns", ns, bad);
		cmps_json(h, d, d->host_cmp[q], bad);
		set(o, names[q], h, bad);
	}
	return o;
}

/* What a mark stands on, stated once for every row and figure. */
static json_t *marks_json(const struct diff *d, int *bad)
{
	json_t *o = json_object(), *fdr = json_object(), *tested = json_array();
	size_t i;

	set(o, "basis", json_string(diff_sig_basis(d)), bad);
	set(o, "test", json_string(diff_deterministic(d) ? "exact" :
				   d->untested ? "none" : d->paired ? "paired" :
				   "welch"), bad);
	set(o, "untested", d->untested ? json_string(d->untested) : json_null(),
	    bad);
	set(fdr, "*", json_real(DIFF_FDR_1), bad);
	set(fdr, "**", json_real(DIFF_FDR_2), bad);
	set(o, "fdr", fdr, bad);
	set(o, "control", json_string("benjamini-hochberg"), bad);
	set(o, "floor_share_of_busy", json_real(diff_floor(d)), bad);
	set(o, "floor_share_of_latency", json_real(diff_floor_latency(d)), bad);
	for (i = 0; i < d->n; i++)
		push(tested, i ? json_integer((json_int_t)d->tested[i]) :
		     json_null(), bad);
	set(o, "tested", tested, bad);
	return o;
}

static json_t *row_json(const struct diff *d, const struct diff_row *r,
			int *bad)
{
	json_t *o = json_object(), *vals = json_array(), *err = json_array(),
	       *sd = json_array(), *pres = json_array(), *reps = json_array(),
	       *calls = json_array(), *per_call = json_array(), *incl = json_array();
	int any_calls = 0, any_incl = 0;
	size_t i, k;

	if (!o)
		*bad = 1;
	set(o, "name", json_string(r->name), bad);
	set(o, "bucket", r->bucket ? json_string(r->bucket) : json_null(), bad);
	for (i = 0; i < d->n; i++) {
		const struct diff_cell *c = &r->cell[i];
		json_t *rep = c->rep ? json_array() : json_null();

		push(vals, json_real(c->value), bad);
		push(err, json_real(c->err), bad);
		push(sd, c->rep ? json_real(c->sd) : json_null(), bad);
		push(pres, json_boolean(c->present), bad);
		any_calls |= c->calls_known;
		any_incl |= c->incl_known;
		push(calls, c->calls_known ? json_real(c->calls) : json_null(), bad);
		push(per_call, diff_per_call(c) >= 0 ? json_real(diff_per_call(c)) :
		     json_null(), bad);
		push(incl, c->incl_known ? json_real(c->incl) : json_null(), bad);
		for (k = 0; c->rep && k < c->nrep; k++)
			push(rep, json_real(c->rep[k]), bad);
		push(reps, rep, bad);
	}
	/* one element per profile, in the diff's unit per round trip */
	set(o, "per_rt", vals, bad);
	set(o, "error", err, bad);
	set(o, "spread", sd, bad);
	set(o, "per_repeat", reps, bad);
	set(o, "present", pres, bad);
	/* exact profiles: entries per round trip, instructions per entry,
	 * inclusive instructions (function rows with call paths) */
	if (any_calls) {
		set(o, "calls_per_rt", calls, bad);
		set(o, "per_call", per_call, bad);
	} else {
		json_decref(calls);
		json_decref(per_call);
	}
	if (any_incl)
		set(o, "inclusive_per_rt", incl, bad);
	else
		json_decref(incl);
	/* exact profiles with a cache model: misses per round trip by level */
	for (i = 0; i < d->n && !r->cell[i].misses_known; i++)
		;
	if (i < d->n) {
		json_t *m = json_object();

		for (k = 0; k < 3; k++) {
			json_t *a = json_array();

			for (i = 0; i < d->n; i++)
				push(a, r->cell[i].misses_known ?
				     json_real(r->cell[i].misses[k]) : json_null(), bad);
			set(m, diff_miss_names[k], a, bad);
		}
		set(o, "misses_per_rt", m, bad);
	}
	cmps_json(o, d, r->cmp, bad);
	return o;
}

/* every profile with a cache model: the total's misses compared, and
 * the kind of each change */
static json_t *misses_json(const struct diff *d, int *bad)
{
	json_t *o = json_object(), *kind = json_array(), *words = json_array();
	size_t i, k;

	for (k = 0; k < 3; k++) {
		json_t *lk = json_object(), *a = json_array();

		for (i = 0; i < d->n; i++)
			push(a, json_real(d->total.cell[i].misses[k]), bad);
		set(lk, "per_rt", a, bad);
		cmps_json(lk, d, d->misses[k], bad);
		set(o, diff_miss_names[k], lk, bad);
	}
	push(kind, json_null(), bad);
	push(words, json_null(), bad);
	for (i = 1; i < d->n; i++) {
		char buf[512];

		diff_change_words(d, i, buf, sizeof(buf));
		push(kind, json_string(diff_change_name(d->change[i])), bad);
		push(words, json_string(buf), bad);
	}
	set(o, "change", kind, bad);
	set(o, "change_words", words, bad);
	return o;
}

static json_t *view_json(const struct diff *d, const struct diff_view *v,
			 int *bad)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < v->shown; i++)
		push(a, row_json(d, &v->rows[i], bad), bad);
	if (v->shown < v->n)
		push(a, row_json(d, &v->other, bad), bad);
	return a;
}

static json_t *profiles_json(const struct diff *d, int *bad)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct diff_profile *dp = &d->prof[i];
		const struct run_facts *run = &dp->m->run;
		json_t *o = json_object();

		if (!o)
			*bad = 1;
		set(o, "path", json_string(dp->path), bad);
		set(o, "label", json_string(dp->label), bad);
		set(o, "mode", run->mode ? json_string(run->mode) : json_null(), bad);
		set(o, "unit", json_string(dp->unit_from), bad);
		set(o, "scale", json_real(dp->scale), bad);
		set(o, "repeats", json_integer(dp->m->nrepeats), bad);
		set(o, "round_trips", json_integer((json_int_t)run->round_trips),
		    bad);
		set(o, "transport", run->transport ? json_string(run->transport) :
		    json_null(), bad);
		set(o, "message_size", json_integer(run->message_size), bad);
		push(a, o, bad);
	}
	return a;
}

/* What differs between the profiles: one object per condition, its
 * value in each profile in order, and for how they were recorded what
 * the difference does to the figures ("effect"). */
static json_t *conditions_json(const struct diff *d, int *bad)
{
	const struct diff_conditions *c = d->conds;
	json_t *a = json_array(), *o, *v;
	size_t r, i;

	for (r = 0; c && r < c->n; r++) {
		o = json_object();
		v = json_array();
		set(o, "condition", json_string(c->rows[r].what), bad);
		set(o, "key", json_string(c->rows[r].key), bad);
		for (i = 0; i < d->n; i++)
			push(v, json_string(c->rows[r].value[i]), bad);
		set(o, "values", v, bad);
		if (c->rows[r].effect)
			set(o, "effect", json_string(c->rows[r].effect), bad);
		push(a, o, bad);
	}
	return a;
}

static json_t *build(const struct diff *d, int *bad)
{
	json_t *root = json_object(), *a, *o;
	size_t i, k;

	if (!root) {
		*bad = 1;
		return NULL;
	}
	set(root, "format", json_string("perpkt-diff"), bad);
	set(root, "version", json_integer(DIFF_JSON_VERSION), bad);
	/* every per_rt of the diff is in units.primary */
	set(root, "units", render_json_units(d->unit,
					     d->prof[0].m->run.unit.name), bad);
	set(root, "by", json_string(model_by_name(d->by)), bad);
	set(root, "profiles", profiles_json(d, bad), bad);
	a = json_array();
	for (i = 0; i < d->nwarnings; i++)
		push(a, json_string(d->warnings[i]), bad);
	set(root, "warnings", a, bad);
	set(root, "conditions_differ", conditions_json(d, bad), bad);
	set(root, "marks", marks_json(d, bad), bad);
	if (d->have_host)
		set(root, "host_speed", host_json(d, bad), bad);
	/* mean round-trip latency of each profile, ns, and its changes */
	o = json_object();
	a = json_array();
	for (i = 0; i < d->n; i++)
		push(a, d->prof[i].latency >= 0 ? json_real(d->prof[i].latency) :
		     json_null(), bad);
	set(o, "mean_ns", a, bad);
	/* what mean_ns is: the stalls set apart, as in the reports */
	set(o, "basis", json_string(d->stalls_apart ? "mean without stalls" :
				    "mean"), bad);
	a = json_array();
	for (i = 0; i < d->n; i++)
		push(a, d->stalls_apart ?
		     json_integer((json_int_t)d->prof[i].m->run.latency.stalls) :
		     json_null(), bad);
	set(o, "stalls", a, bad);
	cmps_json(o, d, d->latency, bad);
	set(root, "latency", o, bad);
	/* the same for p50 ... p999: each profile's value and its changes */
	o = json_object();
	for (k = 0; k < DIFF_NPCT; k++) {
		json_t *pk = json_object();

		a = json_array();
		for (i = 0; i < d->n; i++)
			push(a, d->prof[i].pct[k] >= 0 ? json_real(d->prof[i].pct[k]) :
			     json_null(), bad);
		set(pk, "ns", a, bad);
		cmps_json(pk, d, d->pct[k], bad);
		set(o, diff_pct_names[k], pk, bad);
	}
	set(root, "latency_percentiles", o, bad);
	set(root, "functions", view_json(d, &d->functions, bad), bad);
	set(root, "buckets", view_json(d, &d->buckets, bad), bad);
	if (d->by == MODEL_BY_LINE)
		set(root, "lines", view_json(d, &d->lines, bad), bad);
	set(root, "total", row_json(d, &d->total, bad), bad);
	if (d->misses_known)
		set(root, "misses", misses_json(d, bad), bad);
	set(root, "busy", row_json(d, &d->busy, bad), bad);
	return root;
}

int diff_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	int bad = 0, ret;
	json_t *root = build(d, &bad);

	if (bad || !root) {
		json_decref(root);
		return error("cannot build the JSON diff: out of memory");
	}
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF || fflush(f) || ferror(f))
		return error("cannot write JSON diff: %s", strerror(errno));
	return 0;
}
