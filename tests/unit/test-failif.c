// SPDX-License-Identifier: GPL-2.0-only
/* reports/diff/failif.c: the --fail-if parser and its evaluation on a diff
 * of the fixture profiles (diff-a -> diff-b). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "diff-fixture.h"
#include "reports/diff/failif.h"

static void test_parse(void **state)
{
	struct failif f;

	assert_int_equal(failif_parse("bucket:udp > +5%", &f), 0);
	assert_int_equal(f.target, FAILIF_BUCKET);
	assert_string_equal(f.name, "udp");
	assert_int_equal(f.op, FAILIF_GT);
	assert_true(f.relative && fabs(f.value - 0.05) < 1e-12);
	failif_free(&f);
	assert_int_equal(failif_parse("latency>=+1us", &f), 0);
	assert_int_equal(f.target, FAILIF_LATENCY);
	assert_int_equal(f.op, FAILIF_GE);
	assert_true(f.time && f.value == 1000);
	failif_free(&f);
	assert_int_equal(failif_parse("  total <= -200 ", &f), 0);
	assert_int_equal(f.op, FAILIF_LE);
	assert_true(f.value == -200 && !f.relative && !f.time);
	failif_free(&f);
	assert_int_equal(failif_parse("function:udp_sendmsg.isra.0 < 3", &f), 0);
	assert_string_equal(f.name, "udp_sendmsg.isra.0");
	failif_free(&f);
	/* each of these is refused */
	assert_int_equal(failif_parse("udp > 5%", &f), -1);
	assert_int_equal(failif_parse("bucket: > 5", &f), -1);
	assert_int_equal(failif_parse("total = 5", &f), -1);
	assert_int_equal(failif_parse("total > ", &f), -1);
	assert_int_equal(failif_parse("total > 5 apples", &f), -1);
	assert_int_equal(failif_parse("latency > 1us%", &f), -1);
	assert_int_equal(failif_parse("", &f), -1);
}

static int eval_missing(struct diff *d, const char *expr, double *delta,
			int allow_missing)
{
	struct failif f;
	int r;

	assert_int_equal(failif_parse(expr, &f), 0);
	f.allow_missing = allow_missing;
	r = failif_eval(&f, d, 1, delta, NULL);
	failif_free(&f);
	return r;
}

static int eval(struct diff *d, const char *expr, double *delta)
{
	return eval_missing(d, expr, delta, 0);
}

static void test_eval(void **state)
{
	static const char *const names[] = { "diff-a", "diff-b" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff f;
	double dl;

	assert_int_equal(fixture_diff_open(&f, names, 2, &o), 0);
	/* total +500 ns/RT, busy +5500, udp bucket +3000 = +13.6% */
	assert_int_equal(eval(&f.d, "total > +200", &dl), 1);
	assert_true(dl == 500);
	assert_int_equal(eval(&f.d, "total > +500", &dl), 0);
	assert_int_equal(eval(&f.d, "total >= +500", &dl), 1);
	assert_int_equal(eval(&f.d, "busy > 5us", &dl), 1);
	assert_int_equal(eval(&f.d, "bucket:udp > +5%", &dl), 1);
	assert_true(fabs(dl - 3000.0 / 22000) < 1e-12);
	assert_int_equal(eval(&f.d, "bucket:udp > +20%", &dl), 0);
	assert_int_equal(eval(&f.d, "bucket:idle < -30%", &dl), 1);
	/* the folded name matches */
	assert_int_equal(eval(&f.d, "function:udp_sendmsg.isra.0 > +2999", &dl), 1);
	/* from nothing to something is an infinite rise */
	assert_int_equal(eval(&f.d, "function:bpf_prog_run > +1000%", &dl), 1);
	/* a name in no profile is an error, unless --allow-missing: then
	 * it moved by nothing */
	assert_int_equal(eval(&f.d, "function:no_such_fn > 0", &dl), -1);
	assert_int_equal(eval(&f.d, "bucket:no_such_bucket < 0", &dl), -1);
	assert_int_equal(eval_missing(&f.d, "function:no_such_fn > 0", &dl, 1), 0);
	assert_int_equal(eval_missing(&f.d, "function:no_such_fn >= 0", &dl, 1), 1);
	assert_int_equal(eval(&f.d, "latency > +1us", &dl), 1);
	assert_true(dl == 6000);
	assert_int_equal(eval(&f.d, "latency > +6.5us", &dl), 0);
	fixture_diff_close(&f);
}

/* With windows, the marks' basis: +1000 inside the noise passes the
 * limit but does not hold; +4000 beyond it does. */
static void test_eval_noise(void **state)
{
	static const char *const noise[] = { "rep-a", "rep-noise" };
	static const char *const shift[] = { "rep-a", "rep-shift" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff f;
	struct failif c;
	double dl;
	int in_noise;

	assert_int_equal(failif_parse("function:udp_sendmsg > +500", &c), 0);
	assert_int_equal(fixture_diff_open(&f, noise, 2, &o), 0);
	assert_int_equal(failif_eval(&c, &f.d, 1, &dl, &in_noise), 0);
	assert_true(dl == 1000 && in_noise == 1);
	fixture_diff_close(&f);
	assert_int_equal(fixture_diff_open(&f, shift, 2, &o), 0);
	assert_int_equal(failif_eval(&c, &f.d, 1, &dl, &in_noise), 1);
	assert_true(dl == 4000 && in_noise == 0);
	fixture_diff_close(&f);
	failif_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_eval_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
