// SPDX-License-Identifier: GPL-2.0-only
#include "stats/stats.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by the modified Lentz method; it converges fast
 * for x < (a + 1) / (a + b + 2), and the caller uses the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) above that.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, num;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	f = d;
	for (m = 1; m <= 400; m++) {
		double delta;

		/* the even step, then the odd one */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		f *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		delta = d * c;
		f *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return f;
}

/* I_x(a, b), the regularized incomplete beta function, 0 <= x <= 1. */
static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double student_t_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= t) = I_{df/(df+t^2)}(df/2, 1/2) */
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double student_t(double confidence, double df)
{
	double alpha = 1 - confidence, lo = 0, hi = 1;
	int i;

	if (!(df > 0) || !(confidence > 0 && confidence < 1))
		return NAN;
	while (student_t_p(hi, df) > alpha && hi < 1e12)
		hi *= 2;
	/* p falls as t grows: bisect to a relative width of 1e-12 */
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void spread_over(size_t n, double (*get)(const void *ctx, size_t k),
		 const void *ctx, double confidence, struct spread *out)
{
	double sum = 0, ss = 0, v;
	size_t k;
	int used = 0;

	out->confidence = confidence;
	out->mean = out->sd = out->se = out->half = 0;
	for (k = 0; k < n; k++) {
		v = get(ctx, k);
		if (isnan(v))
			continue;
		sum += v;
		used++;
	}
	out->n = used;
	if (used < 1)
		return;
	out->mean = sum / used;
	if (used < 2)
		return;
	for (k = 0; k < n; k++) {
		v = get(ctx, k);
		if (!isnan(v))
			ss += (v - out->mean) * (v - out->mean);
	}
	out->sd = sqrt(ss / (used - 1));
	out->se = out->sd / sqrt((double)used);
	if (confidence > 0)
		spread_at(out, confidence);
}

static double array_value(const void *ctx, size_t k)
{
	return ((const double *)ctx)[k];
}

void spread_of(const double *v, int n, double confidence, struct spread *out)
{
	spread_over(n > 0 ? (size_t)n : 0, array_value, v, confidence, out);
}

void spread_at(struct spread *s, double confidence)
{
	s->confidence = confidence;
	s->half = s->n < 2 ? 0 : student_t(confidence, s->n - 1) * s->se;
}

double spread_rel_pct(const struct spread *s)
{
	return s->mean != 0 ? 100 * s->half / fabs(s->mean) : 0;
}

void welch_test(const struct spread *a, const struct spread *b,
		struct welch *out)
{
	double va, vb;

	out->tested = a->n >= 2 && b->n >= 2;
	out->shift = b->mean - a->mean;
	out->se = out->df = out->t = 0;
	out->p = NAN;
	if (!out->tested)
		return;
	va = a->se * a->se;
	vb = b->se * b->se;
	out->se = sqrt(va + vb);
	if (!(out->se > 0)) {
		/* both sides the same in every window: exact, not noise */
		out->p = out->shift != 0 ? 0 : 1;
		out->t = out->shift != 0 ? INFINITY : 0;
		out->df = a->n + b->n - 2;
		return;
	}
	/* Satterthwaite: a side without spread adds no degrees of freedom */
	out->df = (va + vb) * (va + vb) /
		  ((a->n > 1 ? va * va / (a->n - 1) : 0) +
		   (b->n > 1 ? vb * vb / (b->n - 1) : 0));
	out->t = out->shift / out->se;
	out->p = student_t_p(out->t, out->df);
}

void paired_test(const double *a, const double *b, size_t n,
		 struct welch *out)
{
	double *d = calloc(n ? n : 1, sizeof(*d));
	struct spread s;
	size_t k, m = 0;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (!d)
		return;
	for (k = 0; k < n; k++)
		if (!isnan(a[k]) && !isnan(b[k]))
			d[m++] = b[k] - a[k];
	spread_of(d, (int)m, 0, &s);
	free(d);
	out->shift = s.mean;
	out->tested = s.n >= 2;
	if (!out->tested)
		return;
	out->df = s.n - 1;
	out->se = s.se;
	if (!(s.se > 0)) {
		out->p = s.mean != 0 ? 0 : 1;
		out->t = s.mean != 0 ? INFINITY : 0;
		return;
	}
	out->t = s.mean / s.se;
	out->p = student_t_p(out->t, out->df);
}

struct ranked {
	double p;
	size_t at;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return a->p < b->p ? -1 : a->p > b->p ? 1 : 0;
}

int bh_adjust(const double *p, size_t n, double *q)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t m = 0, i;
	double run = 1;

	if (!r)
		return -1;
	for (i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	}
	qsort(r, m, sizeof(*r), by_p);
	/* q_(k) = min over j >= k of p_(j) m / j, from the largest down */
	for (i = m; i > 0; i--) {
		double v = r[i - 1].p * (double)m / (double)i;

		run = v < run ? v : run;
		q[r[i - 1].at] = run;
	}
	free(r);
	return 0;
}
