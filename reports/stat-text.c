// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat as text: counts per round trip, CPU time, interrupts. */
#include "reports/renderers.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/stat.h"

static void print_values(FILE *f, const char *title, const char *per,
			 const struct stat_value *v, int n, int limit)
{
	int i;

	if (!n)
		return;
	fprintf(f, "\n%-40s %12s %14s\n", title, per, "total");
	for (i = 0; i < n && i < limit; i++)
		fprintf(f, "  %-38.38s %12.3f %14.0f\n", v[i].name, v[i].per_rt,
			v[i].total);
	if (n > limit)
		fprintf(f, "  (%d more)\n", n - limit);
}

int stat_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct stat_model *m = model;
	const struct profile *p = m->p;
	char per[24], busy[24];
	int i, e;

	snprintf(per, sizeof(per), "per %.12s", profile_unit_abbrev(p));
	snprintf(busy, sizeof(busy), "busy us/%.6s", profile_unit_abbrev(p));
	if (p->workload_command)
		fprintf(f, "perpkt stat: '%s', per %s\n", p->workload_command,
			profile_unit_name(p));
	else
		fprintf(f, "perpkt stat: %s over %s, %u-byte messages\n",
			p->transport ? p->transport : "?",
			p->network ? p->network : "?", p->message_size);
	fprintf(f, "kernel: %s\n", p->kernel_release ? p->kernel_release : "?");
	fprintf(f, "CPUs: client %d, server %d; counted on", p->client_cpu,
		p->server_cpu);
	for (i = 0; i < (int)p->ncpus_sampled; i++)
		fprintf(f, " %d", p->cpus[i]);
	if (p->latency.count)
		fprintf(f, "\nround trips: %.0f in %.3f s (%.0f/s), mean %.2f us,\n"
			   "  p50 %.2f us, p99 %.2f us\n", m->rt, m->window_s,
			m->window_s > 0 ? m->rt / m->window_s : 0, m->latency_us,
			(double)p->latency.p50 / 1000, (double)p->latency.p99 / 1000);
	else
		fprintf(f, "\n%ss: %.0f in %.3f s (%.0f/s), from %s\n",
			profile_unit_name(p), m->rt, m->window_s,
			m->window_s > 0 ? m->rt / m->window_s : 0,
			p->unit.source ? p->unit.source : "?");
	if (p->unit.outside_ns && p->window_ns)
		fprintf(f, "outside the window: %.0f/s%s, about %.0f of those\n",
			p->unit.outside * 1e9 / p->unit.outside_ns,
			p->unit.outside_busy ? " (the workload running)" : "",
			(double)p->unit.outside * p->window_ns / p->unit.outside_ns);
	if (p->latency_unsampled.count && p->latency_unsampled.mean > 0)
		fprintf(f, "observer: mean %.2f us counted vs %.2f us in the\n"
			   "  uncounted warm-up (%+.1f%%)\n", m->latency_us,
			p->latency_unsampled.mean / 1000,
			100 * (p->latency.mean - p->latency_unsampled.mean) /
			p->latency_unsampled.mean);
	stat_repeats_text(f, p, &m->rep);
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
		fprintf(f, "\nno %ss were counted in the window: nothing "
			   "to divide by\n", profile_unit_name(p));
		return 0;
	}

	fprintf(f, "\nper %s, all counted CPUs:\n", profile_unit_name(p));
	for (e = 0; e < m->nevents; e++)
		if (stat_not_counting(p, m->events[e].name))
			fprintf(f, "  %-28.28s %14s\n", m->events[e].name, "n/a");
		else
			fprintf(f, "  %-28.28s %14.2f\n", m->events[e].name,
				m->events[e].per_rt);
	if (m->ipc >= 0)
		fprintf(f, "  %-28s %14.2f\n", "IPC", m->ipc);

	fprintf(f, "\n%-4s %6s %6s %6s %6s %6s %6s %10s\n", "CPU", "busy%",
		"user%", "sys%", "irq%", "sirq%", "idle%", busy);
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
	print_values(f, "softirqs", per, m->softirqs, m->nsoftirqs, 10);
	print_values(f, "interrupts", per, m->irqs, m->nirqs, 10);

	fprintf(f, "\nservice demand: %.2f us of CPU per %s (netperf's\n"
		   "  definition, over the counted CPUs)\n", m->service_demand_us,
		profile_unit_name(p));
	if (m->have_tasks)
		fprintf(f, "round trip %.2f us = client CPU %.2f + responder CPU %.2f\n"
			   "  + other %.2f (waiting, wake-up, wire, softirqs "
			   "elsewhere)\n", m->latency_us, m->client_us,
			m->responder_us, m->rest_us);
	return render_flush(f, "stat");
}
