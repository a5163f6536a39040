// SPDX-License-Identifier: GPL-2.0-only
#include "reports/model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"
#include "reports/model/model-internal.h"
#include "stats/stats.h"

static const char *const role_names[MODEL_ROLE_MAX] = {
	[MODEL_ROLE_CLIENT] = "client",
	[MODEL_ROLE_RESPONDER] = "responder",
	[MODEL_ROLE_IDLE_CTX] = "idle-ctx irq/softirq",
	[MODEL_ROLE_IDLE] = "idle",
	[MODEL_ROLE_SELF] = "perpkt",
	[MODEL_ROLE_OTHER] = "other",
	[MODEL_ROLE_WORKLOAD] = "workload",
	[MODEL_ROLE_BUSY] = "busy",
};

static const char *const by_names[MODEL_BY_MAX] = {
	[MODEL_BY_FUNCTION] = "function",
	[MODEL_BY_BUCKET] = "bucket",
	[MODEL_BY_FILE] = "file",
	[MODEL_BY_CPU] = "cpu",
	[MODEL_BY_ROLE] = "role",
	[MODEL_BY_LINE] = "line",
	[MODEL_BY_COMBINED] = "combined",
};

const char *model_role_name(enum model_role r)
{
	return r < MODEL_ROLE_MAX ? role_names[r] : "other";
}

int model_by_parse(const char *s)
{
	int i;

	/* a combined view is asked for by its keys, not by name */
	for (i = 0; i < MODEL_BY_COMBINED; i++)
		if (!strcmp(s, by_names[i]))
			return i;
	return -1;
}

const char *model_by_name(enum model_by by)
{
	/* (the model's own name, "role,function", is m->combined_name) */
	return by < MODEL_BY_MAX ? by_names[by] : "?";
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
		c = strcmp_null(a->file, b->file);
	if (!c)
		c = a->ip < b->ip ? -1 : a->ip > b->ip;
	return c;
}

/* Heaviest first by the first event; names break ties so output is stable. */
static int cmp_row(const void *pa, const void *pb)
{
	const struct model_row *a = pa, *b = pb;

	if (a->weight[0] != b->weight[0])
		return a->weight[0] > b->weight[0] ? -1 : 1;
	return row_cmp_names(a, b);
}

/* A sample's report role: idle-task samples outside the idle loop are
 * interrupt work done in idle context, not idleness. */
static enum model_role sample_role(const struct profile_sample *sm,
				   const char *bucket)
{
	switch (sm->role) {
	case ROLE_CLIENT:
		return MODEL_ROLE_CLIENT;
	case ROLE_RESPONDER:
		return MODEL_ROLE_RESPONDER;
	case ROLE_SELF:
		return MODEL_ROLE_SELF;
	case ROLE_WORKLOAD:
		return MODEL_ROLE_WORKLOAD;
	case ROLE_BUSY:
		return MODEL_ROLE_BUSY;
	case ROLE_IDLE:
		return strcmp(bucket, MODEL_IDLE_BUCKET) ?
			MODEL_ROLE_IDLE_CTX : MODEL_ROLE_IDLE;
	default:
		return MODEL_ROLE_OTHER;
	}
}

/* Rows per role (all of them, in enum order) and per sampled CPU. */
static int group_samples(struct model *m, const struct addr_info *addrs,
			 const size_t *sample_addr)
{
	const struct profile *p = m->profile;
	struct model_view *roles = &m->views[MODEL_BY_ROLE];
	struct model_view *cpus = &m->views[MODEL_BY_CPU];
	size_t i, j;

	roles->rows = calloc(MODEL_ROLE_MAX, sizeof(*roles->rows));
	cpus->rows = calloc(m->nsamples + p->ncpus_sampled + 1,
			    sizeof(*cpus->rows));
	if (!roles->rows || !cpus->rows)
		return error("out of memory for role and CPU rows");
	/* the built-in workload's profiles have no workload row */
	roles->n = MODEL_ROLE_WORKLOAD;
	for (i = 0; i < p->ntasks; i++)
		if (p->tasks[i].role == ROLE_WORKLOAD)
			roles->n = MODEL_ROLE_BUSY;
	for (i = 0; i < m->nsamples; i++)
		if (m->samples[i].role == ROLE_WORKLOAD)
			roles->n = MODEL_ROLE_BUSY;
	/* --busy: its row, after an empty workload row in a built-in run */
	for (i = 0; i < m->nsamples; i++)
		if (m->samples[i].role == ROLE_BUSY)
			roles->n = MODEL_ROLE_MAX;
	/* every row up to n owns its name: model_free() frees n of them */
	for (i = 0; i < MODEL_ROLE_MAX; i++) {
		row_init(&roles->rows[i]);
		if (i < roles->n && dup_opt(&roles->rows[i].name, role_names[i]))
			return error("out of memory");
	}
	/* Every sampled CPU gets a row, even one without samples. */
	for (i = 0; i < p->ncpus_sampled; i++) {
		struct model_row *r = &cpus->rows[cpus->n++];
		char name[32];

		row_init(r);
		r->cpu = p->cpus[i];
		snprintf(name, sizeof(name), "cpu %d", r->cpu);
		if (dup_opt(&r->name, name))
			return error("out of memory");
	}
	for (i = 0; i < m->nsamples; i++) {
		const struct profile_sample *sm = &m->samples[i];
		const struct addr_info *a = &addrs[sample_addr[i]];
		struct model_row *r;

		enum model_role role = sample_role(sm, a->bucket);

		r = &roles->rows[role];
		if (row_add_sample(r, sm, m->nrepeats))
			return error("out of memory for samples by repeat");
		for (j = 0; j < cpus->n; j++)
			if (cpus->rows[j].cpu == (int)sm->cpu)
				break;
		r = &cpus->rows[j];
		if (j == cpus->n) {
			char name[32];

			cpus->n++;
			row_init(r);
			r->cpu = (int)sm->cpu;
			snprintf(name, sizeof(name), "cpu %d", r->cpu);
			if (dup_opt(&r->name, name))
				return error("out of memory");
		}
		if (row_add_sample(r, sm, m->nrepeats))
			return error("out of memory for samples by repeat");
		if (role == MODEL_ROLE_IDLE && sm->event == 0)
			r->idle_weight += (double)sm->weight;
	}
	return 0;
}

/* Merge addresses of one (function, module, bucket, file) into a row. */
static int group_functions(struct model *m, struct addr_info *addrs, size_t n)
{
	size_t i;

	if (n > 1)
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
		    strcmp(r->bucket, a->bucket) ||
		    strcmp_null(r->file, a->file)) {
			r = &m->functions[m->nfunctions++];
			row_init(r);
			/* Move the strings: the row owns them now. */
			r->name = a->function;
			r->bucket = a->bucket;
			r->rule = a->rule;
			r->module = a->module;
			r->file = a->file;
			a->function = a->bucket = NULL;
			a->rule = a->module = a->file = NULL;
		}
		if (row_add(r, &a->acc, m->nevents))
			return error("out of memory for samples by repeat");
	}
	return 0;
}

/* Rows of functions summed by bucket or by file. */
static int group_by_key(struct model *m, enum model_by by)
{
	struct model_view *v = &m->views[by];
	size_t i, j;

	v->rows = calloc(m->nfunctions ? m->nfunctions : 1, sizeof(*v->rows));
	if (!v->rows)
		return error("out of memory for %s rows", by_names[by]);
	for (i = 0; i < m->nfunctions; i++) {
		const struct model_row *f = &m->functions[i];
		const char *key = by == MODEL_BY_BUCKET ? f->bucket :
			f->file ? f->file : MODEL_NO_FILE;
		struct model_row *r = NULL;

		/* Tens of buckets, hundreds of files: linear is enough. */
		for (j = 0; j < v->n; j++) {
			if (!strcmp(v->rows[j].name, key)) {
				r = &v->rows[j];
				break;
			}
		}
		if (!r) {
			r = &v->rows[v->n];
			row_init(r);
			if (dup_opt(&r->name, key) ||
			    (by == MODEL_BY_BUCKET && dup_opt(&r->bucket, key)))
				return error("out of memory for %s rows",
					     by_names[by]);
			v->n++;
		}
		if (row_add(r, f, m->nevents))
			return error("out of memory for %s rows", by_names[by]);
	}
	return 0;
}

double model_repeat_value(const struct model *m, const struct model_row *r,
			  size_t e, size_t k)
{
	const struct profile *p = m->profile;

	if (m->nrepeats < 2)
		return r->per_rt[e];
	if (k >= p->nrepeats || !p->repeats[k].round_trips || !r->rep ||
	    k >= r->nrep)
		return 0;
	return r->rep[k * MODEL_MAX_EVENTS + e] / p->repeats[k].round_trips;
}

double model_repeat_latency(const struct model *m, size_t k)
{
	const struct profile *p = m->profile;

	/* the mean without stalls where the recorder set them apart */
	if (m->nrepeats < 2)
		return p->latency.count ? latency_basis(&p->latency) : -1;
	if (!profile_repeat_used(p, k) || !p->repeats[k].latency.count)
		return -1;
	return latency_basis(&p->repeats[k].latency);
}

struct row_event {
	const struct model *m;
	const struct model_row *r;
	size_t e;
};

/* A window without round trips tells nothing about the value per round
 * trip, and one cut short is left out unless asked for
 * (--include-partial). */
static double row_window_value(const void *ctx, size_t k)
{
	const struct row_event *re = ctx;

	if (!profile_repeat_used(re->m->profile, k))
		return NAN;
	return model_repeat_value(re->m, re->r, re->e, k);
}

void finish_row(struct model_row *r, const struct model *m)
{
	uint64_t rt = m->profile->round_trips;
	size_t e;

	for (e = 0; e < m->nevents; e++) {
		r->per_rt[e] = rt ? r->weight[e] / rt : 0;
		/* exact counts have no sampling error */
		r->err[e] = r->samples[e] && !m->run.exact ?
			r->per_rt[e] / sqrt((double)r->samples[e]) : 0;
		r->rep_mean[e] = r->per_rt[e];
		r->spread[e] = 0;
		if (m->nrepeats > 1) {
			struct row_event re = { m, r, e };
			struct spread s;

			spread_over((size_t)m->nrepeats, row_window_value, &re, 0, &s);
			r->rep_mean[e] = s.mean;
			r->spread[e] = s.sd;
		}
	}
	r->ipc = -1;
	if (m->cycles_event >= 0 && m->insns_event >= 0 &&
	    r->weight[m->cycles_event] > 0)
		r->ipc = r->weight[m->insns_event] /
			 r->weight[m->cycles_event];
	r->share = m->total.weight[0] > 0 ?
		r->weight[0] / m->total.weight[0] : 0;
	r->calls_per_rt = rt ? r->calls / rt : 0;
	r->incl_per_rt = rt ? r->incl / rt : 0;
}

void finish_rows(struct model_row *rows, size_t n, const struct model *m)
{
	double cum = 0;
	size_t i;

	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_row);
	for (i = 0; i < n; i++) {
		finish_row(&rows[i], m);
		cum += rows[i].share;
		rows[i].cum = cum;
	}
}

/* The first event in `unit` that counts: a zero from one that does
 * not would make an IPC of 0 or infinity. */
static int find_unit(const struct profile *p, const char *unit)
{
	size_t e;

	for (e = 0; e < p->nevents; e++)
		if (p->events[e].unit && !strcmp(p->events[e].unit, unit) &&
		    !profile_event_not_counting(p, e))
			return (int)e;
	return -1;
}

static int build_rows(struct model *m, struct symbolizer *s)
{
	const struct profile *p = m->profile;
	struct addr_info *addrs = NULL;
	size_t *sample_addr, naddrs = 0, i;
	int ret = -1;

	for (i = 0; i < p->nsamples; i++)
		if (p->samples[i].event >= p->nevents)
			return error("sample %zu refers to event %u, profile has %zu",
				     i, p->samples[i].event, p->nevents);
	/* the model's samples: a split sample is more than one */
	if (model_apply_context(m, s))
		return -1;
	sample_addr = calloc(m->nsamples ? m->nsamples : 1,
			     sizeof(*sample_addr));
	if (!sample_addr)
		return error("out of memory for %zu samples", m->nsamples);
	if (collect_addrs(m, s, &addrs, &naddrs, &m->nunknown, sample_addr,
			  m->nrepeats))
		goto out;
	m->naddrs = naddrs;
	/* before group_functions moves the strings out of addrs */
	if (group_samples(m, addrs, sample_addr) ||
	    group_functions(m, addrs, naddrs))
		goto out;
	m->views[MODEL_BY_FUNCTION].rows = m->functions;
	m->views[MODEL_BY_FUNCTION].n = m->nfunctions;
	if (group_by_key(m, MODEL_BY_BUCKET) || group_by_key(m, MODEL_BY_FILE))
		goto out;
	m->buckets = m->views[MODEL_BY_BUCKET].rows;
	m->nbuckets = m->views[MODEL_BY_BUCKET].n;
	ret = 0;
out:
	for (i = 0; i < naddrs; i++) {
		addr_clear(&addrs[i]);
		row_clear(&addrs[i].acc);
	}
	free(addrs);
	free(sample_addr);
	return ret;
}

static double window_latency(const void *m, size_t k)
{
	double v = model_repeat_latency(m, k);

	return v < 0 ? NAN : v;
}

static void repeat_latency(struct model *m)
{
	struct spread s;

	if (m->nrepeats < 2)
		return;
	spread_over((size_t)m->nrepeats, window_latency, m, 0, &s);
	if (!s.n)
		return;
	m->rep_latency_mean = s.mean;
	m->rep_latency_sd = s.sd;
}

/* The conditions and the histogram, for the renderers that show them. */
static int copy_lists(struct model *m, const struct profile *p)
{
	size_t i;

	m->conditions = calloc(p->nconditions ? p->nconditions : 1,
			       sizeof(*m->conditions));
	m->histogram = calloc(p->nhistogram ? p->nhistogram : 1,
			      sizeof(*m->histogram));
	if (!m->conditions || !m->histogram)
		return -1;
	for (i = 0; i < p->nconditions; i++) {
		m->conditions[i].key = p->conditions[i].key;
		m->conditions[i].value = p->conditions[i].value;
	}
	m->nconditions = p->nconditions;
	for (i = 0; i < p->nhistogram; i++) {
		m->histogram[i].lo = p->histogram[i].lo;
		m->histogram[i].hi = p->histogram[i].hi;
		m->histogram[i].count = p->histogram[i].count;
	}
	m->nhistogram = p->nhistogram;
	return 0;
}

int model_build(struct model *m, const struct profile *p, struct symbolizer *s)
{
	if (model_build_part(m, p, s))
		return -1;
	if (model_build_workload(m, s)) {
		model_free(m);
		return -1;
	}
	return 0;
}

int model_build_part(struct model *m, const struct profile *p,
		     struct symbolizer *s)
{
	const struct model_row *idle;
	size_t i, e;
	int v;

	memset(m, 0, sizeof(*m));
	row_init(&m->total);
	row_init(&m->busy);
	row_init(&m->callee);
	m->profile = p;
	/* one window listed is the same as none: a single run */
	m->nrepeats = p->nrepeats > 1 ? (int)p->nrepeats : 1;
	m->rep_latency_mean = m->rep_latency_sd = -1;
	if (p->nevents > MODEL_MAX_EVENTS)
		return error("profile has %zu events, at most %d are supported",
			     p->nevents, MODEL_MAX_EVENTS);
	m->nevents = p->nevents;
	m->no_round_trips = p->round_trips == 0;
	if (run_facts_fill(&m->run, p))
		return -1;
	if (copy_lists(m, p))
		goto oom;
	m->time_event = find_unit(p, "ns");
	m->cycles_event = find_unit(p, "cycles");
	m->insns_event = find_unit(p, "instructions");
	model_miss_events(m);

	if (build_rows(m, s))
		goto fail;
	if (dup_opt(&m->total.name, "total") ||
	    dup_opt(&m->busy.name, "busy")) {
		error("out of memory");
		goto fail;
	}
	for (i = 0; i < m->nfunctions; i++)
		if (row_add(&m->total, &m->functions[i], m->nevents))
			goto oom;
	if (row_add(&m->busy, &m->total, m->nevents))
		goto oom;
	idle = model_bucket(m, MODEL_IDLE_BUCKET);
	if (idle) {
		for (e = 0; e < m->nevents; e++) {
			m->busy.samples[e] -= idle->samples[e];
			m->busy.weight[e] -= idle->weight[e];
		}
		m->busy.calls -= idle->calls;
		for (i = 0; idle->rep && m->busy.rep &&
			    i < idle->nrep * MODEL_MAX_EVENTS; i++)
			m->busy.rep[i] -= idle->rep[i];
	}
	for (v = 0; v < MODEL_BY_MAX; v++)
		finish_rows(m->views[v].rows, m->views[v].n, m);
	finish_row(&m->total, m);
	m->total.cum = m->total.share;
	finish_row(&m->busy, m);
	m->busy.cum = m->busy.share;
	if (model_build_stacks(m, s) || model_build_frames(m, s) ||
	    model_calls(m))
		goto fail;
	repeat_latency(m);
	model_derive(m);
	return 0;
oom:
	error("out of memory");
fail:
	model_free(m);
	return -1;
}

void model_free(struct model *m)
{
	int v;

	/* a build that failed half-way may not have aliased functions yet */
	if (!m->views[MODEL_BY_FUNCTION].rows)
		rows_free(m->functions, m->nfunctions);
	for (v = 0; v < MODEL_BY_MAX; v++)
		rows_free(m->views[v].rows, m->views[v].n);
	rows_free(m->callers.rows, m->callers.n);
	free(m->callers_of);
	row_clear(&m->total);
	row_clear(&m->busy);
	row_clear(&m->callee);
	model_free_stacks(m);
	model_free_frames(m);
	free(m->samples);
	model_free_workload(m);
	free(m->recon.cpus);
	free(m->conditions);
	free(m->histogram);
	if (m->remote) {
		model_free(m->remote);
		free(m->remote);
	}
	memset(m, 0, sizeof(*m));
}

int model_build_remote(struct model *m, struct symbolizer *s)
{
	if (!m->profile || !m->profile->remote)
		return 0;
	m->remote = calloc(1, sizeof(*m->remote));
	if (!m->remote)
		return error("out of memory");
	if (model_build(m->remote, m->profile->remote, s)) {
		free(m->remote);
		m->remote = NULL;
		return -1;
	}
	return 0;
}

void model_rest_row(const struct model *m, const struct model_view *v,
		    size_t from, struct model_row *rest)
{
	size_t i, e;

	memset(rest, 0, sizeof(*rest));
	rest->ipc = -1;
	for (i = from; i < v->n; i++) {
		rest->share += v->rows[i].share;
		rest->calls += v->rows[i].calls;
		rest->calls_per_rt += v->rows[i].calls_per_rt;
		for (e = 0; e < m->nevents; e++) {
			rest->samples[e] += v->rows[i].samples[e];
			rest->per_rt[e] += v->rows[i].per_rt[e];
		}
	}
	for (e = 0; e < m->nevents; e++)
		rest->err[e] = rest->samples[e] && !m->run.exact ?
			rest->per_rt[e] / sqrt((double)rest->samples[e]) : 0;
	if (v->n)
		rest->cum = v->rows[v->n - 1].cum;
}

double model_row_error(const struct model *m, const struct model_row *r,
		       size_t e)
{
	return m->nrepeats > 1 && r->nrep ? r->spread[e] : r->err[e];
}

int model_empty(const struct model *m)
{
	return !m->profile;
}

int model_software_clock(const struct model *m)
{
	return m->run.mode && !strcmp(m->run.mode, "software-clock");
}

const struct model_row *model_bucket(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nbuckets; i++)
		if (!strcmp(m->buckets[i].name, name))
			return &m->buckets[i];
	return NULL;
}
