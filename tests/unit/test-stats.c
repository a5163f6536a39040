// SPDX-License-Identifier: GPL-2.0-only
#include "stats/stats.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void assert_near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.6f, want %.6f (+- %g)", got, want, tol);
}

/* Critical values against published tables (3 digits), and at real
 * degrees of freedom against mpmath (reference values made with
 * mpmath.betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True) and
 * findroot, 30 digits). */
static void test_student_t(void **state)
{
	assert_near(student_t(0.95, 1), 12.706, 1e-3);
	assert_near(student_t(0.95, 4), 2.776, 1e-3);
	assert_near(student_t(0.99, 9), 3.250, 1e-3);
	assert_near(student_t(0.90, 30), 1.697, 1e-3);
	assert_near(student_t(0.95, 60), 2.000, 1e-3);
	assert_near(student_t(0.95, 120), 1.980, 1e-3);
	assert_near(student_t(0.99, 1000), 2.581, 1e-3);
	assert_near(student_t(0.98, 10), 2.764, 1e-3);
	assert_near(student_t(0.80, 5), 1.476, 1e-3);
	assert_near(student_t(0.95, 5.5), 2.50185861758924, 1e-9);
	assert_near(student_t(0.99, 8.3), 3.32044359904495, 1e-9);
	assert_near(student_t(0.999, 1), 636.619248768719, 1e-6);
	assert_near(student_t(0.95, 1000), 1.96233908082641, 1e-9);
	assert_true(isnan(student_t(0.95, 0)));
	assert_true(isnan(student_t(1.5, 3)));
}

/* p-values: the closed forms at df 1 (Cauchy) and 2, and mpmath's. */
static void test_student_t_p(void **state)
{
	double t;

	for (t = 0.1; t < 50; t *= 1.7) {
		assert_near(student_t_p(t, 1), 1 - 2 * atan(t) / M_PI, 1e-12);
		assert_near(student_t_p(-t, 2), 1 - t / sqrt(2 + t * t), 1e-12);
	}
	assert_near(student_t_p(2.0, 10), 0.0733880347707404, 1e-12);
	assert_near(student_t_p(1.0, 3.5), 0.381337253563446, 1e-12);
	assert_near(student_t_p(4.0, 2.2), 0.0487306267277640, 1e-12);
	assert_near(student_t_p(0.5, 100), 0.618173565830887, 1e-12);
	assert_near(student_t_p(10, 4), 0.000562003622715991, 1e-15);
	assert_near(student_t_p(0, 7), 1, 1e-15);
	assert_true(isnan(student_t_p(1, 0)));
}

/* Welch with Satterthwaite's df, worked by hand: se^2 0.5 and 2, df
 * 2.5^2 / (0.25/4 + 4/4) = 5.882353, t = 3 / sqrt(2.5). */
static void test_welch(void **state)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	const double same[] = { 7, 7, 7 }, more[] = { 8, 8, 8 };
	struct spread sa, sb;
	struct welch w;

	spread_of(a, 5, 0, &sa);
	spread_of(b, 5, 0, &sb);
	welch_test(&sa, &sb, &w);
	assert_true(w.tested);
	assert_near(w.shift, 3, 1e-12);
	assert_near(w.df, 5.88235294117647, 1e-9);
	assert_near(w.t, 1.89736659610103, 1e-9);
	assert_near(w.p, 0.107531194930627, 1e-9);
	/* one window a side tests nothing */
	spread_of(a, 1, 0, &sa);
	welch_test(&sa, &sb, &w);
	assert_false(w.tested);
	assert_true(isnan(w.p));
	/* no spread on either side: a shift is exact */
	spread_of(same, 3, 0, &sa);
	spread_of(more, 3, 0, &sb);
	welch_test(&sa, &sb, &w);
	assert_true(w.tested);
	assert_near(w.p, 0, 0);
	welch_test(&sa, &sa, &w);
	assert_near(w.p, 1, 0);
}

/* Paired: the differences 1, 2, 3, 2 (mean 2, sd 0.8165, se 0.4082,
 * t 4.899 on 3 df, p 0.016277 by mpmath); a NaN drops its pair. A
 * shared drift that Welch would count as spread cancels. */
static void test_paired(void **state)
{
	const double a[] = { 10, 20, 30, 40, 7 }, b[] = { 11, 22, 33, 42, NAN };
	struct spread sa, sb;
	struct welch w;

	paired_test(a, b, 5, &w);
	assert_true(w.tested);
	assert_near(w.shift, 2, 1e-12);
	assert_near(w.df, 3, 0);
	assert_near(w.t, 4.89897948556636, 1e-9);
	assert_near(w.p, 0.0162766034594286, 1e-9);
	spread_of(a, 4, 0, &sa);
	spread_of(b, 4, 0, &sb);
	welch_test(&sa, &sb, &w);
	assert_true(w.p > 0.8);
	paired_test(a, b, 1, &w);
	assert_false(w.tested);
}

/* Benjamini-Hochberg: the textbook example (Benjamini and Hochberg
 * 1995's table of 15 p-values: 4 rejected at 0.05), worked by hand for
 * the adjusted values, and NaN left out of the count. */
static void test_bh(void **state)
{
	const double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278,
			     0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719,
			     0.6528, 0.7590, 1.0000 };
	double q[15], p2[4] = { 0.01, NAN, 0.04, 0.03 }, q2[4];
	int i, rejected = 0;

	assert_int_equal(bh_adjust(p, 15, q), 0);
	for (i = 0; i < 15; i++)
		rejected += q[i] < 0.05;
	assert_int_equal(rejected, 4);
	assert_near(q[0], 0.0015, 1e-12);           /* 0.0001 * 15 / 1 */
	assert_near(q[1], 0.003, 1e-12);            /* 0.0004 * 15 / 2 */
	assert_near(q[3], 0.035625, 1e-12);         /* 0.0095 * 15 / 4 */
	assert_near(q[2], 0.0095, 1e-12);           /* 0.0019*15/3 < 0.0095*15/4 */
	assert_near(q[4], 0.0603, 1e-12);           /* 0.0201 * 15 / 5 */
	assert_near(q[14], 1, 1e-12);
	/* monotone in p */
	for (i = 1; i < 15; i++)
		assert_true(q[i] >= q[i - 1]);
	assert_int_equal(bh_adjust(p2, 4, q2), 0);
	assert_true(isnan(q2[1]));
	assert_near(q2[0], 0.03, 1e-12);            /* 0.01 * 3 / 1 */
	assert_near(q2[2], 0.04, 1e-12);            /* 0.04 * 3 / 3 */
	assert_near(q2[3], 0.04, 1e-12);            /* min(0.03*3/2, 0.04) */
}

static void test_spread(void **state)
{
	const double v[] = { 1, 2, 3, 4, 5 };
	struct spread s;

	spread_of(v, 5, 0.95, &s);
	assert_int_equal(s.n, 5);
	assert_near(s.mean, 3, 1e-12);
	assert_near(s.sd, sqrt(2.5), 1e-12);
	assert_near(s.half, 2.77644510519779 * sqrt(2.5) / sqrt(5), 1e-9);
	assert_near(s.se, sqrt(2.5) / sqrt(5), 1e-12);
	assert_near(spread_rel_pct(&s), 100 * s.half / 3, 1e-9);
	/* one window: a mean, no spread */
	spread_of(v, 1, 0.95, &s);
	assert_near(s.mean, 1, 0);
	assert_near(s.sd, 0, 0);
	assert_near(s.half, 0, 0);
	/* a higher level gives a wider interval from the same numbers */
	{
		struct spread a, b;

		spread_of(v, 5, 0.90, &a);
		spread_of(v, 5, 0.99, &b);
		assert_true(a.half < b.half);
	}
}

/* A NaN is a window that tells nothing: left out of n, mean and sd. */
static void test_spread_unknown(void **state)
{
	const double v[] = { 1, NAN, 2, 3, NAN, 4, 5 }, none[] = { NAN, NAN };
	struct spread s;

	spread_of(v, 7, 0.95, &s);
	assert_int_equal(s.n, 5);
	assert_near(s.mean, 3, 1e-12);
	assert_near(s.sd, sqrt(2.5), 1e-12);
	assert_near(s.half, 2.77644510519779 * sqrt(2.5) / sqrt(5), 1e-9);
	assert_near(s.se, sqrt(2.5) / sqrt(5), 1e-12);
	spread_of(v, 7, 0, &s);		/* no interval asked */
	assert_near(s.half, 0, 0);
	spread_of(none, 2, 0.95, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.mean == 0 && s.sd == 0 && s.half == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_student_t_p),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_spread_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
