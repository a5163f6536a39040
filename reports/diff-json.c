// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as JSON (jansson, whole document or nothing). */
#include "reports/renderers.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff.h"

#define DIFF_JSON_VERSION 1

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

static json_t *cmp_json(const struct diff_cmp *c, int *bad)
{
	json_t *o = json_object();

	if (!o)
		*bad = 1;
	set(o, "delta", json_real(c->delta), bad);
	set(o, "rel", num(c->rel), bad);
	set(o, "sigma", json_real(c->sigma), bad);
	set(o, "mark", json_string(diff_mark(c->mark)), bad);
	set(o, "test", json_string(c->from_repeats ? "welch" : "poisson"), bad);
	return o;
}

static json_t *row_json(const struct diff *d, const struct diff_row *r,
			int *bad)
{
	json_t *o = json_object(), *vals = json_array(), *sd = json_array(),
	       *pres = json_array(), *cmps = json_array();
	size_t i;

	if (!o)
		*bad = 1;
	set(o, "name", json_string(r->name), bad);
	set(o, "bucket", r->bucket ? json_string(r->bucket) : json_null(), bad);
	for (i = 0; i < d->n; i++) {
		push(vals, json_real(r->cell[i].value), bad);
		push(sd, r->cell[i].rep ? json_real(r->cell[i].sd) :
		     json_null(), bad);
		push(pres, json_boolean(r->cell[i].present), bad);
		push(cmps, i ? cmp_json(&r->cmp[i], bad) : json_null(), bad);
	}
	set(o, "values", vals, bad);
	set(o, "spread", sd, bad);
	set(o, "present", pres, bad);
	set(o, "vs_baseline", cmps, bad);
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
		const struct profile *p = dp->m->profile;
		json_t *o = json_object();

		if (!o)
			*bad = 1;
		set(o, "path", json_string(dp->path), bad);
		set(o, "label", json_string(dp->label), bad);
		set(o, "mode", p->mode ? json_string(p->mode) : json_null(), bad);
		set(o, "unit", json_string(dp->unit_from), bad);
		set(o, "scale", json_real(dp->scale), bad);
		set(o, "repeats", json_integer(dp->m->nrepeats), bad);
		set(o, "round_trips", json_integer((json_int_t)p->round_trips),
		    bad);
		set(o, "transport", p->transport ? json_string(p->transport) :
		    json_null(), bad);
		set(o, "message_size", json_integer(p->message_size), bad);
		set(o, "latency_ns", dp->latency >= 0 ?
		    json_real(dp->latency) : json_null(), bad);
		push(a, o, bad);
	}
	return a;
}

static json_t *build(const struct diff *d, int *bad)
{
	json_t *root = json_object(), *a, *o;
	size_t i;

	if (!root) {
		*bad = 1;
		return NULL;
	}
	set(root, "format", json_string("perpkt-diff"), bad);
	set(root, "version", json_integer(DIFF_JSON_VERSION), bad);
	set(root, "unit", json_string(d->unit), bad);
	set(root, "by", json_string(model_by_name(d->by)), bad);
	set(root, "profiles", profiles_json(d, bad), bad);
	a = json_array();
	for (i = 0; i < d->nwarnings; i++)
		push(a, json_string(d->warnings[i]), bad);
	set(root, "warnings", a, bad);
	o = json_object();
	set(o, "*", json_real(DIFF_SIGMA_1), bad);
	set(o, "**", json_real(DIFF_SIGMA_2), bad);
	set(root, "marks_sigma", o, bad);
	a = json_array();
	for (i = 0; i < d->n; i++)
		push(a, i && d->latency[i].rel != DIFF_NO_REL ?
		     cmp_json(&d->latency[i], bad) : json_null(), bad);
	set(root, "latency", a, bad);
	set(root, "functions", view_json(d, &d->functions, bad), bad);
	set(root, "buckets", view_json(d, &d->buckets, bad), bad);
	set(root, "total", row_json(d, &d->total, bad), bad);
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
