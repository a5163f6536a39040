// SPDX-License-Identifier: GPL-2.0-only
/* reports/flame/flame.c: the tree of a report's and a diff's flame graph, on
 * the committed fixtures (make-fixtures.py, make-flame-fixtures.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <unistd.h>
#include <cmocka.h>

#include "diff-fixture.h"
#include "reports/flame/flame.h"

/* The node at "a;b;c" (root excluded), or NULL. */
static const struct flame_node *at(const struct flame *f, const char *path)
{
	char buf[512], *tok, *save = NULL;
	size_t n = 0, c;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		for (c = f->nodes[n].child; c; c = f->nodes[c].next)
			if (!strcmp(f->nodes[c].name, tok))
				break;
		if (!c)
			return NULL;
		n = c;
	}
	return &f->nodes[n];
}

/* Every frame: children add up to at most the parent, lie inside it,
 * in name order, side by side. */
static void check_tree(const struct flame *f)
{
	size_t i, c;

	for (i = 0; i < f->n; i++) {
		const struct flame_node *n = &f->nodes[i];
		double sum = n->self[0], x = n->x;
		const char *prev = "";

		for (c = n->child; c; c = f->nodes[c].next) {
			assert_true(strcmp(prev, f->nodes[c].name) < 0);
			prev = f->nodes[c].name;
			assert_true(fabs(f->nodes[c].x - x) < 1e-6);
			x += f->nodes[c].value[0];
			sum += f->nodes[c].value[0];
			assert_int_equal(f->nodes[c].depth, n->depth + 1);
		}
		assert_true(fabs(sum - n->value[0]) < 1e-6);
	}
}

static void test_report_tree(void **state)
{
	struct profile p;
	struct symbolizer *s;
	struct symsource src = { 0 };
	struct model m;
	struct flame f;
	const struct flame_node *n;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/profiles/sw-clock.json", FIXTURES_DIR);
	assert_int_equal(profile_read(&p, path), 0);
	assert_int_equal(symsource_open(&s, &src, &p, NULL), 0);
	assert_int_equal(model_build(&m, &p, s), 0);
	assert_int_equal(flame_build(&f, &m), 0);
	assert_true(f.stacks);
	check_tree(&f);
	/* sw-clock's stacks: 12 + 8 + 10 + 7 + 3 us per round trip */
	assert_true(fabs(f.nodes[0].value[0] - 40000) < 1e-6);
	n = at(&f, "entry_SYSCALL_64;__x64_sys_sendto;udp_sendmsg");
	assert_non_null(n);
	assert_true(fabs(n->value[0] - 20000) < 1e-6);
	assert_true(fabs(n->self[0] - 12000) < 1e-6);
	assert_string_equal(n->bucket, "udp");
	assert_true(fabs(flame_share(&f, n) - 0.5) < 1e-9);
	/* the folded name, one frame whatever the suffix */
	assert_non_null(at(&f, "entry_SYSCALL_64;__x64_sys_recvfrom;udp_recvmsg"));
	assert_null(flame_no_stacks_note(&f));
	flame_free(&f);
	model_free(&m);
	symbolizer_close(s);
	profile_free(&p);
}

/* The legend is the model's buckets, shares of busy, idle left out;
 * a bucket's colour is fixed, not its rank's (issue 49). */
static void test_legend(void **state)
{
	struct profile p;
	struct symbolizer *s;
	struct symsource src = { 0 };
	struct model m;
	struct flame f;
	const struct model *w;
	double sum = 0;
	size_t i;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/profiles/sw-clock.json", FIXTURES_DIR);
	assert_int_equal(profile_read(&p, path), 0);
	assert_int_equal(symsource_open(&s, &src, &p, NULL), 0);
	assert_int_equal(model_build(&m, &p, s), 0);
	assert_int_equal(flame_build(&f, &m), 0);
	w = model_workload(&m);
	assert_true(f.nbuckets > 1);
	for (i = 0; i < f.nbuckets; i++) {
		const struct model_row *r = model_bucket(w, f.buckets[i].name);

		assert_non_null(r);
		assert_string_not_equal(f.buckets[i].name, MODEL_IDLE_BUCKET);
		assert_true(fabs(f.buckets[i].share -
				 r->per_rt[0] / w->busy.per_rt[0]) < 1e-12);
		if (i)
			assert_true(f.buckets[i].share <= f.buckets[i - 1].share);
		sum += f.buckets[i].share;
	}
	/* every busy bucket is listed: the shares make the whole */
	assert_true(fabs(sum - 1) < 1e-9);
	/* sw-clock: udp 48% of busy, while its stacks hold 72% in udp */
	assert_string_equal(f.buckets[0].name, "udp");
	assert_true(fabs(f.buckets[0].share - 0.48) < 0.005);
	assert_string_equal(flame_bucket_color("udp"), "#eeca3b");
	assert_string_equal(flame_bucket_color("scheduler"), "#e45756");
	/* a bucket of one's own rules: the same colour every time */
	assert_string_equal(flame_bucket_color("my-bucket"),
			    flame_bucket_color("my-bucket"));
	assert_true(flame_bucket_color("my-bucket")[0] == '#');
	flame_free(&f);
	model_free(&m);
	symbolizer_close(s);
	profile_free(&p);
}

static void test_one_level(void **state)
{
	struct profile p;
	struct symbolizer *s;
	struct symsource src = { 0 };
	struct model m;
	struct flame f;
	size_t i;
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/profiles/hw-mux.json", FIXTURES_DIR);
	assert_int_equal(profile_read(&p, path), 0);
	assert_int_equal(symsource_open(&s, &src, &p, NULL), 0);
	assert_int_equal(model_build(&m, &p, s), 0);
	assert_int_equal(flame_build(&f, &m), 0);
	assert_false(f.stacks);
	assert_non_null(flame_no_stacks_note(&f));
	check_tree(&f);
	for (i = 1; i < f.n; i++) {
		assert_true(f.nodes[i].depth <= 2);
		/* the idle loop is no part of it */
		assert_string_not_equal(f.nodes[i].name, "default_idle");
	}
	assert_non_null(at(&f, "udp;udp_sendmsg"));
	assert_string_equal(at(&f, "udp;udp_sendmsg")->bucket, "udp");
	flame_free(&f);
	model_free(&m);
	symbolizer_close(s);
	profile_free(&p);
}

static void test_diff_tree(void **state)
{
	static const char *const names[] = { "flame-a", "flame-b" };
	char path[] = "/tmp/perpkt-flame-alias-XXXXXX";
	struct diff_options o = { .by = MODEL_BY_FUNCTION };
	struct fixture_diff fd;
	struct flame f;
	const struct flame_node *n;
	const char *xmit = "entry_SYSCALL_64;__x64_sys_sendto;udp_sendmsg;"
			   "ip_local_out;ip_output;ip_finish_output2;__dev_queue_xmit";
	char buf[512];
	size_t i;
	int fdesc = mkstemp(path);
	FILE *a = fdopen(fdesc, "w");

	(void)state;
	assert_non_null(a);
	fputs("ip_local_out_sk ip_local_out\n", a);
	fclose(a);
	o.alias_file = path;
	assert_int_equal(fixture_diff_open(&fd, names, 2, &o), 0);
	unlink(path);
	assert_int_equal(flame_build_diff(&f, &fd.d, 1), 0);
	assert_true(f.diff && f.stacks);
	check_tree(&f);
	/* the planted classifier: new, its own time all change */
	snprintf(buf, sizeof(buf), "%s;tc_run;tcf_classify;u32_classify", xmit);
	n = at(&f, buf);
	assert_non_null(n);
	assert_true(n->value[1] == 0 && fabs(n->self[0] - 9000) < 1e-6);
	assert_true(fabs(n->cmp.delta - 9000) < 1e-6);
	/* its function's mark in the table, tested across the windows */
	assert_int_equal(n->cmp.mark, 2);
	assert_int_equal(n->cmp.mark,
			 diff_find(&fd.d.functions, "u32_classify")->cmp[1].mark);
	assert_true(fabs(f.max_self_delta - 9000) < 1e-6);
	/* an ancestor that only contains the growth has no change of its own */
	n = at(&f, xmit);
	assert_non_null(n);
	assert_true(fabs(n->cmp.delta) < 1e-6);
	assert_true(fabs(n->value[0] - n->value[1] - 11500) < 1e-6);
	/* 8000 -> 8500 inside its windows' 12% spread: no mark */
	n = at(&f, "entry_SYSCALL_64;__x64_sys_sendto;udp_sendmsg");
	assert_true(fabs(n->cmp.delta - 500) < 1e-6);
	assert_int_equal(n->cmp.mark, 0);
	/* matched as the table matches: the alias, the folded suffix */
	assert_null(at(&f, "entry_SYSCALL_64;__x64_sys_sendto;udp_sendmsg;ip_local_out_sk"));
	n = at(&f, "entry_SYSCALL_64;__x64_sys_recvfrom;udp_recvmsg");
	assert_true(n && n->value[0] > 0 && n->value[1] > 0);
	/* what B lost, listed once at its outermost frame */
	assert_int_equal(f.ngone, 1);
	assert_string_equal(f.gone[0].path,
		"entry_SYSCALL_64;__x64_sys_sendto;udp_sendmsg;ip_local_out;nf_hook_slow");
	assert_true(fabs(f.gone[0].value - 3000) < 1e-6);
	/* the idle loop is left out on both sides */
	for (i = 1; i < f.n; i++)
		assert_string_not_equal(f.nodes[i].name, "default_idle");
	flame_free(&f);
	fixture_diff_close(&fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_tree),
		cmocka_unit_test(test_legend),
		cmocka_unit_test(test_one_level),
		cmocka_unit_test(test_diff_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
