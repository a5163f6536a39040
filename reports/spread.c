// SPDX-License-Identifier: GPL-2.0-only
#include "reports/spread.h"

#include <math.h>
#include <stddef.h>

/* Acklam's rational approximation of the standard normal quantile
 * (relative error below 1.2e-9), for levels the table lacks. */
static double normal_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
		-2.759285104469687e+02, 1.383577518672690e+02,
		-3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
		-1.556989798598866e+02, 6.680131188771972e+01,
		-1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
		-2.400758277161838e+00, -2.549732539343734e+00,
		4.374664141464968e+00, 2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
		2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r;

	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		       ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	}
	if (p > 1 - 0.02425)
		return -normal_quantile(1 - p);
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double student_t(double confidence, int df)
{
	/* two-sided critical values, df 1..30, from any statistics table */
	static const struct { double level; double t[30]; } table[] = {
		{ 0.90, { 6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860,
			  1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753, 1.746,
			  1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711,
			  1.708, 1.706, 1.703, 1.701, 1.699, 1.697 } },
		{ 0.95, { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
			  2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
			  2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
			  2.060, 2.056, 2.052, 2.048, 2.045, 2.042 } },
		{ 0.99, { 63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355,
			  3.250, 3.169, 3.106, 3.055, 3.012, 2.977, 2.947, 2.921,
			  2.898, 2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797,
			  2.787, 2.779, 2.771, 2.763, 2.756, 2.750 } },
		{ 0.999, { 636.62, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408,
			   5.041, 4.781, 4.587, 4.437, 4.318, 4.221, 4.140, 4.073,
			   4.015, 3.965, 3.922, 3.883, 3.850, 3.819, 3.792, 3.768,
			   3.745, 3.725, 3.707, 3.690, 3.674, 3.659, 3.646 } },
	};
	double z, z2, n;
	size_t i;

	if (df < 1)
		return NAN;
	for (i = 0; i < sizeof(table) / sizeof(table[0]) && df <= 30; i++)
		if (fabs(table[i].level - confidence) < 1e-9)
			return table[i].t[df - 1];
	/* Cornish-Fisher: good to 3 digits from df 3, and near 30 anyway */
	z = normal_quantile(0.5 + confidence / 2);
	z2 = z * z;
	n = df;
	return z + (z2 + 1) * z / (4 * n) +
	       ((5 * z2 + 16) * z2 + 3) * z / (96 * n * n) +
	       (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * n * n * n);
}

void spread_over(size_t n, double (*get)(const void *ctx, size_t k),
		 const void *ctx, double confidence, struct spread *out)
{
	double sum = 0, ss = 0, v;
	size_t k;
	int used = 0;

	out->confidence = confidence;
	out->mean = out->sd = out->half = 0;
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
	s->half = s->n < 2 ? 0 :
		  student_t(confidence, s->n - 1) * s->sd / sqrt((double)s->n);
}

double spread_rel_pct(const struct spread *s)
{
	return s->mean != 0 ? 100 * s->half / fabs(s->mean) : 0;
}
