/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SPREAD_H
#define PERPKT_SPREAD_H

#include <stddef.h>

/*
 * The spread of one figure over repeated windows: mean, sample standard
 * deviation and the half-width of a Student t confidence interval of the
 * mean (netperf's -I idea). n < 2: sd and half-width are 0 and unknown.
 */
struct spread {
	int n;
	double mean, sd;
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
/* Two-sided Student t quantile: P(|T| <= t) = confidence, df >= 1.
 * Exact to the table's 3 digits for 90, 95, 99 and 99.9%; other levels
 * from the Cornish-Fisher expansion around the normal quantile. */
double student_t(double confidence, int df);
/* half / |mean| in percent; 0 when the mean is 0 */
double spread_rel_pct(const struct spread *s);

#endif
