// SPDX-License-Identifier: GPL-2.0-only
/*
 * The top of every report: one line with what was measured and what it
 * found, then each way the run itself went wrong, so a reader does not
 * take a cut-short, overloaded or observer-bent run for a good one.
 */
#include "reports/model/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void warn(struct summary *s, char *text)
{
	if (text && s->nwarnings < sizeof(s->warnings) / sizeof(s->warnings[0]))
		s->warnings[s->nwarnings++] = text;
	else
		free(text);
}

/* "16.17 +- 0.20 us/RT" for ns, else the value and its unit; per the
 * run's unit ("per udp-datagram") for a workload of one's own; without
 * the error when err < 0 */
static void value_text(char *buf, size_t len, const struct model *m,
		       double v, double err)
{
	const char *unit = m->nevents ? summary_unit(m, 0) : "";
	char per[48] = "/RT";

	if (m->run.workload_command)
		snprintf(per, sizeof(per), " per %s", m->run.unit.name);
	const char *clock = m->run.icount_shift >= 0 ? "deterministic" :
			    "not deterministic";

	if (m->run.exact && m->nrepeats > 1 && err >= 0 && m->run.boots_agree &&
	    !strncmp(m->run.boots_agree, "yes", 3))
		snprintf(buf, len, "%.0f exact %s%s, identical in %d boots", v,
			 unit, per, m->nrepeats);
	else if (m->run.exact && m->nrepeats > 1 && err >= 0)
		snprintf(buf, len, "%.0f exact %s%s (TCG, %s), sd %.0f across %d boots",
			 v, unit, per, clock, err, m->nrepeats);
	else if (m->run.exact)
		snprintf(buf, len, "%.0f exact %s%s%s%s%s", v, unit, per,
			 err >= 0 ? " (TCG, " : "", err >= 0 ? clock : "",
			 err >= 0 ? ", one boot)" : "");
	else if (!strcmp(unit, "ns") && err < 0)
		snprintf(buf, len, "%.2f us%s", v / 1e3, per);
	else if (err < 0)
		snprintf(buf, len, "%.0f %s%s", v, unit, per);
	else if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.2f +- %.2f us%s", v / 1e3, err / 1e3, per);
	else
		snprintf(buf, len, "%.0f +- %.0f %s%s", v, err, unit, per);
}

/* The heaviest bucket of busy time: not idle, not unknown; whatever
 * order --sort left the rows in (ties by name, as the flame graph's
 * legend takes them). */
static const struct model_row *top_bucket(const struct model *m)
{
	const struct model_row *top = NULL;
	size_t i;

	for (i = 0; i < m->nbuckets; i++) {
		const struct model_row *r = &m->buckets[i];

		if (!strcmp(r->name, MODEL_IDLE_BUCKET) ||
		    !strcmp(r->name, MODEL_UNKNOWN_BUCKET) || !r->samples[0])
			continue;
		if (!top || r->weight[0] > top->weight[0] ||
		    (r->weight[0] == top->weight[0] &&
		     strcmp(r->name, top->name) < 0))
			top = r;
	}
	return top;
}

/* The headline is the workload's: its busy kernel time and top bucket;
 * other tasks' busy time on the sampled CPUs is a figure apart. */
static void headline(struct summary *s, const struct model *m)
{
	const struct run_facts *run = &m->run;
	const struct model *w = model_workload(m);
	const struct model_row *top = top_bucket(w);
	char lat[96] = "latency not measured", busy[96] = "no samples", tb[96] = "",
	     what[160], other[128] = "", ov[96];

	if (run->latency.count)
		snprintf(lat, sizeof(lat), "p50 %.2f us, p99 %.2f us%s",
			 run->latency.p50 / 1e3, run->latency.p99 / 1e3,
			 run->icount_shift >= 0 ? " (virtual)" : "");
	if (run->workload_command)
		snprintf(what, sizeof(what), "'%.100s'", run->workload_command);
	else
		snprintf(what, sizeof(what), "%s over %s",
			 run->transport ? run->transport : "?",
			 run->network ? run->network : "?");
	if (m->no_round_trips) {
		s->headline = summary_fmt(s, "%s: no %ss counted, so nothing per %s",
					  what, run->unit.name, run->unit.name);
		return;
	}
	if (w->nevents && w->busy.samples[0])
		value_text(busy, sizeof(busy), w, w->busy.per_rt[0],
			   model_row_error(w, &w->busy, 0));
	if (top && w->busy.per_rt[0] > 0)
		snprintf(tb, sizeof(tb), "; top bucket %s (%.0f%% of busy)", top->name,
			 100 * top->per_rt[0] / w->busy.per_rt[0]);
	if (m->workload && model_other_tasks(m) > 0) {
		value_text(ov, sizeof(ov), m, model_other_tasks(m), -1);
		snprintf(other, sizeof(other), "; other tasks %s", ov);
	}
	s->headline = summary_fmt(s, "%s: %s; busy kernel %s%s%s", what, lat,
				  busy, tb, other);
}

static int sampled(const struct run_facts *run, int cpu)
{
	size_t i;

	for (i = 0; i < run->ncpus_sampled; i++)
		if (run->cpus[i] == cpu)
			return 1;
	return 0;
}

void summary_run_warnings(struct summary *s, const struct run_facts *run)
{
	double asked = (double)run->asked_window_ns, got = (double)run->window_ns;

	if (asked > 0 && got < SUMMARY_SHORT_WARN * asked)
		warn(s, summary_fmt(s, "interrupted: the window ran %.2f s of the %.2f s asked (%.0f%%); the result is partial",
				   got / 1e9, asked / 1e9, 100 * got / asked));
	else if (asked > 0 && got > (2 - SUMMARY_SHORT_WARN) * asked)
		warn(s, summary_fmt(s, "window overran: %.2f s for the %.2f s asked (+%.0f%%); the machine was slow to end a round trip",
				   got / 1e9, asked / 1e9, 100 * (got - asked) / asked));
	if (run->asked_ns &&
	    run->wall_ns > SUMMARY_OVERRUN_WARN * (double)run->asked_ns &&
	    run->wall_ns - run->asked_ns > 1000000000ull)
		warn(s, summary_fmt(s, "run overran: it took %.1f s for %.1f s of warm-up and windows; the machine was busy, so the figures may not be typical",
				   run->wall_ns / 1e9, run->asked_ns / 1e9));
}

static void sampling_warnings(struct summary *s, const struct model *m)
{
	const struct run_facts *run = &m->run;
	uint64_t samples = 0, lost = 0, thr = 0;
	size_t i;

	for (i = 0; i < run->nevents; i++) {
		const char *why = run->events[i].not_counting;

		samples += run->events[i].samples;
		lost += run->events[i].lost;
		thr += run->events[i].throttled;
		if (why)
			warn(s, summary_fmt(s, "%s: not counting (%s); shown as n/a",
					   run->events[i].name, why));
	}
	if (lost && (double)lost > SUMMARY_LOSS_WARN * (double)(samples + lost))
		warn(s, summary_fmt(s, "%.1f%% of samples lost (%llu): every value is low by about that; raise --ring-pages or the period",
				   100.0 * (double)lost / (double)(samples + lost),
				   (unsigned long long)lost));
	if (thr && !run->idle_throttles &&
	    (double)thr > SUMMARY_LOSS_WARN * (double)(samples ? samples : 1))
		warn(s, summary_fmt(s, "sampling was throttled %llu times (%.1f%% of samples) on busy CPUs: values are low; lower the rate (-c, -F)",
				   (unsigned long long)thr,
				   100.0 * (double)thr / (double)(samples ? samples : 1)));
	/* a remote responder runs on another host: only the client's CPU */
	if (run->client_cpu >= 0 && run->ncpus_sampled &&
	    !sampled(run, run->client_cpu))
		warn(s, summary_fmt(s, "the client's CPU %d was not sampled: its kernel time is missing from every table (record without -C, or -C with it)",
				   run->client_cpu));
	if (run->server_cpu >= 0 && run->server_cpu != run->client_cpu &&
	    run->ncpus_sampled && !sampled(run, run->server_cpu) && run->network &&
	    strcmp(run->network, "peer") && strcmp(run->network, "echo"))
		warn(s, summary_fmt(s, "the responder's CPU %d was not sampled: its kernel time is missing from every table (record without -C, or -C with it)",
				   run->server_cpu));
}

/*
 * Hardware mode: what a PMU user must see before any number. A sampled
 * total more than SUMMARY_HW_GAP_WARN off its count (the reconciliation
 * flags only MODEL_GAP_FLAG, and only with --full), and what an
 * emulated PMU makes true by construction.
 */
static void hardware_warnings(struct summary *s, const struct model *m)
{
	const struct run_facts *run = &m->run;
	size_t e;

	if (model_software_clock(m) || run->exact || !run->mode ||
	    strcmp(run->mode, "hardware"))
		return;
	for (e = 0; e < m->nevents && e < run->nevents; e++) {
		double r = m->recon.events[e].ratio;

		if (run->events[e].not_counting || r < 0 ||
		    (r >= 1 - SUMMARY_HW_GAP_WARN && r <= 1 + SUMMARY_HW_GAP_WARN))
			continue;
		warn(s, summary_fmt(s, "%s: sampled %.0f%% of the count, a %.0f%% gap: suspect the observer (skid, unsampled CPUs or idle, losses) before the system; --full reconciles",
				   run->events[e].name, 100 * r, 100 * (r > 1 ? r - 1 : 1 - r)));
	}
	if (!run->emulated)
		return;
	if (run->qemu_command && strstr(run->qemu_command, "-icount"))
		warn(s, summary_fmt(s, "QEMU's emulated PMU under -icount: cycles equal instructions, so IPC is 1.00 by construction; compare counts per %s, not IPC or times",
				   run->unit.name ? run->unit.name : "round trip"));
	else
		warn(s, summary_fmt(s, "QEMU's emulated PMU: cycles are a 1 GHz virtual clock that counts in idle too, so they measure emulated time, not work; instructions count only with -icount (--full: what else it bends)"));
}

/* On the basis the decomposition stands on (stalls set apart), the
 * p50s beside it: a few stalls in one phase must not make the line. */
static void observer_warning(struct summary *s, const struct run_facts *run)
{
	const struct latency_summary *u = &run->latency_unsampled, *l = &run->latency;
	const char *basis;
	double ls, lu, d = run_facts_observer(run, &ls, &lu, &basis);

	/* exact: the plugin counts in the warm-up too, nothing to compare */
	if (isnan(d) || run->exact)
		return;
	if (d > SUMMARY_OBSERVER_WARN)
		warn(s, summary_fmt(s, "observer effect: the round trip is %.1f%% longer while sampled (%s %.2f vs %.2f us unsampled; p50 %.2f vs %.2f us); sample less often (-F, -c) when latency matters",
				   100 * d, basis, ls / 1e3, lu / 1e3,
				   l->p50 / 1e3, u->p50 / 1e3));
}

/* The hypervisor took the sampled CPUs for a share of the round trip:
 * latency then holds another guest's time, not this kernel's. */
static void steal_warning(struct summary *s, const struct model *m)
{
	const struct model_decomp *d = &m->decomp;

	if (d->steal <= 0 || d->rtt <= 0 || d->steal < SUMMARY_STEAL_WARN * d->rtt)
		return;
	warn(s, summary_fmt(s, "steal: the hypervisor ran something else for %.2f us per round trip on the workload's CPUs, %.0f%% of the round trip (%.1f%% of their time): latency here includes time this kernel did not run; compare runs with the same steal (condition cpu.steal)",
			    d->steal / 1e3, 100 * d->steal / d->rtt,
			    100 * (d->steal_share > 0 ? d->steal_share : 0)));
}

/* Much of the workload's time in functions no rule knows: the buckets
 * say little, and a rule would fix that. */
static void other_warning(struct summary *s, const struct model *m)
{
	const struct model *w = model_workload(m);
	const struct model_row *o = model_bucket(w, "other");
	const struct model_row *ie = model_bucket(w, "irq-enable");
	char top[256] = "";
	size_t i, n = 0, len = 0;

	if (ie && w->nevents && w->busy.per_rt[0] > 0 &&
	    ie->per_rt[0] > SUMMARY_OTHER_WARN * w->busy.per_rt[0])
		warn(s, summary_fmt(s, "%.0f%% of the workload's busy kernel time sits at irq-enable points with no callchain to charge it to the caller: record without --no-call-graph (or with -g)",
				    100 * ie->per_rt[0] / w->busy.per_rt[0]));
	if (!o || !w->nevents || w->busy.per_rt[0] <= 0 ||
	    o->per_rt[0] <= SUMMARY_OTHER_WARN * w->busy.per_rt[0])
		return;
	for (i = 0; i < w->nfunctions && n < 3; i++) {
		const struct model_row *f = &w->functions[i];

		if (strcmp(f->bucket, "other") || len >= sizeof(top))
			continue;
		len += (size_t)snprintf(top + len, sizeof(top) - len, "%s%s (%.0f%%)",
					n ? ", " : "", f->name,
					100 * f->per_rt[0] / w->busy.per_rt[0]);
		n++;
	}
	warn(s, summary_fmt(s, "%.0f%% of the workload's busy kernel time is in bucket other, functions no rule knows: %s; add a rule such as 'BUCKET func NAME' to a copy of the built-in rules (docs/buckets.md) and give it with --buckets FILE",
			    100 * o->per_rt[0] / w->busy.per_rt[0], top));
}

void summary_glance(struct summary *s, const struct model *m)
{
	headline(s, m);
	/* first: a profile read with --force may be wrong anywhere */
	if (m->run.inconsistent)
		warn(s, summary_fmt(s, "inconsistent profile, read with --force: %s; figures that depend on it may be wrong", m->run.inconsistent));
	/* not a fault of the run, but every figure below depends on it */
	if (m->run.filter)
		warn(s, summary_fmt(s, "filtered to %s: totals, shares and the reconciliation cover those samples only", m->run.filter));
	summary_run_warnings(s, &m->run);
	sampling_warnings(s, m);
	hardware_warnings(s, m);
	observer_warning(s, &m->run);
	steal_warning(s, m);
	other_warning(s, m);
}
