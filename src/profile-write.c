// SPDX-License-Identifier: GPL-2.0-only
/* Writing the profile file: JSON through jansson, atomically. */
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile-output.h"

/* Kernel addresses exceed 2^53, so they travel as hex strings. */
static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *latency_to_json(const struct latency_summary *l)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
			 "count", (json_int_t)l->count, "min", (json_int_t)l->min,
			 "p50", (json_int_t)l->p50, "p90", (json_int_t)l->p90,
			 "p99", (json_int_t)l->p99, "p999", (json_int_t)l->p999,
			 "p9999", (json_int_t)l->p9999,
			 "max", (json_int_t)l->max, "mean", l->mean,
			 "stddev", l->stddev);
}

static json_t *events_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nevents; i++) {
		const struct profile_event *e = &p->events[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:o, s:s, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"name", e->name, "requested", e->requested,
			"pmu", e->pmu, "encoding", str_or_null(e->encoding),
			"unit", e->unit,
			"type", (json_int_t)e->type, "config", hex(e->config),
			"period", (json_int_t)e->period,
			"samples", (json_int_t)e->samples,
			"lost", (json_int_t)e->lost,
			"throttled", (json_int_t)e->throttled,
			"count", (json_int_t)e->count,
			"freq", (json_int_t)e->freq,
			"enabled_ns", (json_int_t)e->enabled_ns,
			"running_ns", (json_int_t)e->running_ns));
	}
	return a;
}

static json_t *samples_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nsamples; i++) {
		const struct profile_sample *s = &p->samples[i];
		json_t *o = json_pack(
			"{s:I, s:I, s:o, s:s, s:I, s:I}",
			"event", (json_int_t)s->event, "cpu", (json_int_t)s->cpu,
			"ip", hex(s->ip), "role", role_name(s->role),
			"count", (json_int_t)s->count,
			"weight", (json_int_t)s->weight);

		/* only repeated runs carry it: single runs stay compact */
		if (s->repeat)
			json_object_set_new(o, "repeat", json_integer(s->repeat));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *ksyms_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nksyms; i++) {
		const struct profile_ksym *k = &p->ksyms[i];
		char type[2] = { k->type, 0 };

		json_array_append_new(a, json_pack(
			"{s:o, s:I, s:s, s:s, s:o}",
			"addr", hex(k->addr), "size", (json_int_t)k->size,
			"type", type, "name", k->name,
			"module", str_or_null(k->module)));
	}
	return a;
}

static json_t *histogram_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nhistogram; i++)
		json_array_append_new(a, json_pack("[I, I, I]",
			(json_int_t)p->histogram[i].lo, (json_int_t)p->histogram[i].hi,
			(json_int_t)p->histogram[i].count));
	return a;
}

/* Stated in every profile, so a reader never guesses what values are per. */
static json_t *unit_to_json(const struct profile *p)
{
	const struct profile_unit *u = &p->unit;

	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:b}",
			 "spec", u->spec ? u->spec : "rt",
			 "name", profile_unit_name(p),
			 "source", str_or_null(u->source),
			 "outside", (json_int_t)u->outside,
			 "outside_ns", (json_int_t)u->outside_ns,
			 "outside_busy", u->outside_busy);
}

static json_t *repeats_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i, e;

	for (i = 0; i < p->nrepeats; i++) {
		const struct profile_repeat *r = &p->repeats[i];
		json_t *counts = json_array();

		for (e = 0; e < p->nevents; e++)
			json_array_append_new(counts, json_integer(
				r->counts ? (json_int_t)r->counts[e] : 0));
		json_array_append_new(a, json_pack(
			"{s:I, s:I, s:o, s:o, s:I, s:I}",
			"round_trips", (json_int_t)r->round_trips,
			"window_ns", (json_int_t)r->window_ns,
			"latency_ns", latency_to_json(&r->latency),
			"counts", counts,
			"client_cpu_ns", (json_int_t)r->client_cpu_ns,
			"responder_cpu_ns", (json_int_t)r->responder_cpu_ns));
	}
	return a;
}

static json_t *stacks_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i, d;

	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];
		json_t *ips = json_array();

		for (d = 0; d < st->depth; d++)
			json_array_append_new(ips, hex(st->ips[d]));
		json_array_append_new(a, json_pack(
			"{s:I, s:s, s:I, s:I, s:o}",
			"event", (json_int_t)st->event, "role", role_name(st->role),
			"count", (json_int_t)st->count,
			"weight", (json_int_t)st->weight, "ips", ips));
	}
	return a;
}

static json_t *tasks_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ntasks; i++) {
		const struct profile_task *t = &p->tasks[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:i, s:i, s:I, s:I, s:I, s:I, s:I}",
			"role", role_name(t->role), "pid", t->pid, "cpu", t->cpu,
			"cpu_ns", (json_int_t)t->cpu_ns,
			"wait_ns", (json_int_t)t->wait_ns,
			"user_ns", (json_int_t)t->user_ns,
			"system_ns", (json_int_t)t->system_ns,
			"switches", (json_int_t)t->switches));
	}
	return a;
}

static json_t *cpu_times_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ncpu_times; i++) {
		const struct profile_cpu *c = &p->cpu_times[i];

		json_array_append_new(a, json_pack(
			"{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"cpu", c->cpu, "user_ns", (json_int_t)c->user_ns,
			"system_ns", (json_int_t)c->system_ns,
			"irq_ns", (json_int_t)c->irq_ns,
			"softirq_ns", (json_int_t)c->softirq_ns,
			"idle_ns", (json_int_t)c->idle_ns,
			"other_ns", (json_int_t)c->other_ns,
			"lost", (json_int_t)c->lost,
			"throttled", (json_int_t)c->throttled));
	}
	return a;
}

static json_t *conditions_to_json(const struct profile *p)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < p->nconditions; i++)
		json_object_set_new(o, p->conditions[i].key,
				    json_string(p->conditions[i].value));
	return o;
}

static json_t *counts_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ncounts; i++) {
		const struct profile_count *c = &p->counts[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:i, s:I, s:I, s:I, s:I}",
			"name", c->name, "cpu", c->cpu,
			"value", (json_int_t)c->value, "raw", (json_int_t)c->raw,
			"enabled_ns", (json_int_t)c->enabled_ns,
			"running_ns", (json_int_t)c->running_ns));
	}
	return a;
}

static json_t *irqs_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nirqs; i++) {
		const struct profile_irq *q = &p->irqs[i];

		json_array_append_new(a, json_pack(
			"{s:s, s:s, s:o, s:i, s:I}",
			"kind", q->kind, "name", q->name, "desc", str_or_null(q->desc),
			"cpu", q->cpu, "count", (json_int_t)q->count));
	}
	return a;
}

static json_t *missing_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->nmissing; i++)
		json_array_append_new(a, json_pack("{s:s, s:s}",
			"name", p->missing[i].name, "reason", p->missing[i].reason));
	return a;
}

static json_t *cpus_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ncpus_sampled; i++)
		json_array_append_new(a, json_integer(p->cpus[i]));
	return a;
}

/* The histogram's resolution, so a reader knows which shift it can see. */
static void add_histogram_resolution(json_t *root, const struct profile *p)
{
	json_t *w = json_object_get(root, "workload");

	if (!w || !p->hist_sub_buckets)
		return;
	json_object_set_new(w, "latency_histogram_resolution", json_pack(
		"{s:I, s:I, s:f}",
		"sub_buckets_per_power_of_two", (json_int_t)p->hist_sub_buckets,
		"exact_below_ns", (json_int_t)p->hist_sub_buckets,
		"max_relative_bucket_width", 1.0 / p->hist_sub_buckets));
}

/* The clock a cycle period was derived from; null when none was. */
static json_t *clock_to_json(const struct profile *p)
{
	if (p->clock_mhz <= 0)
		return json_null();
	return json_pack("{s:f, s:o}", "mhz", p->clock_mhz,
			 "source", str_or_null(p->clock_source));
}

static json_t *profile_to_json(const struct profile *p)
{
	json_t *root = json_pack(
		"{s:s, s:i, s:o, s:o, s:o,"
		" s:{s:o, s:o, s:o, s:o, s:o, s:i, s:o},"
		" s:{s:o, s:o, s:I, s:i, s:i, s:f, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
		" s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
		" s:o, s:o, s:o, s:o}",
		"format", PROFILE_FORMAT, "version", PROFILE_VERSION,
		"tool", str_or_null(p->tool_version),
		"created", str_or_null(p->created),
		"command", str_or_null(p->command),
		"system",
		"kernel_release", str_or_null(p->kernel_release),
		"kernel_version", str_or_null(p->kernel_version),
		"build_id", str_or_null(p->build_id),
		"hostname", str_or_null(p->hostname),
		"cpu_model", str_or_null(p->cpu_model),
		"ncpus", p->ncpus,
		"text_addr", hex(p->text_addr),
		"workload",
		"transport", str_or_null(p->transport),
		"network", str_or_null(p->network),
		"message_size", (json_int_t)p->message_size,
		"client_cpu", p->client_cpu, "server_cpu", p->server_cpu,
		"warmup_s", p->warmup_s,
		"round_trips", (json_int_t)p->round_trips,
		"window_ns", (json_int_t)p->window_ns,
		"latency_ns", latency_to_json(&p->latency),
		"latency_unsampled_ns", latency_to_json(&p->latency_unsampled),
		"latency_histogram", histogram_to_json(p),
		"unit", unit_to_json(p),
		"workload_command", str_or_null(p->workload_command),
		"tasks", tasks_to_json(p),
		"repeats", repeats_to_json(p),
		"counters",
		"mode", str_or_null(p->mode),
		"fallback_reason", str_or_null(p->fallback_reason),
		"clock", clock_to_json(p),
		"cpus", cpus_to_json(p),
		"events", events_to_json(p),
		"cpu_times", cpu_times_to_json(p),
		"counts", counts_to_json(p),
		"irqs", irqs_to_json(p),
		"missing_events", missing_to_json(p),
		"conditions", conditions_to_json(p),
		"samples", samples_to_json(p),
		"stacks", stacks_to_json(p),
		"kallsyms", ksyms_to_json(p));

	if (root)
		add_histogram_resolution(root, p);
	return root;
}

char *profile_to_text(const struct profile *p)
{
	json_t *root = profile_to_json(p);
	char *text;

	if (!root)
		return NULL;
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return text;
}

int profile_write(const struct profile *p, const char *path)
{
	struct profile_output out;

	if (profile_output_open(&out, path))
		return -1;
	return profile_output_commit(&out, p);
}
