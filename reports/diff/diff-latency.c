// SPDX-License-Identifier: GPL-2.0-only
/*
 * The figures of a diff that are not rows: each side's mean latency and
 * percentiles (over its windows where it has them), their comparison
 * (window by window by turns), and the host's speed before the windows.
 */
#include "reports/diff/diff-latency.h"
#include "reports/diff/diff-significance.h"

#include <math.h>
#include <stdlib.h>

#include "profile/latency-stalls.h"
#include "stats/stats.h"

const char *const diff_pct_names[DIFF_NPCT] = { "p50", "p90", "p99", "p999" };

static uint64_t pct_of(const struct latency_summary *l, enum diff_pct k)
{
	return k == DIFF_P50 ? l->p50 : k == DIFF_P90 ? l->p90 :
	       k == DIFF_P99 ? l->p99 : l->p999;
}

struct pct_windows {
	const struct profile *p;
	size_t k;
};

static double pct_window(const void *ctx, size_t r)
{
	const struct pct_windows *w = ctx;
	const struct latency_summary *l = &w->p->repeats[r].latency;

	return l->count ? (double)pct_of(l, w->k) : NAN;
}

static void percentiles_of(struct diff_profile *dp)
{
	const struct profile *p = dp->m->profile;
	size_t k;

	for (k = 0; k < DIFF_NPCT; k++) {
		struct pct_windows w = { p, k };
		struct spread s;

		dp->pct[k] = p->latency.count ? (double)pct_of(&p->latency, k) : -1;
		dp->pct_se[k] = dp->pct_sd[k] = 0;
		dp->pct_n[k] = 1;
		spread_over(p->nrepeats, pct_window, &w, 0, &s);
		if (s.n < 2)
			continue;
		dp->pct[k] = s.mean;
		dp->pct_se[k] = s.se;
		dp->pct_sd[k] = s.sd;
		dp->pct_n[k] = s.n;
	}
}

/* kept: every profile set its stalls apart, so each stands on its
 * mean without them (one basis for all, as the reports' own) */
void diff_latency_of(struct diff_profile *dp, int kept)
{
	const struct model *m = dp->m;
	const struct latency_summary *l = &m->profile->latency;

	percentiles_of(dp);
	dp->latency = dp->latency_se = dp->latency_sd = -1;
	dp->latency_n = 0;
	if (m->nrepeats > 1 && m->rep_latency_mean >= 0) {
		dp->latency = m->rep_latency_mean;
		dp->latency_sd = m->rep_latency_sd;
		dp->latency_n = m->nrepeats;
		dp->latency_se = m->rep_latency_sd / sqrt((double)m->nrepeats);
	} else if (l->count && l->mean > 0) {
		/* the decomposition's basis: the mean without stalls; one
		 * window, so no spread a test could stand on */
		dp->latency = kept ? latency_basis(l) : l->mean;
		dp->latency_se = dp->latency_sd = 0;
		dp->latency_n = 1;
	}
}

/* By turns: the latency and its percentiles window by window. */
static void paired_latency(struct diff *d, size_t i)
{
	const struct model *ma = d->prof[0].m, *mb = d->prof[i].m;
	size_t n = ma->nrepeats, k, q;
	double *a = calloc(n ? n : 1, sizeof(*a)), *b = calloc(n ? n : 1, sizeof(*b));

	if (!a || !b || (size_t)mb->nrepeats != n)
		goto out;
	for (k = 0; k < n; k++) {
		a[k] = model_repeat_latency(ma, k);
		b[k] = model_repeat_latency(mb, k);
		a[k] = a[k] < 0 ? NAN : a[k];
		b[k] = b[k] < 0 ? NAN : b[k];
	}
	if (d->latency[i].rel != DIFF_NO_REL)
		diff_cmp_paired(&d->latency[i], a, b, n);
	for (q = 0; q < DIFF_NPCT; q++) {
		struct pct_windows wa = { ma->profile, q }, wb = { mb->profile, q };

		if (d->pct[q][i].rel == DIFF_NO_REL)
			continue;
		for (k = 0; k < n; k++) {
			a[k] = pct_window(&wa, k);
			b[k] = pct_window(&wb, k);
		}
		diff_cmp_paired(&d->pct[q][i], a, b, n);
	}
out:
	free(a);
	free(b);
}

struct host_windows {
	const struct profile *p;
	int loop;
};

static double host_window(const void *ctx, size_t k)
{
	const struct host_windows *w = ctx;
	const struct profile_repeat *r = &w->p->repeats[k];
	double v = w->loop ? r->host_loop_ns : r->host_syscall_ns;

	return v > 0 && profile_repeat_used(w->p, k) ? v : NAN;
}

/* The host's speed on each side, and B's against A's: not a row (it is
 * no kernel function), said beside the profiles when it moved. */
void diff_host_speed(struct diff *d)
{
	int q;
	size_t i;

	for (q = 0; q < 2; q++) {
		struct spread s[DIFF_MAX_PROFILES];

		for (i = 0; i < d->n; i++) {
			struct host_windows w = { d->prof[i].m->profile, q };

			spread_over(w.p->nrepeats, host_window, &w, 0, &s[i]);
			d->host[q][i] = s[i].n ? s[i].mean : -1;
		}
		d->have_host = d->host[q][0] > 0;
		for (i = 1; i < d->n; i++) {
			struct diff_figure a = { s[0].n ? s[0].mean : -1, s[0].sd,
						 s[0].se, s[0].n },
					   b = { s[i].n ? s[i].mean : -1, s[i].sd,
						 s[i].se, s[i].n };
			struct diff_cmp *c = &d->host_cmp[q][i];

			d->have_host &= d->host[q][i] > 0;
			diff_cmp_latency(c, &a, &b);
			c->q = c->p;
			c->mark = !c->from_repeats || fabs(c->rel) < diff_floor(d) ? 0 :
				  c->p < DIFF_FDR_2 ? 2 : c->p < DIFF_FDR_1 ? 1 : 0;
		}
	}
}

void diff_latency_compare(struct diff *d)
{
	size_t i;

	for (i = 1; i < d->n; i++) {
		const struct diff_profile *a = &d->prof[0], *b = &d->prof[i];
		struct diff_figure fa = { a->latency, a->latency_sd,
					  a->latency_se, a->latency_n },
				   fb = { b->latency, b->latency_sd,
					  b->latency_se, b->latency_n };
		size_t k;

		diff_cmp_latency(&d->latency[i], &fa, &fb);
		for (k = 0; k < DIFF_NPCT; k++) {
			struct diff_figure pa = { a->pct[k], a->pct_sd[k],
						  a->pct_se[k], a->pct_n[k] },
					   pb = { b->pct[k], b->pct_sd[k],
						  b->pct_se[k], b->pct_n[k] };

			diff_cmp_latency(&d->pct[k][i], &pa, &pb);
		}
		if (d->paired)
			paired_latency(d, i);
	}
}
