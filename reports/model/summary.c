// SPDX-License-Identifier: GPL-2.0-only
#include "reports/model/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

char *summary_fmt(struct summary *s, const char *f, ...)
{
	va_list ap;
	char *out;

	va_start(ap, f);
	if (vasprintf(&out, f, ap) < 0) {
		out = NULL;
		s->oom = 1;
	}
	va_end(ap);
	return out;
}

#define FACT(s, k, ...) do {						\
	if ((s)->nfacts < sizeof((s)->facts) / sizeof((s)->facts[0])) {	\
		(s)->facts[(s)->nfacts].key = strdup(k);		\
		(s)->facts[(s)->nfacts++].value = summary_fmt((s), __VA_ARGS__); \
	}								\
} while (0)

/*
 * The observer's own cost: the same round trips timed in the warm-up,
 * with the counters off, against the window. Sampling interrupts that
 * land inside a round trip lengthen it; the mean shows it, the median
 * mostly does not.
 */
static void observer_fact(struct summary *s, const struct run_facts *run)
{
	const struct latency_summary *u = &run->latency_unsampled, *l = &run->latency;
	const char *basis;
	double ls, lu, rel;

	if (run->exact) {
		FACT(s, "observer", "none to measure: the plugin runs in the warm-up as in the window, and the guest samples nothing");
		return;
	}
	rel = run_facts_observer(run, &ls, &lu, &basis);
	if (isnan(rel))
		return;
	FACT(s, "observer", "%s round trip %.2f us measured vs %.2f us in the unmeasured warm-up (%+.2f us, %+.1f%%); p50 %.1f vs %.1f us (%llu warm-up round trips)",
	     basis, ls / 1e3, lu / 1e3, (ls - lu) / 1e3, 100 * rel,
	     l->p50 / 1e3, u->p50 / 1e3, (unsigned long long)u->count);
}

#define NOTE(s, ...) do {						\
	if ((s)->nnotes < sizeof((s)->notes) / sizeof((s)->notes[0]))	\
		(s)->notes[(s)->nnotes++] = summary_fmt((s), __VA_ARGS__);	\
} while (0)

/* a note the short text report keeps too */
#define BRIEF_NOTE(s, ...) do {						\
	if ((s)->nnotes < sizeof((s)->notes) / sizeof((s)->notes[0]))	\
		(s)->note_brief[(s)->nnotes] = 1;			\
	NOTE(s, __VA_ARGS__);						\
} while (0)

#define RECON(s, fl, ...) do {						\
	if ((s)->nrecon < sizeof((s)->recon) / sizeof((s)->recon[0])) { \
		(s)->recon[(s)->nrecon].flag = (fl);			\
		(s)->recon[(s)->nrecon++].label = summary_fmt((s), __VA_ARGS__); \
	}								\
} while (0)

/* What a value is per, and the counter's traffic outside the window:
 * Eric Dumazet's "2*100000 + residual traffic", measured. */
static void unit_fact(struct summary *s, const struct run_facts *run)
{
	const struct run_unit *u = &run->unit;
	double expect;

	if (u->is_rt)
		return;
	FACT(s, "unit", "per %s (--per %s), counted at the window's edges from %s",
	     u->name, u->spec, u->source ? u->source : "an unknown source");
	if (!u->outside_ns || !run->window_ns)
		return;
	expect = (double)u->outside * (double)run->window_ns / (double)u->outside_ns;
	FACT(s, "outside the window", "%llu in %.2f s (%.1f/s)%s: about %.0f of the %llu counted inside (%.1f%%) %s",
	     (unsigned long long)u->outside, u->outside_ns / 1e9,
	     u->outside * 1e9 / u->outside_ns,
	     u->outside_busy ? ", the workload running" : ", before and after the command",
	     expect, (unsigned long long)run->round_trips,
	     run->round_trips ? 100 * expect / (double)run->round_trips : 0,
	     u->outside_busy ? "if it were all background" : "are background traffic");
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

const char *summary_unit(const struct model *m, size_t e)
{
	const struct run_event *ev = &m->run.events[e];
	const char *u = ev->unit ? ev->unit : ev->name;

	if (!u)
		return "value";
	if (!strcmp(u, "instructions"))
		return "insns";
	/* a count of events says which: "l1i-misses", "cache-misses" */
	if (!strcmp(u, "events") && ev->name)
		return ev->name;
	return u;
}

/* A cache/topology condition, for the CPUs fact; NULL when none. */
static const char *cache_relation(const struct model *m)
{
	size_t i;

	for (i = 0; i < m->nconditions; i++) {
		const char *k = m->conditions[i].key;

		if (strstr(k, "cache") || strstr(k, "placement") ||
		    strstr(k, "topology"))
			return m->conditions[i].value;
	}
	return NULL;
}

static void cpu_text(char *buf, size_t len, int cpu)
{
	if (cpu < 0)
		snprintf(buf, len, "any");
	else
		snprintf(buf, len, "%d", cpu);
}

/* "buckets within 0.1%": what shift in a percentile can be seen. */
static const char *resolution_text(const struct run_facts *run)
{
	static char buf[64];

	if (!run->hist_sub_buckets)
		return "resolution not stated";
	snprintf(buf, sizeof(buf), "buckets within %.2g%%",
		 100.0 / run->hist_sub_buckets);
	return buf;
}

/* Why client and responder CPU exceed the round trip: what applies to
 * this profile. */
static void rest_note(struct summary *s, const struct model *m)
{
	const struct model_decomp *d = &m->decomp;
	int same = m->run.client_cpu >= 0 && m->run.client_cpu == m->run.server_cpu;

	if (d->from_tasks && d->span_scale <= 0)
		BRIEF_NOTE(s, "the CPU time of client and responder exceeds the round trip: this profile does not record when their schedstat was read; it was read before the window opened and after it closed, and the workload runs through those reads, so their CPU times span more than the window (profiles recorded since say the span and are scaled to the window).");
	else if (!same)
		BRIEF_NOTE(s, "the CPU time of client and responder exceeds the round trip: on different CPUs they run at the same time (overlap, busy polling).");
	else
		BRIEF_NOTE(s, "the CPU time of client and responder exceeds the round trip though they share one CPU and their CPU times are scaled to the window (x%.3f): the clock schedstat counts in and the one that times round trips disagree (under emulation the guest's clocks follow the host's load).",
		     d->span_scale);
}

/* " (250 us at 1000 MHz, calibrated)": a cycle period in time, at the
 * clock it was derived from; "" when that clock is unknown. */
static const char *period_time(char *buf, size_t len, const struct run_facts *run,
			       const struct run_event *ev)
{
	buf[0] = 0;
	if (run->clock_mhz > 0 && ev->period && ev->unit &&
	    !strcmp(ev->unit, "cycles"))
		snprintf(buf, len, " (%.0f us at %.0f MHz%s%s)",
			 ev->period / run->clock_mhz, run->clock_mhz,
			 run->clock_source ? ", " : "",
			 run->clock_source ? run->clock_source : "");
	return buf;
}

static void put_facts(struct summary *s, const struct model *m)
{
	const struct run_facts *run = &m->run;
	const struct latency_summary *l = &run->latency;
	char cc[16], sc[16], list[256] = "", when[96], units[48], flows[512];
	const char *rel = cache_relation(m);
	uint64_t lost = 0, thr = 0;
	size_t i, len = 0;

	/* record --peer, --side remote: say which host this is */
	if (run->side)
		FACT(s, "side", "%s", run->side);
	FACT(s, "kernel", "%s", or_unknown(run->kernel_release));
	FACT(s, "build-id", "%s", or_unknown(run->build_id));
	FACT(s, "CPU model", "%s", or_unknown(run->cpu_model));
	cpu_text(cc, sizeof(cc), run->client_cpu);
	cpu_text(sc, sizeof(sc), run->server_cpu);
	for (i = 0; i < run->ncpus_sampled && len < sizeof(list) - 16; i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%d",
				i ? "," : "", run->cpus[i]);
	run_facts_flow_cpus_text(run, flows, sizeof(flows));
	if (run->workload_command)
		FACT(s, "CPUs", "workload where its affinity lets it run; sampled %s of %d%s%s",
		     len ? list : "none", run->ncpus, rel ? "; " : "", rel ? rel : "");
	else if (flows[0])
		FACT(s, "CPUs", "%s; sampled %s of %d%s%s", flows,
		     len ? list : "none", run->ncpus, rel ? "; " : "", rel ? rel : "");
	else
		FACT(s, "CPUs", "client %s, responder %s%s; sampled %s of %d%s%s",
		     cc, sc,
		     run->client_cpu == run->server_cpu && run->client_cpu >= 0 ?
		     " (same CPU)" : "", len ? list : "none", run->ncpus,
		     rel ? "; " : "", rel ? rel : "");
	if (run->workload_command)
		FACT(s, "workload", "'%s' (role workload: its process tree)",
		     run->workload_command);
	else
		FACT(s, "workload", "%s over %s, %u-byte messages",
		     or_unknown(run->transport), or_unknown(run->network),
		     run->message_size);
	snprintf(units, sizeof(units), "%ss", run->unit.name);
	if (run->window_ns && run->nwindows > 1)
		FACT(s, units, "%llu in %zu windows, %.3f s in all (%.1f per second), after %.1f s warm-up%s",
		     (unsigned long long)run->round_trips, run->nwindows,
		     run->window_ns / 1e9,
		     run->round_trips / (run->window_ns / 1e9), run->warmup_s,
		     run->restarted ? "; the ping-pong restarted before each" : "");
	else if (run->window_ns)
		FACT(s, units, "%llu in a %.3f s window (%.1f per second), after %.1f s warm-up",
		     (unsigned long long)run->round_trips, run->window_ns / 1e9,
		     run->round_trips / (run->window_ns / 1e9), run->warmup_s);
	else
		FACT(s, units, "%llu, window length unknown",
		     (unsigned long long)run->round_trips);
	unit_fact(s, run);
	if (run->npartial)
		FACT(s, "PARTIAL", "%zu of %zu window%s cut short (interrupted or "
		     "the responder died); the first reached %.0f%% of its length",
		     run->npartial, run->nwindows, run->nwindows > 1 ? "s" : "",
		     run->partial_fraction * 100);
	if (l->count && l->p9999)
		FACT(s, "latency (us)", "min %.3f, p50 %.3f, p90 %.3f, p99 %.3f, p99.9 %.3f, p99.99 %.3f, max %.3f; mean %.3f, sd %.3f (%llu timed; %s)",
		     l->min / 1e3, l->p50 / 1e3, l->p90 / 1e3, l->p99 / 1e3,
		     l->p999 / 1e3, l->p9999 / 1e3, l->max / 1e3, l->mean / 1e3,
		     l->stddev / 1e3, (unsigned long long)l->count,
		     resolution_text(run));
	else if (l->count)
		FACT(s, "latency (us)", "min %.1f, p50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f; mean %.2f, sd %.2f (%llu timed)",
		     l->min / 1e3, l->p50 / 1e3, l->p90 / 1e3, l->p99 / 1e3,
		     l->p999 / 1e3, l->max / 1e3, l->mean / 1e3,
		     l->stddev / 1e3, (unsigned long long)l->count);
	else
		FACT(s, "latency", "not measured");
	/* --flows: the latency above is all flows' together */
	if (run->flows_spread)
		FACT(s, "flows", "%s; %s; values are per round trip of all "
		     "flows together, the latency a flow's own round trip",
		     or_unknown(run->flows), run->flows_spread);
	observer_fact(s, run);
	if (model_software_clock(m))
		FACT(s, "mode", "software-clock: no hardware PMU (%s). Values are nanoseconds of CPU time per %s, from cpu-clock sampling. Blind spot: code that runs with interrupts off is sampled where interrupts come back on (e.g. _raw_spin_unlock_irqrestore, pvm_irq_enable); with a callchain (recorded by default) such a sample is charged to the caller, else it stays in bucket irq-enable",
		     or_unknown(run->fallback_reason), run->unit.name);
	else if (run->exact)
		FACT(s, "mode", "exact: every instruction the emulated CPUs executed in the window, counted by a QEMU TCG plugin (record --kernel --exact), per instruction address and vCPU; no sampling, no skid, no sampling error. Under TCG an x86 rep-prefixed string instruction counts once per iteration");
	else
		FACT(s, "mode", "%s", or_unknown(run->mode));
	for (i = 0; i < run->nevents; i++) {
		const struct run_event *ev = &run->events[i];
		int asked = ev->requested && ev->name &&
			    strcmp(ev->requested, ev->name);

		if (run->exact)
			FACT(s, "event", "%s, counted by the QEMU plugin (%s): %llu in the window(s)",
			     or_unknown(ev->name), or_unknown(ev->pmu),
			     (unsigned long long)ev->count);
		else if (ev->freq)
			FACT(s, "event", "%s%s%s%s on PMU %s, at %llu samples/s (-F), %llu samples",
			     or_unknown(ev->name), asked ? " (asked for " : "",
			     asked ? ev->requested : "", asked ? ")" : "",
			     or_unknown(ev->pmu), (unsigned long long)ev->freq,
			     (unsigned long long)ev->samples);
		else
			FACT(s, "event", "%s%s%s%s on PMU %s, period %llu %s%s, %llu samples",
			     or_unknown(ev->name), asked ? " (asked for " : "",
			     asked ? ev->requested : "", asked ? ")" : "",
			     or_unknown(ev->pmu), (unsigned long long)ev->period,
			     ev->unit ? ev->unit : "",
			     period_time(when, sizeof(when), run, ev),
			     (unsigned long long)ev->samples);
		if (ev->not_counting)
			FACT(s, "not counting", "%s: %s; its values are not available (not zero) and no IPC is derived from it",
			     or_unknown(ev->name), ev->not_counting);
		lost += ev->lost;
		thr += ev->throttled;
		if (!ev->enabled_ns)
			FACT(s, "multiplexing", "%s: enabled/running times not recorded",
			     or_unknown(ev->name));
		else if (ev->running_ns < ev->enabled_ns)
			FACT(s, "multiplexing", "%s ran %.1f%% of its enabled time: its count is scaled by enabled/running",
			     or_unknown(ev->name),
			     100.0 * ev->running_ns / ev->enabled_ns);
		else
			FACT(s, "multiplexing", "%s: none (running = enabled)",
			     or_unknown(ev->name));
	}
	FACT(s, "samples lost", "%llu lost, %llu throttled%s",
	     (unsigned long long)lost, (unsigned long long)thr,
	     lost || (thr && !run->idle_throttles) ?
	     ": values are underestimated" :
	     thr ? ": only on mostly idle CPUs, where sampling pauses until "
		   "the next tick (NO_HZ); busy values are not affected" : "");
	FACT(s, "duration", "%.3f s window, %.1f s warm-up",
	     run->window_ns / 1e9, run->warmup_s);
	if (run->created || run->command)
		FACT(s, "recorded", "%s by %s: %s", or_unknown(run->created),
		     or_unknown(run->tool_version), or_unknown(run->command));
}

static void put_conditions(struct summary *s, const struct model *m,
			   int all)
{
	size_t i, n = m->nconditions;

	if (!all && n > SUMMARY_CONDITIONS)
		n = SUMMARY_CONDITIONS;
	s->nconds_hidden = m->nconditions - n;
	if (!n)
		return;
	s->conds = calloc(n, sizeof(*s->conds));
	if (!s->conds) {
		s->oom = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		s->conds[i].key = strdup(m->conditions[i].key);
		s->conds[i].value = strdup(m->conditions[i].value ?
					   m->conditions[i].value : "");
		s->nconds++;
	}
}

/* The decomposition's next line, labelled; NULL when it is full. */
static struct sum_line *new_line(struct summary *s, int indent, const char *label)
{
	struct sum_line *l;

	if (s->ndecomp >= sizeof(s->decomp) / sizeof(s->decomp[0]))
		return NULL;
	l = &s->decomp[s->ndecomp++];
	l->indent = indent;
	l->label = strdup(label);
	return l;
}

static void dline(struct summary *s, int indent, const char *label,
		  double ns, const char *unit, double share_of, int flag)
{
	struct sum_line *l = new_line(s, indent, label);

	if (!l)
		return;
	l->value = ns < -0.5e9 ? strdup("") :
		   summary_fmt(s, "%.2f %s", ns / 1e3, unit);
	l->share = share_of > 0 && ns > -0.5e9 ?
		   summary_fmt(s, "%.1f%%", 100 * ns / share_of) : strdup("");
	l->flag = flag;
}

/* A count per round trip (no share) among the decomposition's lines. */
static void count_line(struct summary *s, int indent, const char *label,
		       double v)
{
	struct sum_line *l = new_line(s, indent, label);

	if (!l)
		return;
	l->value = summary_fmt(s, "%.2f", v);
	l->share = strdup("");
}

/* Interrupts and softirqs per round trip on the counted CPUs: the
 * devices' in all and the three most, the softirqs likewise; then the
 * NAPI polls when counted (exact mode). */
static void irq_lines(struct summary *s, const struct model *m)
{
	const struct run_facts *f = &m->run;
	double rt = (double)f->round_trips;
	double dev = run_facts_device_irqs(f), soft = run_facts_softirqs(f);
	int i, shown = 0;

	if (!rt)
		return;
	if (f->nirqs || f->nsoftirqs) {
		count_line(s, 0, "device interrupts (/proc/interrupts)", dev / rt);
		for (i = 0; i < f->nirqs && shown < 3; i++)
			if (f->irqs[i].device && f->irqs[i].total) {
				count_line(s, 1, f->irqs[i].name, f->irqs[i].total / rt);
				shown++;
			}
		count_line(s, 0, "softirqs (/proc/softirqs)", soft / rt);
		for (i = 0; i < f->nsoftirqs && i < 3; i++)
			count_line(s, 1, f->softirqs[i].name, f->softirqs[i].total / rt);
	}
	if (f->napi_function) {
		char label[96];

		snprintf(label, sizeof(label), "NAPI polls (%s calls, exact)",
			 f->napi_function);
		count_line(s, 0, label, f->napi_polls / rt);
	}
}

static void put_decomp(struct summary *s, const struct model *m)
{
	const struct model_decomp *d = &m->decomp;
	const char *src = d->from_tasks ? "schedstat" : "kernel, sampled";
	/* ICMP to this host (loopback, veth): the kernel's echo reply, no
	 * responder process on this host or any other */
	int kernel_answers = m->run.transport && !strcmp(m->run.transport, "icmp") &&
			     m->run.network && strcmp(m->run.network, "peer") &&
			     strcmp(m->run.network, "echo");
	char label[96];

	if (d->per_unit) {
		s->decomp_title = summary_fmt(s, "per %s: the workload's CPU time (its process tree)",
				      m->run.unit.name);
		if (d->workload >= 0) {
			dline(s, 0, "workload CPU (schedstat, rusage)", d->workload, "us", 0, 0);
			dline(s, 1, "user (tick or rusage resolution)", d->workload_user, "us", 0, 0);
			dline(s, 1, "system", d->workload_system, "us", 0, 0);
		}
		if (d->workload_kernel >= 0)
			dline(s, 1, "kernel, sampled", d->workload_kernel, "us", 0, 0);
		if (d->service_demand >= 0) {
			snprintf(label, sizeof(label), "service demand (%s)",
				 d->sd_source);
			dline(s, 0, label, d->service_demand, "us", 0, 0);
		}
		NOTE(s, "client, responder and off-CPU time are told apart for the built-in workload only; a %s is split no further.",
		     m->run.unit.name);
		NOTE(s, "service demand is netperf's: busy CPU time per %s, summed over the sampled CPUs, whoever used it.",
		     m->run.unit.name);
		return;
	}
	if (!d->valid) {
		s->decomp_title = summary_fmt(s, "latency decomposition: not available (%s)",
				      m->no_round_trips ? "no round trips" :
				      "no per-process CPU time and no event in ns");
		return;
	}
	s->decomp_title = summary_fmt(s, "per round trip: round trip = client CPU + responder CPU + off-CPU%s",
			      d->from_tasks ? "" : " (kernel only)");
	snprintf(label, sizeof(label), "round trip (%s)", d->rtt_source);
	dline(s, 0, label, d->rtt, "us", d->rtt, 0);
	if (d->client_elsewhere) {
		dline(s, 0, "client CPU (on the other host)", -1e9, "us", 0, 0);
	} else {
		snprintf(label, sizeof(label), "client CPU (%s)", src);
		dline(s, 0, label, d->client, "us", d->rtt, 0);
	}
	if (d->from_tasks && !d->client_elsewhere) {
		dline(s, 1, "user (stat, tick resolution)", d->client_user, "us", 0, 0);
		dline(s, 1, "system (stat, tick resolution)", d->client_system, "us", 0, 0);
		if (d->client_kernel >= 0)
			dline(s, 1, "kernel, sampled", d->client_kernel, "us", 0, 0);
	}
	if (d->responder_elsewhere && kernel_answers) {
		/* the kernel's echo reply: no responder process anywhere */
		dline(s, 0, "responder CPU (none: the kernel answers)", -1e9, "us", 0, 0);
	} else if (d->responder_elsewhere) {
		dline(s, 0, "responder CPU (on the other host)", -1e9, "us", 0, 0);
	} else {
		snprintf(label, sizeof(label), "responder CPU (%s)", src);
		dline(s, 0, label, d->responder, "us", d->rtt, 0);
	}
	if (d->from_tasks && !d->responder_elsewhere) {
		dline(s, 1, "user (stat, tick resolution)", d->responder_user, "us", 0, 0);
		dline(s, 1, "system (stat, tick resolution)", d->responder_system, "us", 0, 0);
		if (d->responder_kernel >= 0)
			dline(s, 1, "kernel, sampled", d->responder_kernel, "us", 0, 0);
	}
	dline(s, 0, kernel_answers ? "off-CPU: waiting, wire, the kernel's reply" :
	      d->client_elsewhere || d->responder_elsewhere ?
	      "off-CPU: waiting, wire, the other host" :
	      "off-CPU: waiting, wake-up, wire", d->rest, "us", d->rtt, d->rest < 0);
	if (d->wait >= 0)
		dline(s, 1, "run-queue wait (schedstat; overlaps CPU on one CPU)", d->wait, "us", 0, 0);
	if (d->idle_ctx > 0)
		dline(s, 1, "irq/softirq in idle context", d->idle_ctx, "us", 0, 0);
	/* flagged, so the short report shows it, when it warns (glance.c) */
	if (d->steal >= 0)
		dline(s, 1, "steal (/proc/stat: the hypervisor ran others)",
		      d->steal, "us", 0, d->steal >= SUMMARY_STEAL_WARN * d->rtt &&
		      d->steal > 0);
	if (d->stalls_known) {
		/* outside the sum above: what was set apart (their time per
		 * round trip, which the mean of every round trip holds), and
		 * the figures it was set apart from */
		snprintf(label, sizeof(label), "stalls set apart: %llu over %.1f us, %.2f%% of time",
			 (unsigned long long)d->stalls, d->stall_cut / 1e3,
			 100 * d->stall_share);
		dline(s, 0, label, d->stall_per_rt, "us", 0, 0);
		dline(s, 1, "mean of every round trip", d->rtt_mean, "us", 0, 0);
		dline(s, 1, "p50", d->rtt_p50, "us", 0, 0);
	}
	if (d->service_demand >= 0) {
		snprintf(label, sizeof(label), "service demand (%s)",
			 d->sd_source);
		dline(s, 0, label, d->service_demand, "us", 0, 0);
	}
	if (d->switches >= 0)
		count_line(s, 0, "context switches (both processes)", d->switches);
	irq_lines(s, m);
	if (d->rest < 0)
		rest_note(s, m);
	if (!d->from_tasks)
		NOTE(s, "the profile has no per-process CPU times: client and responder CPU are their sampled kernel time only, so user time and unsampled work land in off-CPU.");
	NOTE(s, "service demand is netperf's: busy CPU time per %s, summed over the sampled CPUs, whoever used it.",
	     m->run.unit.name);
}

/* A gap larger than the flag threshold, for lines the model did not flag. */
static int gap(double a, double b)
{
	return b > 0 && (a / b > 1 + MODEL_GAP_FLAG || a / b < 1 - MODEL_GAP_FLAG);
}

/* A time or count in readable units. */
static void amount(char *buf, size_t len, double v, const char *unit)
{
	if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.1f ms", v / 1e6);
	else
		snprintf(buf, len, "%.1fM %s", v / 1e6, unit);
}

/* /proc/stat counts CPU time in USER_HZ ticks of 10 ms: over a short
 * window "busy" can read more than the CPUs sampled by up to one tick
 * per field and CPU. Say so when that explains the flag. */
#define PROC_STAT_TICK_NS 10000000.0

static void busy_resolution_note(struct summary *s, const struct model *m)
{
	const struct model_recon *r = &m->recon;
	double window = (double)m->run.window_ns, slack;

	if (r->busy_cpus < 0 || r->capacity <= 0 || window <= 0 ||
	    r->busy_cpus <= r->capacity * 1.02)
		return;
	/* user, system, irq, softirq: each rounds on its own */
	slack = 4 * PROC_STAT_TICK_NS / window;
	if (r->busy_cpus / r->capacity - 1 <= slack)
		NOTE(s, "busy above 100%% is within /proc/stat's resolution: it counts 10 ms ticks, and over a %.3f s window four fields per CPU can read up to %.0f%% high.",
		     window / 1e9, 100 * slack);
}

static void put_recon(struct summary *s, const struct model *m)
{
	const struct model_recon *r = &m->recon;
	char a[64], b[64], c[64];
	size_t e, i;

	for (e = 0; e < m->nevents; e++) {
		const struct model_event_recon *er = &r->events[e];
		const char *u = summary_unit(m, e);
		const char *name = or_unknown(m->run.events[e].name);
		const char *why = m->run.events[e].not_counting;

		amount(a, sizeof(a), er->sampled, u);
		amount(b, sizeof(b), er->counted, u);
		if (why)
			RECON(s, 1, "%s: not counting (%s)", name, why);
		else if (er->ratio < 0)
			RECON(s, 0, "%s: sampled %s, no counted total", name, a);
		else if (model_software_clock(m) && !strcmp(u, "ns"))
			RECON(s, 0, "%s: sampled %s of %s counted (%.1f%%); the count is the time the sampled CPUs ran, user and idle included but not idle stretches where sampling was throttled; samples are kernel only",
			      name, a, b, 100 * er->ratio);
		else
			RECON(s, gap(er->sampled, er->counted), "%s: sampled %s of %s counted (%.1f%%)",
			      name, a, b, 100 * er->ratio);
	}
	for (i = 0; i < r->ncpus; i++) {
		const struct model_cpu_recon *cr = &r->cpus[i];

		amount(a, sizeof(a), cr->sampled_busy, summary_unit(m, 0));
		if (cr->kernel < 0) {
			RECON(s, 0, "cpu %d: sampled %s busy; no /proc/stat times",
			      cr->cpu, a);
			continue;
		}
		amount(b, sizeof(b), cr->kernel, "ns");
		amount(c, sizeof(c), cr->idle, "ns");
		if (cr->ratio >= 0)
			RECON(s, cr->flagged, "cpu %d: sampled %s busy vs %s kernel in /proc/stat (%.0f%%), idle %s, %llu lost",
			      cr->cpu, a, b, 100 * cr->ratio, c,
			      (unsigned long long)cr->lost);
		else
			RECON(s, 0, "cpu %d: sampled %s busy; /proc/stat kernel %s, idle %s",
			      cr->cpu, a, b, c);
	}
	if (r->busy_cpus >= 0)
		RECON(s, r->capacity > 0 && r->busy_cpus > r->capacity * 1.02,
		      "busy: %.2f us/%s x %.0f %s/s = %.2f CPUs of %.0f sampled (%.0f%%)",
		      m->decomp.service_demand / 1e3, m->run.unit.abbrev,
		      r->rt_per_s, m->run.unit.abbrev, r->busy_cpus,
		      r->capacity, r->capacity > 0 ?
		      100 * r->busy_cpus / r->capacity : 0);
	busy_resolution_note(s, m);
	for (e = 0; e < m->nevents; e++)
		if (m->run.events[e].not_counting) {
			NOTE(s, "! marks an event that measured nothing although it was enabled and ran: check that the PMU counts it (under QEMU, instructions count only with -icount).");
			break;
		}
	if (r->flagged)
		NOTE(s, "! marks a gap of more than %.0f%% between sampled and counted: suspect the observer (lost samples, unsampled CPUs, accounting) before the system.",
		     MODEL_GAP_FLAG * 100);
}

/*
 * Hardware mode inside QEMU: a real PMU driver (armv8_pmuv3) over an
 * emulated PMU. What that distorts was measured on arm64 virt, QEMU 7.2:
 * the numbers are right for what QEMU counts, not for a CPU.
 */
static void emulated_pmu_note(struct summary *s, const struct model *m)
{
	const char *cmd = m->run.qemu_command;

	if (!m->run.emulated || model_software_clock(m))
		return;
	if (cmd && strstr(cmd, "-icount"))
		NOTE(s, "the PMU is QEMU's emulation under -icount: one instruction is one cycle of its virtual clock, so cycles equal instructions and IPC is 1.00 by construction; instruction samples land late (the overflow interrupt is taken only at mode switches and ticks), and the clock runs at the emulator's pace, so compare counts per round trip, not times.");
	else
		NOTE(s, "the PMU is QEMU's emulation: cycles come from a 1 GHz virtual clock that also counts in idle, so cycles per round trip measure emulated time, not work; interrupt skid lands 10-20%% of kernel-only samples in user space (set apart, below), and an idle CPU's cycles are sampled only in part, so sampled falls short of counted; instructions count only with -icount.");
}

static void put_notes(struct summary *s, const struct model *m)
{
	/* the whole profile's, whose rows the tables may not be */
	const struct model *all = m->focused ? m->workload : m;
	const struct model_row *ic = NULL;
	size_t i;

	for (i = 0; i < m->views[MODEL_BY_ROLE].n; i++)
		if (!strcmp(m->views[MODEL_BY_ROLE].rows[i].name,
			    model_role_name(MODEL_ROLE_IDLE_CTX)))
			ic = &m->views[MODEL_BY_ROLE].rows[i];
	if (m->run.exact && m->run.icount_shift >= 0)
		BRIEF_NOTE(s, "%s.", PROFILE_EXACT_DETERMINISTIC_NOTE);
	else if (m->run.exact)
		BRIEF_NOTE(s, "%s.", PROFILE_EXACT_NOTE);
	else if (m->run.emulated)
		BRIEF_NOTE(s, "%s.", PROFILE_EMULATED_NOTE);
	emulated_pmu_note(s, m);
	if (m->run.exact && m->nrepeats > 1)
		BRIEF_NOTE(s, "sd is the sample standard deviation of the value per %s across the %d boots (each a window of its own).",
		     m->run.unit.name, m->nrepeats);
	else if (m->run.exact && m->run.icount_shift >= 0)
		BRIEF_NOTE(s, "one boot: enough to compare kernels on the instruction clock; -r 2 boots again and shows that the boots agree.");
	else if (m->run.exact)
		BRIEF_NOTE(s, "one boot: record with -r N for N boots and their spread.");
	if (m->run.icount_shift >= 0)
		BRIEF_NOTE(s, "deterministic: the guest ran on QEMU's instruction clock (-icount shift=%d), so its times (latency, CPU times, the window) are virtual, %d ns an instruction, and the same kernel booted again executes the same instructions: the total, the timer interrupts (%.3f per %s) and every bucket repeat exactly.%s%s",
			   m->run.icount_shift, 1 << m->run.icount_shift,
			   m->run.round_trips && m->run.timer_irqs >= 0 ?
			   m->run.timer_irqs / (double)m->run.round_trips : 0.0,
			   m->run.unit.name, m->run.boots_agree ? " Boots agree: " : "",
			   m->run.boots_agree ? m->run.boots_agree : "");
	else if (m->run.exact && m->run.timer_irqs >= 0 && m->run.round_trips)
		BRIEF_NOTE(s, "what follows the guest's clock, not the workload: %.3f timer interrupts per %s; with them the timekeeping, irq and scheduler buckets vary from boot to boot (the guest's clock follows the host's load), while the network path does not.",
		     m->run.timer_irqs / (double)m->run.round_trips, m->run.unit.name);
	else if (m->nrepeats > 1)
		BRIEF_NOTE(s, "sd is the sample standard deviation of the value per %s across the %d repeats (measurement windows); the value itself is all windows' weight over all %ss. A row of omitted rows shows its sampling error instead.",
		     m->run.unit.name, m->nrepeats,
		     m->run.unit.name);
	else
		BRIEF_NOTE(s, "+- is one standard deviation of sampling error, value/sqrt(samples) (sample counts are Poisson); one run, so no spread across repeats.");
	if (m->pass_charged && all->total.samples[0])
		BRIEF_NOTE(s, "%.1f%% of samples charged to their caller at an irq-enable point (%llu of %llu there; rule kind pass, docs/buckets.md): sampling interrupt maskable: %s, so a sample due while interrupts were off lands where they come back on.",
			   100.0 * (double)m->pass_charged / (double)all->total.samples[0],
			   (unsigned long long)m->pass_charged,
			   (unsigned long long)m->pass_samples,
			   m->pass_reason ? m->pass_reason : "cpu-clock");
	if (m->skid_samples[0])
		BRIEF_NOTE(s, "%llu %s samples (%.1f%% of them) landed in user space although only the kernel was sampled: skid, the overflow interrupt taken after the return to user space; set apart, in no bucket and not in busy kernel (record --user samples user space).",
			   (unsigned long long)m->skid_samples[0],
			   m->run.nevents ? m->run.events[0].name : "",
			   100.0 * (double)m->skid_samples[0] /
			   (double)(m->skid_samples[0] + all->total.samples[0]));
	if (ic && ic->samples[0])
		NOTE(s, "role idle-ctx irq/softirq: samples of the idle task outside the idle loop, i.e. interrupt and softirq work that ran in idle context (the ip cannot tell irq from softirq).");
	if (m->nunknown)
		NOTE(s, "%zu of %zu sampled addresses are in no known symbol: they are counted as %s.",
		     m->nunknown, m->naddrs, MODEL_UNKNOWN_NAME);
}

int summary_build(struct summary *s, const struct model *m, int all_conditions)
{
	memset(s, 0, sizeof(*s));
	summary_glance(s, m);
	put_facts(s, m);
	put_conditions(s, m, all_conditions);
	put_decomp(s, m);
	put_recon(s, m);
	put_notes(s, m);
	if (m->no_round_trips)
		s->empty = summary_fmt(s, "no %ss were counted in the sampling window: there is nothing to divide by, so no table.",
			       m->run.unit.name);
	else if (!m->nevents || !m->total.samples[0] || m->total.weight[0] <= 0)
		s->empty = summary_fmt(s, "no samples were taken in the sampling window: nothing to report. Did the workload run on the sampled CPUs?");
	if (s->oom) {
		summary_free(s);
		return error("out of memory writing the report");
	}
	return 0;
}

void summary_free(struct summary *s)
{
	size_t i;

	free(s->headline);
	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	for (i = 0; i < s->nfacts; i++) {
		free(s->facts[i].key);
		free(s->facts[i].value);
	}
	for (i = 0; i < s->nconds; i++) {
		free(s->conds[i].key);
		free(s->conds[i].value);
	}
	free(s->conds);
	free(s->decomp_title);
	for (i = 0; i < s->ndecomp; i++) {
		free(s->decomp[i].label);
		free(s->decomp[i].value);
		free(s->decomp[i].share);
	}
	for (i = 0; i < s->nrecon; i++)
		free(s->recon[i].label);
	for (i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->empty);
	memset(s, 0, sizeof(*s));
}
