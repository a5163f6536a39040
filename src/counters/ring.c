// SPDX-License-Identifier: GPL-2.0-only
#include "counters/ring.h"

#include <string.h>

struct cursor {
	const uint8_t *p, *end;
};

static int take(struct cursor *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	memcpy(out, c->p, n);
	c->p += n;
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *v)
{
	return take(c, v, sizeof(*v));
}

static int parse_sample(const uint8_t *rec, uint16_t size, uint64_t type,
			struct ring_sample *s)
{
	struct cursor c = { rec + sizeof(struct perf_event_header), rec + size };
	uint64_t skip;
	uint32_t pair[2];

	memset(s, 0, sizeof(*s));
	s->misc = ((const struct perf_event_header *)rec)->misc;
	if (type & PERF_SAMPLE_IDENTIFIER && take_u64(&c, &s->id))
		return -1;
	if (type & PERF_SAMPLE_IP && take_u64(&c, &s->ip))
		return -1;
	if (type & PERF_SAMPLE_TID) {
		if (take(&c, pair, sizeof(pair)))
			return -1;
		s->pid = pair[0];
		s->tid = pair[1];
	}
	if (type & PERF_SAMPLE_TIME && take_u64(&c, &s->time))
		return -1;
	if (type & PERF_SAMPLE_ADDR && take_u64(&c, &skip))
		return -1;
	if (type & PERF_SAMPLE_ID && take_u64(&c, &s->id))
		return -1;
	if (type & PERF_SAMPLE_STREAM_ID && take_u64(&c, &skip))
		return -1;
	if (type & PERF_SAMPLE_CPU) {
		if (take(&c, pair, sizeof(pair)))
			return -1;
		s->cpu = pair[0];
	}
	if (type & PERF_SAMPLE_PERIOD && take_u64(&c, &s->period))
		return -1;
	if (type & PERF_SAMPLE_READ)
		return -1;  /* perpkt never asks for it in samples */
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, &s->nr))
			return -1;
		if (s->nr > (uint64_t)(c.end - c.p) / sizeof(uint64_t))
			return -1;
		s->chain = (const uint64_t *)c.p;  /* rec is 8-byte aligned */
		c.p += s->nr * sizeof(uint64_t);
	}
	return 0;
}

static int parse_record(const uint8_t *rec, uint64_t sample_type,
			struct ring_stats *st, ring_sample_fn fn, void *ctx)
{
	const struct perf_event_header *h = (const void *)rec;
	struct cursor c = { rec + sizeof(*h), rec + h->size };
	struct ring_sample s;
	uint64_t id, n;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (parse_sample(rec, h->size, sample_type, &s))
			return -1;
		st->samples++;
		if (fn)
			fn(ctx, &s);
		return 0;
	case PERF_RECORD_LOST:
		if (take_u64(&c, &id) || take_u64(&c, &n))
			return -1;
		st->lost += n;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (take_u64(&c, &n))
			return -1;
		st->lost_samples += n;
		return 0;
	case PERF_RECORD_THROTTLE:
		st->throttle++;
		return 0;
	case PERF_RECORD_UNTHROTTLE:
		st->unthrottle++;
		return 0;
	default:
		st->other++;
		return 0;
	}
}

uint64_t ring_parse(const uint8_t *data, uint64_t size, uint64_t tail,
		    uint64_t head, uint64_t sample_type, struct ring_stats *st,
		    ring_sample_fn fn, void *ctx)
{
	/* u64 so a reassembled record keeps the alignment of the ring */
	uint64_t scratch[65536 / sizeof(uint64_t)];
	uint64_t mask = size - 1;

	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint64_t off = tail & mask;
		const uint8_t *rec;

		if (off + sizeof(h) <= size) {
			memcpy(&h, data + off, sizeof(h));
		} else {
			uint64_t first = size - off;

			memcpy(&h, data + off, first);
			memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size % 8 || h.size > head - tail) {
			st->bad++;
			return head;  /* cannot resynchronise: drop the rest */
		}
		if (off + h.size <= size) {
			rec = data + off;
		} else {
			uint64_t first = size - off;

			memcpy(scratch, data + off, first);
			memcpy((uint8_t *)scratch + first, data, h.size - first);
			rec = (const uint8_t *)scratch;
		}
		if (parse_record(rec, sample_type, st, fn, ctx)) {
			st->bad++;
			/* the size is sane, so the next record is findable */
		}
		tail += h.size;
	}
	return tail;
}

void ring_read(void *base, uint64_t data_size, uint64_t sample_type,
	       struct ring_stats *st, ring_sample_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pg = base;
	const uint8_t *data = (const uint8_t *)base + pg->data_offset;
	uint64_t head, tail;

	if (!pg->data_offset)
		data = (const uint8_t *)base + 4096;
	/* acquire pairs with the kernel's store of data_head */
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	tail = ring_parse(data, data_size, tail, head, sample_type, st, fn, ctx);
	/* release: our reads of the records finish before the kernel reuses them */
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}
