// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact mode's calls and call paths: the plugin's following of blocks
 * (src/lab/plugin/callpath.c, built into this test as the plugin has
 * it) on synthetic block sequences, and a synthetic counts file read
 * and folded into a profile (src/lab/exact-counts.c, exact-paths.c):
 * the calls (tail calls included, loops back not), the stacks, and the
 * check that paths add up to the per-address counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lab/exact-counts.h"
#include "lab/plugin/callpath.c"

#define K 0xffffffff81000000ULL

static struct callpath_block blk(uint32_t id, uint64_t start, uint64_t last, uint64_t next,
				 enum callpath_kind kind, uint64_t target)
{
	return (struct callpath_block){ start, last, next, target, id, (uint8_t)kind,
					(uint8_t)(start >> 63) };
}

/* The count on (node, block id), 0 if none. */
static uint64_t count_of(const struct callpath_vcpu *c, uint32_t node, uint32_t id)
{
	uint64_t key = ((uint64_t)node << 32 | id) + 1;
	size_t i;

	for (i = 0; i < c->countcap; i++)
		if (c->counts[i].key == key)
			return c->counts[i].n;
	return 0;
}

static void test_classify_x86(void **state)
{
	struct callpath_block b = { .last = K + 0x10, .next = K + 0x15 };
	const unsigned char call[] = { 0xe8, 0x10, 0, 0, 0 }, ret[] = { 0xc3 },
			    icall[] = { 0xff, 0xd0 }, ijmp[] = { 0xff, 0xe0 },
			    jcc[] = { 0x0f, 0x84, 0xf0, 0xff, 0xff, 0xff },
			    iret[] = { 0x48, 0xcf }, mov[] = { 0x48, 0x89, 0xc7 },
			    jmp8[] = { 0xeb, 0xfe };

	(void)state;
	callpath_classify(&b, call, sizeof(call), 0);
	assert_int_equal(b.kind, CP_CALL);
	assert_true(b.target == K + 0x25);
	callpath_classify(&b, ret, sizeof(ret), 0);
	assert_int_equal(b.kind, CP_RET);
	callpath_classify(&b, icall, sizeof(icall), 0);
	assert_int_equal(b.kind, CP_ICALL);
	callpath_classify(&b, ijmp, sizeof(ijmp), 0);
	assert_int_equal(b.kind, CP_IJUMP);
	callpath_classify(&b, jcc, sizeof(jcc), 0);
	assert_int_equal(b.kind, CP_BRANCH);
	assert_true(b.target == K + 0x15 - 0x10);
	callpath_classify(&b, iret, sizeof(iret), 0);
	assert_int_equal(b.kind, CP_IRET);
	callpath_classify(&b, mov, sizeof(mov), 0);
	assert_int_equal(b.kind, CP_NEXT);
	callpath_classify(&b, jmp8, sizeof(jmp8), 0);
	assert_int_equal(b.kind, CP_JUMP);
	assert_true(b.target == K + 0x13);
}

static void test_classify_a64(void **state)
{
	struct callpath_block b = { .last = K + 0x100, .next = K + 0x104 };
	/* bl -4, ret, blr x1, eret */
	const unsigned char bl[] = { 0xff, 0xff, 0xff, 0x97 }, ret[] = { 0xc0, 0x03, 0x5f, 0xd6 },
			    blr[] = { 0x20, 0x00, 0x3f, 0xd6 }, eret[] = { 0xe0, 0x03, 0x9f, 0xd6 };

	(void)state;
	callpath_classify(&b, bl, 4, 1);
	assert_int_equal(b.kind, CP_CALL);
	assert_true(b.target == K + 0xfc);
	callpath_classify(&b, ret, 4, 1);
	assert_int_equal(b.kind, CP_RET);
	callpath_classify(&b, blr, 4, 1);
	assert_int_equal(b.kind, CP_ICALL);
	callpath_classify(&b, eret, 4, 1);
	assert_int_equal(b.kind, CP_IRET);
	assert_int_equal(callpath_stack_op((const unsigned char *)"\x48\x89\xa7\xd8\x14\x00\x00", 7, 0), 1);
	assert_int_equal(callpath_stack_op((const unsigned char *)"\x48\x89\x24\x24", 4, 0), 0);
}

/*
 * user -> entry E (calls F) -> F (calls G; G loops to itself once, is
 * interrupted, returns) -> F's rest (returns) -> E's rest -> user. The
 * interrupt I comes between G's loop and G's return block.
 */
static void test_follow(void **state)
{
	struct callpath_block u = blk(0, 0x400000, 0x400010, 0x400012, CP_ANY, 0);
	struct callpath_block e = blk(1, K + 0x000, K + 0x010, K + 0x015, CP_CALL, K + 0x100);
	struct callpath_block f = blk(2, K + 0x100, K + 0x110, K + 0x115, CP_CALL, K + 0x200);
	struct callpath_block g = blk(3, K + 0x200, K + 0x208, K + 0x20a, CP_BRANCH, K + 0x200);
	struct callpath_block g2 = blk(4, K + 0x20a, K + 0x20a, K + 0x20b, CP_RET, 0);
	struct callpath_block f2 = blk(5, K + 0x115, K + 0x118, K + 0x119, CP_RET, 0);
	struct callpath_block e2 = blk(6, K + 0x015, K + 0x020, K + 0x023, CP_ANY, 0);
	struct callpath_block irq = blk(7, K + 0x900, K + 0x910, K + 0x912, CP_IRET, 0);
	struct callpath_vcpu c;

	(void)state;
	callpath_init(&c, 1);
	assert_int_equal(callpath_step(&c, &u), 0);
	assert_int_equal(callpath_step(&c, &e), 0);   /* entered from user */
	assert_int_equal(callpath_step(&c, &f), 1);   /* E called F */
	assert_int_equal(c.depth, 1);
	assert_int_equal(callpath_step(&c, &g), 1);   /* F called G */
	assert_int_equal(callpath_step(&c, &g), 0);   /* a loop back: no call */
	assert_int_equal(c.depth, 2);
	assert_int_equal(callpath_step(&c, &irq), 0); /* not where G leads */
	assert_int_equal(c.irqs, 1);
	assert_int_equal(c.depth, 3);
	assert_int_equal(callpath_step(&c, &g2), 0);  /* iret, then G's way on */
	assert_int_equal(c.depth, 2);
	assert_int_equal(callpath_step(&c, &f2), 0);  /* G returned into F */
	assert_int_equal(c.depth, 1);
	assert_int_equal(callpath_step(&c, &e2), 0);  /* F returned into E */
	assert_int_equal(c.depth, 0);
	assert_int_equal(c.node, 0);
	assert_int_equal(callpath_step(&c, &u), 0);
	assert_int_equal(c.calls, 2);
	assert_int_equal(c.unmatched, 0);
	assert_int_equal(c.resets, 0);
	/* paths: root, E>F (site E.last), E>F>G, E>F>G>irq */
	assert_int_equal(c.nnodes, 4);
	assert_true(c.nodes[1].site == e.last && c.nodes[1].parent == 0);
	assert_true(c.nodes[2].site == f.last && c.nodes[2].parent == 1);
	assert_true(c.nodes[3].site == g.last && c.nodes[3].parent == 2);
	assert_int_equal(count_of(&c, 0, e.id), 1);
	assert_int_equal(count_of(&c, 0, e2.id), 1);
	assert_int_equal(count_of(&c, 1, f.id), 1);
	assert_int_equal(count_of(&c, 1, f2.id), 1);
	assert_int_equal(count_of(&c, 2, g.id), 2);
	assert_int_equal(count_of(&c, 2, g2.id), 1);
	assert_int_equal(count_of(&c, 3, irq.id), 1);
	assert_int_equal(count_of(&c, 0, u.id), 0);    /* user blocks: none */
	callpath_free(&c);
}

/* A retpoline: E calls the thunk T, T "calls" 12 bytes on to R, R
 * returns to the target F: F is called once, its path is E's call. */
static void test_retpoline(void **state)
{
	struct callpath_block e = blk(0, K, K + 0x10, K + 0x15, CP_CALL, K + 0x800);
	struct callpath_block t = blk(1, K + 0x800, K + 0x800, K + 0x805, CP_CALL, K + 0x811);
	struct callpath_block r = blk(2, K + 0x811, K + 0x815, K + 0x816, CP_RET, 0);
	struct callpath_block f = blk(3, K + 0x100, K + 0x104, K + 0x105, CP_RET, 0);
	struct callpath_block e2 = blk(4, K + 0x15, K + 0x15, K + 0x17, CP_NEXT, 0);
	struct callpath_vcpu c;

	(void)state;
	callpath_init(&c, 1);
	callpath_step(&c, &e);
	assert_int_equal(callpath_step(&c, &t), 1);   /* the thunk, called */
	assert_int_equal(callpath_step(&c, &r), 0);   /* not a call of its own */
	assert_int_equal(callpath_step(&c, &f), 1);   /* the target, called */
	assert_int_equal(c.depth, 1);
	assert_int_equal(callpath_step(&c, &e2), 0);  /* F returned into E */
	assert_int_equal(c.depth, 0);
	assert_int_equal(c.unmatched, 0);
	assert_int_equal(count_of(&c, 1, f.id), 1);
	callpath_free(&c);
}

/* Two tasks switch on one vCPU: each takes up its own frames again. */
static void test_task_switch(void **state)
{
	/* S: schedule calls switch W; W returns to S's site (either task) */
	struct callpath_block a = blk(0, K + 0x000, K + 0x00, K + 0x05, CP_CALL, K + 0x300);
	struct callpath_block b = blk(1, K + 0x100, K + 0x100, K + 0x105, CP_CALL, K + 0x300);
	struct callpath_block s = blk(2, K + 0x300, K + 0x300, K + 0x305, CP_CALL, K + 0x500);
	struct callpath_block w = blk(3, K + 0x500, K + 0x500, K + 0x501, CP_RET, 0);
	struct callpath_block s2 = blk(4, K + 0x305, K + 0x305, K + 0x306, CP_RET, 0);
	struct callpath_block a2 = blk(5, K + 0x005, K + 0x005, K + 0x008, CP_NEXT, 0);
	struct callpath_block b2 = blk(6, K + 0x105, K + 0x105, K + 0x107, CP_JUMP, K + 0x100);
	struct callpath_vcpu c;

	(void)state;
	callpath_init(&c, 1);
	/* task A: a -> s -> w, switched out */
	callpath_step(&c, &a);
	callpath_step(&c, &s);
	callpath_step(&c, &w);
	callpath_park(&c, 0xa000);
	/* task B was parked before: nothing known; it returns to s2, then
	 * to b2 (no frame), calls s, w again and is switched out */
	callpath_step(&c, &s2);
	assert_int_equal(c.resumed, 0);
	callpath_step(&c, &b2);
	assert_int_equal(c.unmatched, 2);
	callpath_step(&c, &b);
	callpath_step(&c, &s);
	callpath_step(&c, &w);
	callpath_park(&c, 0xb000);
	/* A resumes: its frames, so s2 then a2 are returns it knows */
	callpath_step(&c, &s2);
	assert_int_equal(c.resumed, 1);
	assert_int_equal(c.depth, 1);
	callpath_step(&c, &a2);
	assert_int_equal(c.depth, 0);
	assert_int_equal(c.unmatched, 2);
	callpath_free(&c);
}

/* Two tasks parked with the same top frame: the one parked first is
 * taken up at the first return, the other when the next return is into
 * its frames, not the first's. */
static void test_narrow(void **state)
{
	struct callpath_block a = blk(0, K + 0x000, K + 0x000, K + 0x005, CP_CALL, K + 0x300);
	struct callpath_block cc = blk(1, K + 0x100, K + 0x100, K + 0x105, CP_CALL, K + 0x300);
	struct callpath_block bb = blk(2, K + 0x200, K + 0x200, K + 0x205, CP_CALL, K + 0x300);
	struct callpath_block s = blk(3, K + 0x300, K + 0x300, K + 0x305, CP_CALL, K + 0x500);
	struct callpath_block w = blk(4, K + 0x500, K + 0x500, K + 0x501, CP_RET, 0);
	struct callpath_block s2 = blk(5, K + 0x305, K + 0x305, K + 0x306, CP_RET, 0);
	struct callpath_block c2 = blk(6, K + 0x105, K + 0x105, K + 0x108, CP_NEXT, 0);
	struct callpath_vcpu c;
	uint32_t i, parked = 0;

	(void)state;
	callpath_init(&c, 1);
	callpath_step(&c, &a);   /* task A: a -> s -> w, out */
	callpath_step(&c, &s);
	callpath_step(&c, &w);
	callpath_park(&c, 0xa000);
	c.pending = 0;           /* (as if C came in from user space) */
	c.depth = c.node = 0;
	c.prev = NULL;
	callpath_step(&c, &cc);  /* task C: c -> s -> w, out */
	callpath_step(&c, &s);
	callpath_step(&c, &w);
	callpath_park(&c, 0xc000);
	c.pending = 0;
	c.depth = c.node = 0;
	c.prev = NULL;
	callpath_step(&c, &bb);  /* task B: b -> s -> w, out */
	callpath_step(&c, &s);
	callpath_step(&c, &w);
	callpath_park(&c, 0xb000);
	callpath_step(&c, &s2);  /* A's frames hold it, and C's: A, for now */
	assert_int_equal(c.resumed, 1);
	assert_non_null(c.tentative);
	assert_int_equal(c.tentative->key, 0xa000);
	callpath_step(&c, &c2);  /* into C's frames: it is C */
	assert_int_equal(c.retaken, 1);
	assert_null(c.tentative);
	assert_int_equal(c.depth, 0);
	assert_int_equal(c.unmatched, 0);
	for (i = 0; i < CALLPATH_TASKS; i++)
		parked |= c.tasks->slot[i].key == 0xa000 ? 1 :
			  c.tasks->slot[i].key == 0xc000 ? 2 : 0;
	assert_int_equal(parked, 1);  /* A still parked, C running */
	callpath_free(&c);
}

static char *write_file(const char *text)
{
	char *path = strdup("/tmp/perpkt-test-exact.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/*
 * Functions e (entry, 0x..000), f (0x..100) and g (0x..200): e calls f
 * 3 times; f jumps into g's start twice (a tail call) and g loops back
 * to its start 5 times (not a call).
 */
static const char counts_file[] =
	"perpkt-exact 3\ntarget x86_64\nvcpus 1\nmarks 1 1\nblocks 3\nwhole 1\npaths 1\n"
	"cpu 0 30 7\nfollow 0 3 0 0 0 0 0 0 0\n"
	"i ffffffff81000000 0 3\ni ffffffff81000005 0 3\n"
	"i ffffffff81000100 0 3\nc ffffffff81000100 0 3\n"
	"j ffffffff81000104 0 2 ffffffff81000200\n"
	"i ffffffff81000200 0 7\n"
	"j ffffffff81000204 0 5 ffffffff81000200\n"
	"n 0 1 0 ffffffff81000000\n"
	"s 0 0 ffffffff81000000 3\ns 0 0 ffffffff81000005 3\n"
	"s 0 1 ffffffff81000100 3\ns 0 1 ffffffff81000200 7\n"
	"end\n";
static const char kallsyms[] =
	"ffffffff81000000 T e\nffffffff81000100 t f\nffffffff81000200 T g\n"
	"ffffffff81000300 T h\n";

static void test_read_and_fold(void **state)
{
	char *cpath = write_file(counts_file), *kpath = write_file(kallsyms);
	struct profile_sample s[3];
	struct lab_exact x;
	struct profile p;
	size_t i;

	(void)state;
	assert_int_equal(lab_exact_read(cpath, &x), 0);
	assert_int_equal(x.paths, 1);
	assert_int_equal(x.ninsns, 4);
	assert_int_equal(x.npath, 4);
	assert_int_equal(x.njumps, 2);
	memset(&p, 0, sizeof(p));
	memset(s, 0, sizeof(s));
	/* the samples the fold made of x.insns, by (ip, cpu) */
	s[0] = (struct profile_sample){ .ip = K, .count = 3, .weight = 3 };
	s[1] = (struct profile_sample){ .ip = K + 0x100, .count = 3, .weight = 3 };
	s[2] = (struct profile_sample){ .ip = K + 0x200, .count = 7, .weight = 7 };
	p.samples = s;
	p.nsamples = 3;
	assert_int_equal(lab_exact_fold_paths(&p, &x, kpath), 0);
	assert_int_equal(s[0].calls, 0);
	assert_int_equal(s[1].calls, 3);   /* called */
	assert_int_equal(s[2].calls, 2);   /* tail-called; loops back not */
	/* a stack per path and function: e at the root (6), f and g under
	 * e's call (3 and 7), each leaf first */
	assert_int_equal(p.nstacks, 3);
	for (i = 0; i < p.nstacks; i++) {
		const struct profile_stack *st = &p.stacks[i];

		if (st->ips[0] == K) {
			assert_int_equal(st->depth, 1);
			assert_int_equal(st->weight, 6);
		} else {
			assert_int_equal(st->depth, 2);
			assert_true(st->ips[1] == K);
			assert_int_equal(st->weight, st->ips[0] == K + 0x100 ? 3 : 7);
		}
	}
	for (i = 0; i < p.nconditions; i++)
		if (!strcmp(p.conditions[i].key, "lab.exact_paths"))
			assert_non_null(strstr(p.conditions[i].value, "yes: 3 paths"));
	p.samples = NULL;  /* this test's own */
	p.nsamples = 0;
	profile_free(&p);
	lab_exact_free(&x);
	unlink(cpath);
	free(cpath);
	unlink(kpath);
	free(kpath);
}

/* Paths that do not add up to the counts are refused. */
static void test_paths_must_add_up(void **state)
{
	char *text = strdup(counts_file), *at = strstr(text, "s 0 1 ffffffff81000200 7");
	char *path;
	struct lab_exact x;

	(void)state;
	at[strlen("s 0 1 ffffffff81000200 ")] = '6';
	path = write_file(text);
	assert_int_equal(lab_exact_read(path, &x), -1);
	unlink(path);
	free(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_x86),
		cmocka_unit_test(test_classify_a64),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_retpoline),
		cmocka_unit_test(test_task_switch),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_read_and_fold),
		cmocka_unit_test(test_paths_must_add_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
