// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a diff decides that B differs from A, beyond the noise.
 *
 * On this kind of host the figures of two runs of the same thing move
 * by more than any error one run can state of itself: a run's own
 * round trips, or its Poisson sampling error, make every shift
 * "significant". So a mark stands only on the spread between a
 * profile's windows (the default record restarts the workload before
 * each, so each window also draws its own sockets and processes), with
 * Welch's t and Satterthwaite's degrees of freedom; the rows a
 * comparison tests at once are controlled together (Benjamini-
 * Hochberg); and a change under DIFF_FLOOR of busy is never marked,
 * however sure. Only a deterministic exact diff marks every nonzero
 * difference: a boot repeats to the instruction.
 */
#include "reports/diff/diff-significance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/turns.h"
#include "stats/stats.h"

static void cmp_clear(struct diff_cmp *c)
{
	c->sigma = c->df = 0;
	c->p = c->q = NAN;
	c->mark = c->from_repeats = c->floored = 0;
}

static void spread_of_cell(const struct diff_cell *c, struct spread *s)
{
	memset(s, 0, sizeof(*s));
	s->n = c->n;
	s->mean = c->mean;
	s->sd = c->sd;
	s->se = c->se;
}

/* A test's outcome into c: untested (no spread to stand on) or its
 * standard error, degrees of freedom and p. */
static void cmp_take(struct diff_cmp *c, const struct welch *w)
{
	c->from_repeats = w->tested;
	c->sigma = w->tested ? w->se : 0;
	c->df = w->tested ? w->df : 0;
	c->p = w->tested ? w->p : NAN;
}

/* Welch on two sides' windows into c; untested where a side has one. */
static void cmp_welch(struct diff_cmp *c, const struct spread *a,
		      const struct spread *b)
{
	struct welch w;

	welch_test(a, b, &w);
	cmp_take(c, &w);
}

void diff_cmp_cells(struct diff_cmp *cmp, const struct diff_cell *a,
		    const struct diff_cell *b, int deterministic)
{
	struct spread sa, sb;

	cmp->delta = b->value - a->value;
	cmp->rel = a->value != 0 ? cmp->delta / fabs(a->value) : DIFF_NO_REL;
	cmp_clear(cmp);
	if (deterministic) {
		/* a boot repeats to the instruction: any difference is real */
		cmp->from_repeats = 1;
		cmp->p = cmp->delta != 0 ? 0 : 1;
		return;
	}
	spread_of_cell(a, &sa);
	spread_of_cell(b, &sb);
	cmp_welch(cmp, &sa, &sb);
}

void diff_cmp_latency(struct diff_cmp *c, const struct diff_figure *a,
		      const struct diff_figure *b)
{
	struct spread sa = { .n = a->n, .mean = a->value, .sd = a->sd,
			     .se = a->se },
		      sb = { .n = b->n, .mean = b->value, .sd = b->sd,
			     .se = b->se };

	memset(c, 0, sizeof(*c));
	cmp_clear(c);
	c->rel = DIFF_NO_REL;
	if (a->value < 0 || b->value < 0 || a->value == 0)
		return;
	c->delta = b->value - a->value;
	c->rel = c->delta / a->value;
	cmp_welch(c, &sa, &sb);
}

void diff_cmp_paired(struct diff_cmp *c, const double *a, const double *b,
		     size_t n)
{
	double *around = calloc(n ? n : 1, sizeof(*around));
	struct welch w;
	size_t j;

	if (!around)
		return;
	/* an on window (2j+1) against the off windows on either side of it
	 * (2j, 2j+2): a host drifting through the run cancels */
	for (j = 0; j < n; j++)
		around[j] = j + 1 < n && !isnan(a[j + 1]) && !isnan(a[j]) ?
			    (a[j] + a[j + 1]) / 2 : a[j];
	paired_test(around, b, n, &w);
	free(around);
	cmp_take(c, &w);
}

int diff_by_turns(const struct diff *d)
{
	const struct profile *a = d->prof[0].m->profile;
	const struct profile *b = d->n == 2 ? d->prof[1].m->profile : NULL;
	const char *ta, *tb;

	if (!b || !profile_condition(a, PROFILE_COND_TURNS "_side") ||
	    !profile_condition(b, PROFILE_COND_TURNS "_side"))
		return 0;
	ta = profile_condition(a, PROFILE_COND_TURNS);
	tb = profile_condition(b, PROFILE_COND_TURNS);
	/* the two sides of one run: the same turns, the same start */
	return ta && tb && !strcmp(ta, tb) && a->created && b->created &&
	       !strcmp(a->created, b->created) && a->nrepeats == b->nrepeats;
}

/* The rows comparison i tests, in one list: the views' rows but the
 * other tasks' and the totals, the latency and its percentiles. */
static size_t family(struct diff *d, size_t i, struct diff_cmp **out,
		     double *floor_of, size_t cap)
{
	struct diff_view *views[] = { &d->functions, &d->buckets, &d->lines };
	double busy = fmax(fabs(d->busy.cell[0].value), fabs(d->busy.cell[i].value));
	double floor = diff_floor(d) * busy, lfloor = diff_floor_latency(d);
	size_t n = 0, v, k;

#define ADD(cmp, floor) do { \
		if (n < cap) { out[n] = (cmp); floor_of[n] = (floor); n++; } \
	} while (0)
	/* a row under the floor on both sides cannot move by the floor:
	 * no hypothesis to spend the family's rate on */
	for (v = 0; v < sizeof(views) / sizeof(views[0]); v++)
		for (k = 0; k < views[v]->n; k++) {
			struct diff_row *r = &views[v]->rows[k];

			if (!r->apart && fmax(fabs(r->cell[0].value),
					      fabs(r->cell[i].value)) >= floor)
				ADD(&r->cmp[i], floor);
		}
	ADD(&d->total.cmp[i], floor);
	ADD(&d->busy.cmp[i], floor);
	ADD(&d->latency[i], lfloor * fabs(d->prof[0].latency));
	for (k = 0; k < DIFF_NPCT; k++)
		ADD(&d->pct[k][i], lfloor * fabs(d->prof[0].pct[k]));
#undef ADD
	return n;
}

static size_t family_size(const struct diff *d)
{
	return d->functions.n + d->buckets.n + d->lines.n + 2 + 1 + DIFF_NPCT;
}

/* Every row's mark and q of comparison i cleared: a row the family
 * leaves out stays unmarked. */
static void clear_marks(struct diff *d, size_t i)
{
	struct diff_view *views[] = { &d->functions, &d->buckets, &d->lines };
	size_t v, k;

	for (v = 0; v < sizeof(views) / sizeof(views[0]); v++)
		for (k = 0; k < views[v]->n; k++) {
			views[v]->rows[k].cmp[i].mark = 0;
			views[v]->rows[k].cmp[i].q = NAN;
		}
}

int diff_mark_all(struct diff *d)
{
	size_t cap = family_size(d), n, i, k;
	struct diff_cmp **rows = calloc(cap, sizeof(*rows));
	double *floor_of = calloc(cap, sizeof(*floor_of));
	double *p = calloc(cap, sizeof(*p)), *q = calloc(cap, sizeof(*q));
	int deterministic = diff_deterministic(d), ret = -1;

	if (!rows || !floor_of || !p || !q) {
		error("out of memory marking the diff");
		goto out;
	}
	for (i = 1; i < d->n; i++) {
		n = family(d, i, rows, floor_of, cap);
		/* rows left out of the family are not tested at all */
		for (k = 0; k < cap; k++)
			p[k] = k < n && rows[k]->from_repeats ? rows[k]->p : NAN;
		clear_marks(d, i);
		if (bh_adjust(p, n, q)) {
			error("out of memory marking the diff");
			goto out;
		}
		d->tested[i] = 0;
		for (k = 0; k < n; k++) {
			struct diff_cmp *c = rows[k];

			c->q = q[k];
			c->mark = 0;
			if (isnan(q[k]))
				continue;
			d->tested[i]++;
			if (deterministic) {
				c->mark = c->delta != 0 ? 2 : 0;
				continue;
			}
			c->mark = q[k] < DIFF_FDR_2 ? 2 : q[k] < DIFF_FDR_1 ? 1 : 0;
			/* sure, but too small to matter: said, not marked */
			if (c->mark && fabs(c->delta) < floor_of[k]) {
				c->mark = 0;
				c->floored = 1;
			}
		}
	}
	ret = 0;
out:
	free(rows);
	free(floor_of);
	free(p);
	free(q);
	return ret;
}

/* Why a side cannot be tested: the first profile of one window. */
void diff_find_untested(struct diff *d)
{
	size_t i;

	if (diff_deterministic(d))
		return;
	for (i = 0; i < d->n; i++) {
		int windows = (int)d->prof[i].m->nrepeats;

		if (windows >= 2)
			continue;
		if (asprintf(&d->untested, d->prof[i].m->run.exact ?
			     "'%s' is one boot: how much boots differ is not known; record with -r N (N boots) for marks" :
			     "'%s' has one window: no spread between runs to judge a change by; record with the default windows or -r N",
			     d->prof[i].path) < 0)
			d->untested = NULL;
		return;
	}
}

double diff_floor(const struct diff *d)
{
	return d->paired ? DIFF_FLOOR_PAIRED : DIFF_FLOOR;
}

double diff_floor_latency(const struct diff *d)
{
	return d->paired ? DIFF_FLOOR_LATENCY_PAIRED : DIFF_FLOOR_LATENCY;
}

int diff_deterministic(const struct diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!d->prof[i].m->run.exact || d->prof[i].m->run.icount_shift < 0)
			return 0;
	return 1;
}

const char *diff_sig_basis(const struct diff *d)
{
	if (diff_deterministic(d))
		return "exact counts on the instruction clock: a boot repeats to the instruction, so every nonzero difference is exact and marked **";
	if (d->untested)
		return "none: a side has one window, and a mark stands only on the spread between windows";
	if (d->paired)
		return "Student's t on the differences between the windows of one ping-pong taken by turns, Benjamini-Hochberg over the rows tested";
	return d->prof[0].m->run.exact && d->prof[1].m->run.exact ?
	       "Welch's t across boots (Satterthwaite's df), Benjamini-Hochberg over the rows tested" :
	       "Welch's t across windows (Satterthwaite's df), Benjamini-Hochberg over the rows tested";
}

void diff_sig_rule(char *buf, size_t len, const struct diff *d)
{
	if (diff_deterministic(d))
		snprintf(buf, len, "** every nonzero difference: exact counts on the instruction clock repeat to the instruction");
	else if (d->untested)
		snprintf(buf, len, "none: a mark needs the spread of several windows a side (see the head)");
	else
		snprintf(buf, len, "** and * : %s across %s, Benjamini-Hochberg over the %zu rows tested: expected false marks under %g%% (**) and %g%% (*) of the marks; no mark for a change under %g%% of busy, or %g%% of the latency",
			 d->paired ? "paired t" : "Welch's t",
			 d->paired ? "the windows taken by turns" :
			 d->prof[0].m->run.exact ? "boots" : "windows",
			 d->tested[1], DIFF_FDR_2 * 100, DIFF_FDR_1 * 100,
			 diff_floor(d) * 100, diff_floor_latency(d) * 100);
}
