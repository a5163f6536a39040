// SPDX-License-Identifier: GPL-2.0-only
#include "reports/stat.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

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
static const char *stat_not_counting(const struct profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nevents; i++)
		if (p->events[i].name && !strcmp(p->events[i].name, name))
			return profile_event_not_counting(p, i);
	return NULL;
}

int stat_build(struct stat_model *m, const struct profile *p)
{
	double busy_ns = 0, cyc, ins;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->p = p;
	m->rt = (double)p->round_trips;
	m->window_s = (double)p->window_ns * 1e-9;
	m->latency_us = p->latency.mean / 1000;
	m->ipc = -1;
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
	for (i = 0; i < (size_t)m->nevents; i++)
		m->events[i].per_rt = per(m->events[i].total, m->rt);
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
	for (i = 0; i < p->nirqs; i++) {
		const struct profile_irq *q = &p->irqs[i];
		char name[48];
		struct stat_value *v;

		if (!strcmp(q->kind, "softirq")) {
			v = find_or_add(m->softirqs, &m->nsoftirqs, q->name);
		} else {
			squeeze(name, sizeof(name), q->name, q->desc);
			v = find_or_add(m->irqs, &m->nirqs, name);
		}
		if (v)
			v->total += (double)q->count;
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
	return 0;
}

static void print_values(FILE *f, const char *title,
			 const struct stat_value *v, int n, int limit)
{
	int i;

	if (!n)
		return;
	fprintf(f, "\n%-40s %12s %14s\n", title, "per RT", "total");
	for (i = 0; i < n && i < limit; i++)
		fprintf(f, "  %-38.38s %12.3f %14.0f\n", v[i].name, v[i].per_rt,
			v[i].total);
	if (n > limit)
		fprintf(f, "  (%d more)\n", n - limit);
}

static int stat_text(FILE *f, const struct stat_model *m)
{
	const struct profile *p = m->p;
	int i, e;

	fprintf(f, "perpkt stat: %s over %s, %u-byte messages\n",
		p->transport ? p->transport : "?", p->network ? p->network : "?",
		p->message_size);
	fprintf(f, "kernel: %s\n", p->kernel_release ? p->kernel_release : "?");
	fprintf(f, "CPUs: client %d, server %d; counted on", p->client_cpu,
		p->server_cpu);
	for (i = 0; i < (int)p->ncpus_sampled; i++)
		fprintf(f, " %d", p->cpus[i]);
	fprintf(f, "\nround trips: %.0f in %.3f s (%.0f/s), mean %.2f us,\n"
		   "  p50 %.2f us, p99 %.2f us\n", m->rt, m->window_s,
		m->window_s > 0 ? m->rt / m->window_s : 0, m->latency_us,
		(double)p->latency.p50 / 1000, (double)p->latency.p99 / 1000);
	if (p->latency_unsampled.count && p->latency_unsampled.mean > 0)
		fprintf(f, "observer: mean %.2f us counted vs %.2f us in the\n"
			   "  uncounted warm-up (%+.1f%%)\n", m->latency_us,
			p->latency_unsampled.mean / 1000,
			100 * (p->latency.mean - p->latency_unsampled.mean) /
			p->latency_unsampled.mean);
	if (p->mode && !strcmp(p->mode, "software-clock"))
		fprintf(f, "mode: software-clock: no hardware PMU, so no cycles or\n"
			   "  instructions; CPU time comes from /proc/stat and\n"
			   "  schedstat instead\n");
	for (i = 0; i < (int)p->nmissing; i++)
		fprintf(f, "%s: not available (%.48s)\n",
			p->missing[i].name, p->missing[i].reason);
	for (i = 0; i < (int)p->nevents; i++)
		if (profile_event_not_counting(p, i))
			fprintf(f, "! %s: not counting (%s)\n", p->events[i].name,
				profile_event_not_counting(p, i));
	if (!m->rt) {
		fprintf(f, "\nno round trips were completed in the window: nothing "
			   "to divide by\n");
		return 0;
	}

	fprintf(f, "\nper round trip, all counted CPUs:\n");
	for (e = 0; e < m->nevents; e++)
		if (stat_not_counting(p, m->events[e].name))
			fprintf(f, "  %-28.28s %14s\n", m->events[e].name, "n/a");
		else
			fprintf(f, "  %-28.28s %14.2f\n", m->events[e].name,
				m->events[e].per_rt);
	if (m->ipc >= 0)
		fprintf(f, "  %-28s %14.2f\n", "IPC", m->ipc);

	fprintf(f, "\n%-4s %6s %6s %6s %6s %6s %6s %10s\n", "CPU", "busy%",
		"user%", "sys%", "irq%", "sirq%", "idle%", "busy us/RT");
	for (i = 0; i < m->ncpus; i++) {
		const struct stat_cpu *c = &m->cpus[i];

		fprintf(f, "%-4d %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %10.2f\n",
			c->cpu, c->busy_pct, c->user_pct, c->system_pct, c->irq_pct,
			c->softirq_pct, c->idle_pct, c->busy_us_per_rt);
	}
	fprintf(f, "\n%-4s", "CPU");
	for (e = 0; e < m->nevents; e++)
		fprintf(f, " %16.16s", m->events[e].name);
	fprintf(f, "\n");
	for (i = 0; i < m->ncpus; i++) {
		fprintf(f, "%-4d", m->cpus[i].cpu);
		for (e = 0; e < m->nevents; e++)
			fprintf(f, " %16.3f", m->cpus[i].events_per_rt[e]);
		fprintf(f, "\n");
	}
	print_values(f, "softirqs", m->softirqs, m->nsoftirqs, 10);
	print_values(f, "interrupts", m->irqs, m->nirqs, 10);

	fprintf(f, "\nservice demand: %.2f us of CPU per transaction (netperf's\n"
		   "  definition, over the counted CPUs)\n", m->service_demand_us);
	if (m->have_tasks)
		fprintf(f, "round trip %.2f us = client CPU %.2f + responder CPU %.2f\n"
			   "  + other %.2f (waiting, wake-up, wire, softirqs "
			   "elsewhere)\n", m->latency_us, m->client_us,
			m->responder_us, m->rest_us);
	return 0;
}

static json_t *values_json(const struct stat_value *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f}", "name", v[i].name,
						   "per_rt", v[i].per_rt,
						   "total", v[i].total));
	return a;
}

static int stat_json(FILE *f, const struct stat_model *m)
{
	const struct profile *p = m->p;
	json_t *root, *cpus = json_array(), *per_rt = json_object(),
	       *missing = json_array();
	int i, e, ret;

	for (e = 0; e < m->nevents; e++)
		json_object_set_new(per_rt, m->events[e].name,
				    stat_not_counting(m->p, m->events[e].name) ?
				    json_null() : json_real(m->events[e].per_rt));
	for (i = 0; i < (int)p->nmissing; i++)
		json_array_append_new(missing, json_pack("{s:s, s:s}",
			"name", p->missing[i].name, "reason", p->missing[i].reason));
	for (i = 0; i < m->ncpus; i++) {
		const struct stat_cpu *c = &m->cpus[i];
		json_t *ev = json_object();

		for (e = 0; e < m->nevents; e++)
			json_object_set_new(ev, m->events[e].name,
					    json_real(c->events_per_rt[e]));
		json_array_append_new(cpus, json_pack(
			"{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
			"cpu", c->cpu, "busy_pct", c->busy_pct, "user_pct", c->user_pct,
			"system_pct", c->system_pct, "irq_pct", c->irq_pct,
			"softirq_pct", c->softirq_pct, "idle_pct", c->idle_pct,
			"busy_us_per_rt", c->busy_us_per_rt, "per_rt", ev));
	}
	root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:I, s:f, s:f, s:f, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:f, s:{s:f, s:f, s:f, s:f, s:b}}",
		"format", "perpkt-stat", "version", 1,
		"mode", p->mode ? p->mode : "unknown",
		"transport", p->transport ? p->transport : "",
		"network", p->network ? p->network : "",
		"round_trips", (json_int_t)p->round_trips,
		"window_s", m->window_s, "latency_mean_us", m->latency_us,
		"latency_unsampled_mean_us", p->latency_unsampled.count ?
			p->latency_unsampled.mean / 1000 : 0.0,
		"per_rt", per_rt,
		"ipc", m->ipc >= 0 ? json_real(m->ipc) : json_null(),
		"missing_events", missing,
		"cpus", cpus,
		"softirqs", values_json(m->softirqs, m->nsoftirqs),
		"irqs", values_json(m->irqs, m->nirqs),
		"service_demand_us", m->service_demand_us,
		"decomposition", "round_trip_us", m->latency_us,
		"client_cpu_us", m->client_us, "responder_cpu_us", m->responder_us,
		"other_us", m->rest_us, "from_schedstat", m->have_tasks);
	if (!root)
		return error("cannot build the stat JSON (internal error)");
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF)
		return error("cannot write the stat report");
	return 0;
}

int report_stat(FILE *f, const struct profile *p, const char *format)
{
	struct stat_model m;

	if (stat_build(&m, p))
		return -1;
	if (format && !strcmp(format, "json"))
		return stat_json(f, &m);
	return stat_text(f, &m);
}
