// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat as text: counts per round trip, CPU time, interrupts. */
#include "reports/render/renderers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"
#include "reports/stat/stat.h"
#include "reports/model/summary.h"

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

static void side_row(FILE *f, const char *label, const struct stat_side *s,
		     const struct stat_side *r, int which)
{
	const struct stat_side *v[2] = { s, r };
	int i;

	fprintf(f, "  %-38s", label);
	for (i = 0; i < (r->present ? 2 : 1); i++) {
		double x = which == 0 ? v[i]->device_irqs : which == 1 ?
			   v[i]->softirqs : v[i]->napi_polls;

		if (which == 2 && !v[i]->napi_function)
			fprintf(f, " %12s", "not counted");
		else
			fprintf(f, " %12.3f", x);
	}
	fprintf(f, "\n");
}

/* Device interrupts, softirqs and NAPI polls per round trip, with a
 * remote side each side's (the responder's per round trip answered). */
static void put_sides(FILE *f, const struct stat_model *m, const char *per)
{
	const struct stat_side *l = &m->local, *r = &m->remote;
	char label[96];

	if (r->present) {
		snprintf(label, sizeof(label), "%s, each side", per);
		fprintf(f, "\n%-40s %12s %12s\n", label, "local", "remote");
	} else {
		fprintf(f, "\n%-40s %12s\n", "in all", per);
	}
	side_row(f, "device interrupts", l, r, 0);
	side_row(f, "softirqs", l, r, 1);
	if (l->napi_function || r->napi_function)
		snprintf(label, sizeof(label), "NAPI polls (%s calls)",
			 l->napi_function ? l->napi_function : r->napi_function);
	else
		snprintf(label, sizeof(label), "NAPI polls (--exact counts them)");
	side_row(f, label, l, r, 2);
}

/* stat -r N: each figure across the windows, and whether the interval
 * of the mean latency is as narrow as asked. */
static void put_repeats(FILE *f, const struct stat_model *m)
{
	const struct stat_options *o = &m->rep;
	struct stat_figure fig[STAT_MAX_ROWS];
	int n = stat_figures(m, fig), i;

	if (!n)
		return;
	fprintf(f, "\nacross %d windows: mean, sd, and the %g%% confidence\n"
		   "interval of the mean (Student t, %d degrees of freedom)\n",
		fig[0].s.n, 100 * o->confidence, fig[0].s.n - 1);
	fprintf(f, "  %-26s %11s %9s %9s %7s\n", "", "mean", "sd", "+-", "+-%");
	for (i = 0; i < n; i++) {
		double k = fig[i].text_scale;

		fprintf(f, "  %-26.26s %11.3f %9.3f %9.3f %6.2f%%\n", fig[i].label,
			fig[i].s.mean / k, fig[i].s.sd / k, fig[i].s.half / k,
			spread_rel_pct(&fig[i].s));
	}
	if (!o->width_pct)
		return;
	if (stat_confidence_reached(fig, n, o))
		fprintf(f, "confidence reached: the %g%% interval of the mean latency\n"
			   "  is %.2f%% wide, within the asked %g%%\n", 100 * o->confidence,
			2 * spread_rel_pct(&fig[0].s), o->width_pct);
	else
		fprintf(f, "confidence NOT reached: the %g%% interval of the mean\n"
			   "  latency is %.2f%% wide, not within the asked %g%%: more\n"
			   "  windows (-r) or longer ones (-d) narrow it\n",
			100 * o->confidence, 2 * spread_rel_pct(&fig[0].s),
			o->width_pct);
}

/* "head: text", wrapped at 72 with the lines after indented */
static void put_wrapped(FILE *f, const char *head, const char *p)
{
	int col = fprintf(f, "%s", head);

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col + 1 + (int)w > 72) {
			fprintf(f, "\n ");
			col = 1;
		}
		col += fprintf(f, " %.*s", (int)w, p);
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

/* "warning: ..." for a run cut short or overrun, wrapped at 72. */
static void put_run_warnings(FILE *f, const struct run_facts *run)
{
	struct summary s;
	size_t i;

	memset(&s, 0, sizeof(s));
	summary_run_warnings(&s, run);
	for (i = 0; i < s.nwarnings; i++) {
		put_wrapped(f, "warning:", s.warnings[i]);
		free(s.warnings[i]);
	}
}

int stat_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct stat_model *m = model;
	const struct run_facts *run = &m->run;
	char per[24], busy[24], flows[512];
	const char *basis;
	double ls, lu, rel;
	int i, e;

	snprintf(per, sizeof(per), "per %.12s", run->unit.abbrev);
	snprintf(busy, sizeof(busy), "busy us/%.6s", run->unit.abbrev);
	put_run_warnings(f, run);
	if (run->workload_command)
		fprintf(f, "perpkt stat: '%s', per %s\n", run->workload_command,
			run->unit.name);
	else
		fprintf(f, "perpkt stat: %s over %s, %u-byte messages\n",
			run->transport ? run->transport : "?",
			run->network ? run->network : "?", run->message_size);
	fprintf(f, "kernel: %s\n", run->kernel_release ? run->kernel_release : "?");
	run_facts_flow_cpus_text(run, flows, sizeof(flows));
	if (flows[0])
		fprintf(f, "CPUs: %s; counted on", flows);
	else
		fprintf(f, "CPUs: client %d, server %d; counted on",
			run->client_cpu, run->server_cpu);
	for (i = 0; i < (int)run->ncpus_sampled; i++)
		fprintf(f, " %d", run->cpus[i]);
	if (run->latency.count)
		fprintf(f, "\nround trips: %.0f in %.3f s (%.0f/s), mean%s %.2f us,\n"
			   "  p50 %.2f us, p99 %.2f us\n", m->rt, m->window_s,
			m->window_s > 0 ? m->rt / m->window_s : 0,
			run->latency.stalls_known ? " without stalls" : "",
			m->latency_us, (double)run->latency.p50 / 1000,
			(double)run->latency.p99 / 1000);
	if (run->latency.count && run->latency.stalls_known && run->latency.stalls)
		fprintf(f, "stalls set apart: %llu round trips over %.1f us, %.2f%%\n"
			   "  of the time (mean of every round trip %.2f us)\n",
			(unsigned long long)run->latency.stalls,
			run->latency.stall_cut / 1e3,
			100 * latency_stall_share(&run->latency),
			run->latency.mean / 1000);
	else if (!run->latency.count)
		fprintf(f, "\n%ss: %.0f in %.3f s (%.0f/s), from %s\n",
			run->unit.name, m->rt, m->window_s,
			m->window_s > 0 ? m->rt / m->window_s : 0,
			run->unit.source ? run->unit.source : "?");
	if (run->flows_spread) {
		put_wrapped(f, "flows:", run->flows ? run->flows : "?");
		put_wrapped(f, "  spread:", run->flows_spread);
	}
	if (run->unit.outside_ns && run->window_ns)
		fprintf(f, "outside the window: %.0f/s%s, about %.0f of those\n",
			run->unit.outside * 1e9 / run->unit.outside_ns,
			run->unit.outside_busy ? " (the workload running)" : "",
			(double)run->unit.outside * run->window_ns /
			run->unit.outside_ns);
	/* counting costs next to nothing: a gap is the machine's */
	rel = run_facts_observer(run, &ls, &lu, &basis);
	if (!isnan(rel))
		fprintf(f, "warm-up: %s %.2f us in the window vs %.2f us\n"
			   "  in the warm-up before it (%+.1f%%); counters cost next\n"
			   "  to nothing, so a gap is the machine's (load, clock), not\n"
			   "  the observer's\n", basis, ls / 1000, lu / 1000,
			100 * rel);
	put_repeats(f, m);
	if (run->mode && !strcmp(run->mode, "software-clock"))
		fprintf(f, "mode: software-clock: no hardware PMU, so no cycles or\n"
			   "  instructions; CPU time comes from /proc/stat and\n"
			   "  schedstat instead\n");
	for (i = 0; i < m->nmissing; i++)
		fprintf(f, "%s: not available (%.48s)\n",
			m->missing[i].name, m->missing[i].reason);
	for (i = 0; i < (int)run->nevents; i++)
		if (run->events[i].not_counting)
			fprintf(f, "! %s: not counting (%s)\n", run->events[i].name,
				run->events[i].not_counting);
	if (!m->rt) {
		fprintf(f, "\nno %ss were counted in the window: nothing "
			   "to divide by\n", run->unit.name);
		return 0;
	}

	fprintf(f, "\nper %s, all counted CPUs:\n", run->unit.name);
	for (e = 0; e < m->nevents; e++)
		if (m->events[e].not_counting)
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
	put_sides(f, m, per);

	fprintf(f, "\nservice demand: %.2f us of CPU per %s (netperf's\n"
		   "  definition, over the counted CPUs)\n", m->service_demand_us,
		run->unit.name);
	/* a negative off-CPU is flagged "! " at the line's start, as the
	 * report flags it (reports/model/summary.c), with the reason */
	if (m->have_tasks)
		fprintf(f, "round trip %.2f us = client CPU %.2f + responder CPU %.2f\n"
			   "%s+ off-CPU %.2f (waiting, wake-up, wire, softirqs "
			   "elsewhere)\n", m->latency_us, m->client_us,
			m->responder_us, m->rest_us < 0 ? "! " : "  ", m->rest_us);
	if (m->have_tasks && m->rest_us < 0)
		fprintf(f, "  (negative: client and responder CPU time exceed the\n"
			   "  round trip%s)\n",
			run->client_cpu >= 0 && run->client_cpu == run->server_cpu ?
			"; the clocks of schedstat and of the round trips disagree" :
			": on different CPUs they run at the same time");
	if (m->have_tasks && run->flows_spread)
		fprintf(f, "  (--flows: CPU per round trip of all flows together,\n"
			   "  a round trip a flow's own, which waits for the others)\n");
	if (m->have_tasks && m->steal_us >= 0)
		fprintf(f, "  of the off-CPU: steal %.2f (/proc/stat: the hypervisor "
			   "ran others)\n", m->steal_us);
	return render_flush(f, "stat");
}
