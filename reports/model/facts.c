// SPDX-License-Identifier: GPL-2.0-only
#include "reports/model/facts.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"

/* Throttling on a CPU that idles without a tick pauses sampling until the
 * tick returns: only idle time goes unsampled. True when every throttle
 * was on a CPU idle for more than half the window. */
static int idle_throttles(const struct profile *p)
{
	size_t i;
	int any = 0;

	for (i = 0; i < p->ncpu_times; i++) {
		const struct profile_cpu *c = &p->cpu_times[i];
		uint64_t all = c->user_ns + c->system_ns + c->irq_ns +
			       c->softirq_ns + c->idle_ns + c->other_ns;

		if (!c->throttled)
			continue;
		if (!all || c->idle_ns * 2 < all)
			return 0;
		any = 1;
	}
	return any;
}

static double first_partial_fraction(const struct profile *p)
{
	size_t k;

	for (k = 0; k < p->nrepeats; k++)
		if (p->repeats[k].partial)
			return p->repeats[k].fraction;
	return 1;
}

static void fill_unit(struct run_unit *u, const struct profile *p)
{
	u->name = profile_unit_name(p);
	u->spec = profile_unit_spec(p);
	u->abbrev = profile_unit_abbrev(p);
	u->source = p->unit.source;
	u->is_rt = profile_unit_is_rt(p);
	u->outside = p->unit.outside;
	u->outside_ns = p->unit.outside_ns;
	u->outside_busy = p->unit.outside_busy;
}

static void fill_event(struct run_event *ev, const struct profile *p,
		       size_t e)
{
	const struct profile_event *pe = &p->events[e];

	ev->name = pe->name;
	ev->requested = pe->requested;
	ev->pmu = pe->pmu;
	ev->unit = pe->unit;
	ev->period = pe->period;
	ev->freq = pe->freq;
	ev->samples = pe->samples;
	ev->lost = pe->lost;
	ev->throttled = pe->throttled;
	ev->count = pe->count;
	ev->enabled_ns = pe->enabled_ns;
	ev->running_ns = pe->running_ns;
	ev->not_counting = profile_event_not_counting(p, e);
}

/* The timer ticks: x86's LOC, arm64's arch_timer (by description). */
static double timer_irqs(const struct profile *p)
{
	double n = 0;
	int seen = 0;
	size_t i;

	for (i = 0; i < p->nirqs; i++) {
		const struct profile_irq *q = &p->irqs[i];

		if (strcmp(q->kind, "irq") || !(!strcmp(q->name, "LOC") ||
		    (q->desc && strstr(q->desc, "arch_timer"))))
			continue;
		n += (double)q->count;
		seen = 1;
	}
	return seen ? n : -1;
}

static struct run_irq *irq_row(struct run_irq *v, int *n, const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	if (*n >= RUN_MAX_IRQS)
		return NULL;
	memset(&v[*n], 0, sizeof(v[*n]));
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	return &v[(*n)++];
}

/* "36" + "PCI-MSIX-0000:00:02.0   1-edge" -> "36 PCI-MSIX-0000:00:02.0 1-edge" */
static void squeeze(char *out, size_t len, const char *name, const char *desc)
{
	size_t n = (size_t)snprintf(out, len, "%s", name);
	int pending = 1;  /* one space before the next word */

	if (n >= len)
		return;
	for (; desc && *desc && n + 2 < len; desc++) {
		if (*desc == ' ' || *desc == '\t') {
			pending = 1;
			continue;
		}
		if (pending)
			out[n++] = ' ';
		pending = 0;
		out[n++] = *desc;
	}
	out[n] = 0;
}

static int by_total(const void *a, const void *b)
{
	const struct run_irq *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void fill_irqs(struct run_facts *f, const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nirqs; i++) {
		const struct profile_irq *q = &p->irqs[i];
		struct run_irq *v;
		char name[48];

		if (!strcmp(q->kind, PROFILE_IRQ_NAPI)) {
			f->napi_function = q->name;
			f->napi_polls += (double)q->count;
			continue;
		}
		if (!strcmp(q->kind, "softirq")) {
			v = irq_row(f->softirqs, &f->nsoftirqs, q->name);
		} else {
			squeeze(name, sizeof(name), q->name, q->desc);
			v = irq_row(f->irqs, &f->nirqs, name);
		}
		if (!v)
			continue;
		v->total += (double)q->count;
		v->device = strcmp(q->kind, "softirq") && isdigit((unsigned char)q->name[0]);
	}
	if (f->nirqs > 1)
		qsort(f->irqs, (size_t)f->nirqs, sizeof(f->irqs[0]), by_total);
	if (f->nsoftirqs > 1)
		qsort(f->softirqs, (size_t)f->nsoftirqs, sizeof(f->softirqs[0]), by_total);
}

double run_facts_device_irqs(const struct run_facts *f)
{
	double n = 0;
	int i;

	for (i = 0; i < f->nirqs; i++)
		n += f->irqs[i].device ? f->irqs[i].total : 0;
	return n;
}

double run_facts_softirqs(const struct run_facts *f)
{
	double n = 0;
	int i;

	for (i = 0; i < f->nsoftirqs; i++)
		n += f->softirqs[i].total;
	return n;
}

int run_facts_fill(struct run_facts *f, const struct profile *p)
{
	size_t e;

	memset(f, 0, sizeof(*f));
	if (p->nevents > RUN_MAX_EVENTS)
		return error("profile has %zu events, at most %d are supported",
			     p->nevents, RUN_MAX_EVENTS);
	f->tool_version = p->tool_version;
	f->created = p->created;
	f->command = p->command;
	f->hostname = p->hostname;
	f->kernel_release = p->kernel_release;
	f->kernel_version = p->kernel_version;
	f->build_id = p->build_id;
	f->cpu_model = p->cpu_model;
	f->ncpus = p->ncpus;
	f->cpus = p->cpus;
	f->ncpus_sampled = p->ncpus_sampled;

	f->workload_command = p->workload_command;
	f->transport = p->transport;
	f->network = p->network;
	f->message_size = p->message_size;
	f->client_cpu = p->client_cpu;
	f->server_cpu = p->server_cpu;
	f->flow_cpus = p->nflow_cpus > 1 ? p->flow_cpus : NULL;
	f->nflows = p->nflow_cpus > 1 ? p->nflow_cpus : 0;
	fill_unit(&f->unit, p);
	f->round_trips = p->round_trips;
	f->window_ns = p->window_ns;
	f->warmup_s = p->warmup_s;
	f->asked_window_ns = p->asked_window_ns;
	f->asked_ns = p->asked_ns;
	f->wall_ns = p->wall_ns;
	f->nwindows = p->nrepeats;
	f->restarted = profile_condition(p, "workload.restart") != NULL;
	f->npartial = profile_npartial(p);
	f->partial_fraction = first_partial_fraction(p);
	f->latency = p->latency;
	f->latency_unsampled = p->latency_unsampled;
	f->hist_sub_buckets = p->hist_sub_buckets;

	f->mode = p->mode;
	f->fallback_reason = p->fallback_reason;
	f->clock_mhz = p->clock_mhz;
	f->clock_source = p->clock_source;
	f->nevents = p->nevents;
	for (e = 0; e < p->nevents; e++)
		fill_event(&f->events[e], p, e);
	f->idle_throttles = idle_throttles(p);

	f->side = profile_condition(p, PROFILE_COND_PEER_SIDE);
	f->filter = profile_condition(p, PROFILE_COND_FILTER);
	f->inconsistent = profile_condition(p, PROFILE_COND_FORCED);
	f->qemu_command = profile_condition(p, PROFILE_COND_QEMU_COMMAND);
	f->emulated = profile_emulated(p);
	f->exact = profile_exact(p);
	f->icount_shift = profile_icount_shift(p);
	f->boots_agree = profile_condition(p, "lab.boots_agree");
	f->flows = profile_condition(p, "workload.flows");
	f->flows_spread = profile_condition(p, "workload.flows_spread");
	f->timer_irqs = timer_irqs(p);
	fill_irqs(f, p);
	return 0;
}

/* Flow i's CPU of one role: the client's (server 0) or the responder's */
static int flow_cpu(const struct run_facts *f, size_t i, int server)
{
	return server ? f->flow_cpus[i].server : f->flow_cpus[i].client;
}

/* One role's CPUs of every flow, "0,1,0,1" ("any" for -1); over 8
 * flows a round robin is given once, "0,1 (round robin)", one CPU for
 * all "1 (all)" */
static size_t role_cpus_text(const struct run_facts *f, int server, char *buf,
			     size_t len)
{
	size_t period, i, n = 0;

	for (period = 1; period < f->nflows; period++) {
		for (i = period; i < f->nflows; i++)
			if (flow_cpu(f, i, server) != flow_cpu(f, i % period, server))
				break;
		if (i == f->nflows)
			break;
	}
	/* unpinned everywhere (the client, on a serve's side): once */
	if (period == 1 && flow_cpu(f, 0, server) < 0) {
		n = (size_t)snprintf(buf, len, "any");
		return n < len ? n : len - 1;
	}
	if (f->nflows <= 8)
		period = f->nflows;
	for (i = 0; i < period && n < len; i++) {
		int cpu = flow_cpu(f, i, server);

		n += (size_t)(cpu < 0 ? snprintf(buf + n, len - n, "%sany", i ? "," : "") :
			      snprintf(buf + n, len - n, "%s%d", i ? "," : "", cpu));
	}
	if (period < f->nflows && period > 1 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (round robin)");
	else if (period < f->nflows && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (all)");
	return n < len ? n : len - 1;
}

void run_facts_flow_cpus_text(const struct run_facts *f, char *buf, size_t len)
{
	size_t n;

	buf[0] = '\0';
	if (f->nflows <= 1 || len < 2)
		return;
	n = (size_t)snprintf(buf, len, "%zu flows: client ", f->nflows);
	if (n >= len)
		return;
	n += role_cpus_text(f, 0, buf + n, len - n);
	if (n + 1 >= len)
		return;
	n += (size_t)snprintf(buf + n, len - n, " responder ");
	if (n + 1 >= len)
		return;
	role_cpus_text(f, 1, buf + n, len - n);
}

double run_facts_observer(const struct run_facts *f, double *sampled,
			  double *unsampled, const char **basis)
{
	const struct latency_summary *u = &f->latency_unsampled, *l = &f->latency;
	int kept = u->stalls_known && l->stalls_known;

	*sampled = kept ? latency_basis(l) : l->mean;
	*unsampled = kept ? latency_basis(u) : u->mean;
	*basis = kept ? "mean without stalls" : "mean";
	if (!u->count || !l->count || *unsampled <= 0)
		return NAN;
	return (*sampled - *unsampled) / *unsampled;
}
