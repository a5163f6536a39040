// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat as JSON (jansson). */
#include "reports/render/renderers.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/render/json-common.h"
#include "reports/stat/stat.h"

#define STAT_FORMAT "perpkt-stat"
/* 3: -r N figures in ns, named by the key they follow; units.primary,
 * primary_event and per_rt.primary */
#define STAT_VERSION 3

/* json_object_set_new that remembers failure (NULL value or no memory). */
static void set(json_t *o, const char *k, json_t *v, int *bad)
{
	if (!o || !v || json_object_set_new(o, k, v))
		*bad = 1;
}

static void push(json_t *a, json_t *v, int *bad)
{
	if (!a || !v || json_array_append_new(a, v))
		*bad = 1;
}

/* Where the primary (first) event is among the counted ones, -1 when
 * it is not: cpu-clock per CPU counts idle time too, so stat gives CPU
 * time from /proc/stat (cpus[].busy_ns_per_rt) rather than from it. */
static int primary_index(const struct stat_model *m)
{
	int e;

	for (e = 0; m->run.nevents && e < m->nevents; e++)
		if (m->run.events[0].name &&
		    !strcmp(m->events[e].name, m->run.events[0].name))
			return e;
	return -1;
}

/* {"primary": v[primary] or null, event name: value, ...}, as in the
 * report: .per_rt.primary reads any profile. */
static json_t *per_event_json(const struct stat_model *m, const double *v,
			      int *bad)
{
	json_t *o = json_object();
	int e, pe = primary_index(m);

	for (e = 0; e < m->nevents; e++)
		set(o, m->events[e].name, m->events[e].not_counting ?
		    json_null() : json_real(v[e]), bad);
	set(o, "primary", pe >= 0 && !m->events[pe].not_counting ?
	    json_real(v[pe]) : json_null(), bad);
	return o;
}

/* [{name, per_rt, total}], heaviest first. */
static json_t *values_json(const struct stat_value *v, int n, int *bad)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		push(a, json_pack("{s:s, s:f, s:f}", "name", v[i].name,
				  "per_rt", v[i].per_rt, "total", v[i].total),
		     bad);
	return a;
}

/* One side's device interrupts, softirqs and NAPI polls per round
 * trip; napi_polls null when not counted (only --exact counts them). */
static json_t *side_json(const struct stat_side *s)
{
	if (!s->present)
		return json_null();
	return json_pack("{s:s?, s:f, s:f, s:o, s:s?}", "host", s->host,
			 "device_irqs_per_rt", s->device_irqs,
			 "softirqs_per_rt", s->softirqs,
			 "napi_polls_per_rt", s->napi_function ?
			 json_real(s->napi_polls) : json_null(),
			 "napi_function", s->napi_function);
}

/* Per-CPU time as fractions of the window, and events per round trip. */
static json_t *cpus_json(const struct stat_model *m, int *bad)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < m->ncpus; i++) {
		const struct stat_cpu *c = &m->cpus[i];
		json_t *ev = per_event_json(m, c->events_per_rt, bad);
		push(a, json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
				  "cpu", c->cpu, "busy", c->busy_pct / 100,
				  "user", c->user_pct / 100,
				  "system", c->system_pct / 100,
				  "irq", c->irq_pct / 100,
				  "softirq", c->softirq_pct / 100,
				  "idle", c->idle_pct / 100,
				  "busy_ns_per_rt", c->busy_us_per_rt * 1000,
				  "per_rt", ev), bad);
	}
	return a;
}

/* Round trip = client CPU + responder CPU + off-CPU, as in the report. */
static json_t *decomp_json(const struct stat_model *m)
{
	int valid = m->have_tasks && m->rt > 0;

	return json_pack("{s:b, s:s*, s:f, s:o, s:o, s:o, s:o, s:o}",
			 "valid", valid, "source", m->have_tasks ? "tasks" : NULL,
			 "rtt_ns", m->latency_us * 1000,
			 "client_ns", valid ? json_real(m->client_us * 1000) :
			 json_null(),
			 "responder_ns", valid ?
			 json_real(m->responder_us * 1000) : json_null(),
			 "off_cpu_ns", valid ? json_real(m->rest_us * 1000) :
			 json_null(),
			 /* the name before off_cpu_ns, for version 3's readers */
			 "rest_ns", valid ? json_real(m->rest_us * 1000) :
			 json_null(),
			 "steal_ns", m->steal_us >= 0 ?
			 json_real(m->steal_us * 1000) : json_null());
}

/* stat -r N: each figure across the windows; null without repeats. */
static json_t *repeats_json(const struct stat_model *m)
{
	const struct stat_options *o = &m->rep;
	struct stat_figure fig[STAT_MAX_ROWS];
	int n = stat_figures(m, fig), i;
	json_t *a, *root;

	if (!n)
		return json_null();
	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:f, s:f}",
			"name", fig[i].name, "mean", fig[i].s.mean,
			"sd", fig[i].s.sd, "ci_half_width", fig[i].s.half,
			"ci_half_width_pct", spread_rel_pct(&fig[i].s)));
	root = json_pack("{s:i, s:f, s:o}", "windows", fig[0].s.n,
			 "confidence", o->confidence, "figures", a);
	if (root && o->width_pct) {
		json_object_set_new(root, "asked_width_pct", json_real(o->width_pct));
		json_object_set_new(root, "reached",
				    json_boolean(stat_confidence_reached(fig, n, o)));
	}
	return root;
}

int stat_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct stat_model *m = model;
	const struct run_facts *run = &m->run;
	json_t *root = json_object(), *missing = json_array(),
	       *counted = json_array();
	double per_rt[STAT_MAX_ROWS];
	int bad = 0, ret, e;
	size_t i;

	for (e = 0; e < m->nevents; e++)
		per_rt[e] = m->events[e].per_rt;
	for (e = 0; e < m->nmissing; e++)
		push(missing, json_pack("{s:s, s:s}", "name", m->missing[e].name,
					"reason", m->missing[e].reason), &bad);
	for (i = 0; i < run->ncpus_sampled; i++)
		push(counted, json_integer(run->cpus[i]), &bad);
	set(root, "format", json_string(STAT_FORMAT), &bad);
	set(root, "version", json_integer(STAT_VERSION), &bad);
	set(root, "units", render_json_units(run->nevents ? run->events[0].unit : NULL,
					     run->unit.name), &bad);
	if (run->nevents)
		set(root, "primary_event", run->events[0].name ?
		    json_string(run->events[0].name) : json_null(), &bad);
	/* what per_rt is per: round trips, or the --per unit */
	set(root, "unit", report_unit_json(&run->unit), &bad);
	set(root, "mode", json_string(run->mode ? run->mode : "unknown"), &bad);
	set(root, "kernel", json_pack("{s:s*}", "release", run->kernel_release),
	    &bad);
	set(root, "workload", json_pack("{s:s*, s:s*, s:I, s:i, s:i, s:o}",
					"transport", run->transport,
					"network", run->network,
					"message_size",
					(json_int_t)run->message_size,
					"client_cpu", run->client_cpu,
					"server_cpu", run->server_cpu,
					"flow_cpus", render_json_flow_cpus(run)), &bad);
	set(root, "cpus_counted", counted, &bad);
	set(root, "round_trips", json_integer((json_int_t)run->round_trips), &bad);
	set(root, "window_ns", json_integer((json_int_t)run->window_ns), &bad);
	set(root, "round_trips_per_s", m->window_s > 0 ?
	    json_real(m->rt / m->window_s) : json_null(), &bad);
	set(root, "latency_ns", render_json_latency(&run->latency), &bad);
	set(root, "latency_unsampled_ns", run->latency_unsampled.count ?
	    render_json_latency(&run->latency_unsampled) : json_null(), &bad);
	set(root, "observer_cost", run->latency_unsampled.count &&
	    run->latency_unsampled.mean > 0 ?
	    json_real((run->latency.mean - run->latency_unsampled.mean) /
		      run->latency_unsampled.mean) : json_null(), &bad);
	set(root, "per_rt", per_event_json(m, per_rt, &bad), &bad);
	set(root, "repeats", repeats_json(m), &bad);
	set(root, "ipc", m->ipc >= 0 ? json_real(m->ipc) : json_null(), &bad);
	set(root, "missing_events", missing, &bad);
	set(root, "cpus", cpus_json(m, &bad), &bad);
	set(root, "softirqs", values_json(m->softirqs, m->nsoftirqs, &bad), &bad);
	set(root, "irqs", values_json(m->irqs, m->nirqs, &bad), &bad);
	set(root, "service_demand_ns", json_real(m->service_demand_us * 1000),
	    &bad);
	set(root, "decomposition", decomp_json(m), &bad);
	set(root, "sides", json_pack("{s:o, s:o}", "local", side_json(&m->local),
				     "remote", side_json(&m->remote)), &bad);
	if (bad || !root) {
		json_decref(root);
		return error("cannot build the stat JSON: out of memory");
	}
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF)
		return error("cannot write the stat report");
	return render_flush(f, "the stat report");
}
