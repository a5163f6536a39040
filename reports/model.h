/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_MODEL_H
#define PERPKT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "symbolize.h"

/*
 * The report model: rows per function and per bucket with values per
 * round trip. Built once from a profile and a symbolizer; every
 * renderer in reports/ reads only this.
 */

#define MODEL_MAX_EVENTS 8

/* Bucket left out of the busy total: the idle loop. */
#define MODEL_IDLE_BUCKET "idle"
/* Row for addresses in no known symbol. */
#define MODEL_UNKNOWN_NAME "[unknown]"
#define MODEL_UNKNOWN_BUCKET "unknown"

struct model_row {
	char *name;          /* folded function name, or bucket name */
	char *bucket;        /* for functions: its bucket */
	char *rule;          /* the bucket rule that matched */
	char *module;        /* NULL for the core kernel */
	uint64_t samples[MODEL_MAX_EVENTS];
	double weight[MODEL_MAX_EVENTS];  /* sum of periods, event's unit */
	double per_rt[MODEL_MAX_EVENTS];  /* weight / round trips */
	double share;        /* of the first event's total, 0..1 */
	double cum;          /* cumulative share in sort order */
};

struct model {
	const struct profile *profile;
	size_t nevents;
	struct model_row *functions;   /* sorted by first event, descending */
	size_t nfunctions;
	struct model_row *buckets;     /* sorted the same way */
	size_t nbuckets;
	struct model_row total;
	struct model_row busy;         /* total minus the idle bucket */
	int no_round_trips;  /* round_trips == 0: every per_rt is left 0 */
	size_t naddrs;       /* distinct addresses resolved */
	size_t nunknown;     /* of those, how many are in no known symbol */
};

/*
 * Rows are grouped by (folded function, module, bucket): two static
 * functions of one name in different files stay apart, so bucket sums
 * equal the sum of their function rows. On failure prints the reason
 * and returns -1, leaving *m empty (model_free is still safe).
 */
int model_build(struct model *m, const struct profile *p, struct symbolizer *s);
void model_free(struct model *m);

/* 1 when values come from cpu-clock sampling (no hardware PMU). */
int model_software_clock(const struct model *m);
/* The bucket row called `name`, or NULL. */
const struct model_row *model_bucket(const struct model *m, const char *name);

struct report_options {
	int width;        /* text columns, 0 = 72; at least 60 */
	int limit;        /* function rows, 0 = all */
	double threshold; /* hide functions below this share (0..1) */
};

/* Both return 0, or -1 after printing why (bad options, write error).
 * report_text takes NULL options as the defaults (72 columns, all rows). */
int report_text(FILE *f, const struct model *m, const struct report_options *o);
/* Builds the whole document before writing, so `f` never gets half. */
int report_json(FILE *f, const struct model *m);

#endif
