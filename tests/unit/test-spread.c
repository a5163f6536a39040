// SPDX-License-Identifier: GPL-2.0-only
#include "reports/spread.h"

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

/* Table values, and the expansion for levels and df outside the table,
 * against published critical values. */
static void test_student_t(void **state)
{
	assert_near(student_t(0.95, 1), 12.706, 1e-9);
	assert_near(student_t(0.95, 4), 2.776, 1e-9);
	assert_near(student_t(0.99, 9), 3.250, 1e-9);
	assert_near(student_t(0.90, 30), 1.697, 1e-9);
	assert_near(student_t(0.95, 60), 2.000, 2e-3);
	assert_near(student_t(0.95, 120), 1.980, 2e-3);
	assert_near(student_t(0.99, 1000), 2.581, 2e-3);
	assert_near(student_t(0.98, 10), 2.764, 5e-3);
	assert_near(student_t(0.80, 5), 1.476, 5e-3);
	assert_true(isnan(student_t(0.95, 0)));
}

static void test_spread(void **state)
{
	const double v[] = { 1, 2, 3, 4, 5 };
	struct spread s;

	spread_of(v, 5, 0.95, &s);
	assert_int_equal(s.n, 5);
	assert_near(s.mean, 3, 1e-12);
	assert_near(s.sd, sqrt(2.5), 1e-12);
	assert_near(s.half, 2.776 * sqrt(2.5) / sqrt(5), 1e-9);
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
	assert_near(s.half, 2.776 * sqrt(2.5) / sqrt(5), 1e-9);
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
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_spread_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
