// SPDX-License-Identifier: GPL-2.0-only
#include "reports/table/table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "stats/stats.h"
#include "symbolize/symbolize.h"

enum tv_kind { TV_LATENCY, TV_P50, TV_P99, TV_TOTAL, TV_BUSY, TV_BUCKET, TV_FUNCTION };

struct tv {
	enum tv_kind kind;
	const char *name;
};

static int tv_parse(const char *s, struct tv *v)
{
	v->name = NULL;
	if (!strcmp(s, "latency"))
		v->kind = TV_LATENCY;
	else if (!strcmp(s, "latency-p50"))
		v->kind = TV_P50;
	else if (!strcmp(s, "latency-p99"))
		v->kind = TV_P99;
	else if (!strcmp(s, "total"))
		v->kind = TV_TOTAL;
	else if (!strcmp(s, "busy"))
		v->kind = TV_BUSY;
	else if (!strncmp(s, "bucket:", 7) && s[7])
		v->kind = TV_BUCKET, v->name = s + 7;
	else if (!strncmp(s, "function:", 9) && s[9])
		v->kind = TV_FUNCTION, v->name = s + 9;
	else
		return -1;
	return 0;
}

int table_value_check(const char *value)
{
	struct tv v;

	return tv_parse(value, &v);
}

static int pick_event(const struct model *m)
{
	if (m->time_event >= 0)
		return m->time_event;
	return m->cycles_event >= 0 ? m->cycles_event : 0;
}

/* Latency of window k in us, NAN when not measured. */
static double latency_us(const struct model *m, size_t k, enum tv_kind kind)
{
	const struct profile *p = m->profile;
	const struct latency_summary *l = m->nrepeats > 1 ?
		&p->repeats[k].latency : &p->latency;

	if (!l->count)
		return NAN;
	return (kind == TV_P50 ? (double)l->p50 : kind == TV_P99 ?
		(double)l->p99 : l->mean) / 1e3;
}

/* Value of window k from the model rows: several function rows can
 * share a folded name (static functions in different files). */
static double row_value(const struct model *m, const struct tv *v, int e,
			size_t k)
{
	const struct model_row *r;
	double sum = 0;
	char buf[512];
	size_t i;

	switch (v->kind) {
	case TV_TOTAL:
		return model_repeat_value(m, &m->total, e, k);
	case TV_BUSY:
		return model_repeat_value(m, &m->busy, e, k);
	case TV_BUCKET:
		r = model_bucket(m, v->name);
		return r ? model_repeat_value(m, r, e, k) : 0;
	default:
		symbol_fold(v->name, buf, sizeof(buf));
		for (i = 0; i < m->nfunctions; i++)
			if (!strcmp(m->functions[i].name, buf))
				sum += model_repeat_value(m, &m->functions[i],
							  e, k);
		return sum;
	}
}

static void row_stats(struct table_row *r)
{
	struct spread s;

	/* a NaN is a profile without the value */
	spread_of(r->vals, (int)r->nvals, 0, &s);
	r->mean = s.n ? s.mean : NAN;
	r->sd = s.n > 1 ? s.sd : -1;
}

int table_build(struct table *t, const struct model *const *m,
		const size_t *per_row, const char *const *labels, size_t n,
		const char *value)
{
	struct tv v;
	size_t i, k, g, at = 0, nm = 0;

	for (i = 0; i < n; i++)
		nm += per_row ? per_row[i] : 1;

	memset(t, 0, sizeof(*t));
	if (tv_parse(value, &v))
		return error("unknown table value '%s'", value);
	/* one column holds values per one unit: packets beside round trips
	 * would compare nothing */
	for (i = 0; i < nm; i++) {
		const struct profile *p = m[i]->profile;

		if (!t->per[0])
			snprintf(t->per, sizeof(t->per), "%s", profile_unit_name(p));
		else if (strcmp(t->per, profile_unit_name(p)))
			return error("cannot put values per %s and per %s in one table: record them with the same --per",
				     t->per, profile_unit_name(p));
	}
	if (v.kind == TV_LATENCY || v.kind == TV_P50 || v.kind == TV_P99) {
		snprintf(t->unit, sizeof(t->unit), "us");
	} else {
		for (i = 0; i < nm; i++) {
			const struct profile *p = m[i]->profile;
			const char *u;

			if (!p->nevents)
				return error("a profile of the table has no events");
			u = p->events[pick_event(m[i])].unit;
			if (!t->unit[0])
				snprintf(t->unit, sizeof(t->unit), "%s", u);
			else if (strcmp(t->unit, u))
				return error("cannot put %s and %s in one column: the profiles measured different events",
					     u, t->unit);
		}
	}
	if (asprintf(&t->title, "%s%s%s",
		     v.kind == TV_LATENCY ? "latency mean" :
		     v.kind == TV_P50 ? "latency p50" :
		     v.kind == TV_P99 ? "latency p99" :
		     v.kind == TV_TOTAL ? "kernel total" :
		     v.kind == TV_BUSY ? "kernel busy" :
		     v.kind == TV_BUCKET ? "bucket" : "function",
		     v.name ? " " : "", v.name ? v.name : "") < 0) {
		t->title = NULL;
		return error("out of memory");
	}
	t->rows = calloc(n ? n : 1, sizeof(*t->rows));
	if (!t->rows)
		return error("out of memory");
	for (i = 0; i < n; i++) {
		struct table_row *r = &t->rows[i];
		size_t ng = per_row ? per_row[i] : 1;

		t->n++;
		r->label = strdup(labels[i]);
		for (g = 0; g < ng; g++)
			r->nvals += m[at + g]->nrepeats;
		r->vals = calloc(r->nvals ? r->nvals : 1, sizeof(*r->vals));
		if (!r->label || !r->vals)
			return error("out of memory");
		r->nvals = 0;
		for (g = 0; g < ng; g++) {
			const struct model *mi = m[at + g];

			for (k = 0; k < (size_t)mi->nrepeats; k++) {
				double *x = &r->vals[r->nvals++];

				const struct profile *pi = mi->profile;

				/* windows cut short stay out unless asked for */
				if (mi->nrepeats > 1 && !profile_repeat_used(pi, k))
					*x = NAN;
				else if (v.kind == TV_LATENCY || v.kind == TV_P50 ||
					 v.kind == TV_P99)
					*x = latency_us(mi, k, v.kind);
				else
					*x = row_value(mi, &v, pick_event(mi), k);
			}
		}
		at += ng;
		row_stats(r);
		if (r->nvals > t->ncols)
			t->ncols = r->nvals;
	}
	return 0;
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->rows[i].label);
		free(t->rows[i].vals);
	}
	free(t->rows);
	free(t->title);
	memset(t, 0, sizeof(*t));
}

/* Latency in us with the threads' precision; per-RT values in tenths. */
void table_fmt(char *buf, size_t len, const struct table *t, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, !strcmp(t->unit, "us") ? "%.3f" : "%.1f", v);
}
