// SPDX-License-Identifier: GPL-2.0-only
#include "model.h"

#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "error.h"

/*
 * The report as one JSON object, built whole in memory and then dumped:
 * a failure half-way must not leave half a document on stdout.
 * Allocation failures inside jansson are caught by checking every
 * object we set, via the helpers below.
 */

#define REPORT_FORMAT "perpkt-report"
#define REPORT_VERSION 1

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

/* {event name: value} for samples or per_rt. */
static json_t *per_event(const struct model *m, const uint64_t *counts,
			 const double *values, int *bad)
{
	json_t *o = json_object();
	size_t e;

	for (e = 0; e < m->nevents; e++) {
		const char *name = m->profile->events[e].name;

		if (!name)
			name = "?";
		set(o, name, counts ? u64(counts[e]) : json_real(values[e]),
		    bad);
	}
	if (!o)
		*bad = 1;
	return o;
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
	}
	set(o, "samples", per_event(m, r->samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, r->per_rt, bad), bad);
	set(o, "share", json_real(r->share), bad);
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

static json_t *events_json(const struct profile *p, int *bad)
{
	json_t *a = json_array();
	size_t e;

	if (!a)
		*bad = 1;
	for (e = 0; a && e < p->nevents; e++) {
		const struct profile_event *ev = &p->events[e];
		json_t *o = json_object();

		set(o, "name", str_or_null(ev->name), bad);
		set(o, "period", u64(ev->period), bad);
		set(o, "unit", str_or_null(ev->unit), bad);
		set(o, "samples", u64(ev->samples), bad);
		set(o, "lost", u64(ev->lost), bad);
		set(o, "throttled", u64(ev->throttled), bad);
		set(o, "count", u64(ev->count), bad);
		if (!o || json_array_append_new(a, o))
			*bad = 1;
	}
	return a;
}

static json_t *latency_json(const struct latency_summary *l, int *bad)
{
	json_t *o = json_object();

	set(o, "count", u64(l->count), bad);
	set(o, "min", u64(l->min), bad);
	set(o, "p50", u64(l->p50), bad);
	set(o, "p90", u64(l->p90), bad);
	set(o, "p99", u64(l->p99), bad);
	set(o, "p999", u64(l->p999), bad);
	set(o, "max", u64(l->max), bad);
	set(o, "mean", json_real(l->mean), bad);
	set(o, "stddev", json_real(l->stddev), bad);
	return o;
}

static json_t *workload_json(const struct profile *p, int *bad)
{
	json_t *o = json_object();
	double window_s = p->window_ns / 1e9;

	set(o, "transport", str_or_null(p->transport), bad);
	set(o, "network", str_or_null(p->network), bad);
	set(o, "message_size", u64(p->message_size), bad);
	set(o, "client_cpu", json_integer(p->client_cpu), bad);
	set(o, "server_cpu", json_integer(p->server_cpu), bad);
	set(o, "window_s", json_real(window_s), bad);
	/* null, not inf, when the window length is unknown */
	set(o, "round_trips_per_s", p->window_ns ?
	    json_real(p->round_trips / window_s) : json_null(), bad);
	return o;
}

static json_t *build(const struct model *m, int *bad)
{
	const struct profile *p = m->profile;
	json_t *root = json_object(), *o;

	set(root, "format", json_string(REPORT_FORMAT), bad);
	set(root, "version", json_integer(REPORT_VERSION), bad);
	set(root, "round_trips", u64(p->round_trips), bad);
	/* per_rt values are all 0 without round trips: say so */
	set(root, "per_rt_valid", json_boolean(!m->no_round_trips), bad);
	set(root, "mode", json_string(model_software_clock(m) ?
				      "software-clock" : "hardware"), bad);
	set(root, "fallback_reason", str_or_null(p->fallback_reason), bad);
	set(root, "events", events_json(p, bad), bad);
	set(root, "functions",
	    rows_json(m, m->functions, m->nfunctions, 1, bad), bad);
	set(root, "buckets", rows_json(m, m->buckets, m->nbuckets, 0, bad),
	    bad);

	o = json_object();
	set(o, "samples", per_event(m, m->total.samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, m->total.per_rt, bad), bad);
	set(root, "total", o, bad);

	o = json_object();
	set(o, "samples", per_event(m, m->busy.samples, NULL, bad), bad);
	set(o, "per_rt", per_event(m, NULL, m->busy.per_rt, bad), bad);
	set(o, "share", json_real(m->busy.share), bad);
	set(o, "excludes", json_string(MODEL_IDLE_BUCKET), bad);
	set(root, "busy", o, bad);

	set(root, "latency_ns", latency_json(&p->latency, bad), bad);

	o = json_object();
	set(o, "release", str_or_null(p->kernel_release), bad);
	set(o, "build_id", str_or_null(p->build_id), bad);
	set(root, "kernel", o, bad);

	set(root, "workload", workload_json(p, bad), bad);

	o = json_object();
	set(o, "distinct", u64(m->naddrs), bad);
	set(o, "unknown", u64(m->nunknown), bad);
	set(root, "addresses", o, bad);
	return root;
}

int report_json(FILE *f, const struct model *m)
{
	json_t *root;
	int bad = 0, ret;

	if (!m->profile)
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
