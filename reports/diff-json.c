// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as JSON (jansson, whole document or nothing), CSV and
 * folded stacks with two counts (difffolded.pl, flamegraph.pl). */
#include "reports/diff.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define DIFF_JSON_VERSION 1
#define FOLDED_SCALE 1000.0

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

int diff_json(FILE *f, const struct diff *d)
{
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

/* RFC 4180: quote when needed, double the quotes. */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const struct diff *d, const char *kind,
		    const struct diff_row *r)
{
	size_t i;

	fprintf(f, "%s,", kind);
	csv_str(f, r->name);
	fputc(',', f);
	csv_str(f, r->bucket ? r->bucket : "");
	for (i = 0; i < d->n; i++)
		fprintf(f, ",%.6g", r->cell[i].value);
	for (i = 1; i < d->n; i++) {
		fprintf(f, ",%.6g,", r->cmp[i].delta);
		if (r->cmp[i].rel != DIFF_NO_REL)
			fprintf(f, "%.6g", r->cmp[i].rel);
		fprintf(f, ",%.6g,%s", r->cmp[i].sigma,
			diff_mark(r->cmp[i].mark));
	}
	fputc('\n', f);
}

int diff_csv(FILE *f, const struct diff *d)
{
	const struct diff_view *v = diff_view(d);
	size_t i;

	fprintf(f, "kind,name,bucket");
	for (i = 0; i < d->n; i++)
		fprintf(f, ",%c_%s_per_rt", (char)('A' + i), d->unit);
	for (i = 1; i < d->n; i++)
		fprintf(f, ",%c_delta,%c_rel,%c_sigma,%c_mark", (char)('A' + i),
			(char)('A' + i), (char)('A' + i), (char)('A' + i));
	fputc('\n', f);
	for (i = 0; i < v->shown; i++)
		csv_row(f, d, model_by_name(d->by), &v->rows[i]);
	if (v->shown < v->n)
		csv_row(f, d, "other", &v->other);
	csv_row(f, d, "total", &d->total);
	csv_row(f, d, "busy", &d->busy);
	if (fflush(f) || ferror(f))
		return error("cannot write CSV diff: %s", strerror(errno));
	return 0;
}

/* One folded line on its way out: sorted by frames to merge sides. */
struct fline {
	char *frames;
	size_t side;
	double value;
};

static int cmp_fline(const void *pa, const void *pb)
{
	const struct fline *a = pa, *b = pb;

	return strcmp(a->frames, b->frames);
}

/* Frames with aliases applied and spaces made underscores
 * (flamegraph.pl splits counts off at spaces). */
static char *frames_of(const struct diff *d, const char *frames)
{
	char *out = NULL, *copy = strdup(frames), *tok, *save = NULL;
	size_t len = 0;
	FILE *f;

	if (!copy)
		return NULL;
	f = open_memstream(&out, &len);
	if (!f) {
		free(copy);
		return NULL;
	}
	for (tok = strtok_r(copy, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		const char *n = diff_alias(d, tok);

		if (ftell(f))
			fputc(';', f);
		for (; *n; n++)
			fputc(*n == ' ' ? '_' : *n, f);
	}
	fclose(f);
	free(copy);
	return out;
}

int diff_folded(FILE *f, const struct diff *d, double *scale)
{
	int stacks = d->prof[0].m->nstacks && d->prof[1].m->nstacks;
	struct fline *l;
	size_t n = 0, cap = 0, i, s, j;
	int ret = -1;

	*scale = FOLDED_SCALE;
	for (s = 0; s < 2; s++)
		cap += stacks ? d->prof[s].m->nstacks : d->prof[s].m->nfunctions;
	l = calloc(cap ? cap : 1, sizeof(*l));
	if (!l)
		return error("out of memory");
	for (s = 0; s < 2; s++) {
		const struct diff_profile *dp = &d->prof[s];
		const struct model *m = dp->m;

		for (i = 0; i < (stacks ? m->nstacks : m->nfunctions); i++) {
			char buf[1024];
			const struct model_row *r = &m->functions[i];

			if (stacks) {
				l[n].frames = frames_of(d, m->stacks[i].frames);
				/* stacks carry the first event only */
				l[n].value = m->stacks[i].per_rt * dp->scale;
			} else {
				snprintf(buf, sizeof(buf), "%s;%s",
					 r->bucket ? r->bucket : "other",
					 r->name);
				l[n].frames = frames_of(d, buf);
				l[n].value = r->per_rt[dp->event] * dp->scale;
			}
			l[n].side = s;
			if (!l[n++].frames)
				goto out;
		}
	}
	if (n > 1)
		qsort(l, n, sizeof(*l), cmp_fline);
	for (i = 0; i < n; i = j) {
		double v[2] = { 0, 0 };

		for (j = i; j < n && !strcmp(l[j].frames, l[i].frames); j++)
			v[l[j].side] += l[j].value;
		if (llround(v[0] * FOLDED_SCALE) || llround(v[1] * FOLDED_SCALE))
			fprintf(f, "%s %lld %lld\n", l[i].frames,
				llround(v[0] * FOLDED_SCALE),
				llround(v[1] * FOLDED_SCALE));
	}
	ret = 0;
	if (fflush(f) || ferror(f))
		ret = error("cannot write folded diff: %s", strerror(errno));
out:
	if (ret && n && !l[n - 1].frames)
		error("out of memory");
	for (i = 0; i < n; i++)
		free(l[i].frames);
	free(l);
	return ret;
}
