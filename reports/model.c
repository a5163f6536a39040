// SPDX-License-Identifier: GPL-2.0-only
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

/* One distinct sampled address, resolved once however many samples hit it. */
struct addr_info {
	uint64_t ip;
	char *function;
	char *bucket;
	char *rule;
	char *module;
	uint64_t samples[MODEL_MAX_EVENTS];
	double weight[MODEL_MAX_EVENTS];
};

/* (ip, sample index) pairs: sorting them groups samples by address. */
struct ip_ref {
	uint64_t ip;
	size_t idx;
};

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* strdup that keeps NULL as NULL; returns -1 only when out of memory. */
static int dup_opt(char **out, const char *s)
{
	*out = NULL;
	if (!s)
		return 0;
	*out = strdup(s);
	return *out ? 0 : -1;
}

static void row_clear(struct model_row *r)
{
	free(r->name);
	free(r->bucket);
	free(r->rule);
	free(r->module);
	memset(r, 0, sizeof(*r));
}

static void addr_clear(struct addr_info *a)
{
	free(a->function);
	free(a->bucket);
	free(a->rule);
	free(a->module);
}

static int cmp_ip_ref(const void *pa, const void *pb)
{
	const struct ip_ref *a = pa, *b = pb;

	if (a->ip != b->ip)
		return a->ip < b->ip ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_addr_key(const void *pa, const void *pb)
{
	const struct addr_info *a = pa, *b = pb;
	int c;

	c = strcmp(a->function, b->function);
	if (!c)
		c = strcmp_null(a->module, b->module);
	if (!c)
		c = strcmp(a->bucket, b->bucket);
	if (!c)
		c = a->ip < b->ip ? -1 : a->ip > b->ip;
	return c;
}

/* Heaviest first by the first event; names break ties so output is stable. */
static int cmp_row(const void *pa, const void *pb)
{
	const struct model_row *a = pa, *b = pb;
	int c;

	if (a->weight[0] != b->weight[0])
		return a->weight[0] > b->weight[0] ? -1 : 1;
	c = strcmp_null(a->name, b->name);
	if (!c)
		c = strcmp_null(a->module, b->module);
	if (!c)
		c = strcmp_null(a->bucket, b->bucket);
	return c;
}

static int resolve_addr(struct symbolizer *s, uint64_t ip, struct addr_info *a)
{
	struct sym_result res;
	const char *fn;
	int ret;

	memset(&res, 0, sizeof(res));
	ret = symbolizer_resolve(s, ip, &res);
	if (ret < 0)
		return error("cannot resolve address 0x%llx",
			     (unsigned long long)ip);
	a->ip = ip;
	fn = res.function ? res.function : res.name;
	if (ret == 1 || !fn) {
		/* One row for all of them: their share still has to add up. */
		if (dup_opt(&a->function, MODEL_UNKNOWN_NAME) ||
		    dup_opt(&a->bucket, MODEL_UNKNOWN_BUCKET) ||
		    dup_opt(&a->rule, res.rule))
			goto oom;
		return 1;
	}
	/* Strings belong to the symbolizer and may not outlive the next call. */
	if (dup_opt(&a->function, fn) ||
	    dup_opt(&a->bucket, res.bucket ? res.bucket : "other") ||
	    dup_opt(&a->rule, res.rule) ||
	    dup_opt(&a->module, res.module))
		goto oom;
	return 0;
oom:
	return error("out of memory resolving addresses");
}

/* Resolve each distinct ip once and sum its samples per event. */
static int collect_addrs(const struct profile *p, struct symbolizer *s,
			 struct addr_info **out, size_t *nout, size_t *nunknown)
{
	struct ip_ref *refs;
	struct addr_info *addrs = NULL;
	size_t i, n = 0;
	int ret = -1;

	*out = NULL;
	*nout = 0;
	*nunknown = 0;
	if (!p->nsamples)
		return 0;
	refs = calloc(p->nsamples, sizeof(*refs));
	addrs = calloc(p->nsamples, sizeof(*addrs));
	if (!refs || !addrs) {
		error("out of memory for %zu samples", p->nsamples);
		goto out;
	}
	for (i = 0; i < p->nsamples; i++) {
		if (p->samples[i].event >= p->nevents) {
			error("sample %zu refers to event %u, profile has %zu",
			      i, p->samples[i].event, p->nevents);
			goto out;
		}
		refs[i].ip = p->samples[i].ip;
		refs[i].idx = i;
	}
	qsort(refs, p->nsamples, sizeof(*refs), cmp_ip_ref);

	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *sm = &p->samples[refs[i].idx];
		struct addr_info *a;

		if (!n || addrs[n - 1].ip != refs[i].ip) {
			int r = resolve_addr(s, refs[i].ip, &addrs[n]);

			n++;  /* so a half-filled entry is freed below */
			if (r < 0)
				goto out;
			*nunknown += r;
		}
		a = &addrs[n - 1];
		a->samples[sm->event] += sm->count;
		a->weight[sm->event] += (double)sm->weight;
	}
	ret = 0;
out:
	free(refs);
	if (ret) {
		for (i = 0; i < n; i++)
			addr_clear(&addrs[i]);
		free(addrs);
		return ret;
	}
	*out = addrs;
	*nout = n;
	return 0;
}

static void row_add(struct model_row *dst, const uint64_t *samples,
		    const double *weight, size_t nevents)
{
	size_t e;

	for (e = 0; e < nevents; e++) {
		dst->samples[e] += samples[e];
		dst->weight[e] += weight[e];
	}
}

/* Merge addresses of one (function, module, bucket) into a row. */
static int group_functions(struct model *m, struct addr_info *addrs, size_t n)
{
	size_t i;

	qsort(addrs, n, sizeof(*addrs), cmp_addr_key);
	m->functions = calloc(n ? n : 1, sizeof(*m->functions));
	if (!m->functions)
		return error("out of memory for %zu functions", n);
	for (i = 0; i < n; i++) {
		struct addr_info *a = &addrs[i];
		struct model_row *r;

		r = m->nfunctions ? &m->functions[m->nfunctions - 1] : NULL;
		if (!r || strcmp(r->name, a->function) ||
		    strcmp_null(r->module, a->module) ||
		    strcmp(r->bucket, a->bucket)) {
			r = &m->functions[m->nfunctions++];
			/* Move the strings: the row owns them now. */
			r->name = a->function;
			r->bucket = a->bucket;
			r->rule = a->rule;
			r->module = a->module;
			a->function = a->bucket = NULL;
			a->rule = a->module = NULL;
		}
		row_add(r, a->samples, a->weight, m->nevents);
	}
	return 0;
}

static int group_buckets(struct model *m)
{
	size_t i, j;

	m->buckets = calloc(m->nfunctions ? m->nfunctions : 1,
			    sizeof(*m->buckets));
	if (!m->buckets)
		return error("out of memory for buckets");
	for (i = 0; i < m->nfunctions; i++) {
		const struct model_row *f = &m->functions[i];
		struct model_row *b = NULL;

		/* Few buckets (tens): a linear search is enough. */
		for (j = 0; j < m->nbuckets; j++) {
			if (!strcmp(m->buckets[j].name, f->bucket)) {
				b = &m->buckets[j];
				break;
			}
		}
		if (!b) {
			b = &m->buckets[m->nbuckets];
			if (dup_opt(&b->name, f->bucket) ||
			    dup_opt(&b->bucket, f->bucket))
				return error("out of memory for buckets");
			m->nbuckets++;
		}
		row_add(b, f->samples, f->weight, m->nevents);
	}
	return 0;
}

static void finish_row(struct model_row *r, const struct model *m,
		       uint64_t round_trips)
{
	size_t e;

	for (e = 0; e < m->nevents; e++)
		r->per_rt[e] = round_trips ? r->weight[e] / round_trips : 0;
	r->share = m->total.weight[0] > 0 ?
		r->weight[0] / m->total.weight[0] : 0;
}

static void finish_rows(struct model_row *rows, size_t n,
			const struct model *m, uint64_t round_trips)
{
	double cum = 0;
	size_t i;

	qsort(rows, n, sizeof(*rows), cmp_row);
	for (i = 0; i < n; i++) {
		finish_row(&rows[i], m, round_trips);
		cum += rows[i].share;
		rows[i].cum = cum;
	}
}

int model_build(struct model *m, const struct profile *p, struct symbolizer *s)
{
	struct addr_info *addrs = NULL;
	const struct model_row *idle;
	size_t naddrs = 0, i, e;

	memset(m, 0, sizeof(*m));
	m->profile = p;
	if (p->nevents > MODEL_MAX_EVENTS)
		return error("profile has %zu events, at most %d are supported",
			     p->nevents, MODEL_MAX_EVENTS);
	m->nevents = p->nevents;
	m->no_round_trips = p->round_trips == 0;

	if (collect_addrs(p, s, &addrs, &naddrs, &m->nunknown))
		goto fail;
	m->naddrs = naddrs;
	if (group_functions(m, addrs, naddrs))
		goto fail;
	if (group_buckets(m))
		goto fail;

	if (dup_opt(&m->total.name, "total") ||
	    dup_opt(&m->busy.name, "busy")) {
		error("out of memory");
		goto fail;
	}
	for (i = 0; i < m->nfunctions; i++)
		row_add(&m->total, m->functions[i].samples,
			m->functions[i].weight, m->nevents);
	row_add(&m->busy, m->total.samples, m->total.weight, m->nevents);
	idle = model_bucket(m, MODEL_IDLE_BUCKET);
	if (idle) {
		for (e = 0; e < m->nevents; e++) {
			m->busy.samples[e] -= idle->samples[e];
			m->busy.weight[e] -= idle->weight[e];
		}
	}

	finish_rows(m->functions, m->nfunctions, m, p->round_trips);
	finish_rows(m->buckets, m->nbuckets, m, p->round_trips);
	finish_row(&m->total, m, p->round_trips);
	m->total.cum = m->total.share;
	finish_row(&m->busy, m, p->round_trips);
	m->busy.cum = m->busy.share;

	for (i = 0; i < naddrs; i++)
		addr_clear(&addrs[i]);
	free(addrs);
	return 0;
fail:
	for (i = 0; i < naddrs; i++)
		addr_clear(&addrs[i]);
	free(addrs);
	model_free(m);
	return -1;
}

void model_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->nfunctions; i++)
		row_clear(&m->functions[i]);
	free(m->functions);
	for (i = 0; i < m->nbuckets; i++)
		row_clear(&m->buckets[i]);
	free(m->buckets);
	row_clear(&m->total);
	row_clear(&m->busy);
	memset(m, 0, sizeof(*m));
}

int model_software_clock(const struct model *m)
{
	return m->profile && m->profile->mode &&
	       !strcmp(m->profile->mode, "software-clock");
}

const struct model_row *model_bucket(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nbuckets; i++)
		if (!strcmp(m->buckets[i].name, name))
			return &m->buckets[i];
	return NULL;
}
