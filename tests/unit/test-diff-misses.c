// SPDX-License-Identifier: GPL-2.0-only
/*
 * A diff of exact profiles with a cache model (reports/diff/diff-misses.c):
 * what kind of change a comparison is, from the totals' instructions and
 * misses per round trip (the same instructions and other L1I misses: a
 * layout change; other instructions: the code), the words for it, and
 * --fail-if on the misses.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "reports/diff/diff.h"
#include "reports/diff/failif.h"

static struct model models[2];
static struct diff d;

/* Two deterministic exact profiles: insns and misses (L1I, L1D, L2)
 * per round trip of A, then of B */
static void make(double ia, double a1, double a2, double a3,
		 double ib, double b1, double b2, double b3)
{
	size_t i;

	memset(&d, 0, sizeof(d));
	memset(models, 0, sizeof(models));
	d.n = 2;
	d.per = "round trip";
	d.unit = "instructions";
	for (i = 0; i < 2; i++) {
		models[i].run.exact = 1;
		models[i].run.icount_shift = 1;
		models[i].calls_known = 1;
		d.prof[i].m = &models[i];
		d.prof[i].path = i ? "b.json" : "a.json";
		d.total.cell[i].misses_known = 1;
	}
	d.total.cell[0].value = ia;
	d.total.cell[1].value = ib;
	d.total.cmp[1].delta = ib - ia;
	d.total.cmp[1].rel = (ib - ia) / ia;
	d.total.cell[0].misses[0] = a1, d.total.cell[0].misses[1] = a2;
	d.total.cell[0].misses[2] = a3;
	d.total.cell[1].misses[0] = b1, d.total.cell[1].misses[1] = b2;
	d.total.cell[1].misses[2] = b3;
	diff_misses_compare(&d);
}

static void test_kinds(void **state)
{
	char buf[512];

	(void)state;
	/* the alignment commit: instructions to the last one the same */
	make(24751.8, 1971.65, 211.76, 55.69, 24751.8, 2009.65, 211.76, 55.69);
	assert_true(d.misses_known);
	assert_int_equal(d.change[1], DIFF_CHANGE_LAYOUT);
	assert_true(fabs(d.misses[0][1].delta - 38.0) < 1e-9);
	assert_int_equal(d.misses[0][1].mark, 2);   /* exact: a change is a change */
	assert_int_equal(d.misses[1][1].mark, 0);
	diff_change_words(&d, 1, buf, sizeof(buf));
	assert_string_equal(buf, "same instructions per round trip; L1I misses +38.0 "
			    "(+1.9%) (L1D +0.0 (+0.0%), L2 +0.0 (+0.0%)): a "
			    "layout/alignment change");
	assert_string_equal(diff_change_name(d.change[1]), "layout");
	/* padding executed: 0.01% more instructions, 2% more L1I misses */
	make(10000, 1000, 100, 10, 10001, 1020, 100, 10);
	assert_int_equal(d.change[1], DIFF_CHANGE_LAYOUT);
	diff_change_words(&d, 1, buf, sizeof(buf));
	assert_non_null(strstr(buf, "mostly a layout/alignment change"));
	/* ... but misses moving no more than the instructions: the code */
	make(10000, 1000, 100, 10, 10001, 1000.2, 100, 10);
	assert_int_equal(d.change[1], DIFF_CHANGE_CODE);
	/* the udp_sendmsg commit: 128 calls more */
	make(16683, 1500, 200, 50, 17451, 1502, 200, 50);
	assert_int_equal(d.change[1], DIFF_CHANGE_CODE);
	diff_change_words(&d, 1, buf, sizeof(buf));
	assert_non_null(strstr(buf, "instructions per round trip +768.0 (+4.6%): a "
			       "change in the code executed"));
	/* nothing moved; only the data's misses moved */
	make(10000, 1000, 100, 10, 10000, 1000, 100, 10);
	assert_int_equal(d.change[1], DIFF_CHANGE_NONE);
	make(10000, 1000, 100, 10, 10000, 1000, 90, 9);
	assert_int_equal(d.change[1], DIFF_CHANGE_DATA);
	/* a profile without the model: nothing to say */
	make(10000, 1000, 100, 10, 10000, 1001, 100, 10);
	d.total.cell[1].misses_known = 0;
	diff_misses_compare(&d);
	assert_false(d.misses_known);
}

static void test_failif(void **state)
{
	struct failif f;
	double delta;
	int noise;

	(void)state;
	make(24751.8, 1971.65, 211.76, 55.69, 24751.8, 2009.65, 211.76, 55.69);
	assert_int_equal(failif_parse("l1i-misses > +10", &f), 0);
	assert_int_equal(f.target, FAILIF_MISSES);
	assert_int_equal(failif_eval(&f, &d, 1, &delta, &noise), 1);
	assert_true(fabs(delta - 38.0) < 1e-9);
	failif_free(&f);
	assert_int_equal(failif_parse("l1i-misses > +2%", &f), 0);
	assert_int_equal(failif_eval(&f, &d, 1, &delta, &noise), 0);  /* +1.9% */
	failif_free(&f);
	assert_int_equal(failif_parse("l2-misses > 0", &f), 0);
	assert_int_equal(f.pct, 2);
	assert_int_equal(failif_eval(&f, &d, 1, &delta, &noise), 0);
	failif_free(&f);
	/* the instructions did not move: 'total' does not hold */
	assert_int_equal(failif_parse("total > 0", &f), 0);
	failif_free(&f);
	assert_int_equal(failif_parse("l3-misses > 0", &f), -1);
	assert_int_equal(failif_parse("l1i-misses > 1us", &f), 0);
	assert_int_equal(failif_eval(&f, &d, 1, &delta, &noise), -1);
	failif_free(&f);
	/* without a cache model in both, an error, never a verdict */
	d.misses_known = 0;
	assert_int_equal(failif_parse("l1d-misses > 0", &f), 0);
	assert_int_equal(failif_eval(&f, &d, 1, &delta, &noise), -1);
	failif_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_failif),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
