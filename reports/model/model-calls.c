// SPDX-License-Identifier: GPL-2.0-only
/*
 * Exact profiles: calls per round trip on every row, the cache model's
 * miss events where there is one, and, from the call
 * paths (the stacks the QEMU plugin's paths became), each function's
 * inclusive count: the weight of every path through it, counted once
 * per path however often it recurs there.
 */
#include "reports/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/model-internal.h"

struct by_name {
	const char *name;
	size_t row;
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct by_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* the heaviest row of a name first: it takes the path */
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static struct model_row *row_named(const struct model *m, const struct by_name *idx,
				   const char *name, size_t len)
{
	size_t lo = 0, hi = m->nfunctions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(idx[mid].name, name, len);

		if (!c && idx[mid].name[len])
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nfunctions && !strncmp(idx[lo].name, name, len) && !idx[lo].name[len])
		return &m->functions[idx[lo].row];
	return NULL;
}

/* Add st's weight to each function on it once: a function already
 * given it on this path has incl_seen == path. */
static void add_path(struct model *m, const struct by_name *idx, size_t *seen,
		     size_t path, const struct model_stack *st)
{
	const char *f = st->frames;

	while (*f) {
		size_t len = strcspn(f, ";");
		struct model_row *r = row_named(m, idx, f, len);

		if (r && seen[r - m->functions] != path) {
			seen[r - m->functions] = path;
			r->incl += st->weight;
		}
		f += len;
		if (*f)
			f++;
	}
}

void model_miss_events(struct model *m)
{
	static const char *const names[3] = {
		PROFILE_MISS_L1I, PROFILE_MISS_L1D, PROFILE_MISS_L2,
	};
	const struct profile *p = m->profile;
	size_t e;
	int k;

	for (k = 0; k < 3; k++) {
		m->miss_event[k] = -1;
		for (e = 0; profile_exact(p) && e < p->nevents && e < m->nevents; e++)
			if (p->events[e].name && !strcmp(p->events[e].name, names[k]))
				m->miss_event[k] = (int)e;
	}
	m->miss_model = m->miss_event[0] >= 0 ?
			profile_condition(p, PROFILE_COND_MISS_MODEL) : NULL;
}

int model_calls(struct model *m)
{
	const struct profile *p = m->profile;
	uint64_t rt = p->round_trips;
	struct by_name *idx;
	size_t i, *seen;

	m->calls_known = profile_exact(p);
	m->incl_known = m->calls_known && m->nstacks;
	if (!m->incl_known)
		return 0;
	idx = calloc(m->nfunctions ? m->nfunctions : 1, sizeof(*idx));
	seen = calloc(m->nfunctions ? m->nfunctions : 1, sizeof(*seen));
	if (!idx || !seen) {
		free(idx);
		free(seen);
		return error("out of memory for the inclusive counts");
	}
	for (i = 0; i < m->nfunctions; i++)
		idx[i] = (struct by_name){ m->functions[i].name, i };
	if (m->nfunctions > 1)
		qsort(idx, m->nfunctions, sizeof(*idx), cmp_by_name);
	for (i = 0; i < m->nstacks; i++)
		add_path(m, idx, seen, i + 1, &m->stacks[i]);
	/* paths name functions only: rows of one name (static functions
	 * of two files, a function in two buckets) share its count */
	for (i = 1; i < m->nfunctions; i++)
		if (!strcmp(idx[i].name, idx[i - 1].name))
			m->functions[idx[i].row].incl = m->functions[idx[i - 1].row].incl;
	for (i = 0; i < m->nfunctions; i++)
		m->functions[i].incl_per_rt = rt ? m->functions[i].incl / rt : 0;
	free(idx);
	free(seen);
	return 0;
}

double model_row_per_call(const struct model *m, const struct model_row *r)
{
	return m->calls_known && r->calls > 0 ? r->weight[0] / r->calls : -1;
}
