// SPDX-License-Identifier: GPL-2.0-only
/* Reading the profile file: every field checked, the first problem
 * reported with the file's name, never a half-filled profile. */
#include "profile/profile.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "escape.h"
#include "profile/fields.h"
#include "profile/latency-stalls.h"
#include "profile/read-check.h"
#include "profile/read-fields.h"
#include "profile/stack-nodes.h"

static void read_latency(struct reader *r, json_t *o, struct latency_summary *l)
{
	if (!o)
		return;
	l->count = reader_u64(r, o, "count");
	l->min = reader_u64(r, o, "min");
	l->p50 = reader_u64(r, o, "p50");
	l->p90 = reader_u64(r, o, "p90");
	l->p99 = reader_u64(r, o, "p99");
	l->p999 = reader_u64(r, o, "p999");
	l->p9999 = reader_u64_opt(r, o, "p9999");	/* newer than the others */
	l->max = reader_u64(r, o, "max");
	l->mean = reader_num(r, o, "mean");
	l->stddev = reader_num(r, o, "stddev");
	/* newer than the others; the main histogram finds them too */
	if (json_object_get(o, "mean_without_stalls")) {
		l->stalls = reader_u64(r, o, "stalls");
		l->stall_cut = reader_u64(r, o, "stall_cut_ns");
		l->stall_ns = reader_num(r, o, "stall_ns");
		l->mean_kept = reader_num(r, o, "mean_without_stalls");
		l->sd_kept = json_object_get(o, "stddev_without_stalls") ?
			reader_num(r, o, "stddev_without_stalls") : l->stddev;
		l->stalls_known = l->stalls < l->count && l->mean_kept >= 0;
	}
}

static void read_system(struct reader *r, json_t *o, struct profile *p)
{
	if (!o)
		return;
	p->kernel_release = reader_str(r, o, "kernel_release", 0);
	p->kernel_version = reader_str(r, o, "kernel_version", 0);
	p->build_id = reader_str(r, o, "build_id", 0);
	p->machine = reader_str(r, o, "machine", 0);
	p->hostname = reader_str(r, o, "hostname", 0);
	p->cpu_model = reader_str(r, o, "cpu_model", 0);
	p->ncpus = (int)reader_u64(r, o, "ncpus");
	p->text_addr = reader_hex(r, o, "text_addr");
}

static void read_modules(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->modules = calloc(json_array_size(a) ? json_array_size(a) : 1,
			    sizeof(*p->modules));
	for (i = 0; p->modules && i < json_array_size(a) && !r->failed; i++) {
		struct profile_module *m = &p->modules[p->nmodules++];
		json_t *o = json_array_get(a, i), *secs, *v;
		const char *key;

		if (!json_is_object(o)) {
			reader_bad(r, "modules[] entries must be objects");
			return;
		}
		m->name = reader_str(r, o, "name", 1);
		secs = json_object_get(o, "sections");
		if (!json_is_object(secs)) {
			reader_bad(r, "modules[].sections must be an object");
			return;
		}
		m->sections = calloc(json_object_size(secs) ?
				     json_object_size(secs) : 1,
				     sizeof(*m->sections));
		if (!m->sections)
			return;
		json_object_foreach(secs, key, v) {
			struct profile_section *sc = &m->sections[m->nsections];
			json_t *wrap = json_pack("{s:O}", "addr", v);

			sc->addr = reader_hex(r, wrap, "addr");
			json_decref(wrap);
			if (!(sc->name = strdup(key)))
				return;
			escape_name(sc->name);
			m->nsections++;
		}
	}
}

static void read_tasks(struct reader *r, json_t *a, struct profile *p);
static void read_repeats(struct reader *r, json_t *a, struct profile *p);
static void read_histogram(struct reader *r, json_t *a, struct profile *p);

/* Absent in profiles made before --per: round trips. */
static void read_unit(struct reader *r, json_t *o, struct profile *p)
{
	struct profile_unit *u = &p->unit;
	json_t *b;

	if (!o)
		return;
	if (!json_is_object(o)) {
		reader_bad(r, "field 'unit' must be an object");
		return;
	}
	u->spec = reader_str(r, o, "spec", 1);
	u->name = reader_str(r, o, "name", 1);
	u->source = reader_str(r, o, "source", 0);
	u->outside = reader_u64_opt(r, o, "outside");
	u->outside_ns = reader_u64_opt(r, o, "outside_ns");
	b = json_object_get(o, "outside_busy");
	u->outside_busy = b && json_is_true(b);
	/* its vocabulary: profile_check() */
}

/* --flows: a [client, responder] pair of CPUs per flow (optional) */
static void read_flow_cpus(struct reader *r, json_t *a, struct profile *p)
{
	size_t i, n = a ? json_array_size(a) : 0;

	if (!n || r->failed)
		return;
	p->flow_cpus = calloc(n, sizeof(*p->flow_cpus));
	if (!p->flow_cpus) {
		reader_bad(r, "out of memory for field 'workload.flow_cpus'");
		return;
	}
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(a, i);
		json_t *c = json_array_get(e, 0), *s = json_array_get(e, 1);

		if (!json_is_array(e) || json_array_size(e) != 2 ||
		    !json_is_integer(c) || !json_is_integer(s) ||
		    json_integer_value(c) < -1 || json_integer_value(c) > INT_MAX ||
		    json_integer_value(s) < -1 || json_integer_value(s) > INT_MAX) {
			reader_bad(r, "field 'workload.flow_cpus' must hold pairs "
				   "of CPU numbers");
			return;
		}
		p->flow_cpus[i].client = (int)json_integer_value(c);
		p->flow_cpus[i].server = (int)json_integer_value(s);
	}
	p->nflow_cpus = n;
}

static void read_workload(struct reader *r, json_t *o, struct profile *p)
{
	json_t *res;

	if (!o)
		return;
	p->transport = reader_str(r, o, "transport", 1);
	p->network = reader_str(r, o, "network", 1);
	p->message_size = reader_u32(r, o, "message_size");
	p->client_cpu = reader_int(r, o, "client_cpu");
	p->server_cpu = reader_int(r, o, "server_cpu");
	/* version 1 gave the warm-up in seconds, 2 in ns like every time */
	if (p->version >= 2)
		p->warmup_s = (double)reader_u64(r, o, "warmup_ns") / 1e9;
	else
		p->warmup_s = reader_num(r, o, "warmup_s");
	p->round_trips = reader_u64(r, o, "round_trips");
	p->window_ns = reader_u64(r, o, "window_ns");
	p->asked_window_ns = reader_u64_opt(r, o, "asked_window_ns");
	p->asked_ns = reader_u64_opt(r, o, "asked_ns");
	p->wall_ns = reader_u64_opt(r, o, "wall_ns");
	read_latency(r, reader_obj(r, o, "latency_ns"), &p->latency);
	if (json_object_get(o, "latency_unsampled_ns"))
		read_latency(r, reader_obj(r, o, "latency_unsampled_ns"),
			     &p->latency_unsampled);
	read_unit(r, json_object_get(o, "unit"), p);
	p->workload_command = reader_str(r, o, "workload_command", 0);
	read_tasks(r, reader_array_opt(r, o, "tasks"), p);
	read_flow_cpus(r, reader_array_opt(r, o, "flow_cpus"), p);
	read_repeats(r, reader_array_opt(r, o, "repeats"), p);
	read_histogram(r, reader_array_opt(r, o, "latency_histogram"), p);
	res = json_object_get(o, "latency_histogram_resolution");
	if (res)
		p->hist_sub_buckets = (uint32_t)reader_u64(r, res,
							"sub_buckets_per_power_of_two");
	else if (p->nhistogram)
		p->hist_sub_buckets = 32;	/* what older profiles used */
	/* profiles from before the stalls were written, and hand-made ones */
	if (!p->latency.stalls_known && p->nhistogram)
		latency_set_apart_stalls_hist(&p->latency, p->histogram,
					      p->nhistogram);
}

static void read_events(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nevents = json_array_size(a);
	if (!p->nevents) {
		reader_bad(r, "no events");
		return;
	}
	p->events = calloc(p->nevents, sizeof(*p->events));
	for (i = 0; p->events && i < p->nevents && !r->failed; i++) {
		struct profile_event *e = &p->events[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "events[] entries must be objects");
			return;
		}
		e->name = reader_str(r, o, "name", 1);
		e->requested = reader_str(r, o, "requested", 1);
		e->pmu = reader_str(r, o, "pmu", 1);
		e->encoding = reader_str(r, o, "encoding", 0);
		e->unit = reader_str(r, o, "unit", 1);
		e->type = (uint32_t)reader_u64(r, o, "type");
		e->config = reader_hex(r, o, "config");
		e->period = reader_u64(r, o, "period");
		e->samples = reader_u64(r, o, "samples");
		e->lost = reader_u64(r, o, "lost");
		e->throttled = reader_u64(r, o, "throttled");
		e->count = reader_u64(r, o, "count");
		e->freq = reader_u64_opt(r, o, "freq");
		e->enabled_ns = reader_u64_opt(r, o, "enabled_ns");
		e->running_ns = reader_u64_opt(r, o, "running_ns");
		/* optional: absent in profiles before it was written */
		e->user = json_is_boolean(json_object_get(o, "user")) ?
			  json_is_true(json_object_get(o, "user")) : -1;
	}
}

static void read_samples(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nsamples = json_array_size(a);
	p->samples = calloc(p->nsamples ? p->nsamples : 1, sizeof(*p->samples));
	for (i = 0; p->samples && i < p->nsamples && !r->failed; i++) {
		struct profile_sample *s = &p->samples[i];
		json_t *o = json_array_get(a, i);
		json_t *role;

		if (!json_is_object(o)) {
			reader_bad(r, "samples[] entries must be objects");
			return;
		}
		s->event = reader_u32(r, o, "event");
		if (s->event >= p->nevents)
			reader_bad(r, "a sample refers to an event that is not listed");
		s->cpu = reader_u32(r, o, "cpu");
		s->ip = reader_hex(r, o, "ip");
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &s->role))
			reader_bad(r, "a sample has an unknown role");
		s->count = reader_u64(r, o, "count");
		s->weight = reader_u64(r, o, "weight");
		s->repeat = json_object_get(o, "repeat") ? reader_u32(r, o, "repeat") : 0;
		s->calls = json_object_get(o, "calls") ? reader_u64(r, o, "calls") : 0;
		if (s->calls > s->count)
			reader_bad(r, "a sample has more calls than executions");
		if (p->nrepeats && s->repeat >= p->nrepeats)
			reader_bad(r, "a sample refers to a repeat that is not listed");
	}
}

static void read_ksyms(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nksyms = json_array_size(a);
	p->ksyms = calloc(p->nksyms ? p->nksyms : 1, sizeof(*p->ksyms));
	for (i = 0; p->ksyms && i < p->nksyms && !r->failed; i++) {
		struct profile_ksym *k = &p->ksyms[i];
		json_t *o = json_array_get(a, i);
		char *type;

		if (!json_is_object(o)) {
			reader_bad(r, "kallsyms[] entries must be objects");
			return;
		}
		k->addr = reader_hex(r, o, "addr");
		k->size = reader_u64(r, o, "size");
		type = reader_str(r, o, "type", 1);
		k->type = type && type[0] ? type[0] : '?';
		free(type);
		k->name = reader_str(r, o, "name", 1);
		k->module = reader_str(r, o, "module", 0);
	}
}

static void read_tasks(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->ntasks = json_array_size(a);
	p->tasks = calloc(p->ntasks ? p->ntasks : 1, sizeof(*p->tasks));
	for (i = 0; p->tasks && i < p->ntasks && !r->failed; i++) {
		struct profile_task *t = &p->tasks[i];
		json_t *o = json_array_get(a, i), *role;

		if (!json_is_object(o)) {
			reader_bad(r, "tasks[] entries must be objects");
			return;
		}
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &t->role))
			reader_bad(r, "a task has an unknown role");
		profile_fields_read(r, o, profile_task_fields, t);
	}
}

static void read_histogram(struct reader *r, json_t *a, struct profile *p)
{
	size_t i, k;

	if (!a)
		return;
	if (!json_is_array(a)) {
		reader_bad(r, "'latency_histogram' must be an array");
		return;
	}
	p->nhistogram = json_array_size(a);
	p->histogram = calloc(p->nhistogram ? p->nhistogram : 1, sizeof(*p->histogram));
	for (i = 0; p->histogram && i < p->nhistogram && !r->failed; i++) {
		json_t *b = json_array_get(a, i);
		json_int_t v[3];

		for (k = 0; k < 3; k++) {
			json_t *x = json_array_get(b, k);

			if (!json_is_array(b) || json_array_size(b) != 3 ||
			    !json_is_integer(x) || json_integer_value(x) < 0) {
				reader_bad(r, "latency_histogram entries must be [lo, hi, count]");
				return;
			}
			v[k] = json_integer_value(x);
		}
		if (v[1] <= v[0] || (i && (uint64_t)v[0] < p->histogram[i - 1].hi)) {
			reader_bad(r, "latency_histogram buckets must be ordered and not overlap");
			return;
		}
		p->histogram[i].lo = (uint64_t)v[0];
		p->histogram[i].hi = (uint64_t)v[1];
		p->histogram[i].count = (uint64_t)v[2];
	}
}

static void read_repeats(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	if (!json_is_array(a)) {
		reader_bad(r, "'repeats' must be an array");
		return;
	}
	p->nrepeats = json_array_size(a);
	p->repeats = calloc(p->nrepeats ? p->nrepeats : 1, sizeof(*p->repeats));
	for (i = 0; p->repeats && i < p->nrepeats && !r->failed; i++) {
		struct profile_repeat *rp = &p->repeats[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "repeats[] entries must be objects");
			return;
		}
		rp->round_trips = reader_u64(r, o, "round_trips");
		rp->window_ns = reader_u64(r, o, "window_ns");
		read_latency(r, reader_obj(r, o, "latency_ns"), &rp->latency);
		if (json_object_get(o, "latency_before_ns"))
			read_latency(r, reader_obj(r, o, "latency_before_ns"),
				     &rp->before);
		rp->client_cpu_ns = reader_u64_opt(r, o, "client_cpu_ns");
		rp->responder_cpu_ns = reader_u64_opt(r, o, "responder_cpu_ns");
		rp->snapshot_ns = reader_u64_opt(r, o, "snapshot_ns");
		if (json_object_get(o, "host_syscall_ns"))
			rp->host_syscall_ns = reader_num(r, o, "host_syscall_ns");
		if (json_object_get(o, "host_loop_ns"))
			rp->host_loop_ns = reader_num(r, o, "host_loop_ns");
		/* older profiles lack both: complete, as they were shown */
		rp->fraction = 1;
		if (json_object_get(o, "complete")) {
			if (!json_is_boolean(json_object_get(o, "complete")))
				reader_bad(r, "field 'complete' must be true or false");
			rp->partial = json_is_false(json_object_get(o, "complete"));
		}
		if (json_object_get(o, "fraction")) {
			rp->fraction = reader_num(r, o, "fraction");
			if (!(rp->fraction >= 0 && rp->fraction <= 1))
				reader_bad(r, "field 'fraction' must be from 0 to 1");
		}
		/* counts are per event: read once the events are known */
	}
}

/* Second pass: per-repeat counts need the number of events. */
static void read_repeat_counts(struct reader *r, json_t *root, struct profile *p)
{
	json_t *a = json_object_get(json_object_get(root, "workload"), "repeats");
	size_t i, e;

	for (i = 0; i < p->nrepeats && !r->failed; i++) {
		json_t *c = json_object_get(json_array_get(a, i), "counts");

		if (!json_is_array(c) || json_array_size(c) != p->nevents) {
			reader_bad(r, "repeats[].counts must have one number per event");
			return;
		}
		p->repeats[i].counts = calloc(p->nevents ? p->nevents : 1, sizeof(uint64_t));
		if (!p->repeats[i].counts) {
			reader_bad(r, "out of memory");
			return;
		}
		for (e = 0; e < p->nevents; e++) {
			json_t *v = json_array_get(c, e);

			if (!json_is_integer(v) || json_integer_value(v) < 0) {
				reader_bad(r, "repeats[].counts must be non-negative integers");
				return;
			}
			p->repeats[i].counts[e] = (uint64_t)json_integer_value(v);
		}
	}
}

static void read_cpu_times(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->ncpu_times = json_array_size(a);
	p->cpu_times = calloc(p->ncpu_times ? p->ncpu_times : 1, sizeof(*p->cpu_times));
	for (i = 0; p->cpu_times && i < p->ncpu_times && !r->failed; i++) {
		struct profile_cpu *c = &p->cpu_times[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "cpu_times[] entries must be objects");
			return;
		}
		profile_fields_read(r, o, profile_cpu_fields, c);
	}
}

static void read_counts(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->ncounts = json_array_size(a);
	p->counts = calloc(p->ncounts ? p->ncounts : 1, sizeof(*p->counts));
	for (i = 0; p->counts && i < p->ncounts && !r->failed; i++) {
		struct profile_count *c = &p->counts[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "counts[] entries must be objects");
			return;
		}
		profile_fields_read(r, o, profile_count_fields, c);
	}
}

static void read_irqs(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nirqs = json_array_size(a);
	p->irqs = calloc(p->nirqs ? p->nirqs : 1, sizeof(*p->irqs));
	for (i = 0; p->irqs && i < p->nirqs && !r->failed; i++) {
		struct profile_irq *q = &p->irqs[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "irqs[] entries must be objects");
			return;
		}
		q->kind = reader_str(r, o, "kind", 1);
		if (q->kind && strcmp(q->kind, "irq") && strcmp(q->kind, "softirq") &&
		    strcmp(q->kind, PROFILE_IRQ_NAPI)) {
			reader_bad(r, "irqs[] kind must be irq, softirq or napi");
			return;
		}
		q->name = reader_str(r, o, "name", 1);
		q->desc = reader_str(r, o, "desc", 0);
		q->cpu = reader_int(r, o, "cpu");
		q->count = reader_u64(r, o, "count");
	}
}

static void read_missing(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nmissing = json_array_size(a);
	p->missing = calloc(p->nmissing ? p->nmissing : 1, sizeof(*p->missing));
	for (i = 0; p->missing && i < p->nmissing && !r->failed; i++) {
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			reader_bad(r, "missing_events[] entries must be objects");
			return;
		}
		p->missing[i].name = reader_str(r, o, "name", 1);
		p->missing[i].reason = reader_str(r, o, "reason", 1);
	}
}

static void read_conditions(struct reader *r, json_t *o, struct profile *p)
{
	const char *key;
	json_t *v;

	if (!o)
		return;
	if (!json_is_object(o)) {
		reader_bad(r, "'conditions' must be an object of strings");
		return;
	}
	json_object_foreach(o, key, v) {
		if (!json_is_string(v)) {
			reader_bad(r, "'conditions' must be an object of strings");
			return;
		}
		if (profile_add_condition(p, key, json_string_value(v))) {
			reader_bad(r, "out of memory");
			return;
		}
		/* cleaned as reader_str() cleans every string */
		escape_name(p->conditions[p->nconditions - 1].key);
		escape_name(p->conditions[p->nconditions - 1].value);
	}
}

static void read_counters(struct reader *r, json_t *o, struct profile *p)
{
	json_t *cpus, *clock;
	size_t i;

	if (!o)
		return;
	p->mode = reader_str(r, o, "mode", 1);
	if (p->mode && strcmp(p->mode, "hardware") && strcmp(p->mode, "software-clock") &&
	    strcmp(p->mode, "exact"))
		reader_bad(r, "mode must be \"hardware\", \"software-clock\" or \"exact\"");
	p->fallback_reason = reader_str(r, o, "fallback_reason", 0);
	clock = json_object_get(o, "clock");
	if (json_is_object(clock)) {  /* optional: older profiles lack it */
		p->clock_mhz = reader_num(r, clock, "mhz");
		p->clock_source = reader_str(r, clock, "source", 0);
	}
	cpus = reader_array(r, o, "cpus");
	if (cpus) {
		p->ncpus_sampled = json_array_size(cpus);
		p->cpus = calloc(p->ncpus_sampled ? p->ncpus_sampled : 1, sizeof(int));
		for (i = 0; p->cpus && i < p->ncpus_sampled; i++) {
			json_t *c = json_array_get(cpus, i);

			if (!json_is_integer(c) || json_integer_value(c) < 0 ||
			    json_integer_value(c) > 1 << 30) {
				reader_bad(r, "counters.cpus[] must be CPU numbers");
				break;
			}
			p->cpus[i] = (int)json_integer_value(c);
		}
	}
	read_events(r, reader_array(r, o, "events"), p);
	read_cpu_times(r, reader_array_opt(r, o, "cpu_times"), p);
	read_counts(r, reader_array_opt(r, o, "counts"), p);
	read_irqs(r, reader_array_opt(r, o, "irqs"), p);
	read_missing(r, reader_array_opt(r, o, "missing_events"), p);
}

/* Version 2 says its units once: times in ns, ratios as fractions. */
static void check_units(struct reader *r, json_t *root, const char *side)
{
	static const struct { const char *key, *unit; } known[] = {
		{ "time", "ns" }, { "ratio", "fraction" },
	};
	json_t *u = json_object_get(root, "units"), *v;
	const char *key;
	size_t i;

	if (!json_is_object(u)) {
		reader_inconsistent(r, "%sunits is %s: a version 2 profile states "
				    "{\"time\": \"ns\", \"ratio\": \"fraction\"}",
				    side, !u ? "missing" : json_is_array(u) ? "an array" :
				    json_is_string(u) ? "a string" : "not an object");
		return;
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		v = json_object_get(u, known[i].key);
		if (!json_is_string(v) || strcmp(json_string_value(v), known[i].unit)) {
			reader_inconsistent(r, "%sunits.%s is %s%s%s, but this perpkt "
					    "reads %s in %s", side, known[i].key,
					    json_is_string(v) ? "'" : "",
					    json_is_string(v) ? json_string_value(v) :
					    v ? "not a string" : "missing",
					    json_is_string(v) ? "'" : "", known[i].key,
					    known[i].unit);
			return;
		}
	}
	json_object_foreach(u, key, v) {
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(key, known[i].key))
				break;
		if (i == sizeof(known) / sizeof(known[0])) {
			reader_inconsistent(r, "%sunits.%s is not a unit this perpkt "
					    "knows", side, key);
			return;
		}
	}
}

/* One profile document; a remote side inside it is read the same way
 * (depth 1: a remote side has none of its own). */
static void read_document(struct reader *r, json_t *root, struct profile *p,
			  int depth)
{
	json_t *v = json_object_get(root, "format");
	uint64_t version;
	char msg[300];

	if (!json_is_object(root) || !json_is_string(v) ||
	    strcmp(json_string_value(v), PROFILE_FORMAT)) {
		reader_bad(r, depth ? "remote: not a perpkt profile" :
		    "not a perpkt profile (no \"format\": \"" PROFILE_FORMAT "\")");
		return;
	}
	version = reader_u64(r, root, "version");
	if (!r->failed && (version > PROFILE_VERSION || version < 1)) {
		/* compared before any cast: 2^32 + 1 must not read as 1 */
		snprintf(msg, sizeof(msg), version ?
			 "format version %llu is newer than this perpkt reads (%d): "
			 "upgrade perpkt" : "format version %llu is not one (%d) "
			 "this perpkt reads", (unsigned long long)version,
			 PROFILE_VERSION);
		reader_bad(r, msg);
		return;
	}
	p->version = (int)version;
	if (version >= 2)
		check_units(r, root, depth ? "remote." : "");
	p->tool_version = reader_str(r, root, "tool", 0);
	p->created = reader_str(r, root, "created", 0);
	p->command = reader_str(r, root, "command", 0);
	read_system(r, reader_obj(r, root, "system"), p);
	read_workload(r, reader_obj(r, root, "workload"), p);
	read_counters(r, reader_obj(r, root, "counters"), p);
	read_repeat_counts(r, root, p);
	read_conditions(r, json_object_get(root, "conditions"), p);
	read_samples(r, reader_array(r, root, "samples"), p);
	stack_nodes_read(r, reader_array_opt(r, root, "stacks"),
			 json_object_get(root, "stack_nodes"), p->version, p);
	read_ksyms(r, reader_array(r, root, "kallsyms"), p);
	read_modules(r, reader_array_opt(r, root, "modules"), p);
	p->kernel_functions = reader_str(r, root, "kernel_functions", 0);
	p->remote_missing = reader_str(r, root, "remote_missing", 0);
	if (!r->failed)
		profile_check(r, p, depth ? "remote." : "");
	v = json_object_get(root, "remote");
	if (v && !json_is_null(v) && !r->failed) {
		if (depth)
			reader_bad(r, "remote: a remote side holds no remote side");
		else if (!(p->remote = calloc(1, sizeof(*p->remote))))
			reader_bad(r, "out of memory");
		else
			read_document(r, v, p->remote, 1);
	}
}

static int read_root(struct reader *r, json_t *root, json_error_t *jerr,
		     struct profile *p, int force)
{
	char msg[300];

	if (!root) {
		if (jerr->line < 1)
			snprintf(msg, sizeof(msg), "%s", jerr->text);
		else
			snprintf(msg, sizeof(msg), "line %d: %s", jerr->line, jerr->text);
		return reader_bad(r, msg);
	}
	read_document(r, root, p, 0);
	json_decref(root);
	if (!r->failed && r->problem[0] && !force) {
		error("profile '%s' is inconsistent: %s; read it anyway with "
		      "--force", r->path, r->problem);
		r->failed = 1;
	}
	if (r->failed) {
		profile_free(p);
		return -1;
	}
	if (r->problem[0]) {
		warning("profile '%s' is inconsistent: %s; read anyway (--force): "
			"figures that depend on it may be wrong", r->path, r->problem);
		if (profile_add_condition(p, PROFILE_COND_FORCED, r->problem)) {
			profile_free(p);
			return error("out of memory");
		}
	}
	return 0;
}

int profile_read(struct profile *p, const char *path)
{
	return profile_read_force(p, path, 0);
}

int profile_read_force(struct profile *p, const char *path, int force)
{
	struct reader r = { path, 0, "" };
	json_error_t jerr;
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return reader_bad(&r, "it is a directory; give a profile file");
	/* "-i -": a profile piped from "record -o -" */
	return read_root(&r, strcmp(path, "-") ?
			 json_load_file(path, JSON_REJECT_DUPLICATES, &jerr) :
			 json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr), &jerr, p,
			 force);
}

int profile_read_json(struct profile *p, const char *text, size_t len,
		      const char *what)
{
	struct reader r = { what, 0, "" };
	json_error_t jerr;

	memset(p, 0, sizeof(*p));
	return read_root(&r, json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr),
			 &jerr, p, 0);
}
