/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_FIELDS_H
#define PERPKT_PROFILE_FIELDS_H

#include <jansson.h>
#include <stddef.h>

#include "profile/read-fields.h"

/*
 * The fields of a profile section's entries, declared once: the writer
 * writes them in this order, the reader reads them, merge sums them,
 * --anonymize scrubs the strings, and whether an integer may be
 * negative is decided here (PF_INT) for the writer's check and the
 * reader alike. A field of tasks[], cpu_times[] or counts[] is its
 * member in profile.h, one line in its table (fields.c) and its line in
 * docs/schema/profile.schema.json.
 */
enum {
	PF_U64 = 0,             /* a uint64_t count: never negative, summed
				 * by merge */
	PF_INT = 1 << 0,        /* an int that may be -1 ("none": a CPU, a
				 * pid): read as signed, matched by merge */
	PF_STRING = 1 << 1,     /* a char *, required; --anonymize scrubs it */
	PF_OPTIONAL = 1 << 2,   /* written only when not 0; absent reads 0 */
	PF_SUM_KNOWN = 1 << 3,  /* merged as a sum where both sides know it
				 * (not 0), else 0 (unknown) */
};

struct profile_field {
	const char *key;        /* NULL ends a table */
	size_t off;             /* in the entry's struct */
	unsigned flags;
};

/* tasks[] (after "role"), cpu_times[] and counts[] */
extern const struct profile_field profile_task_fields[];
extern const struct profile_field profile_cpu_fields[];
extern const struct profile_field profile_count_fields[];

/* The field f of the entry at base */
#define PROFILE_FIELD(base, f, type) ((type *)((char *)(base) + (f)->off))

/* The entry's fields into o, after what o holds: 0, or -1 (no memory) */
int profile_fields_write(json_t *o, const struct profile_field *f,
			 const void *entry);
/* The entry's fields from o, checked as reader_*() check */
void profile_fields_read(struct reader *r, json_t *o,
			 const struct profile_field *f, void *entry);
/* from's counts added into into's (merge): PF_U64 summed, saturating */
void profile_fields_sum(void *into, const void *from,
			const struct profile_field *f);
/* Whether an integer under key may be negative: a PF_INT field of a
 * table, or one of the few signed keys outside them (fields.c) */
int profile_key_signed(const char *key);

#endif
