/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RING_H
#define PERPKT_RING_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * Parser for the records of a perf_event ring buffer. Pure: it reads a
 * byte area and a [tail, head) window, so tests feed it hand-built
 * buffers; ring_read() wraps it around a live mmap with the barriers the
 * kernel's ABI asks for.
 */

/* The sample fields perpkt asks for; ring_parse decodes these. The
 * identifier tells the events of a group apart in their shared ring. */
#define RING_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			  PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

struct ring_sample {
	uint64_t id;             /* PERF_EVENT_IOC_ID of the event */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t period;
	uint64_t nr;             /* callchain entries, 0 without CALLCHAIN */
	const uint64_t *chain;   /* valid during the callback only */
	uint16_t misc;           /* header.misc: PERF_RECORD_MISC_KERNEL etc. */
};

struct ring_stats {
	uint64_t samples;
	uint64_t lost;           /* events lost, summed from PERF_RECORD_LOST */
	uint64_t lost_samples;   /* from PERF_RECORD_LOST_SAMPLES */
	uint64_t throttle, unthrottle;
	uint64_t bad;            /* malformed records: parsing stopped there */
	uint64_t other;          /* records perpkt does not use */
};

typedef void (*ring_sample_fn)(void *ctx, const struct ring_sample *s);

/*
 * Parse records in data[tail..head) (offsets modulo size, a power of
 * two); records that wrap the end are reassembled. Returns the new tail.
 * A record whose size is impossible stops parsing at that record (counted
 * in st->bad) and the rest of the window is dropped, never read past.
 */
uint64_t ring_parse(const uint8_t *data, uint64_t size, uint64_t tail,
		    uint64_t head, uint64_t sample_type, struct ring_stats *st,
		    ring_sample_fn fn, void *ctx);

/* Drain a live ring: base is the mmap (metadata page + data pages). */
void ring_read(void *base, uint64_t data_size, uint64_t sample_type,
	       struct ring_stats *st, ring_sample_fn fn, void *ctx);

#endif
