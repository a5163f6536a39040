// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact profiles with a cache model (record --cache-model): the misses
 * per round trip compared, and what kind of change a comparison is. On
 * the instruction clock a boot repeats to the instruction and to the
 * miss, so every difference is a change; what tells a layout change
 * (code moved: an alignment, a function grown before a hot one) from a
 * change in the code executed is whether the instructions per round
 * trip moved.
 */
#include "reports/diff/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const diff_miss_names[3] = {
	PROFILE_MISS_L1I, PROFILE_MISS_L1D, PROFILE_MISS_L2,
};
const char *const diff_miss_short[3] = { "L1I", "L1D", "L2" };

const char *diff_change_name(enum diff_change c)
{
	switch (c) {
	case DIFF_CHANGE_LAYOUT:
		return "layout";
	case DIFF_CHANGE_CODE:
		return "code";
	case DIFF_CHANGE_DATA:
		return "data";
	default:
		return "none";
	}
}

static void cmp_counts(struct diff_cmp *c, double a, double b, int exact)
{
	memset(c, 0, sizeof(*c));
	c->delta = b - a;
	c->rel = a > 0 ? c->delta / a : DIFF_NO_REL;
	c->p = c->q = NAN;
	c->from_repeats = exact;
	c->mark = exact && c->delta != 0 ? 2 : 0;
}

void diff_misses_compare(struct diff *d)
{
	const struct diff_cell *a = &d->total.cell[0];
	size_t i;
	int k;

	d->misses_known = d->n > 1;
	for (i = 0; i < d->n; i++)
		d->misses_known &= d->total.cell[i].misses_known &&
				   d->prof[i].m->calls_known;
	if (!d->misses_known)
		return;
	for (i = 1; i < d->n; i++) {
		const struct diff_cell *b = &d->total.cell[i];
		double insns = fabs(d->total.cmp[i].delta), l1i;

		for (k = 0; k < 3; k++)
			cmp_counts(&d->misses[k][i], a->misses[k], b->misses[k],
				   diff_deterministic(d));
		l1i = fabs(d->misses[0][i].delta);
		/* instructions per round trip equal to a part in 10^9: the
		 * same (a count per round trip is a ratio of two integers) */
		if (insns <= 1e-9 * a->value)
			d->change[i] = l1i > 0 ? DIFF_CHANGE_LAYOUT :
				       d->misses[1][i].delta != 0 || d->misses[2][i].delta != 0 ?
				       DIFF_CHANGE_DATA : DIFF_CHANGE_NONE;
		else if (a->value > 0 && a->misses[0] > 0 &&
			 insns / a->value < DIFF_LAYOUT_INSNS &&
			 l1i / a->misses[0] >= DIFF_LAYOUT_RATIO * insns / a->value)
			d->change[i] = DIFF_CHANGE_LAYOUT;
		else
			d->change[i] = DIFF_CHANGE_CODE;
	}
}

static void fmt_delta(char *buf, size_t len, const struct diff_cmp *c)
{
	char rel[32];

	diff_fmt_rel(rel, sizeof(rel), c);
	snprintf(buf, len, "%+.1f (%s)", c->delta, rel);
}

void diff_change_words(const struct diff *d, size_t i, char *buf, size_t len)
{
	const struct diff_cmp *ins = &d->total.cmp[i];
	char l1i[64], l1d[64], l2[64], rel[32];

	if (!d->misses_known || i < 1 || i >= d->n) {
		snprintf(buf, len, "no cache model in every profile");
		return;
	}
	fmt_delta(l1i, sizeof(l1i), &d->misses[0][i]);
	fmt_delta(l1d, sizeof(l1d), &d->misses[1][i]);
	fmt_delta(l2, sizeof(l2), &d->misses[2][i]);
	diff_fmt_rel(rel, sizeof(rel), ins);
	switch (d->change[i]) {
	case DIFF_CHANGE_NONE:
		snprintf(buf, len, "same instructions and misses per %s: no change",
			 d->per);
		break;
	case DIFF_CHANGE_DATA:
		snprintf(buf, len, "same instructions per %s and L1I misses; L1D misses "
			 "%s, L2 %s: a change in the data's layout", d->per, l1d, l2);
		break;
	case DIFF_CHANGE_LAYOUT:
		if (ins->delta == 0 || fabs(ins->delta) <= 1e-9 * d->total.cell[0].value)
			snprintf(buf, len, "same instructions per %s; L1I misses %s (L1D "
				 "%s, L2 %s): a layout/alignment change", d->per, l1i,
				 l1d, l2);
		else
			snprintf(buf, len, "instructions per %s %+.1f (%s), L1I misses %s "
				 "(L1D %s, L2 %s): mostly a layout/alignment change (the "
				 "padding executed, if any)", d->per, ins->delta, rel, l1i,
				 l1d, l2);
		break;
	default:
		snprintf(buf, len, "instructions per %s %+.1f (%s): a change in the code "
			 "executed; L1I misses %s, L1D %s, L2 %s", d->per, ins->delta,
			 rel, l1i, l1d, l2);
	}
}
