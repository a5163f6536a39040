// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's own model: what a report's headline and tables
 * (model_focus_workload) and diff's default rows are about. A busy machine's other tasks run on the sampled CPUs
 * too; their time per round trip grows when the workload's round trips
 * shrink, so mixed in they would make the workload look slower than it
 * is. They stay one figure apart (model_other_tasks).
 */
#include "reports/model/model.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/model/model-internal.h"

int model_sample_of_workload(const struct model *m,
			     const struct profile_sample *sm)
{
	const struct profile *p = m->profile;

	switch (sm->role) {
	case ROLE_CLIENT:
	case ROLE_RESPONDER:
	case ROLE_WORKLOAD:
		return 1;
	case ROLE_IDLE:
		/* softirqs of the workload's packets run in whatever the
		 * CPU was doing: on its CPUs, idle or not, they are its */
		if (p->client_cpu < 0 && p->server_cpu < 0)
			return 1;
		return (int)sm->cpu == p->client_cpu ||
		       (int)sm->cpu == p->server_cpu;
	default:
		return 0;
	}
}

/* m->others: busy minus the workload's busy, window by window too */
static int others_row(struct model *m)
{
	const struct model_row *w = &m->workload->busy;
	struct model_row *o = &m->others;
	size_t e, k;

	row_init(o);
	if (dup_opt(&o->name, MODEL_OTHER_TASKS) || row_add(o, &m->busy, m->nevents))
		return error("out of memory");
	for (e = 0; e < m->nevents; e++) {
		o->samples[e] = o->samples[e] > w->samples[e] ?
			o->samples[e] - w->samples[e] : 0;
		o->weight[e] = o->weight[e] > w->weight[e] ?
			o->weight[e] - w->weight[e] : 0;
	}
	for (k = 0; o->rep && w->rep && k < o->nrep * MODEL_MAX_EVENTS &&
		    k < w->nrep * MODEL_MAX_EVENTS; k++)
		o->rep[k] -= w->rep[k];
	finish_row(o, m);
	return 0;
}

int model_build_workload(struct model *m, struct symbolizer *s)
{
	struct profile *wp;
	size_t i;

	if (!m->profile || m->workload)
		return 0;
	wp = calloc(1, sizeof(*wp));
	m->workload = calloc(1, sizeof(*m->workload));
	if (!wp || !m->workload) {
		free(wp);
		free(m->workload);
		m->workload = NULL;
		return error("out of memory");
	}
	*wp = *m->profile;
	wp->remote = NULL;
	/* its callchains, for flame graphs (the samples are placed
	 * already): they carry no CPU, so the idle task's are all taken */
	wp->stacks = calloc(wp->nstacks ? wp->nstacks : 1, sizeof(*wp->stacks));
	wp->nstacks = 0;
	for (i = 0; wp->stacks && i < m->profile->nstacks; i++) {
		struct profile_sample probe;

		memset(&probe, 0, sizeof(probe));
		probe.role = m->profile->stacks[i].role;
		probe.cpu = (uint32_t)(m->profile->client_cpu >= 0 ?
				       m->profile->client_cpu : 0);
		if (model_sample_of_workload(m, &probe))
			wp->stacks[wp->nstacks++] = m->profile->stacks[i];
	}
	wp->samples = calloc(m->nsamples ? m->nsamples : 1, sizeof(*wp->samples));
	if (!wp->samples || !wp->stacks) {
		free(wp->samples);
		free(wp->stacks);
		free(wp);
		free(m->workload);
		m->workload = NULL;
		return error("out of memory");
	}
	wp->nsamples = 0;
	for (i = 0; i < m->nsamples; i++)
		if (model_sample_of_workload(m, &m->samples[i]))
			wp->samples[wp->nsamples++] = m->samples[i];
	m->workload_profile = wp;
	if (model_build_part(m->workload, wp, s)) {
		free(m->workload);
		m->workload = NULL;
		return -1;
	}
	return others_row(m);
}

void model_free_workload(struct model *m)
{
	if (m->workload) {
		model_free(m->workload);
		free(m->workload);
	}
	if (m->workload_profile) {
		free(m->workload_profile->samples);
		free(m->workload_profile->stacks);
		free(m->workload_profile);
	}
	m->workload = NULL;
	m->workload_profile = NULL;
	row_clear(&m->others);
}

double model_other_tasks(const struct model *m)
{
	return m->workload && m->nevents ? m->others.per_rt[0] : 0;
}

#define SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

void model_focus_workload(struct model *m)
{
	struct model *w = m->workload;
	int v;

	if (!w || m->focused || m->run.filter)
		return;
	/* what the rows are made of moves with them: --by line reads the
	 * profile's samples, --callers the stacks, --by role,function
	 * the placed samples; the irq-enable points stay the whole
	 * profile's (the workload's samples were placed already) */
	SWAP(m->profile, w->profile);
	SWAP(m->samples, w->samples);
	SWAP(m->nsamples, w->nsamples);
	SWAP(m->functions, w->functions);
	SWAP(m->nfunctions, w->nfunctions);
	SWAP(m->buckets, w->buckets);
	SWAP(m->nbuckets, w->nbuckets);
	for (v = 0; v < MODEL_BY_MAX; v++)
		SWAP(m->views[v], w->views[v]);
	SWAP(m->total, w->total);
	SWAP(m->busy, w->busy);
	SWAP(m->stacks, w->stacks);
	SWAP(m->nstacks, w->nstacks);
	SWAP(m->frames, w->frames);
	SWAP(m->nframes, w->nframes);
	SWAP(m->naddrs, w->naddrs);
	SWAP(m->nunknown, w->nunknown);
	m->focused = w->focused = 1;
	/* its share is of the workload's total now */
	finish_row(&m->others, m);
	m->others.cum = m->others.share;
}

const struct model *model_workload(const struct model *m)
{
	return m->focused || !m->workload ? m : m->workload;
}

const struct model_row *model_others_row(const struct model *m)
{
	return m->focused && m->nevents && m->others.samples[0] ?
	       &m->others : NULL;
}
