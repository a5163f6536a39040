/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_STATS_H
#define PERPKT_STATS_H

#include <stddef.h>

/*
 * perpkt's statistics, in one place: the spread of a figure over
 * independent windows, Student's t, Welch's test of two such spreads
 * and the control for testing many rows at once. report, diff, table
 * and stat call these; nothing else computes an error or a test.
 */

/*
 * The spread of one figure over repeated windows: mean, sample standard
 * deviation, standard error of the mean and the half-width of a Student
 * t confidence interval of the mean (netperf's -I idea). n < 2: sd, se
 * and half-width are 0 and unknown.
 */
struct spread {
	int n;
	double mean, sd;
	double se;          /* sd / sqrt(n) */
	double confidence;  /* e.g. 0.95 */
	double half;        /* the interval is mean +- half */
};

/* The one rule for a figure over repeats: a value that is NaN (a window
 * that tells nothing of it) is left out, and out->n counts the others.
 * Confidence 0 asks for no interval (half is 0). */
void spread_of(const double *v, int n, double confidence, struct spread *out);
/* The same over n values handed one at a time, each asked for twice:
 * get(ctx, k) is the value of window k, or NaN. */
void spread_over(size_t n, double (*get)(const void *ctx, size_t k),
		 const void *ctx, double confidence, struct spread *out);
/* The same spread's interval at another confidence (stat --confidence,
 * known only after the model is built). */
void spread_at(struct spread *s, double confidence);
/* half / |mean| in percent; 0 when the mean is 0 */
double spread_rel_pct(const struct spread *s);

/* Two-sided Student t quantile: P(|T| <= t) = confidence, for any real
 * df > 0 (Welch's degrees of freedom are not whole); NaN for df <= 0. */
double student_t(double confidence, double df);
/* Two-sided p-value of t with df degrees of freedom: P(|T| >= |t|). */
double student_t_p(double t, double df);

/*
 * Welch's test of two means from their windows: the shift b - a over
 * its standard error sqrt(se_a^2 + se_b^2), with Satterthwaite's degrees
 * of freedom. Needs n >= 2 on both sides, else tested is 0. Two sides
 * with no spread at all give p 1 for no shift, 0 for any other.
 */
struct welch {
	int tested;
	double shift, se, df, t, p;
};
void welch_test(const struct spread *a, const struct spread *b,
		struct welch *out);

/* The paired test of b against a window by window (the same ping-pong
 * taken by turns): Student's t on the differences b[k] - a[k] that are
 * both known (not NaN), n - 1 degrees of freedom; tested needs 2. */
void paired_test(const double *a, const double *b, size_t n,
		 struct welch *out);

/*
 * Benjamini-Hochberg over n p-values: q[i] is the smallest false
 * discovery rate at which p[i] is declared a discovery (the adjusted
 * p-value); a NaN p (not tested) gives a NaN q and does not count in n.
 * Rejecting every q < alpha keeps the expected share of false marks
 * among the marks at alpha or below, for independent or positively
 * dependent tests. -1 when out of memory.
 */
int bh_adjust(const double *p, size_t n, double *q);

#endif
