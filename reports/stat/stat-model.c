// SPDX-License-Identifier: GPL-2.0-only
#include "reports/stat/stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"

static double per(double v, double rt)
{
	return rt > 0 ? v / rt : 0;
}

static struct stat_value *find_or_add(struct stat_value *v, int *n,
				      const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	if (*n >= STAT_MAX_ROWS)
		return NULL;
	memset(&v[*n], 0, sizeof(v[*n]));
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	return &v[(*n)++];
}

static int by_per_rt(const void *a, const void *b)
{
	const struct stat_value *x = a, *y = b;

	if (x->per_rt != y->per_rt)
		return x->per_rt < y->per_rt ? 1 : -1;
	return strcmp(x->name, y->name);
}

static struct stat_cpu *cpu_row(struct stat_model *m, int cpu)
{
	int i;

	for (i = 0; i < m->ncpus; i++)
		if (m->cpus[i].cpu == cpu)
			return &m->cpus[i];
	if (m->ncpus >= STAT_MAX_ROWS)
		return NULL;
	memset(&m->cpus[m->ncpus], 0, sizeof(m->cpus[0]));
	m->cpus[m->ncpus].cpu = cpu;
	return &m->cpus[m->ncpus++];
}

/* Why the event called `name` measured nothing, NULL when it counts. */
static const char *event_not_counting(const struct profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nevents; i++)
		if (p->events[i].name && !strcmp(p->events[i].name, name))
			return profile_event_not_counting(p, i);
	return NULL;
}

static void side_fill(struct stat_side *s, const struct run_facts *f)
{
	double rt = (double)f->round_trips;

	s->present = 1;
	s->host = f->hostname;
	s->device_irqs = per(run_facts_device_irqs(f), rt);
	s->softirqs = per(run_facts_softirqs(f), rt);
	s->napi_function = f->napi_function;
	s->napi_polls = f->napi_function ? per(f->napi_polls, rt) : 0;
}

int stat_build(struct stat_model *m, const struct profile *p)
{
	double busy_ns = 0, cyc, ins;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (run_facts_fill(&m->run, p))
		return -1;
	m->rt = (double)p->round_trips;
	m->window_s = (double)p->window_ns * 1e-9;
	/* the reports' basis: the mean without stalls where set apart */
	m->latency_us = latency_basis(&p->latency) / 1000;
	m->ipc = -1;
	side_fill(&m->local, &m->run);
	if (p->remote) {
		struct run_facts *r = malloc(sizeof(*r));

		if (!r || run_facts_fill(r, p->remote)) {
			free(r);
			return error("cannot read the remote side's counts");
		}
		side_fill(&m->remote, r);
		free(r);
	}
	for (i = 0; i < p->ncounts; i++) {
		const struct profile_count *c = &p->counts[i];
		struct stat_value *v;
		struct stat_cpu *r;

		/* a per-CPU cpu-clock counts wall time, idle included: CPU
		 * time comes from /proc/stat instead */
		if (!strcmp(c->name, "cpu-clock"))
			continue;
		v = find_or_add(m->events, &m->nevents, c->name);
		r = cpu_row(m, c->cpu);
		if (!v || !r)
			continue;
		v->total += (double)c->value;
		r->events_per_rt[v - m->events] += per((double)c->value, m->rt);
	}
	for (i = 0; i < (size_t)m->nevents; i++) {
		m->events[i].per_rt = per(m->events[i].total, m->rt);
		m->events[i].not_counting = event_not_counting(p, m->events[i].name);
	}
	cyc = ins = -1;
	for (i = 0; i < p->nevents; i++) {
		/* by unit: model-specific names (arm_ac57::INST_RETIRED)
		 * carry it; an event that does not count gives no IPC */
		const char *u = p->events[i].unit ? p->events[i].unit : "";

		if (profile_event_not_counting(p, i))
			continue;
		if (!strcmp(u, "cycles") && cyc < 0)
			cyc = (double)p->events[i].count;
		if (!strcmp(u, "instructions") && ins < 0)
			ins = (double)p->events[i].count;
	}
	if (cyc > 0 && ins > 0)
		m->ipc = ins / cyc;
	for (i = 0; i < p->ncpu_times; i++) {
		const struct profile_cpu *c = &p->cpu_times[i];
		struct stat_cpu *r = cpu_row(m, c->cpu);
		double all = (double)(c->user_ns + c->system_ns + c->irq_ns +
				      c->softirq_ns + c->idle_ns + c->other_ns);
		double busy = all - (double)c->idle_ns;

		if (!r || all <= 0)
			continue;
		r->user_pct = 100 * (double)c->user_ns / all;
		r->system_pct = 100 * (double)c->system_ns / all;
		r->irq_pct = 100 * (double)c->irq_ns / all;
		r->softirq_pct = 100 * (double)c->softirq_ns / all;
		r->idle_pct = 100 * (double)c->idle_ns / all;
		r->busy_pct = 100 * busy / all;
		r->busy_us_per_rt = per(busy, m->rt) / 1000;
		busy_ns += busy;
	}
	/* netperf's service demand: CPU busy time per transaction */
	m->service_demand_us = per(busy_ns, m->rt) / 1000;
	/* by source, summed over CPUs: the run's facts */
	for (i = 0; i < (size_t)m->run.nirqs; i++) {
		struct stat_value *v = find_or_add(m->irqs, &m->nirqs, m->run.irqs[i].name);

		if (v)
			v->total += m->run.irqs[i].total;
	}
	for (i = 0; i < (size_t)m->run.nsoftirqs; i++) {
		struct stat_value *v = find_or_add(m->softirqs, &m->nsoftirqs,
						   m->run.softirqs[i].name);

		if (v)
			v->total += m->run.softirqs[i].total;
	}
	for (i = 0; i < (size_t)m->nirqs; i++)
		m->irqs[i].per_rt = per(m->irqs[i].total, m->rt);
	for (i = 0; i < (size_t)m->nsoftirqs; i++)
		m->softirqs[i].per_rt = per(m->softirqs[i].total, m->rt);
	if ((size_t)m->nirqs > 1)
		qsort(m->irqs, (size_t)m->nirqs, sizeof(m->irqs[0]), by_per_rt);
	if ((size_t)m->nsoftirqs > 1)
		qsort(m->softirqs, (size_t)m->nsoftirqs, sizeof(m->softirqs[0]), by_per_rt);
	for (i = 0; i < p->ntasks; i++) {
		double us = per((double)p->tasks[i].cpu_ns, m->rt) / 1000;

		m->have_tasks = 1;
		if (p->tasks[i].role == ROLE_CLIENT)
			m->client_us += us;
		else
			m->responder_us += us;
	}
	m->rest_us = m->latency_us - m->client_us - m->responder_us;
	{
		double steal, all;

		m->steal_us = m->rt > 0 && profile_steal(p, p->client_cpu,
							 p->server_cpu, &steal, &all) ?
			per(steal, m->rt) / 1000 : -1;
	}
	for (i = 0; i < p->nmissing && m->nmissing < STAT_MAX_ROWS; i++) {
		m->missing[m->nmissing].name = p->missing[i].name;
		m->missing[m->nmissing++].reason = p->missing[i].reason;
	}
	m->nfigures = stat_repeat_figures(p, STAT_CONFIDENCE, m->figures,
					  STAT_MAX_ROWS);
	return 0;
}
