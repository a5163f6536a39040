// SPDX-License-Identifier: GPL-2.0-only
/* ring_parse on hand-built ring buffers: the records the kernel writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "counters/ring.h"

#define RING_SIZE 4096

struct ring_builder {
	uint8_t data[RING_SIZE];
	uint64_t head;
};

/* Append bytes at head, wrapping like the kernel does. */
static void put(struct ring_builder *b, const void *p, size_t n)
{
	const uint8_t *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		b->data[(b->head + i) & (RING_SIZE - 1)] = s[i];
	b->head += n;
}

static void put_u64(struct ring_builder *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_header(struct ring_builder *b, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = PERF_RECORD_MISC_KERNEL,
				       .size = size };

	put(b, &h, sizeof(h));
}

/* A sample with RING_SAMPLE_TYPE: id, ip, pid/tid, time, cpu, period. */
static void put_sample(struct ring_builder *b, uint64_t ip, uint32_t pid,
		       uint32_t cpu, uint64_t period)
{
	uint32_t pair[2];

	put_header(b, PERF_RECORD_SAMPLE, 8 + 6 * 8);
	put_u64(b, 1000 + cpu);  /* identifier */
	put_u64(b, ip);
	pair[0] = pid;
	pair[1] = pid + 1;
	put(b, pair, 8);
	put_u64(b, 123456789);
	pair[0] = cpu;
	pair[1] = 0;
	put(b, pair, 8);
	put_u64(b, period);
}

struct seen {
	int n;
	struct ring_sample s[16];
	uint64_t chain[16][8];
};

static void collect(void *ctx, const struct ring_sample *s)
{
	struct seen *v = ctx;
	uint64_t i;

	if (v->n >= 16)
		return;
	v->s[v->n] = *s;
	for (i = 0; i < s->nr && i < 8; i++)
		v->chain[v->n][i] = s->chain[i];
	v->n++;
}

static void test_samples_decoded(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };
	uint64_t tail;

	put_sample(&b, 0xffffffff81a2b3c4ULL, 42, 1, 100000);
	put_sample(&b, 0xffffffff81000010ULL, 0, 0, 99000);
	tail = ring_parse(b.data, RING_SIZE, 0, b.head, RING_SAMPLE_TYPE, &st,
			  collect, &v);
	assert_int_equal(tail, b.head);
	assert_int_equal(st.samples, 2);
	assert_int_equal(v.n, 2);
	assert_true(v.s[0].ip == 0xffffffff81a2b3c4ULL);
	assert_int_equal(v.s[0].pid, 42);
	assert_int_equal(v.s[0].tid, 43);
	assert_int_equal(v.s[0].cpu, 1);
	assert_int_equal(v.s[0].period, 100000);
	assert_int_equal(v.s[0].time, 123456789);
	assert_int_equal(v.s[0].misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(v.s[0].id, 1001);
	assert_int_equal(v.s[1].pid, 0);
	assert_int_equal(v.s[1].period, 99000);
	assert_int_equal(st.bad, 0);
}

static void test_lost_and_throttle_counted(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };

	put_header(&b, PERF_RECORD_LOST, 8 + 16);
	put_u64(&b, 7);      /* id */
	put_u64(&b, 1234);   /* lost */
	put_header(&b, PERF_RECORD_THROTTLE, 8 + 24);
	put_u64(&b, 1);
	put_u64(&b, 7);
	put_u64(&b, 7);
	put_header(&b, PERF_RECORD_UNTHROTTLE, 8 + 24);
	put_u64(&b, 2);
	put_u64(&b, 7);
	put_u64(&b, 7);
	put_header(&b, PERF_RECORD_LOST_SAMPLES, 8 + 8);
	put_u64(&b, 55);
	put_header(&b, PERF_RECORD_COMM, 8 + 16);  /* unused by perpkt */
	put_u64(&b, 0);
	put_u64(&b, 0);
	put_sample(&b, 0xffffffff81000000ULL, 5, 0, 1);
	ring_parse(b.data, RING_SIZE, 0, b.head, RING_SAMPLE_TYPE, &st, collect, &v);
	assert_int_equal(st.lost, 1234);
	assert_int_equal(st.lost_samples, 55);
	assert_int_equal(st.throttle, 1);
	assert_int_equal(st.unthrottle, 1);
	assert_int_equal(st.other, 1);
	assert_int_equal(st.samples, 1);
	assert_int_equal(v.n, 1);
}

/* A record split across the end of the buffer is reassembled, whether
 * the split falls in the header or in the body. */
static void check_wrap_at(uint64_t start)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };
	uint64_t tail;

	memset(b.data, 0xee, sizeof(b.data));
	b.head = start;
	put_sample(&b, 0xffffffff8abcdef0ULL, 77, 3, 4242);
	put_sample(&b, 0xffffffff81111111ULL, 78, 2, 1);
	tail = ring_parse(b.data, RING_SIZE, start, b.head, RING_SAMPLE_TYPE, &st,
			  collect, &v);
	assert_int_equal(tail, b.head);
	assert_int_equal(v.n, 2);
	assert_true(v.s[0].ip == 0xffffffff8abcdef0ULL);
	assert_int_equal(v.s[0].pid, 77);
	assert_int_equal(v.s[0].cpu, 3);
	assert_int_equal(v.s[0].period, 4242);
	assert_true(v.s[1].ip == 0xffffffff81111111ULL);
	assert_int_equal(st.bad, 0);
}

static void test_record_wraps_buffer_end(void **state)
{
	check_wrap_at(RING_SIZE - 24);     /* split inside the body */
	check_wrap_at(RING_SIZE - 8);      /* split after the header */
	check_wrap_at(RING_SIZE - 4);      /* split inside the header */
	check_wrap_at(3 * RING_SIZE - 16); /* head and tail far past one lap */
}

static void test_truncated_record_rejected(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };
	uint64_t tail;

	put_sample(&b, 0xffffffff81000001ULL, 1, 0, 1);
	/* header claims 56 bytes, but only 16 were written before head */
	put_header(&b, PERF_RECORD_SAMPLE, 56);
	put_u64(&b, 0xffffffff81000002ULL);
	tail = ring_parse(b.data, RING_SIZE, 0, b.head, RING_SAMPLE_TYPE, &st,
			  collect, &v);
	assert_int_equal(v.n, 1);
	assert_int_equal(st.bad, 1);
	assert_int_equal(tail, b.head);  /* dropped, never read past head */
}

static void test_sample_too_short_for_its_fields(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };

	put_header(&b, PERF_RECORD_SAMPLE, 24);  /* only id and ip */
	put_u64(&b, 1);
	put_u64(&b, 0xffffffff81000003ULL);
	put_sample(&b, 0xffffffff81000004ULL, 9, 0, 1);
	ring_parse(b.data, RING_SIZE, 0, b.head, RING_SAMPLE_TYPE, &st, collect, &v);
	assert_int_equal(st.bad, 1);
	assert_int_equal(v.n, 1);  /* the next record is still read */
	assert_true(v.s[0].ip == 0xffffffff81000004ULL);
}

static void test_zero_size_header_stops(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	uint64_t tail;

	put_header(&b, PERF_RECORD_SAMPLE, 0);
	put_u64(&b, 0);
	tail = ring_parse(b.data, RING_SIZE, 0, b.head, RING_SAMPLE_TYPE, &st,
			  NULL, NULL);
	assert_int_equal(st.bad, 1);
	assert_int_equal(tail, b.head);
}

static void test_callchain_markers(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };
	uint64_t type = RING_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN;
	uint32_t pair[2] = { 10, 10 };

	put_header(&b, PERF_RECORD_SAMPLE, 8 + 6 * 8 + 8 + 4 * 8);
	put_u64(&b, 2);
	put_u64(&b, 0xffffffff81000100ULL);
	put(&b, pair, 8);
	put_u64(&b, 1);
	pair[0] = 1;
	put(&b, pair, 8);
	put_u64(&b, 5);
	put_u64(&b, 4);                        /* nr */
	put_u64(&b, (uint64_t)PERF_CONTEXT_KERNEL);
	put_u64(&b, 0xffffffff81000100ULL);
	put_u64(&b, 0xffffffff81000200ULL);
	put_u64(&b, 0xffffffff81000300ULL);
	ring_parse(b.data, RING_SIZE, 0, b.head, type, &st, collect, &v);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.s[0].nr, 4);
	assert_true(v.chain[0][0] == (uint64_t)PERF_CONTEXT_KERNEL);
	assert_true(v.chain[0][3] == 0xffffffff81000300ULL);
	assert_int_equal(v.s[0].period, 5);
	assert_int_equal(st.bad, 0);
}

static void test_callchain_longer_than_record(void **state)
{
	struct ring_builder b = { 0 };
	struct ring_stats st = { 0 };
	struct seen v = { 0 };
	uint64_t type = RING_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN;
	uint32_t pair[2] = { 10, 10 };

	put_header(&b, PERF_RECORD_SAMPLE, 8 + 6 * 8 + 8 + 8);
	put_u64(&b, 2);
	put_u64(&b, 1);
	put(&b, pair, 8);
	put_u64(&b, 1);
	put(&b, pair, 8);
	put_u64(&b, 5);
	put_u64(&b, 1000);  /* nr far beyond the record */
	put_u64(&b, 0);
	ring_parse(b.data, RING_SIZE, 0, b.head, type, &st, collect, &v);
	assert_int_equal(v.n, 0);
	assert_int_equal(st.bad, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_decoded),
		cmocka_unit_test(test_lost_and_throttle_counted),
		cmocka_unit_test(test_record_wraps_buffer_end),
		cmocka_unit_test(test_truncated_record_rejected),
		cmocka_unit_test(test_sample_too_short_for_its_fields),
		cmocka_unit_test(test_zero_size_header_stops),
		cmocka_unit_test(test_callchain_markers),
		cmocka_unit_test(test_callchain_longer_than_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
