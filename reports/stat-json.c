// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat as JSON (jansson). */
#include "reports/renderers.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/json-common.h"
#include "reports/stat.h"

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

	for (e = 0; m->p->nevents && e < m->nevents; e++)
		if (m->p->events[0].name &&
		    !strcmp(m->events[e].name, m->p->events[0].name))
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
		set(o, m->events[e].name, stat_not_counting(m->p, m->events[e].name) ?
		    json_null() : json_real(v[e]), bad);
	set(o, "primary", pe >= 0 && !stat_not_counting(m->p, m->events[pe].name) ?
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

/* Round trip = client CPU + responder CPU + rest, as in the report. */
static json_t *decomp_json(const struct stat_model *m)
{
	int valid = m->have_tasks && m->rt > 0;

	return json_pack("{s:b, s:s*, s:f, s:o, s:o, s:o}",
			 "valid", valid, "source", m->have_tasks ? "tasks" : NULL,
			 "rtt_ns", m->latency_us * 1000,
			 "client_ns", valid ? json_real(m->client_us * 1000) :
			 json_null(),
			 "responder_ns", valid ?
			 json_real(m->responder_us * 1000) : json_null(),
			 "rest_ns", valid ? json_real(m->rest_us * 1000) :
			 json_null());
}

int stat_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct stat_model *m = model;
	const struct profile *p = m->p;
	json_t *root = json_object(), *missing = json_array(),
	       *counted = json_array();
	double per_rt[STAT_MAX_ROWS];
	int bad = 0, ret, e;
	size_t i;

	for (e = 0; e < m->nevents; e++)
		per_rt[e] = m->events[e].per_rt;
	for (i = 0; i < p->nmissing; i++)
		push(missing, json_pack("{s:s, s:s}", "name", p->missing[i].name,
					"reason", p->missing[i].reason), &bad);
	for (i = 0; i < p->ncpus_sampled; i++)
		push(counted, json_integer(p->cpus[i]), &bad);
	set(root, "format", json_string(STAT_FORMAT), &bad);
	set(root, "version", json_integer(STAT_VERSION), &bad);
	set(root, "units", render_json_units(p->nevents ? p->events[0].unit : NULL,
					     profile_unit_name(p)), &bad);
	if (p->nevents)
		set(root, "primary_event", p->events[0].name ?
		    json_string(p->events[0].name) : json_null(), &bad);
	/* what per_rt is per: round trips, or the --per unit */
	set(root, "unit", report_unit_json(p), &bad);
	set(root, "mode", json_string(p->mode ? p->mode : "unknown"), &bad);
	set(root, "kernel", json_pack("{s:s*}", "release", p->kernel_release),
	    &bad);
	set(root, "workload", json_pack("{s:s*, s:s*, s:I, s:i, s:i}",
					"transport", p->transport,
					"network", p->network,
					"message_size",
					(json_int_t)p->message_size,
					"client_cpu", p->client_cpu,
					"server_cpu", p->server_cpu), &bad);
	set(root, "cpus_counted", counted, &bad);
	set(root, "round_trips", json_integer((json_int_t)p->round_trips), &bad);
	set(root, "window_ns", json_integer((json_int_t)p->window_ns), &bad);
	set(root, "round_trips_per_s", m->window_s > 0 ?
	    json_real(m->rt / m->window_s) : json_null(), &bad);
	set(root, "latency_ns", render_json_latency(&p->latency), &bad);
	set(root, "latency_unsampled_ns", p->latency_unsampled.count ?
	    render_json_latency(&p->latency_unsampled) : json_null(), &bad);
	set(root, "observer_cost", p->latency_unsampled.count &&
	    p->latency_unsampled.mean > 0 ?
	    json_real((p->latency.mean - p->latency_unsampled.mean) /
		      p->latency_unsampled.mean) : json_null(), &bad);
	set(root, "per_rt", per_event_json(m, per_rt, &bad), &bad);
	set(root, "repeats", stat_repeats_json(p, &m->rep), &bad);
	set(root, "ipc", m->ipc >= 0 ? json_real(m->ipc) : json_null(), &bad);
	set(root, "missing_events", missing, &bad);
	set(root, "cpus", cpus_json(m, &bad), &bad);
	set(root, "softirqs", values_json(m->softirqs, m->nsoftirqs, &bad), &bad);
	set(root, "irqs", values_json(m->irqs, m->nirqs, &bad), &bad);
	set(root, "service_demand_ns", json_real(m->service_demand_us * 1000),
	    &bad);
	set(root, "decomposition", decomp_json(m), &bad);
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
