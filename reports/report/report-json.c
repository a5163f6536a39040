// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "error.h"
#include "reports/render/json-common.h"
#include "reports/model/sides.h"
#include "reports/model/summary.h"

/*
 * The report as one JSON object, built whole in memory and then dumped:
 * a failure half-way must not leave half a document on stdout.
 * Allocation failures inside jansson are caught by checking every
 * object we set, via the helpers below.
 */

#define REPORT_FORMAT "perpkt-report"
#define REPORT_VERSION 3

/* json_object_set_new that remembers failure (NULL value or no memory). */
static void set(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!obj) {
		json_decref(v);
		*bad = 1;
		return;
	}
	/* set_new takes the reference even when it fails */
	if (!v || json_object_set_new(obj, key, v))
		*bad = 1;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *u64(uint64_t v)
{
	/* json_int_t is signed 64-bit; counts this large do not occur. */
	return json_integer((json_int_t)v);
}

/* {"primary": value, event name: value, ...} for samples or per_rt:
 * "primary" is the first event (cycles, or cpu-clock without a PMU), so
 * one query reads both kinds of profile. */
static json_t *per_event(const struct model *m, const uint64_t *counts,
			 const double *values, int *bad)
{
	json_t *o = json_object();
	size_t e;

	if (m->nevents)
		set(o, "primary", counts ? u64(counts[0]) : json_real(values[0]),
		    bad);
	for (e = 0; e < m->nevents; e++) {
		const char *name = m->run.events[e].name;

		if (!name)
			name = "?";
		set(o, name, counts ? u64(counts[e]) : json_real(values[e]),
		    bad);
	}
	if (!o)
		*bad = 1;
	return o;
}

/* The workload's busy buckets, heaviest first: name and share of its
 * busy time (first event); the idle bucket is not busy. */
static json_t *workload_buckets(const struct model *w, int *bad)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < w->nbuckets; i++) {
		const struct model_row *r = &w->buckets[i];
		json_t *o;

		if (!strcmp(r->name, MODEL_IDLE_BUCKET) || !r->samples[0])
			continue;
		o = json_object();
		set(o, "name", json_string(r->name), bad);
		set(o, "share", json_real(w->busy.weight[0] > 0 ?
					  r->weight[0] / w->busy.weight[0] : 0), bad);
		if (json_array_append_new(a, o))
			*bad = 1;
	}
	if (!a)
		*bad = 1;
	return a;
}

/* A number, or null when the model marks it unknown (< 0). */
static json_t *num_or_null(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

static json_t *row_json(const struct model *m, const struct model_row *r,
			int function, int *bad)
{
	json_t *o = json_object();

	set(o, "name", str_or_null(r->name), bad);
	if (function) {
		set(o, "bucket", str_or_null(r->bucket), bad);
		set(o, "rule", str_or_null(r->rule), bad);
		set(o, "module", str_or_null(r->module), bad);
		set(o, "file", str_or_null(r->file), bad);
	}
	if (r->cpu >= 0)
		set(o, "cpu", json_integer(r->cpu), bad);
	if (r->line > 0) {
		/* --by line: where, in which function, inlined into what */
		set(o, "function", str_or_null(r->function), bad);
		set(o, "file", str_or_null(r->file), bad);
		set(o, "line", json_integer(r->line), bad);
		set(o, "symbol", str_or_null(r->symbol), bad);
		set(o, "function_line", json_integer(r->function_line), bad);
		set(o, "inlined", str_or_null(r->inlined), bad);
		set(o, "bucket", str_or_null(r->bucket), bad);
	}
	set(o, "samples", per_event(m, r->samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, r->per_rt, bad), bad);
	set(o, "error", per_event(m, NULL, r->err, bad), bad);
	/* per-window values exist only with repeats */
	set(o, "spread", m->nrepeats > 1 ?
	    per_event(m, NULL, r->spread, bad) : json_null(), bad);
	set(o, "repeat_mean", m->nrepeats > 1 ?
	    per_event(m, NULL, r->rep_mean, bad) : json_null(), bad);
	set(o, "ipc", num_or_null(r->ipc), bad);
	set(o, "share", json_real(r->share), bad);
	set(o, "cum", json_real(r->cum), bad);
	if (m->calls_known) {
		double pc = model_row_per_call(m, r);

		set(o, "calls_per_rt", json_real(r->calls_per_rt), bad);
		set(o, "per_call", pc >= 0 ? json_real(pc) : json_null(), bad);
	}
	if (m->incl_known && function)
		set(o, "inclusive_per_rt", json_real(r->incl_per_rt), bad);
	return o;
}

static json_t *rows_json(const struct model *m, const struct model_row *rows,
			 size_t n, int function, int *bad)
{
	json_t *a = json_array();
	size_t i;

	if (!a)
		*bad = 1;
	for (i = 0; a && i < n; i++) {
		json_t *r = row_json(m, &rows[i], function, bad);

		if (!r || json_array_append_new(a, r))
			*bad = 1;
	}
	return a;
}

static json_t *events_json(const struct run_facts *run, int *bad)
{
	json_t *a = json_array();
	size_t e;

	if (!a)
		*bad = 1;
	for (e = 0; a && e < run->nevents; e++) {
		const struct run_event *ev = &run->events[e];
		json_t *o = json_object();

		set(o, "name", str_or_null(ev->name), bad);
		set(o, "period", u64(ev->period), bad);
		set(o, "freq", u64(ev->freq), bad);
		set(o, "unit", str_or_null(ev->unit), bad);
		set(o, "samples", u64(ev->samples), bad);
		set(o, "lost", u64(ev->lost), bad);
		set(o, "throttled", u64(ev->throttled), bad);
		set(o, "count", u64(ev->count), bad);
		set(o, "requested", str_or_null(ev->requested), bad);
		set(o, "pmu", str_or_null(ev->pmu), bad);
		set(o, "enabled_ns", u64(ev->enabled_ns), bad);
		set(o, "running_ns", u64(ev->running_ns), bad);
		set(o, "not_counting", str_or_null(ev->not_counting), bad);
		if (!o || json_array_append_new(a, o))
			*bad = 1;
	}
	return a;
}

static json_t *workload_json(const struct run_facts *run, int *bad)
{
	json_t *o = json_object();
	double window_s = run->window_ns / 1e9;

	set(o, "transport", str_or_null(run->transport), bad);
	set(o, "network", str_or_null(run->network), bad);
	set(o, "message_size", u64(run->message_size), bad);
	set(o, "client_cpu", json_integer(run->client_cpu), bad);
	set(o, "server_cpu", json_integer(run->server_cpu), bad);
	set(o, "flow_cpus", render_json_flow_cpus(run), bad);
	set(o, "window_ns", u64(run->window_ns), bad);
	/* null, not inf, when the window length is unknown */
	set(o, "round_trips_per_s", run->window_ns ?
	    json_real(run->round_trips / window_s) : json_null(), bad);
	return o;
}

static json_t *decomp_json(const struct model *m, int *bad)
{
	const struct model_decomp *d = &m->decomp;
	json_t *o = json_object();

	set(o, "valid", json_boolean(d->valid), bad);
	set(o, "source", json_string(d->from_tasks ? "tasks" :
				     "samples-kernel-only"), bad);
	set(o, "rtt_source", str_or_null(d->rtt_source), bad);
	set(o, "rtt_ns", num_or_null(d->rtt), bad);
	set(o, "client_ns", num_or_null(d->client), bad);
	set(o, "responder_ns", num_or_null(d->responder), bad);
	/* the rest can be negative: that is a finding, not unknown */
	set(o, "off_cpu_ns", d->valid ? json_real(d->rest) : json_null(), bad);
	/* the name before "off_cpu_ns", kept for version 3's readers */
	set(o, "rest_ns", d->valid ? json_real(d->rest) : json_null(), bad);
	/* rtt_ns is the mean without them when they were set apart */
	if (d->stalls_known) {
		json_t *st = json_object();

		set(st, "count", json_integer((json_int_t)d->stalls), bad);
		set(st, "over_ns", json_real(d->stall_cut), bad);
		set(st, "share_of_time", json_real(d->stall_share), bad);
		set(st, "per_rt_ns", json_real(d->stall_per_rt), bad);
		set(st, "mean_ns", json_real(d->rtt_mean), bad);
		set(o, "stalls", st, bad);
	} else {
		set(o, "stalls", json_null(), bad);
	}
	set(o, "client_user_ns", num_or_null(d->client_user), bad);
	set(o, "client_system_ns", num_or_null(d->client_system), bad);
	set(o, "responder_user_ns", num_or_null(d->responder_user), bad);
	set(o, "responder_system_ns", num_or_null(d->responder_system), bad);
	set(o, "client_kernel_sampled_ns", num_or_null(d->client_kernel), bad);
	set(o, "responder_kernel_sampled_ns",
	    num_or_null(d->responder_kernel), bad);
	set(o, "idle_ctx_irq_softirq_ns", num_or_null(d->idle_ctx), bad);
	set(o, "runqueue_wait_ns", num_or_null(d->wait), bad);
	set(o, "switches", num_or_null(d->switches), bad);
	set(o, "service_demand_ns", num_or_null(d->service_demand), bad);
	set(o, "service_demand_source", str_or_null(d->sd_source), bad);
	set(o, "steal_ns", num_or_null(d->steal), bad);
	/* exact mode only: absent when not counted, never 0 made up */
	if (m->run.napi_function && m->run.round_trips) {
		set(o, "napi_polls_per_rt",
		    json_real(m->run.napi_polls / (double)m->run.round_trips), bad);
		set(o, "napi_function", json_string(m->run.napi_function), bad);
	}
	return o;
}

static json_t *recon_json(const struct model *m, int *bad)
{
	const struct model_recon *r = &m->recon;
	json_t *o = json_object(), *ev = json_object(), *cpus = json_array();
	size_t i;

	for (i = 0; i < m->nevents; i++) {
		const struct model_event_recon *er = &r->events[i];
		json_t *e = json_object();

		set(e, "sampled", json_real(er->sampled), bad);
		set(e, "counted", json_real(er->counted), bad);
		set(e, "running_fraction", num_or_null(er->running), bad);
		set(e, "ratio", num_or_null(er->ratio), bad);
		set(ev, m->run.events[i].name ? m->run.events[i].name : "?",
		    e, bad);
	}
	set(o, "events", ev, bad);
	for (i = 0; cpus && i < r->ncpus; i++) {
		const struct model_cpu_recon *c = &r->cpus[i];
		json_t *e = json_object();

		set(e, "cpu", json_integer(c->cpu), bad);
		set(e, "sampled", json_real(c->sampled), bad);
		set(e, "sampled_busy", json_real(c->sampled_busy), bad);
		set(e, "kernel_ns", num_or_null(c->kernel), bad);
		set(e, "busy_ns", num_or_null(c->busy), bad);
		set(e, "idle_ns", num_or_null(c->idle), bad);
		set(e, "ratio", num_or_null(c->ratio), bad);
		set(e, "lost", u64(c->lost), bad);
		set(e, "throttled", u64(c->throttled), bad);
		set(e, "flagged", json_boolean(c->flagged), bad);
		if (!e || json_array_append_new(cpus, e))
			*bad = 1;
	}
	set(o, "cpus", cpus, bad);
	set(o, "round_trips_per_s", num_or_null(r->rt_per_s), bad);
	set(o, "busy_cpus", num_or_null(r->busy_cpus), bad);
	set(o, "capacity_cpus", json_real(r->capacity), bad);
	set(o, "lost", u64(r->lost), bad);
	set(o, "throttled", u64(r->throttled), bad);
	set(o, "flagged", json_boolean(r->flagged), bad);
	set(o, "gap_flag", json_real(MODEL_GAP_FLAG), bad);
	return o;
}

/* An array, not an object: the recorded order is kept. */
static json_t *conditions_json(const struct model *m, int *bad)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < m->nconditions; i++) {
		json_t *c = json_object();

		set(c, "key", str_or_null(m->conditions[i].key), bad);
		set(c, "value", str_or_null(m->conditions[i].value), bad);
		if (!c || json_array_append_new(a, c))
			*bad = 1;
	}
	if (!a)
		*bad = 1;
	return a;
}

json_t *report_unit_json(const struct run_unit *u)
{
	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:b}",
			 "name", u->name, "spec", u->spec,
			 "source", u->source ? json_string(u->source) : json_null(),
			 "outside", (json_int_t)u->outside,
			 "outside_ns", (json_int_t)u->outside_ns,
			 "outside_busy", u->outside_busy);
}

/* The run's warnings, as the first lines of the text report give them,
 * and (into root) the text's headline. */
static json_t *warnings_json(const struct model *m, json_t *root_of_headline,
			     int *bad)
{
	json_t *a = json_array();
	struct summary s;
	size_t i;

	memset(&s, 0, sizeof(s));
	summary_glance(&s, m);
	if (s.headline)
		set(root_of_headline, "headline", json_string(s.headline), bad);
	for (i = 0; a && i < s.nwarnings; i++)
		if (json_array_append_new(a, json_string(s.warnings[i])))
			*bad = 1;
	if (!a || s.oom)
		*bad = 1;
	summary_free(&s);
	return a;
}

/* Both sides, line by line: numbers where there are numbers. */
static json_t *sides_json(const struct model *m, int *bad)
{
	struct sides sd;
	json_t *a = json_array();
	size_t i;

	if (sides_build(&sd, m)) {
		*bad = 1;
		return a;
	}
	for (i = 0; a && i < sd.n; i++) {
		const struct side_line *l = &sd.lines[i];
		json_t *o = json_object();
		const char *label = l->label;

		while (*label == ' ')
			label++;
		set(o, "label", json_string(label), bad);
		if (l->vlocal == -2) {
			set(o, "local", json_string(l->local), bad);
			set(o, "remote", json_string(l->remote), bad);
		} else {
			set(o, "local", num_or_null(l->vlocal), bad);
			set(o, "remote", num_or_null(l->vremote), bad);
			set(o, "unit", str_or_null(l->unit), bad);
		}
		set(o, "bucket", json_boolean(l->bucket), bad);
		if (json_array_append_new(a, o))
			*bad = 1;
	}
	sides_free(&sd);
	return a;
}

static json_t *build(const struct model *m, int *bad)
{
	const struct run_facts *run = &m->run;
	json_t *root = json_object(), *o, *a;
	size_t i;

	set(root, "format", json_string(REPORT_FORMAT), bad);
	set(root, "version", json_integer(REPORT_VERSION), bad);
	set(root, "units", render_json_units(m->nevents ?
					     run->events[0].unit : NULL,
					     run->unit.name), bad);
	if (m->nevents)
		set(root, "primary_event", str_or_null(run->events[0].name), bad);
	set(root, "round_trips", u64(run->round_trips), bad);
	/* what every per_rt value is per: round trips, or the --per unit */
	set(root, "unit", report_unit_json(&run->unit), bad);
	set(root, "workload_command", str_or_null(run->workload_command), bad);
	/* per_rt values are all 0 without round trips: say so */
	set(root, "per_rt_valid", json_boolean(!m->no_round_trips), bad);
	set(root, "mode", json_string(run->exact ? PROFILE_EXACT_MODE :
				      model_software_clock(m) ?
				      "software-clock" : "hardware"), bad);
	set(root, "fallback_reason", str_or_null(run->fallback_reason), bad);
	set(root, "warnings", warnings_json(m, root, bad), bad);
	set(root, "events", events_json(run, bad), bad);
	set(root, "functions",
	    rows_json(m, m->functions, m->nfunctions, 1, bad), bad);
	set(root, "buckets", rows_json(m, m->buckets, m->nbuckets, 0, bad),
	    bad);
	set(root, "files", rows_json(m, m->views[MODEL_BY_FILE].rows,
				     m->views[MODEL_BY_FILE].n, 0, bad), bad);
	if (m->views[MODEL_BY_LINE].rows)
		set(root, "lines", rows_json(m, m->views[MODEL_BY_LINE].rows,
					     m->views[MODEL_BY_LINE].n, 0, bad), bad);
	set(root, "cpus", rows_json(m, m->views[MODEL_BY_CPU].rows,
				    m->views[MODEL_BY_CPU].n, 0, bad), bad);
	set(root, "roles", rows_json(m, m->views[MODEL_BY_ROLE].rows,
				     m->views[MODEL_BY_ROLE].n, 0, bad), bad);
	if (m->callers_of) {
		o = json_object();
		set(o, "function", json_string(m->callers_of), bad);
		set(o, "inclusive", row_json(m, &m->callee, 0, bad), bad);
		set(o, "rows", rows_json(m, m->callers.rows, m->callers.n, 0,
					 bad), bad);
		set(root, "callers", o, bad);
	}
	set(root, "decomposition", decomp_json(m, bad), bad);
	set(root, "reconciliation", recon_json(m, bad), bad);
	set(root, "conditions", conditions_json(m, bad), bad);
	set(root, "repeats", json_integer(m->nrepeats), bad);
	if (m->nrepeats > 1) {
		o = json_object();
		set(o, "mean", num_or_null(m->rep_latency_mean), bad);
		set(o, "sd", num_or_null(m->rep_latency_sd), bad);
		set(root, "repeat_latency_ns", o, bad);
	}

	o = json_object();
	set(o, "samples", per_event(m, m->total.samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, m->total.per_rt, bad), bad);
	set(o, "error", per_event(m, NULL, m->total.err, bad), bad);
	set(o, "spread", m->nrepeats > 1 ?
	    per_event(m, NULL, m->total.spread, bad) : json_null(), bad);
	set(o, "ipc", num_or_null(m->total.ipc), bad);
	set(root, "total", o, bad);

	o = json_object();
	set(o, "samples", per_event(m, m->busy.samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, m->busy.per_rt, bad), bad);
	set(o, "share", json_real(m->busy.share), bad);
	set(o, "error", per_event(m, NULL, m->busy.err, bad), bad);
	set(o, "excludes", json_string(MODEL_IDLE_BUCKET), bad);
	set(root, "busy", o, bad);

	/* the headline's figures: the workload's busy time, other tasks' */
	if (m->workload) {
		const struct model *w = model_workload(m);

		o = json_object();
		set(o, "samples", per_event(m, w->busy.samples, NULL, bad), bad);
		set(o, "per_rt", per_event(m, NULL, w->busy.per_rt, bad), bad);
		set(o, "error", per_event(m, NULL, w->busy.err, bad), bad);
		set(o, "buckets", workload_buckets(w, bad), bad);
		set(root, "workload_busy", o, bad);
		set(root, "other_tasks_per_rt", json_real(model_other_tasks(m)), bad);
	}
	/* whose rows the tables are: the workload's (report's default,
	 * the other tasks one row apart) or every task's (--all-tasks) */
	set(root, "rows_of", json_string(m->focused ? "workload" : "all tasks"), bad);
	set(root, "other_tasks", model_others_row(m) ?
	    row_json(m, model_others_row(m), 0, bad) : json_null(), bad);
	o = json_object();
	set(o, "samples", json_integer((json_int_t)m->pass_samples), bad);
	set(o, "charged", json_integer((json_int_t)m->pass_charged), bad);
	set(o, "maskable", str_or_null(m->pass_reason), bad);
	set(root, "irq_enable_points", o, bad);
	/* user-space samples of kernel-only sampling, in no row */
	o = json_object();
	set(o, "samples", per_event(m, m->skid_samples, NULL, bad), bad);
	set(root, "user_skid", o, bad);

	set(root, "latency_ns", render_json_latency(&run->latency), bad);
	/* the warm-up's round trips, counters off: the observer's cost */
	set(root, "latency_unsampled_ns", run->latency_unsampled.count ?
	    render_json_latency(&run->latency_unsampled) : json_null(), bad);
	{
		const char *basis;
		double ls, lu, c = run_facts_observer(run, &ls, &lu, &basis);

		/* the same basis as the report's observer line */
		set(root, "observer_cost", isnan(c) ? json_null() : json_real(c), bad);
		set(root, "observer_basis", isnan(c) ? json_null() :
		    json_string(basis), bad);
	}

	o = json_object();
	set(o, "release", str_or_null(run->kernel_release), bad);
	set(o, "version", str_or_null(run->kernel_version), bad);
	set(o, "build_id", str_or_null(run->build_id), bad);
	set(root, "kernel", o, bad);

	o = json_object();
	set(o, "model", str_or_null(run->cpu_model), bad);
	set(o, "online", json_integer(run->ncpus), bad);
	a = json_array();
	for (i = 0; a && i < run->ncpus_sampled; i++)
		if (json_array_append_new(a, json_integer(run->cpus[i])))
			*bad = 1;
	set(o, "sampled", a, bad);
	set(root, "cpu", o, bad);
	set(root, "created", str_or_null(run->created), bad);
	set(root, "command", str_or_null(run->command), bad);

	set(root, "workload", workload_json(run, bad), bad);

	o = json_object();
	set(o, "distinct", u64(m->naddrs), bad);
	set(o, "unknown", u64(m->nunknown), bad);
	set(root, "addresses", o, bad);
	/* record --peer: the responder's side, a report of its own */
	if (m->remote) {
		set(root, "remote", build(m->remote, bad), bad);
		set(root, "sides", sides_json(m, bad), bad);
	}
	return root;
}

int report_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	json_t *root;
	int bad = 0, ret;

	if (model_empty(m))
		return error("report of an empty model");
	root = build(m, &bad);
	if (bad || !root) {
		json_decref(root);
		return error("cannot build the JSON report: out of memory");
	}
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF || fflush(f) || ferror(f))
		return error("cannot write JSON report: %s", strerror(errno));
	return 0;
}
