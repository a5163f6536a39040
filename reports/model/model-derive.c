// SPDX-License-Identifier: GPL-2.0-only
/*
 * Numbers derived from the rows and the profile's own accounting:
 * the latency decomposition (netperf's service demand argument) and the
 * reconciliation of sampled against counted totals. Both let a reader
 * tell a problem of the looked-at system from one of the observer.
 */
#include "reports/model/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/latency-stalls.h"
#include "reports/model/model-internal.h"

static const struct model_row *role_row(const struct model *m,
					enum model_role r)
{
	const struct model_view *v = &m->views[MODEL_BY_ROLE];
	size_t i;

	for (i = 0; i < v->n; i++)
		if (!strcmp(v->rows[i].name, model_role_name(r)))
			return &v->rows[i];
	return NULL;
}

/* Sampled time per round trip of a role, -1 without an event in ns. */
static double role_time(const struct model *m, enum model_role r)
{
	const struct model_row *row = role_row(m, r);

	if (m->time_event < 0)
		return -1;
	return row ? row->per_rt[m->time_event] : 0;
}

static uint64_t cpu_busy_ns(const struct profile_cpu *c)
{
	return c->user_ns + c->system_ns + c->irq_ns + c->softirq_ns +
	       c->other_ns;
}

/* Busy CPU time per unit on the sampled CPUs, whoever used it. */
static void derive_service_demand(const struct model *m, struct model_decomp *d)
{
	const struct profile *p = m->profile;
	size_t i;

	if (p->ncpu_times) {
		double busy = 0;

		for (i = 0; i < p->ncpu_times; i++)
			busy += cpu_busy_ns(&p->cpu_times[i]);
		d->service_demand = busy / (double)p->round_trips;
		d->sd_source = "/proc/stat, all CPU time";
	} else if (m->time_event >= 0) {
		d->service_demand = m->busy.per_rt[m->time_event];
		d->sd_source = "samples, kernel only";
	}
}

/* Steal time on the workload's CPUs (profile_steal), per round trip
 * and as a share of their time. */
static void derive_steal(const struct model *m, struct model_decomp *d)
{
	const struct profile *p = m->profile;
	double steal, all;

	d->steal = d->steal_share = -1;
	if (!p->round_trips ||
	    !profile_steal(p, p->client_cpu, p->server_cpu, &steal, &all))
		return;
	d->steal = steal / (double)p->round_trips;
	d->steal_share = all > 0 ? steal / all : -1;
}

static void derive_decomp(struct model *m)
{
	const struct profile *p = m->profile;
	struct model_decomp *d = &m->decomp;
	double rt = (double)p->round_trips;
	double ct = 0, rs = 0, cu = 0, cs = 0, ru = 0, rsys = 0, w = 0, sw = 0;
	int have_c = 0, have_r = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->rtt = d->client = d->responder = d->rest = -1;
	d->client_user = d->client_system = -1;
	d->responder_user = d->responder_system = -1;
	d->wait = d->switches = d->service_demand = -1;
	d->client_kernel = role_time(m, MODEL_ROLE_CLIENT);
	d->responder_kernel = role_time(m, MODEL_ROLE_RESPONDER);
	d->idle_ctx = role_time(m, MODEL_ROLE_IDLE_CTX);
	d->sd_source = "unknown";
	derive_steal(m, d);
	if (!p->round_trips)
		return;
	/* client + responder + rest adds up for round trips only; the
	 * service demand holds for any unit */
	if (!profile_unit_is_rt(p)) {
		d->per_unit = 1;
		d->workload = d->workload_user = d->workload_system = -1;
		d->workload_kernel = role_time(m, MODEL_ROLE_WORKLOAD);
		for (i = 0; i < p->ntasks; i++) {
			if (p->tasks[i].role != ROLE_WORKLOAD)
				continue;
			d->workload = p->tasks[i].cpu_ns / rt;
			d->workload_user = p->tasks[i].user_ns / rt;
			d->workload_system = p->tasks[i].system_ns / rt;
			d->switches = p->tasks[i].switches / rt;
		}
		derive_service_demand(m, d);
		return;
	}
	if (p->latency.count && p->latency.mean > 0) {
		const struct latency_summary *l = &p->latency;

		/* a few stalls must not own the sum: set apart, shown */
		d->rtt = latency_basis(l);
		d->stalls_known = l->stalls_known && l->stalls;
		d->rtt_source = d->stalls_known ? "mean without stalls" :
			"mean latency";
		d->stalls = l->stalls;
		d->stall_cut = (double)l->stall_cut;
		d->stall_share = latency_stall_share(l);
		d->stall_per_rt = l->mean - d->rtt;
		d->rtt_mean = l->mean;
		d->rtt_p50 = (double)l->p50;
	} else if (p->window_ns) {
		/* one request in flight: the window holds round trips back to back */
		d->rtt = p->window_ns / rt;
		d->rtt_source = "window / round trips";
	} else {
		return;
	}

	for (i = 0; i < p->ntasks; i++) {
		const struct profile_task *t = &p->tasks[i];
		/* the workload runs through the reads before and after the
		 * window: CPU times over the window's length, not the span's */
		double k = t->span_ns && p->window_ns ?
			(double)p->window_ns / (double)t->span_ns : 1;

		if (t->role != ROLE_CLIENT && t->role != ROLE_RESPONDER)
			continue;
		if (t->span_ns && p->window_ns)
			d->span_scale = k;
		if (t->role == ROLE_CLIENT) {
			have_c = 1;
			ct += t->cpu_ns * k;
			cu += t->user_ns * k;
			cs += t->system_ns * k;
		} else {
			have_r = 1;
			rs += t->cpu_ns * k;
			ru += t->user_ns * k;
			rsys += t->system_ns * k;
		}
		w += t->wait_ns * k;
		sw += t->switches * k;
	}
	if (have_c || have_r) {
		/* when client and responder are one process, it is the client */
		d->from_tasks = 1;
		d->client_elsewhere = !have_c;
		d->responder_elsewhere = !have_r;
		d->client = ct / rt;
		d->responder = rs / rt;
		d->client_user = cu / rt;
		d->client_system = cs / rt;
		d->responder_user = ru / rt;
		d->responder_system = rsys / rt;
		d->wait = w / rt;
		d->switches = sw / rt;
	} else if (m->time_event >= 0) {
		/* kernel-only: user time and unsampled CPUs are missing */
		d->client = d->client_kernel;
		d->responder = d->responder_kernel;
	} else {
		return;
	}
	d->rest = d->rtt - d->client - d->responder;
	d->valid = 1;
	derive_service_demand(m, d);
}

static struct model_cpu_recon *cpu_recon(struct model_recon *r, int cpu)
{
	size_t i;

	for (i = 0; i < r->ncpus; i++)
		if (r->cpus[i].cpu == cpu)
			return &r->cpus[i];
	return NULL;
}

static void derive_cpus(struct model *m)
{
	const struct profile *p = m->profile;
	struct model_recon *r = &m->recon;
	const struct model_view *cv = &m->views[MODEL_BY_CPU];
	size_t i, n = cv->n + p->ncpu_times;

	r->cpus = calloc(n ? n : 1, sizeof(*r->cpus));
	if (!r->cpus)
		return;  /* reconciliation is optional; renderers check ncpus */
	for (i = 0; i < cv->n; i++) {
		struct model_cpu_recon *c = &r->cpus[r->ncpus++];

		c->cpu = cv->rows[i].cpu;
		c->sampled = cv->rows[i].weight[0];
		c->sampled_busy = c->sampled - cv->rows[i].idle_weight;
		c->kernel = c->busy = c->idle = c->ratio = -1;
	}
	for (i = 0; i < p->ncpu_times; i++) {
		const struct profile_cpu *pc = &p->cpu_times[i];
		struct model_cpu_recon *c = cpu_recon(r, pc->cpu);

		if (!c) {
			c = &r->cpus[r->ncpus++];
			c->cpu = pc->cpu;
			c->ratio = -1;
		}
		c->kernel = pc->system_ns + pc->irq_ns + pc->softirq_ns;
		c->busy = cpu_busy_ns(pc);
		c->idle = pc->idle_ns;
		c->lost = pc->lost;
		c->throttled = pc->throttled;
	}
}

static int gap(double a, double b)
{
	return b > 0 && fabs(a / b - 1) > MODEL_GAP_FLAG;
}

static double resolution_ns(const struct model *m)
{
	const struct profile_event *ev = &m->profile->events[0];
	double period = ev->freq ? 1e9 / (double)ev->freq : (double)ev->period;
	double floor_ns = 5 * 1e7;  /* five ticks of /proc/stat */

	return 5 * period > floor_ns ? 5 * period : floor_ns;
}

static int cmp_cpu_recon(const void *a, const void *b)
{
	const struct model_cpu_recon *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static void derive_recon(struct model *m)
{
	const struct profile *p = m->profile;
	struct model_recon *r = &m->recon;
	size_t e, i;

	r->rt_per_s = p->window_ns ? p->round_trips / (p->window_ns / 1e9) : -1;
	r->capacity = p->ncpus_sampled ? (double)p->ncpus_sampled :
		      (double)p->ncpu_times;
	r->busy_cpus = -1;
	if (m->decomp.service_demand >= 0 && r->rt_per_s >= 0) {
		r->busy_cpus = m->decomp.service_demand * r->rt_per_s / 1e9;
		/* more busy CPUs than exist is an accounting error */
		if (r->capacity > 0 && r->busy_cpus > r->capacity * 1.02)
			r->flagged = 1;
	}
	for (e = 0; e < m->nevents; e++) {
		const struct profile_event *ev = &p->events[e];
		struct model_event_recon *er = &r->events[e];

		/* skid's samples were counted in the kernel too */
		er->sampled = m->total.weight[e] + (double)m->skid_weight[e];
		er->counted = (double)ev->count;
		er->running = -1;
		/* record already scaled a multiplexed count up, CPU by CPU
		 * (perf's convention): it is used as it is */
		if (ev->enabled_ns)
			er->running = (double)ev->running_ns / ev->enabled_ns;
		er->ratio = er->counted > 0 ? er->sampled / er->counted : -1;
		r->lost += ev->lost;
		r->throttled += ev->throttled;
	}
	derive_cpus(m);
	if (r->cpus && r->ncpus > 1)
		qsort(r->cpus, r->ncpus, sizeof(*r->cpus), cmp_cpu_recon);
	for (i = 0; i < r->ncpus; i++) {
		struct model_cpu_recon *c = &r->cpus[i];

		/* only time can be compared with /proc/stat time */
		if (m->time_event != 0 || c->kernel <= 0)
			continue;
		c->ratio = c->sampled_busy / c->kernel;
		/* /proc/stat moves in ticks of 10 ms (USER_HZ 100) and the
		 * samples in periods: a gap within five of either is their
		 * resolution, not a finding */
		c->flagged = gap(c->sampled_busy, c->kernel) &&
			     fabs(c->sampled_busy - c->kernel) > resolution_ns(m);
		r->flagged |= c->flagged;
	}
}

void model_derive(struct model *m)
{
	derive_decomp(m);
	derive_recon(m);
}
