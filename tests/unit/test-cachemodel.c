// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exact plugin's cache model (src/lab/plugin/cachemodel.c) on
 * access patterns whose misses are counted by hand: a loop that fits
 * and one that does not, LRU order within a set, conflicts that more
 * ways remove, the second level behind the first, an access across two
 * lines; the option's words: presets, levels, their checks; and the
 * misses of a counts file read and folded into a profile's events
 * (src/lab/exact-cache.c).
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
#include "lab/plugin/cachemodel.h"
#include "lab/plugin/counts.h"

#define LINE 64

/* L1I and L1D of `lines` lines in `ways` ways, an L2 of l2lines in
 * l2ways */
static void make(struct cachemodel *m, unsigned lines, unsigned ways, unsigned l2lines,
		 unsigned l2ways)
{
	struct cachemodel_geometry g = {
		"test", { lines * LINE, lines * LINE, l2lines * LINE },
		{ ways, ways, l2ways }, LINE,
	};
	char why[256];
	char spec[128];

	cachemodel_spec(&g, spec, sizeof(spec));
	assert_int_equal(cachemodel_parse(spec, &g, why, sizeof(why)), 0);
	assert_int_equal(cachemodel_init(m, &g), 0);
}

/* misses of one pass over lines first..first+n-1 (data side, L1) */
static unsigned pass(struct cachemodel *m, uint64_t first, unsigned n, unsigned stride)
{
	unsigned l1 = 0, l2 = 0, i;

	for (i = 0; i < n; i++)
		cachemodel_data(m, (first + (uint64_t)i * stride) * LINE, 8, &l1, &l2);
	return l1;
}

static void test_loop_fits(void **state)
{
	struct cachemodel m;

	(void)state;
	make(&m, 8, 2, 64, 4);  /* 4 sets of 2 ways */
	assert_int_equal(pass(&m, 100, 8, 1), 8);   /* cold: every line */
	assert_int_equal(pass(&m, 100, 8, 1), 0);   /* all 8 fit */
	assert_int_equal(pass(&m, 100, 8, 1), 0);
	assert_int_equal(m.level[CACHE_L1D].accesses, 24);
	assert_int_equal(m.level[CACHE_L1D].misses, 8);
	cachemodel_free(&m);
}

static void test_loop_too_big(void **state)
{
	struct cachemodel m;

	(void)state;
	/* 10 lines over 4 sets of 2 ways: sets 0 and 1 get 3 lines each
	 * (0,4,8 and 1,5,9), sets 2 and 3 two; LRU over a cycle of 3 in 2
	 * ways misses every time: 6 misses a pass once warm */
	make(&m, 8, 2, 64, 4);
	assert_int_equal(pass(&m, 0, 10, 1), 10);
	assert_int_equal(pass(&m, 0, 10, 1), 6);
	assert_int_equal(pass(&m, 0, 10, 1), 6);
	cachemodel_free(&m);
	/* the same 8 lines fully associative: 9 lines cycling in 8 ways
	 * miss every time, 8 never after the first pass */
	make(&m, 8, 8, 64, 4);
	assert_int_equal(pass(&m, 0, 9, 1), 9);
	assert_int_equal(pass(&m, 0, 9, 1), 9);
	cachemodel_free(&m);
}

static void test_lru_order(void **state)
{
	struct cachemodel m;
	struct cachemodel_cache *c;
	const uint64_t set = 4 * LINE;  /* 4 sets: addresses a set apart */

	(void)state;
	make(&m, 8, 2, 64, 4);
	c = &m.level[CACHE_L1D];
	assert_int_equal(cachemodel_cache_access(c, 0 * set), 0);  /* A */
	assert_int_equal(cachemodel_cache_access(c, 1 * set), 0);  /* B */
	assert_int_equal(cachemodel_cache_access(c, 0 * set), 1);  /* A, now newest */
	assert_int_equal(cachemodel_cache_access(c, 2 * set), 0);  /* C evicts B */
	assert_int_equal(cachemodel_cache_access(c, 0 * set), 1);  /* A stays */
	assert_int_equal(cachemodel_cache_access(c, 1 * set), 0);  /* B was gone, evicts C */
	assert_int_equal(cachemodel_cache_access(c, 2 * set), 0);  /* C was gone */
	/* another set is untouched by all this */
	assert_int_equal(cachemodel_cache_access(c, LINE), 0);
	assert_int_equal(cachemodel_cache_access(c, LINE + 8), 1);  /* same line */
	cachemodel_free(&m);
}

static void test_conflicts(void **state)
{
	struct cachemodel m;

	(void)state;
	/* 3 lines one set apart (stride 4 lines): 2 ways thrash, 4 hold */
	make(&m, 8, 2, 64, 4);
	pass(&m, 0, 3, 4);
	assert_int_equal(pass(&m, 0, 3, 4), 3);
	cachemodel_free(&m);
	make(&m, 16, 4, 64, 4);
	pass(&m, 0, 3, 4);
	assert_int_equal(pass(&m, 0, 3, 4), 0);
	cachemodel_free(&m);
}

static void test_second_level(void **state)
{
	struct cachemodel m;
	unsigned l1 = 0, l2 = 0, i, k;

	(void)state;
	/* L1I of 8 lines, L2 of 32 (8 sets of 4): 16 lines miss L1 every
	 * pass (sets of 2 ways get 4 lines each) but stay in L2 */
	make(&m, 8, 2, 32, 4);
	for (k = 0; k < 3; k++)
		for (i = 0; i < 16; i++)
			cachemodel_fetch(&m, 0xffffffff81000000ULL + i * LINE, &l1, &l2);
	assert_int_equal(l1, 48);
	assert_int_equal(l2, 16);
	/* the data side shares that L2: the fetched lines hit there */
	l1 = l2 = 0;
	cachemodel_data(&m, 0xffffffff81000000ULL, 4, &l1, &l2);
	assert_int_equal(l1, 1);
	assert_int_equal(l2, 0);
	/* an 8-byte access across a line's end is two lines */
	l1 = l2 = 0;
	cachemodel_data(&m, 0x10000 + LINE - 4, 8, &l1, &l2);
	assert_int_equal(l1, 2);
	assert_int_equal(l2, 2);
	l1 = l2 = 0;
	cachemodel_data(&m, 0x10000 + LINE - 8, 8, &l1, &l2);
	assert_int_equal(l1, 0);
	cachemodel_free(&m);
}

static void test_parse(void **state)
{
	struct cachemodel_geometry g;
	char why[512], buf[256];

	(void)state;
	assert_int_equal(cachemodel_parse("icelake-server", &g, why, sizeof(why)), 0);
	assert_string_equal(g.name, "icelake-server");
	assert_int_equal(g.size[CACHE_L1D], 48 * 1024);
	assert_int_equal(g.ways[CACHE_L1D], 12);
	assert_int_equal(g.size[CACHE_L2], 1280 * 1024);
	cachemodel_describe(&g, buf, sizeof(buf));
	assert_string_equal(buf, "L1I 32 KiB 8-way, L1D 48 KiB 12-way, L2 1280 KiB 20-way, "
			    "64-byte lines");
	assert_int_equal(cachemodel_parse("l1i=32K:8,l1d=48K:12,l2=2M:16,line=64", &g, why,
					  sizeof(why)), 0);
	assert_string_equal(g.name, "custom");
	assert_int_equal(g.size[CACHE_L2], 2 * 1024 * 1024);
	cachemodel_spec(&g, buf, sizeof(buf));
	assert_string_equal(buf, "l1i=32K:8/l1d=48K:12/l2=2M:16/line=64");
	/* a preset changed */
	assert_int_equal(cachemodel_parse("skylake,l2=1M:16", &g, why, sizeof(why)), 0);
	assert_string_equal(g.name, "skylake+");
	assert_int_equal(g.size[CACHE_L1I], 32 * 1024);
	assert_int_equal(g.ways[CACHE_L2], 16);
	cachemodel_spec(&g, buf, sizeof(buf));
	assert_string_equal(buf, "skylake/l1i=32K:8/l1d=32K:8/l2=1M:16/line=64");
	/* the same figures as the preset's are the preset */
	assert_int_equal(cachemodel_parse("skylake,l2=256K:4", &g, why, sizeof(why)), 0);
	assert_string_equal(g.name, "skylake");
	/* every preset reads back from its spec */
	for (const struct cachemodel_geometry *p = cachemodel_presets; p->name[0]; p++) {
		struct cachemodel_geometry h;

		cachemodel_spec(p, buf, sizeof(buf));
		assert_int_equal(cachemodel_parse(buf, &h, why, sizeof(why)), 0);
		assert_string_equal(h.name, p->name);
		assert_memory_equal(h.size, p->size, sizeof(h.size));
		assert_memory_equal(h.ways, p->ways, sizeof(h.ways));
	}
	/* refused, with a reason */
	assert_int_equal(cachemodel_parse("l1i=32K:8,l1d=32K:8", &g, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no l2"));
	assert_int_equal(cachemodel_parse("skylake,l2=3M:16", &g, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "power of two of sets"));
	assert_int_equal(cachemodel_parse("skylake,line=48", &g, why, sizeof(why)), -1);
	assert_int_equal(cachemodel_parse("pentium", &g, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "neoverse-n1"));
	assert_int_equal(cachemodel_parse("skylake,l2=1M", &g, why, sizeof(why)), -1);
	assert_int_equal(cachemodel_parse("", &g, why, sizeof(why)), -1);
}

/* A block at K translated twice (its misses in both), one at K + 0x40 */
#define K 0xffffffff81000000ULL
static const char counts_file[] =
	"target x86_64\nvcpus 1\nmarks 1 1\nblocks 3\nwhole 1\npaths 0\n"
	"cache skylake/l1i=32K:8/l1d=32K:8/l2=256K:4/line=64\n"
	"um 0 5 6 7\n"
	"cpu 0 40 7\nfollow 0 0 0 0 0 0 0 0 0\n"
	"m ffffffff81000000 0 2 0 1\n"
	"i ffffffff81000000 0 10\n"
	"m ffffffff81000040 0 0 3 0\n"
	"i ffffffff81000040 0 30\n"
	"m ffffffff81000000 0 1 0 1\n"
	"end\n";

static void test_fold(void **state)
{
	char path[] = "/tmp/perpkt-test-cache.XXXXXX", text[1024];
	int fd = mkstemp(path);
	struct profile_sample *s;
	struct lab_exact x;
	struct profile p;
	size_t i, l1i = 0, l1d = 0, l2 = 0;

	(void)state;
	snprintf(text, sizeof(text), "perpkt-exact %d\n%s", PERPKT_EXACT_FILE_VERSION,
		 counts_file);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(lab_exact_read(path, &x), 0);
	unlink(path);
	assert_int_equal(x.nmisses, 2);  /* K's two lines merged */
	assert_int_equal(x.misses[0].n[CACHE_L1I], 3);
	assert_int_equal(x.misses[0].n[CACHE_L2], 2);
	assert_int_equal(x.umiss[0][CACHE_L1D], 6);
	/* a profile as replace_events left it: instructions, one window */
	memset(&p, 0, sizeof(p));
	p.events = calloc(1, sizeof(*p.events));
	p.events[0].name = strdup("instructions");
	p.nevents = 1;
	p.samples = calloc(2, sizeof(*p.samples));
	p.samples[0] = (struct profile_sample){ .ip = K, .count = 10, .weight = 10 };
	p.samples[1] = (struct profile_sample){ .ip = K + 0x40, .count = 30, .weight = 30 };
	p.nsamples = 2;
	p.repeats = calloc(1, sizeof(*p.repeats));
	p.repeats[0].counts = calloc(1, sizeof(uint64_t));
	p.nrepeats = 1;
	assert_int_equal(lab_exact_fold_cache(&p, &x), 0);
	assert_int_equal(p.nevents, 4);
	assert_string_equal(p.events[1].name, PROFILE_MISS_L1I);
	assert_string_equal(p.events[2].name, PROFILE_MISS_L1D);
	assert_string_equal(p.events[3].name, PROFILE_MISS_L2);
	assert_string_equal(p.events[1].unit, "events");
	assert_int_equal(p.events[1].count, 3);
	assert_int_equal(p.events[2].count, 3);
	assert_int_equal(p.events[3].count, 2);
	assert_int_equal(p.repeats[0].counts[1], 3);
	assert_int_equal(p.repeats[0].counts[3], 2);
	/* a sample per level and address that missed */
	assert_int_equal(p.nsamples, 2 + 3);
	for (i = 2, s = p.samples; i < p.nsamples; i++) {
		assert_int_equal(s[i].count, s[i].weight);
		if (s[i].event == 1)
			l1i += s[i].weight, assert_true(s[i].ip == K);
		else if (s[i].event == 2)
			l1d += s[i].weight, assert_true(s[i].ip == K + 0x40);
		else
			l2 += s[i].weight, assert_int_equal(s[i].event, 3);
	}
	assert_int_equal(l1i, 3);
	assert_int_equal(l1d, 3);
	assert_int_equal(l2, 2);
	/* counts per vCPU, and the condition says the figures */
	assert_int_equal(p.ncounts, 3);
	assert_string_equal(p.counts[2].name, PROFILE_MISS_L2);
	assert_int_equal(p.counts[2].value, 2);
	assert_non_null(strstr(profile_condition(&p, PROFILE_COND_MISS_MODEL),
			       "skylake: L1I 32 KiB 8-way"));
	assert_non_null(strstr(profile_condition(&p, PROFILE_COND_MISS_MODEL),
			       "user space 5, 6 and 7"));
	profile_free(&p);
	lab_exact_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_fits),
		cmocka_unit_test(test_loop_too_big),
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_conflicts),
		cmocka_unit_test(test_second_level),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
