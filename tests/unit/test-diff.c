// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/diff/diff-model.c: exact deltas of the fixture profiles, deltas adding
 * up to the totals, suffix folding, aliases, [other], significance
 * marks from repeats (Welch) and from sampling error (Poisson).
 */
#include <math.h>
#include <string.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "diff-fixture.h"

static const struct diff_row *row(const struct diff_view *v, const char *n)
{
	const struct diff_row *r = diff_find(v, n);

	if (!r)
		fail_msg("no row '%s'", n);
	return r;
}

static void test_known_deltas(void **state)
{
	static const char *const names[] = { "diff-a", "diff-b" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff f;
	const struct diff_row *r;
	double sum = 0;
	size_t i;

	assert_int_equal(fixture_diff_open(&f, names, 2, &o), 0);
	assert_string_equal(f.d.unit, "ns");
	r = row(&f.d.functions, "udp_sendmsg");
	assert_true(r->cell[0].value == 12000 && r->cell[1].value == 15000);
	assert_true(r->cmp[1].delta == 3000);
	assert_true(fabs(r->cmp[1].rel - 0.25) < 1e-12);
	/* 3000 is 5.8 Poisson sd, but one window a side: nothing measured
	 * what moves between runs, so no test and no mark, said once */
	assert_int_equal(r->cmp[1].mark, 0);
	assert_false(r->cmp[1].from_repeats);
	assert_non_null(f.d.untested);
	assert_non_null(strstr(f.d.untested, "one window"));
	/* .isra.0 in A and .constprop.0 in B are one function */
	r = row(&f.d.functions, "udp_recvmsg");
	assert_true(r->cell[0].present && r->cell[1].present);
	assert_true(r->cmp[1].delta == 0);
	assert_int_equal(r->cmp[1].mark, 0);
	/* 500 / 255 = 1.96 sd: not marked */
	r = row(&f.d.functions, "ip_local_out");
	assert_false(r->cell[0].present);
	assert_int_equal(r->cmp[1].rel == DIFF_NO_REL, 1);
	r = row(&f.d.functions, "nf_hook_slow");
	assert_true(r->cell[0].present && !r->cell[1].present);
	assert_true(r->cmp[1].delta == -2000);
	for (i = 0; i < f.d.functions.n; i++)
		sum += f.d.functions.rows[i].cmp[1].delta;
	assert_true(sum == f.d.total.cmp[1].delta);
	assert_true(f.d.total.cmp[1].delta == 500);
	assert_true(f.d.busy.cmp[1].delta == 5500);
	assert_true(f.d.latency[1].delta == 6000);
	r = row(&f.d.buckets, "scheduler");
	assert_true(r->cmp[1].delta == 3000);
	fixture_diff_close(&f);
}

static void test_alias_and_other(void **state)
{
	static const char *const names[] = { "diff-a", "diff-b" };
	char path[] = "/tmp/perpkt-alias-XXXXXX";
	struct diff_options o = { .by = MODEL_BY_FUNCTION, .limit = 3 };
	struct fixture_diff f;
	const struct diff_row *r;
	double sum;
	size_t i;
	int fd = mkstemp(path);
	FILE *a = fdopen(fd, "w");

	assert_non_null(a);
	fputs("# renamed in B\nip_local_out_sk ip_local_out\n", a);
	fclose(a);
	o.alias_file = path;
	assert_int_equal(fixture_diff_open(&f, names, 2, &o), 0);
	unlink(path);
	r = row(&f.d.functions, "ip_local_out");
	assert_true(r->cell[0].present && r->cell[1].present);
	assert_true(r->cmp[1].delta == 500);
	assert_int_equal(r->cmp[1].mark, 0);
	assert_null(diff_find(&f.d.functions, "ip_local_out_sk"));
	/* three shown, the rest in [other]: still adds up */
	assert_int_equal(f.d.functions.shown, 3);
	sum = f.d.functions.other.cmp[1].delta;
	for (i = 0; i < f.d.functions.shown; i++)
		sum += f.d.functions.rows[i].cmp[1].delta;
	assert_true(fabs(sum - f.d.total.cmp[1].delta) < 1e-9);
	fixture_diff_close(&f);
}

static void test_significance_repeats(void **state)
{
	static const char *const names[] = { "rep-a", "rep-noise", "rep-shift" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff f;
	const struct diff_row *r;

	assert_int_equal(fixture_diff_open(&f, names, 3, &o), 0);
	r = row(&f.d.functions, "udp_sendmsg");
	assert_true(r->cell[0].rep && r->cell[0].nrep == 4);
	assert_true(fabs(r->cell[0].sd - 816.496580927726) < 1e-6);
	/* +1000 inside the noise: 1000 / 577 = 1.7 sd. Poisson alone
	 * would have said 2.1 sd: the repeats decide. */
	assert_true(r->cmp[1].from_repeats);
	assert_true(fabs(r->cmp[1].sigma - 577.3502691896) < 1e-6);
	assert_int_equal(r->cmp[1].mark, 0);
	/* +4000 well outside: 6.9 sd */
	assert_true(r->cmp[2].delta == 4000);
	assert_int_equal(r->cmp[2].mark, 2);
	/* no change and no spread: no mark */
	r = row(&f.d.functions, "finish_task_switch");
	assert_int_equal(r->cmp[2].mark, 0);
	/* the test is Welch's t (its df between the sides' n-1 and their
	 * sum) and the mark stands on the row's BH-adjusted q, never
	 * below its own p */
	r = row(&f.d.functions, "udp_sendmsg");
	assert_true(r->cmp[2].df >= 3 - 1e-9 && r->cmp[2].df <= 6 + 1e-9);
	assert_true(r->cmp[2].p < 0.01);
	assert_true(r->cmp[2].q >= r->cmp[2].p && r->cmp[2].q < DIFF_FDR_2);
	assert_null(f.d.untested);
	assert_true(f.d.tested[2] > 0);
	fixture_diff_close(&f);
}

/* --limit never hides a marked row: it is what the diff is for */
static void test_limit_keeps_marked(void **state)
{
	static const char *const names[] = { "rep-a", "rep-shift" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION, .limit = 1 };
	struct fixture_diff f;
	size_t i, marked = 0, shown_marked = 0;

	assert_int_equal(fixture_diff_open(&f, names, 2, &o), 0);
	for (i = 0; i < f.d.functions.n; i++)
		marked += f.d.functions.rows[i].cmp[1].mark > 0;
	for (i = 0; i < f.d.functions.shown; i++)
		shown_marked += f.d.functions.rows[i].cmp[1].mark > 0;
	assert_true(marked > 0);
	assert_int_equal(shown_marked, marked);
	assert_int_equal(f.d.functions.other.cmp[1].mark, 0);
	fixture_diff_close(&f);
}

static void test_refusals(void **state)
{
	static const char *const zero[] = { "diff-a", "zero-rt" };
	static const char *const mixed[] = { "diff-a", "hw-mux" };
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff f;

	assert_int_equal(fixture_diff_open(&f, zero, 2, &o), -1);
	fixture_diff_close(&f);
	assert_int_equal(fixture_diff_open(&f, mixed, 2, &o), -1);
	fixture_diff_close(&f);
	o.ghz = 2;
	assert_int_equal(fixture_diff_open(&f, mixed, 2, &o), 0);
	/* hw-mux: udp_sendmsg 1000 samples x 200000 cycles / 1000 RTs
	 * = 200000 cycles = 100000 ns at 2 GHz */
	assert_true(fabs(diff_find(&f.d.functions, "udp_sendmsg")->cell[1].value -
			 100000) < 1e-6);
	fixture_diff_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_deltas),
		cmocka_unit_test(test_alias_and_other),
		cmocka_unit_test(test_significance_repeats),
		cmocka_unit_test(test_limit_keeps_marked),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
