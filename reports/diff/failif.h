/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_FAILIF_H
#define PERPKT_FAILIF_H

#include <stddef.h>

#include "reports/diff/diff.h"

/*
 * --fail-if conditions on a diff, for `git bisect run` and CI:
 *   TARGET OP VALUE
 *   TARGET  total | busy | latency | bucket:NAME | function:NAME |
 *           l1i-misses | l1d-misses | l2-misses (the total's, per round
 *           trip, of exact profiles with a cache model)
 *   OP      > >= < <=
 *   VALUE   signed number; "%" makes it relative to the baseline; ns,
 *           us, ms or s make it a time (latency, or a diff in ns); bare
 *           numbers are the diff's unit per round trip (ns for latency)
 * The delta tested is profile - baseline, for each later profile.
 */

enum failif_target {
	FAILIF_TOTAL,
	FAILIF_BUSY,
	FAILIF_LATENCY,
	FAILIF_BUCKET,
	FAILIF_FUNCTION,
	FAILIF_PERCENTILE,   /* latency.p50 ... latency.p999: pct says which */
	FAILIF_MISSES,       /* l1i-misses, l1d-misses, l2-misses: pct is
			      * the level (diff_miss_names) */
};

enum failif_op { FAILIF_GT, FAILIF_GE, FAILIF_LT, FAILIF_LE };

struct failif {
	char *expr;          /* as written, for messages */
	enum failif_target target;
	char *name;          /* bucket or function */
	int pct;             /* FAILIF_PERCENTILE: an enum diff_pct */
	enum failif_op op;
	double value;        /* in ns when `time`, a fraction when relative */
	int relative;        /* "%" */
	int time;            /* had a time unit */
	/* --allow-missing: a name in no profile moved by nothing, instead
	 * of an error (a typo must not make every bisect step good) */
	int allow_missing;
	/* the name is known (a bucket of the rules, a function of a
	 * profile's kernel): where no profile sampled it, 0 against 0 */
	int known;
};

/* Exit codes: RESULT_MET and RESULT_BISECT in src/exitcode.h. */
#define FAILIF_EXAMPLE "--fail-if 'bucket:udp > +5%' or --fail-if 'latency > +1us'"

/* 0, or -1 after printing what is wrong with `s`. */
int failif_parse(const char *s, struct failif *out);
void failif_free(struct failif *f);

/*
 * Evaluate against comparison `i` (1..n-1) of d: 1 when the condition
 * holds, 0 when not, -1 after printing why it cannot be evaluated.
 * *delta gets the tested delta (a fraction when relative). On the
 * diff's own basis: a delta past the limit holds only when the diff
 * marks it (beyond the noise); *noise (may be NULL) is then 1 for one
 * that passed the limit inside the noise, 2 for one beyond the noise
 * but under the floor (DIFF_FLOOR). Where the diff can mark nothing (a
 * side of one window: d->untested), the raw delta decides.
 */
int failif_eval(const struct failif *f, const struct diff *d, size_t i,
		double *delta, int *noise);

#endif
