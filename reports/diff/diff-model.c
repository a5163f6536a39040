// SPDX-License-Identifier: GPL-2.0-only
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"
#include "reports/diff/diff-latency.h"
#include "reports/diff/diff-significance.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"
#include "stats/stats.h"

/* One model row on its way into a diff row: sorted by key to group. */
struct entry {
	char *key;
	size_t prof;
	const struct model_row *row;
};

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	return (a->prof > b->prof) - (a->prof < b->prof);
}

const char *diff_mark(int mark)
{
	return mark >= 2 ? "**" : mark == 1 ? "*" : "";
}

const struct diff_view *diff_view(const struct diff *d)
{
	return d->by == MODEL_BY_BUCKET ? &d->buckets :
	       d->by == MODEL_BY_LINE ? &d->lines : &d->functions;
}

const struct diff_row *diff_find(const struct diff_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->rows[i].name, name))
			return &v->rows[i];
	return NULL;
}

static void warn_add(struct diff *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_add(struct diff *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (d->nwarnings >= sizeof(d->warnings) / sizeof(d->warnings[0]))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		d->warnings[d->nwarnings++] = s;
	va_end(ap);
}

/* Functions are matched by folded name (so .isra.0 and .constprop.0
 * meet), then by alias, and stay apart per module. */
static char *function_key(const struct diff *d, const struct model_row *r)
{
	char buf[512];
	const char *name;
	char *key;

	name = diff_match_name(d, r->name, buf, sizeof(buf));
	if (r->module) {
		if (asprintf(&key, "%s [%s]", name, r->module) < 0)
			return NULL;
		return key;
	}
	return strdup(name);
}

static void cell_add(struct diff_cell *c, const struct diff_profile *dp,
		     const struct model_row *r)
{
	const struct model *m = dp->m;
	size_t k;

	c->present |= r->samples[dp->event] > 0;
	c->value += r->per_rt[dp->event] * dp->scale;
	if (m->calls_known) {
		c->calls_known = 1;
		c->calls += r->calls_per_rt;
	}
	if (m->miss_event[0] >= 0 && m->miss_event[1] >= 0 && m->miss_event[2] >= 0) {
		c->misses_known = 1;
		for (k = 0; k < 3; k++)
			c->misses[k] += r->per_rt[m->miss_event[k]];
	}
	/* a function's, shared by its rows (model-calls.c): not summed */
	if (m->incl_known && r->incl > 0) {
		c->incl_known = 1;
		c->incl = fmax(c->incl, r->incl_per_rt * dp->scale);
	}
	/* independent Poisson counts: errors add in quadrature */
	c->err = hypot(c->err, r->err[dp->event] * dp->scale);
	for (k = 0; c->rep && k < c->nrep; k++)
		c->rep[k] += model_repeat_value(m, r, dp->event, k) * dp->scale;
}

static int cell_init(struct diff_cell *c, const struct diff_profile *dp)
{
	memset(c, 0, sizeof(*c));
	/* a function an exact profile lacks is called 0 times there */
	c->calls_known = dp->m->calls_known;
	c->misses_known = dp->m->miss_event[0] >= 0;
	if (dp->m->nrepeats < 2)
		return 0;
	c->nrep = dp->m->nrepeats;
	c->rep = calloc(c->nrep, sizeof(*c->rep));
	return c->rep ? 0 : -1;
}

struct cell_windows {
	const struct diff_cell *c;
	const struct profile *p;
};

static double cell_window(const void *ctx, size_t k)
{
	const struct cell_windows *w = ctx;

	return profile_repeat_used(w->p, k) ? w->c->rep[k] : NAN;
}

void diff_cell_finish(struct diff_cell *c, const struct diff_profile *dp)
{
	const struct profile *p = dp->m->profile;

	c->mean = c->value;
	c->sd = c->se = 0;
	c->n = 1;
	if (c->rep) {
		struct cell_windows w = { c, p };
		struct spread s;

		spread_over(c->nrep, cell_window, &w, 0, &s);
		if (s.n > 1) {
			c->mean = s.mean;
			c->sd = s.sd;
			c->se = s.se;
			c->n = s.n;
		}
	}
}

/* A cell's windows, NaN where one tells nothing; NULL without. */
static double *cell_windows(const struct diff_cell *c, const struct diff_profile *dp)
{
	struct cell_windows w = { c, dp->m->profile };
	double *v = c->rep ? calloc(c->nrep, sizeof(*v)) : NULL;
	size_t k;

	for (k = 0; v && k < c->nrep; k++)
		v[k] = cell_window(&w, k);
	return v;
}

static void row_cmp(struct diff_row *r, const struct diff *d)
{
	size_t i;

	for (i = 1; i < d->n; i++) {
		diff_cmp_cells(&r->cmp[i], &r->cell[0], &r->cell[i],
			       diff_deterministic(d));
		if (d->paired && r->cell[0].nrep == r->cell[i].nrep) {
			double *a = cell_windows(&r->cell[0], &d->prof[0]);
			double *b = cell_windows(&r->cell[i], &d->prof[i]);

			if (a && b)
				diff_cmp_paired(&r->cmp[i], a, b, r->cell[0].nrep);
			free(a);
			free(b);
		}
	}
}

static void drow_clear(struct diff_row *r)
{
	size_t i;

	free(r->name);
	free(r->bucket);
	for (i = 0; i < DIFF_MAX_PROFILES; i++)
		free(r->cell[i].rep);
	memset(r, 0, sizeof(*r));
}

static int drow_init(struct diff_row *r, const struct diff *d,
		     const char *name)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->name = strdup(name);
	if (!r->name)
		return -1;
	for (i = 0; i < d->n; i++)
		if (cell_init(&r->cell[i], &d->prof[i]))
			return -1;
	return 0;
}

static void drow_finish(struct diff_row *r, const struct diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		diff_cell_finish(&r->cell[i], &d->prof[i]);
	row_cmp(r, d);
}

/* Sum of rows into dst, cell by cell; dst was drow_init'ed. */
static void drow_sum(struct diff_row *dst, const struct diff_row *src,
		     size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct diff_cell *c = &dst->cell[i];
		const struct diff_cell *s = &src->cell[i];

		c->present |= s->present;
		c->value += s->value;
		c->calls_known |= s->calls_known;
		c->calls += s->calls;
		c->misses_known |= s->misses_known;
		for (k = 0; k < 3; k++)
			c->misses[k] += s->misses[k];
		c->err = hypot(c->err, s->err);
		for (k = 0; c->rep && s->rep && k < c->nrep; k++)
			c->rep[k] += s->rep[k];
	}
}

static int cmp_drow(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double x = fabs(a->cmp[1].delta), y = fabs(b->cmp[1].delta);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int build_view(struct diff *d, struct diff_view *v, enum model_by by)
{
	struct entry *e = NULL;
	size_t ne = 0, cap = 0, i, j;
	int ret = -1;

	for (i = 0; i < d->n; i++)
		cap += d->prof[i].m->views[by].n;
	e = calloc(cap ? cap : 1, sizeof(*e));
	v->rows = calloc(cap ? cap : 1, sizeof(*v->rows));
	if (!e || !v->rows)
		goto oom;
	for (i = 0; i < d->n; i++) {
		const struct model_view *mv = &d->prof[i].m->views[by];

		for (j = 0; j < mv->n; j++) {
			e[ne].key = by == MODEL_BY_FUNCTION ?
				function_key(d, &mv->rows[j]) :
				strdup(mv->rows[j].name);
			if (!e[ne].key)
				goto oom;
			e[ne].prof = i;
			e[ne].row = &mv->rows[j];
			ne++;
		}
	}
	if (ne > 1)
		qsort(e, ne, sizeof(*e), cmp_entry);
	for (i = 0; i < ne; i++) {
		struct diff_row *r;

		if (!v->n || strcmp(v->rows[v->n - 1].name, e[i].key)) {
			r = &v->rows[v->n++];
			if (drow_init(r, d, e[i].key))
				goto oom;
		}
		r = &v->rows[v->n - 1];
		if (!r->bucket && e[i].row->bucket &&
		    !(r->bucket = strdup(e[i].row->bucket)))
			goto oom;
		cell_add(&r->cell[e[i].prof], &d->prof[e[i].prof], e[i].row);
	}
	for (i = 0; i < v->n; i++)
		drow_finish(&v->rows[i], d);
	if (v->n > 1)
		qsort(v->rows, v->n, sizeof(*v->rows), cmp_drow);
	ret = 0;
	goto out;
oom:
	error("out of memory comparing %s rows", model_by_name(by));
out:
	for (i = 0; i < ne; i++)
		free(e[i].key);
	free(e);
	return ret;
}

static int hidden(const struct diff_row *r, size_t idx, size_t n,
		  const struct diff_options *o)
{
	size_t i;

	if (r->apart)
		return 0;
	/* a marked row is what the diff is for: never cut */
	for (i = 1; i < n; i++)
		if (r->cmp[i].mark)
			return 0;
	if (o->limit > 0 && idx >= (size_t)o->limit)
		return 1;
	if (o->threshold <= 0)
		return 0;
	for (i = 1; i < n; i++)
		if (fabs(r->cmp[i].delta) >= o->threshold)
			return 0;
	return 1;
}

/* Rows kept first, in order; the rest summed into "[other]". */
static int cut_view(struct diff *d, struct diff_view *v,
		    const struct diff_options *o)
{
	struct diff_row *tmp;
	char *hide;
	size_t i, keep = 0, at;

	if (drow_init(&v->other, d, DIFF_OTHER_NAME))
		return error("out of memory");
	tmp = calloc(v->n ? v->n : 1, sizeof(*tmp));
	hide = calloc(v->n ? v->n : 1, 1);
	if (!tmp || !hide) {
		free(tmp);
		free(hide);
		return error("out of memory");
	}
	for (i = 0; i < v->n; i++) {
		hide[i] = hidden(&v->rows[i], keep, d->n, o);
		keep += !hide[i];
	}
	at = 0;
	for (i = 0; i < v->n; i++)
		if (!hide[i])
			tmp[at++] = v->rows[i];
	for (i = 0; i < v->n; i++)
		if (hide[i])
			tmp[at++] = v->rows[i];
	memcpy(v->rows, tmp, v->n * sizeof(*tmp));
	free(tmp);
	free(hide);
	v->shown = keep;
	for (i = keep; i < v->n; i++)
		drow_sum(&v->other, &v->rows[i], d->n);
	drow_finish(&v->other, d);
	/* rows left out, summed: not one of the rows tested */
	for (i = 1; i < d->n; i++)
		v->other.cmp[i].mark = 0;
	return 0;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int pick_event(const struct model *m)
{
	if (m->time_event >= 0)
		return m->time_event;
	if (m->cycles_event >= 0)
		return m->cycles_event;
	return 0;
}

static const char *mode_of(const struct profile *p)
{
	return p->mode ? p->mode : "unknown mode";
}

/* One unit for all: ns when any side is in ns or --convert-cycles-ghz
 * is given, else the sides' common unit. */
/* Values per packet against values per round trip compare nothing,
 * unless the user says the units match (--force); said either way. */
static int check_per(struct diff *d, const struct diff_options *o)
{
	const struct profile *a = d->prof[0].m->profile;
	size_t i;

	d->per = profile_unit_name(a);
	for (i = 1; i < d->n; i++) {
		const struct profile *b = d->prof[i].m->profile;

		if (!strcmp(profile_unit_spec(a), profile_unit_spec(b)))
			continue;
		if (!o->force)
			return error("cannot compare values per %s (--per %s) of '%s' with values per %s (--per %s) of '%s': give --force if the units match",
				     profile_unit_name(a), profile_unit_spec(a),
				     d->prof[0].path, profile_unit_name(b),
				     profile_unit_spec(b), d->prof[i].path);
		warn_add(d, "units differ, compared with --force: per %s (--per %s) in '%s', per %s (--per %s) in '%s'",
			 profile_unit_name(a), profile_unit_spec(a),
			 d->prof[0].path, profile_unit_name(b),
			 profile_unit_spec(b), d->prof[i].path);
	}
	return 0;
}

static int choose_unit(struct diff *d, const struct diff_options *o)
{
	int any_ns = 0, any_cycles = 0;
	size_t i, j;

	for (i = 0; i < d->n; i++) {
		const char *u = d->prof[i].unit_from;

		any_ns |= !strcmp(u, "ns");
		any_cycles |= !strcmp(u, "cycles");
	}
	if (any_cycles && (any_ns || o->ghz > 0)) {
		if (o->ghz <= 0) {
			for (i = 0; strcmp(d->prof[i].unit_from, "ns"); i++)
				;
			for (j = 0; strcmp(d->prof[j].unit_from, "cycles"); j++)
				;
			return error("cannot subtract %s nanoseconds of '%s' from %s cycles of '%s': give --convert-cycles-ghz GHZ, the clock the cycles ran at, to compare in ns",
				     mode_of(d->prof[i].m->profile),
				     d->prof[i].path,
				     mode_of(d->prof[j].m->profile),
				     d->prof[j].path);
		}
		d->unit = "ns";
		for (i = 0; i < d->n; i++)
			if (!strcmp(d->prof[i].unit_from, "cycles"))
				d->prof[i].scale = 1 / o->ghz;
		warn_add(d, "cycles converted to ns at %g GHz (--convert-cycles-ghz): an estimate, as good as that clock",
			 o->ghz);
		return 0;
	}
	for (i = 1; i < d->n; i++)
		if (strcmp(d->prof[i].unit_from, d->prof[0].unit_from))
			return error("cannot compare %s of '%s' with %s of '%s': the profiles measured different events",
				     d->prof[0].unit_from, d->prof[0].path,
				     d->prof[i].unit_from, d->prof[i].path);
	d->unit = d->prof[0].unit_from;
	return 0;
}

static int strdiff(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static void check_workloads(struct diff *d);

static void check_conditions(struct diff *d)
{
	size_t i, k, first = 0;

	for (i = 0; i < d->n; i++)
		if (d->prof[i].m->run.inconsistent)
			warn_add(d, "'%s' is inconsistent, read with --force: %s",
				 d->prof[i].path, d->prof[i].m->run.inconsistent);
	for (i = 0, k = 0; i < d->n; i++)
		if (d->prof[i].m->run.exact)
			k++;
	if (k == d->n && diff_deterministic(d)) {
		warn_add(d, "%s; on the instruction clock (deterministic): a kernel booted again executes the same instructions, so every difference is exact, not noise, and marked **", PROFILE_EXACT_DETERMINISTIC_NOTE);
		check_workloads(d);
		return;
	}
	if (k == d->n) {
		/* one boot a side: said by diff_find_untested */
		warn_add(d, "%s", PROFILE_EXACT_NOTE);
		check_workloads(d);
		return;
	}
	for (i = 0, k = 0; i < d->n; i++)
		if (profile_emulated(d->prof[i].m->profile))
			first = k++ ? first : i;
	if (k)
		warn_add(d, "%s%s%s %s", k == d->n ? "" : "'",
			 k == d->n ? (d->n == 2 ? "both profiles were" : "all profiles were") :
			 d->prof[first].path,
			 k == d->n ? "" : (k == 1 ? "' was" : "' and others were"),
			 PROFILE_EMULATED_NOTE);
	check_workloads(d);
}

/* What differs between the workloads of the profiles. */
static void check_workloads(struct diff *d)
{
	const struct profile *a = d->prof[0].m->profile;
	size_t i;

	for (i = 1; i < d->n; i++) {
		const struct profile *b = d->prof[i].m->profile;

		if (strdiff(a->transport, b->transport))
			warn_add(d, "transports differ: %s in '%s', %s in '%s'",
				 a->transport ? a->transport : "unknown",
				 d->prof[0].path,
				 b->transport ? b->transport : "unknown",
				 d->prof[i].path);
		if (a->message_size != b->message_size)
			warn_add(d, "message sizes differ: %u bytes in '%s', %u in '%s'",
				 a->message_size, d->prof[0].path,
				 b->message_size, d->prof[i].path);
		if (strdiff(a->network, b->network))
			warn_add(d, "networks differ: %s in '%s', %s in '%s'",
				 a->network ? a->network : "unknown",
				 d->prof[0].path,
				 b->network ? b->network : "unknown",
				 d->prof[i].path);
	}
}

/*
 * The other tasks' busy time as one row at the end of view v, in the
 * profiles compared by their workload: a busy machine's other tasks
 * take more time per round trip when the workload's round trips get
 * fewer, which is no change of the workload's. So never marked.
 */
static int add_others(struct diff *d, struct diff_view *v)
{
	struct diff_row *rows, *r;
	size_t i;
	int any = 0;

	for (i = 0; i < d->n; i++)
		any |= d->prof[i].m != d->prof[i].whole &&
		       d->prof[i].whole->others.samples[d->prof[i].event] > 0;
	if (!any)
		return 0;
	rows = realloc(v->rows, (v->n + 1) * sizeof(*rows));
	if (!rows)
		return error("out of memory");
	v->rows = rows;
	r = &v->rows[v->n];
	if (drow_init(r, d, MODEL_OTHER_TASKS))
		return error("out of memory");
	v->n++;
	r->apart = 1;
	for (i = 0; i < d->n; i++)
		if (d->prof[i].m != d->prof[i].whole)
			cell_add(&r->cell[i], &d->prof[i], &d->prof[i].whole->others);
	drow_finish(r, d);
	for (i = 1; i < d->n; i++)
		r->cmp[i].mark = 0;
	return 0;
}

/* Busy is each profile's own (its idle bucket), total the rows' sum. */
static int build_totals(struct diff *d)
{
	size_t i;

	if (drow_init(&d->total, d, "total") || drow_init(&d->busy, d, "busy"))
		return error("out of memory");
	/* the workload's: the other tasks' row stays apart */
	for (i = 0; i < d->functions.n; i++)
		if (!d->functions.rows[i].apart)
			drow_sum(&d->total, &d->functions.rows[i], d->n);
	for (i = 0; i < d->n; i++) {
		const struct diff_profile *dp = &d->prof[i];
		struct diff_cell *c = &d->busy.cell[i];

		cell_add(c, dp, &dp->m->busy);
	}
	drow_finish(&d->total, d);
	drow_finish(&d->busy, d);
	return 0;
}

int diff_build(struct diff *d, const struct model *const *m,
	       const char *const *paths, size_t n,
	       const struct diff_options *o)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	d->by = o->by;
	if (n < 2 || n > DIFF_MAX_PROFILES)
		return error("diff compares 2 to %d profiles, got %zu",
			     DIFF_MAX_PROFILES, n);
	d->n = n;
	if (o->alias_file && diff_load_aliases(d, o->alias_file))
		return -1;
	for (i = 0; i < n; i++) {
		struct diff_profile *dp = &d->prof[i];
		const struct profile *p = m[i]->profile;

		dp->whole = m[i];
		/* a --role or --cpu filter chose the footing itself */
		dp->m = o->all_tasks || !m[i]->workload || m[i]->run.filter ?
			m[i] : m[i]->workload;
		dp->path = paths[i];
		dp->label = p->kernel_release && *p->kernel_release ?
			p->kernel_release : basename_of(paths[i]);
		if (!p->round_trips)
			return error("profile '%s' has no %ss: nothing per %s to compare; record it again",
				     paths[i], profile_unit_name(p),
				     profile_unit_name(p));
		if (!p->nevents)
			return error("profile '%s' has no events", paths[i]);
		dp->event = pick_event(m[i]);
		dp->unit_from = p->events[dp->event].unit ?
			p->events[dp->event].unit : "events";
		dp->scale = 1;
	}
	d->stalls_apart = 1;
	for (i = 0; i < n; i++)
		d->stalls_apart &= m[i]->nrepeats < 2 &&
				   m[i]->profile->latency.stalls_known;
	for (i = 0; i < n; i++)
		diff_latency_of(&d->prof[i], d->stalls_apart);
	if (check_per(d, o) || choose_unit(d, o))
		return -1;
	check_conditions(d);
	diff_find_untested(d);
	d->paired = diff_by_turns(d);
	diff_host_speed(d);
	diff_latency_compare(d);
	if (build_view(d, &d->functions, MODEL_BY_FUNCTION) ||
	    build_view(d, &d->buckets, MODEL_BY_BUCKET) ||
	    add_others(d, &d->functions) || add_others(d, &d->buckets) ||
	    build_totals(d) ||
	    (d->by == MODEL_BY_LINE && build_view(d, &d->lines, MODEL_BY_LINE)) ||
	    diff_mark_all(d) ||
	    cut_view(d, &d->functions, o) || cut_view(d, &d->buckets, o))
		return -1;
	if (d->by == MODEL_BY_LINE && cut_view(d, &d->lines, o))
		return -1;
	diff_misses_compare(d);
	return 0;
}

static void view_free(struct diff_view *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		drow_clear(&v->rows[i]);
	free(v->rows);
	drow_clear(&v->other);
}

void diff_free(struct diff *d)
{
	size_t i;

	view_free(&d->functions);
	view_free(&d->buckets);
	view_free(&d->lines);
	drow_clear(&d->total);
	drow_clear(&d->busy);
	for (i = 0; i < d->nwarnings; i++)
		free(d->warnings[i]);
	for (i = 0; i < d->naliases; i++) {
		free(d->aliases[i].from);
		free(d->aliases[i].to);
	}
	free(d->aliases);
	diff_conditions_free(d->conds);
	free(d->untested);
	memset(d, 0, sizeof(*d));
}

/* Second and later profiles: column per profile; A is the baseline. */
char diff_letter(size_t i)
{
	static const char letters[] = "ABCDEFGHIJKLMNOP";

	return letters[i < sizeof(letters) - 1 ? i : sizeof(letters) - 2];
}

void diff_fmt_rel(char *buf, size_t len, const struct diff_cmp *c)
{
	if (c->rel == DIFF_NO_REL)
		snprintf(buf, len, "new");
	else if (fabs(c->rel) >= 99.995)
		/* keep the column: hundredfold is what matters, not digits */
		snprintf(buf, len, "%s", c->rel > 0 ? ">+9999%" : "<-9999%");
	else if (fabs(c->rel) >= 9.9995)
		snprintf(buf, len, "%+.0f%%", c->rel * 100);
	else
		snprintf(buf, len, "%+.1f%%", c->rel * 100);
}

/* "(only in A)", "(new)" ... for rows one side lacks, else "". */
void diff_presence(char *buf, size_t len, const struct diff *d,
		     const struct diff_row *r)
{
	size_t i, others = 0;

	buf[0] = '\0';
	for (i = 1; i < d->n; i++)
		others += r->cell[i].present;
	if (!strcmp(r->name, DIFF_OTHER_NAME))
		return;
	if (r->cell[0].present && !others)
		snprintf(buf, len, " (only in A)");
	else if (!r->cell[0].present && d->n == 2 && others)
		snprintf(buf, len, " (new)");
	else if (!r->cell[0].present && others)
		snprintf(buf, len, " (not in A)");
}

double diff_per_call(const struct diff_cell *c)
{
	return c->calls_known && c->calls > 0 ? c->value / c->calls : -1;
}

int diff_calls_changed(const struct diff_row *r, size_t i)
{
	const struct diff_cell *a = &r->cell[0], *b = &r->cell[i];

	/* per round trip from exact counts: a difference beyond rounding */
	return a->calls_known && b->calls_known &&
	       fabs(a->calls - b->calls) > 1e-9 * (fabs(a->calls) + fabs(b->calls) + 1);
}
