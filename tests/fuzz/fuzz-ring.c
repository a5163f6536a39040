// SPDX-License-Identifier: GPL-2.0-only
/* The ring-buffer record parser: the input is the ring's data area
 * (the largest power of two that fits) after 17 bytes giving tail,
 * head and whether callchains were asked for. */
#include <stdlib.h>
#include <string.h>

#include "counters/ring.h"

static void on_sample(void *ctx, const struct ring_sample *s)
{
	uint64_t *sum = ctx, i;

	*sum += s->ip + s->period;
	for (i = 0; i < s->nr; i++)
		*sum += s->chain[i];  /* every chain entry must be readable */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ring_stats st;
	uint64_t tail, head, ring = 8, sum = 0, type = RING_SAMPLE_TYPE;
	uint8_t *buf;

	if (size < 17 + 8)
		return 0;
	memcpy(&tail, data, 8);
	memcpy(&head, data + 8, 8);
	if (data[16] & 1)
		type |= PERF_SAMPLE_CALLCHAIN;
	data += 17;
	size -= 17;
	while (ring * 2 <= size)
		ring *= 2;
	/* the kernel keeps head - tail within the ring and both 8-aligned
	 * (every record's size is a multiple of 8) */
	tail = (tail % (4 * ring)) & ~7ull;
	head = tail + ((head % (ring + 1)) & ~7ull);
	/* the kernel's ring is page-aligned and its records 8-aligned */
	buf = aligned_alloc(8, ring);
	if (!buf)
		return 0;
	memcpy(buf, data, ring);
	memset(&st, 0, sizeof(st));
	ring_parse(buf, ring, tail, head, type, &st, on_sample, &sum);
	free(buf);
	return 0;
}
