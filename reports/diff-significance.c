// SPDX-License-Identifier: GPL-2.0-only
#include "reports/diff-significance.h"

#include <math.h>
#include <string.h>

int diff_mark_of(double shift, double sigma)
{
	double z;

	if (!(sigma > 0))
		return shift != 0 ? 2 : 0;
	z = fabs(shift) / sigma;
	return z > DIFF_SIGMA_2 ? 2 : z > DIFF_SIGMA_1 ? 1 : 0;
}

void diff_cmp_cells(struct diff_cmp *cmp, const struct diff_cell *a,
		    const struct diff_cell *b, int exact)
{
	double shift;

	cmp->delta = b->value - a->value;
	cmp->rel = a->value != 0 ? cmp->delta / fabs(a->value) : DIFF_NO_REL;
	/* Welch: the spread of each side over its repeats, s^2/n, else its
	 * Poisson error; the test is on the means of the windows */
	cmp->from_repeats = a->rep && b->rep;
	shift = cmp->from_repeats ? b->mean - a->mean : cmp->delta;
	cmp->sigma = hypot(a->se, b->se);
	cmp->mark = 0;
	/* exact counts of one boot a side: how much boots differ is not
	 * known, so no mark (-r N boots gives the spread) */
	if (exact && !cmp->from_repeats)
		return;
	cmp->mark = diff_mark_of(shift, cmp->sigma);
}

void diff_cmp_latency(struct diff_cmp *c, double a, double a_se, double b,
		      double b_se, int from_repeats)
{
	memset(c, 0, sizeof(*c));
	c->rel = DIFF_NO_REL;
	if (a < 0 || b < 0 || a == 0)
		return;
	c->delta = b - a;
	c->rel = c->delta / a;
	c->sigma = hypot(a_se, b_se);
	c->from_repeats = from_repeats;
	/* a latency's error of 0 is one not known (no spread stated), not
	 * an exact figure: no mark */
	if (c->sigma > 0)
		c->mark = diff_mark_of(c->delta, c->sigma);
}

int diff_deterministic(const struct diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!d->prof[i].m->run.exact || d->prof[i].m->run.icount_shift < 0)
			return 0;
	return 1;
}

const char *diff_sig_basis(const struct diff *d)
{
	if (diff_deterministic(d))
		return "exact counts on the instruction clock: a boot repeats to the instruction, so every nonzero difference is exact and marked **";
	return d->prof[0].m->run.exact && d->prof[1].m->run.exact ?
	       "Welch across boots: exact counts have no sampling error, one boot a side marks nothing" :
	       "Welch across repeats when both sides have them, else Poisson sampling error";
}
