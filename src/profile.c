// SPDX-License-Identifier: GPL-2.0-only
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

static const char *const role_names[ROLE_MAX] = {
	[ROLE_CLIENT] = "client",
	[ROLE_RESPONDER] = "responder",
	[ROLE_SELF] = "perpkt",
	[ROLE_IDLE] = "idle",
	[ROLE_OTHER] = "other",
};

const char *role_name(enum role r)
{
	return r < ROLE_MAX ? role_names[r] : "other";
}

int role_parse(const char *s, enum role *out)
{
	int i;

	for (i = 0; i < ROLE_MAX; i++) {
		if (!strcmp(s, role_names[i])) {
			*out = (enum role)i;
			return 0;
		}
	}
	return -1;
}

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
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
			 "count", (json_int_t)l->count, "min", (json_int_t)l->min,
			 "p50", (json_int_t)l->p50, "p90", (json_int_t)l->p90,
			 "p99", (json_int_t)l->p99, "p999", (json_int_t)l->p999,
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

static json_t *profile_to_json(const struct profile *p)
{
	return json_pack(
		"{s:s, s:i, s:o, s:o, s:o,"
		" s:{s:o, s:o, s:o, s:o, s:o, s:i, s:o},"
		" s:{s:o, s:o, s:I, s:i, s:i, s:f, s:I, s:I, s:o, s:o, s:o, s:o, s:o},"
		" s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
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
		"tasks", tasks_to_json(p),
		"repeats", repeats_to_json(p),
		"counters",
		"mode", str_or_null(p->mode),
		"fallback_reason", str_or_null(p->fallback_reason),
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
}

int profile_write(const struct profile *p, const char *path)
{
	json_t *root = profile_to_json(p);
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, ret = -1;

	if (!root)
		return error("cannot encode profile (internal error)");
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		tmp = NULL;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) ||
	    fputc('\n', f) == EOF || fflush(f) || ferror(f) || fsync(fileno(f))) {
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		error("cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, path)) {
		error("cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (f)
		fclose(f);
	if (ret && tmp)
		unlink(tmp);
	free(tmp);
	json_decref(root);
	return ret;
}

/* Reading: every field is checked; the first problem is reported. */
struct reader {
	const char *path;
	int failed;
};

static int bad(struct reader *r, const char *what)
{
	if (!r->failed)
		error("cannot read profile '%s': %s", r->path, what);
	r->failed = 1;
	return -1;
}

static char *get_str(struct reader *r, json_t *obj, const char *key, int required)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_string(v))
		return strdup(json_string_value(v));
	if ((!v || json_is_null(v)) && !required)
		return NULL;
	snprintf(msg, sizeof(msg), "field '%s' must be a string", key);
	bad(r, msg);
	return NULL;
}

static uint64_t get_u64(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_integer(v) && json_integer_value(v) >= 0)
		return (uint64_t)json_integer_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be a non-negative integer", key);
	bad(r, msg);
	return 0;
}

static double get_num(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_number(v))
		return json_number_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be a number", key);
	bad(r, msg);
	return 0;
}

static uint64_t get_hex(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	char *end;
	uint64_t x;
	char msg[160];

	if (v && json_is_string(v)) {
		s = json_string_value(v);
		errno = 0;
		x = strtoull(s, &end, 16);
		if (!strncmp(s, "0x", 2) && end != s + 2 && !*end && !errno)
			return x;
	}
	snprintf(msg, sizeof(msg), "field '%s' must be a hex string like \"0x1f\"", key);
	bad(r, msg);
	return 0;
}

/* Fields added within version 1 read as 0 when absent. */
static uint64_t get_u64_opt(struct reader *r, json_t *obj, const char *key)
{
	return json_object_get(obj, key) ? get_u64(r, obj, key) : 0;
}

static int get_int(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_integer(v) && json_integer_value(v) >= -1 &&
	    json_integer_value(v) <= 1 << 30)
		return (int)json_integer_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be an integer", key);
	bad(r, msg);
	return 0;
}

static json_t *get_obj(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_object(v))
		return v;
	snprintf(msg, sizeof(msg), "missing object '%s'", key);
	bad(r, msg);
	return NULL;
}

static json_t *get_array(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_array(v))
		return v;
	snprintf(msg, sizeof(msg), "missing array '%s'", key);
	bad(r, msg);
	return NULL;
}

static void read_latency(struct reader *r, json_t *o, struct latency_summary *l)
{
	if (!o)
		return;
	l->count = get_u64(r, o, "count");
	l->min = get_u64(r, o, "min");
	l->p50 = get_u64(r, o, "p50");
	l->p90 = get_u64(r, o, "p90");
	l->p99 = get_u64(r, o, "p99");
	l->p999 = get_u64(r, o, "p999");
	l->max = get_u64(r, o, "max");
	l->mean = get_num(r, o, "mean");
	l->stddev = get_num(r, o, "stddev");
}

static void read_system(struct reader *r, json_t *o, struct profile *p)
{
	if (!o)
		return;
	p->kernel_release = get_str(r, o, "kernel_release", 0);
	p->kernel_version = get_str(r, o, "kernel_version", 0);
	p->build_id = get_str(r, o, "build_id", 0);
	p->hostname = get_str(r, o, "hostname", 0);
	p->cpu_model = get_str(r, o, "cpu_model", 0);
	p->ncpus = (int)get_u64(r, o, "ncpus");
	p->text_addr = get_hex(r, o, "text_addr");
}

static void read_tasks(struct reader *r, json_t *a, struct profile *p);
static void read_repeats(struct reader *r, json_t *a, struct profile *p);
static void read_histogram(struct reader *r, json_t *a, struct profile *p);

static void read_workload(struct reader *r, json_t *o, struct profile *p)
{
	if (!o)
		return;
	p->transport = get_str(r, o, "transport", 1);
	p->network = get_str(r, o, "network", 1);
	p->message_size = (uint32_t)get_u64(r, o, "message_size");
	p->client_cpu = (int)get_u64(r, o, "client_cpu");
	p->server_cpu = (int)get_u64(r, o, "server_cpu");
	p->warmup_s = get_num(r, o, "warmup_s");
	p->round_trips = get_u64(r, o, "round_trips");
	p->window_ns = get_u64(r, o, "window_ns");
	read_latency(r, get_obj(r, o, "latency_ns"), &p->latency);
	if (json_object_get(o, "latency_unsampled_ns"))
		read_latency(r, get_obj(r, o, "latency_unsampled_ns"),
			     &p->latency_unsampled);
	read_tasks(r, json_object_get(o, "tasks"), p);
	read_repeats(r, json_object_get(o, "repeats"), p);
	read_histogram(r, json_object_get(o, "latency_histogram"), p);
}

static void read_events(struct reader *r, json_t *a, struct profile *p)
{
	size_t i;

	if (!a)
		return;
	p->nevents = json_array_size(a);
	if (!p->nevents) {
		bad(r, "no events");
		return;
	}
	p->events = calloc(p->nevents, sizeof(*p->events));
	for (i = 0; p->events && i < p->nevents && !r->failed; i++) {
		struct profile_event *e = &p->events[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			bad(r, "events[] entries must be objects");
			return;
		}
		e->name = get_str(r, o, "name", 1);
		e->requested = get_str(r, o, "requested", 1);
		e->pmu = get_str(r, o, "pmu", 1);
		e->encoding = get_str(r, o, "encoding", 0);
		e->unit = get_str(r, o, "unit", 1);
		e->type = (uint32_t)get_u64(r, o, "type");
		e->config = get_hex(r, o, "config");
		e->period = get_u64(r, o, "period");
		e->samples = get_u64(r, o, "samples");
		e->lost = get_u64(r, o, "lost");
		e->throttled = get_u64(r, o, "throttled");
		e->count = get_u64(r, o, "count");
		e->freq = get_u64_opt(r, o, "freq");
		e->enabled_ns = get_u64_opt(r, o, "enabled_ns");
		e->running_ns = get_u64_opt(r, o, "running_ns");
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
			bad(r, "samples[] entries must be objects");
			return;
		}
		s->event = (uint32_t)get_u64(r, o, "event");
		if (s->event >= p->nevents)
			bad(r, "a sample refers to an event that is not listed");
		s->cpu = (uint32_t)get_u64(r, o, "cpu");
		s->ip = get_hex(r, o, "ip");
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &s->role))
			bad(r, "a sample has an unknown role");
		s->count = get_u64(r, o, "count");
		s->weight = get_u64(r, o, "weight");
		s->repeat = (uint32_t)get_u64_opt(r, o, "repeat");
		if (p->nrepeats && s->repeat >= p->nrepeats)
			bad(r, "a sample refers to a repeat that is not listed");
	}
}

static void read_stacks(struct reader *r, json_t *a, struct profile *p)
{
	size_t i, d;

	if (!a)
		return;
	if (!json_is_array(a)) {
		bad(r, "'stacks' must be an array");
		return;
	}
	p->nstacks = json_array_size(a);
	p->stacks = calloc(p->nstacks ? p->nstacks : 1, sizeof(*p->stacks));
	for (i = 0; p->stacks && i < p->nstacks && !r->failed; i++) {
		struct profile_stack *st = &p->stacks[i];
		json_t *o = json_array_get(a, i), *role, *ips;

		if (!json_is_object(o)) {
			bad(r, "stacks[] entries must be objects");
			return;
		}
		st->event = (uint32_t)get_u64(r, o, "event");
		if (st->event >= p->nevents)
			bad(r, "a stack refers to an event that is not listed");
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &st->role))
			bad(r, "a stack has an unknown role");
		st->count = get_u64(r, o, "count");
		st->weight = get_u64(r, o, "weight");
		ips = get_array(r, o, "ips");
		if (!ips)
			return;
		st->depth = (uint32_t)json_array_size(ips);
		if (!st->depth || st->depth > 512) {
			bad(r, "a stack must have 1 to 512 addresses");
			return;
		}
		st->ips = calloc(st->depth, sizeof(*st->ips));
		if (!st->ips) {
			bad(r, "out of memory");
			return;
		}
		for (d = 0; d < st->depth && !r->failed; d++) {
			json_t *v = json_array_get(ips, d);
			json_t *wrap = json_pack("{s:O}", "ip", v);

			st->ips[d] = get_hex(r, wrap, "ip");
			json_decref(wrap);
		}
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
			bad(r, "kallsyms[] entries must be objects");
			return;
		}
		k->addr = get_hex(r, o, "addr");
		k->size = get_u64(r, o, "size");
		type = get_str(r, o, "type", 1);
		k->type = type && type[0] ? type[0] : '?';
		free(type);
		k->name = get_str(r, o, "name", 1);
		k->module = get_str(r, o, "module", 0);
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
			bad(r, "tasks[] entries must be objects");
			return;
		}
		role = json_object_get(o, "role");
		if (!json_is_string(role) || role_parse(json_string_value(role), &t->role))
			bad(r, "a task has an unknown role");
		t->pid = get_int(r, o, "pid");
		t->cpu = get_int(r, o, "cpu");
		t->cpu_ns = get_u64(r, o, "cpu_ns");
		t->wait_ns = get_u64(r, o, "wait_ns");
		t->user_ns = get_u64(r, o, "user_ns");
		t->system_ns = get_u64(r, o, "system_ns");
		t->switches = get_u64(r, o, "switches");
	}
}

static void read_histogram(struct reader *r, json_t *a, struct profile *p)
{
	size_t i, k;

	if (!a)
		return;
	if (!json_is_array(a)) {
		bad(r, "'latency_histogram' must be an array");
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
				bad(r, "latency_histogram entries must be [lo, hi, count]");
				return;
			}
			v[k] = json_integer_value(x);
		}
		if (v[1] <= v[0] || (i && (uint64_t)v[0] < p->histogram[i - 1].hi)) {
			bad(r, "latency_histogram buckets must be ordered and not overlap");
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
		bad(r, "'repeats' must be an array");
		return;
	}
	p->nrepeats = json_array_size(a);
	p->repeats = calloc(p->nrepeats ? p->nrepeats : 1, sizeof(*p->repeats));
	for (i = 0; p->repeats && i < p->nrepeats && !r->failed; i++) {
		struct profile_repeat *rp = &p->repeats[i];
		json_t *o = json_array_get(a, i);

		if (!json_is_object(o)) {
			bad(r, "repeats[] entries must be objects");
			return;
		}
		rp->round_trips = get_u64(r, o, "round_trips");
		rp->window_ns = get_u64(r, o, "window_ns");
		read_latency(r, get_obj(r, o, "latency_ns"), &rp->latency);
		rp->client_cpu_ns = get_u64_opt(r, o, "client_cpu_ns");
		rp->responder_cpu_ns = get_u64_opt(r, o, "responder_cpu_ns");
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
			bad(r, "repeats[].counts must have one number per event");
			return;
		}
		p->repeats[i].counts = calloc(p->nevents ? p->nevents : 1, sizeof(uint64_t));
		if (!p->repeats[i].counts) {
			bad(r, "out of memory");
			return;
		}
		for (e = 0; e < p->nevents; e++) {
			json_t *v = json_array_get(c, e);

			if (!json_is_integer(v) || json_integer_value(v) < 0) {
				bad(r, "repeats[].counts must be non-negative integers");
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
			bad(r, "cpu_times[] entries must be objects");
			return;
		}
		c->cpu = get_int(r, o, "cpu");
		c->user_ns = get_u64(r, o, "user_ns");
		c->system_ns = get_u64(r, o, "system_ns");
		c->irq_ns = get_u64(r, o, "irq_ns");
		c->softirq_ns = get_u64(r, o, "softirq_ns");
		c->idle_ns = get_u64(r, o, "idle_ns");
		c->other_ns = get_u64(r, o, "other_ns");
		c->lost = get_u64(r, o, "lost");
		c->throttled = get_u64(r, o, "throttled");
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
			bad(r, "counts[] entries must be objects");
			return;
		}
		c->name = get_str(r, o, "name", 1);
		c->cpu = get_int(r, o, "cpu");
		c->value = get_u64(r, o, "value");
		c->raw = get_u64(r, o, "raw");
		c->enabled_ns = get_u64(r, o, "enabled_ns");
		c->running_ns = get_u64(r, o, "running_ns");
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
			bad(r, "irqs[] entries must be objects");
			return;
		}
		q->kind = get_str(r, o, "kind", 1);
		q->name = get_str(r, o, "name", 1);
		q->desc = get_str(r, o, "desc", 0);
		q->cpu = get_int(r, o, "cpu");
		q->count = get_u64(r, o, "count");
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
			bad(r, "missing_events[] entries must be objects");
			return;
		}
		p->missing[i].name = get_str(r, o, "name", 1);
		p->missing[i].reason = get_str(r, o, "reason", 1);
	}
}

static void read_conditions(struct reader *r, json_t *o, struct profile *p)
{
	const char *key;
	json_t *v;

	if (!o)
		return;
	if (!json_is_object(o)) {
		bad(r, "'conditions' must be an object of strings");
		return;
	}
	json_object_foreach(o, key, v) {
		if (!json_is_string(v)) {
			bad(r, "'conditions' must be an object of strings");
			return;
		}
		if (profile_add_condition(p, key, json_string_value(v)))
			bad(r, "out of memory");
	}
}

int profile_add_condition(struct profile *p, const char *key, const char *value)
{
	struct profile_condition *c;

	c = realloc(p->conditions, (p->nconditions + 1) * sizeof(*c));
	if (!c)
		return -1;
	p->conditions = c;
	c[p->nconditions].key = strdup(key);
	c[p->nconditions].value = strdup(value);
	if (!c[p->nconditions].key || !c[p->nconditions].value) {
		free(c[p->nconditions].key);
		free(c[p->nconditions].value);
		return -1;
	}
	p->nconditions++;
	return 0;
}

const char *profile_condition(const struct profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->nconditions; i++)
		if (!strcmp(p->conditions[i].key, key))
			return p->conditions[i].value;
	return NULL;
}

static void read_counters(struct reader *r, json_t *o, struct profile *p)
{
	json_t *cpus;
	size_t i;

	if (!o)
		return;
	p->mode = get_str(r, o, "mode", 1);
	if (p->mode && strcmp(p->mode, "hardware") && strcmp(p->mode, "software-clock"))
		bad(r, "mode must be \"hardware\" or \"software-clock\"");
	p->fallback_reason = get_str(r, o, "fallback_reason", 0);
	cpus = get_array(r, o, "cpus");
	if (cpus) {
		p->ncpus_sampled = json_array_size(cpus);
		p->cpus = calloc(p->ncpus_sampled ? p->ncpus_sampled : 1, sizeof(int));
		for (i = 0; p->cpus && i < p->ncpus_sampled; i++)
			p->cpus[i] = (int)json_integer_value(json_array_get(cpus, i));
	}
	read_events(r, get_array(r, o, "events"), p);
	read_cpu_times(r, json_object_get(o, "cpu_times"), p);
	read_counts(r, json_object_get(o, "counts"), p);
	read_irqs(r, json_object_get(o, "irqs"), p);
	read_missing(r, json_object_get(o, "missing_events"), p);
}

int profile_read(struct profile *p, const char *path)
{
	struct reader r = { path, 0 };
	json_error_t jerr;
	json_t *root, *v;
	char msg[300];

	memset(p, 0, sizeof(*p));
	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (jerr.line < 1)
			snprintf(msg, sizeof(msg), "%s", jerr.text);
		else
			snprintf(msg, sizeof(msg), "line %d: %s", jerr.line, jerr.text);
		return bad(&r, msg);
	}
	v = json_object_get(root, "format");
	if (!json_is_object(root) || !json_is_string(v) ||
	    strcmp(json_string_value(v), PROFILE_FORMAT)) {
		json_decref(root);
		return bad(&r, "not a perpkt profile (no \"format\": \"" PROFILE_FORMAT "\")");
	}
	p->version = (int)get_u64(&r, root, "version");
	if (!r.failed && p->version > PROFILE_VERSION) {
		snprintf(msg, sizeof(msg),
			 "format version %d is newer than this perpkt reads (%d): "
			 "upgrade perpkt", p->version, PROFILE_VERSION);
		json_decref(root);
		return bad(&r, msg);
	}
	p->tool_version = get_str(&r, root, "tool", 0);
	p->created = get_str(&r, root, "created", 0);
	p->command = get_str(&r, root, "command", 0);
	read_system(&r, get_obj(&r, root, "system"), p);
	read_workload(&r, get_obj(&r, root, "workload"), p);
	read_counters(&r, get_obj(&r, root, "counters"), p);
	read_repeat_counts(&r, root, p);
	read_conditions(&r, json_object_get(root, "conditions"), p);
	read_samples(&r, get_array(&r, root, "samples"), p);
	read_stacks(&r, json_object_get(root, "stacks"), p);
	read_ksyms(&r, get_array(&r, root, "kallsyms"), p);
	json_decref(root);
	if (r.failed) {
		profile_free(p);
		return -1;
	}
	return 0;
}

void profile_free(struct profile *p)
{
	size_t i;

	free(p->tool_version);
	free(p->created);
	free(p->command);
	free(p->kernel_release);
	free(p->kernel_version);
	free(p->build_id);
	free(p->hostname);
	free(p->cpu_model);
	free(p->transport);
	free(p->network);
	free(p->mode);
	free(p->fallback_reason);
	free(p->cpus);
	for (i = 0; p->events && i < p->nevents; i++) {
		free(p->events[i].name);
		free(p->events[i].requested);
		free(p->events[i].pmu);
		free(p->events[i].encoding);
		free(p->events[i].unit);
	}
	free(p->events);
	free(p->samples);
	for (i = 0; p->ksyms && i < p->nksyms; i++) {
		free(p->ksyms[i].name);
		free(p->ksyms[i].module);
	}
	free(p->ksyms);
	for (i = 0; p->stacks && i < p->nstacks; i++)
		free(p->stacks[i].ips);
	free(p->stacks);
	free(p->histogram);
	for (i = 0; p->repeats && i < p->nrepeats; i++)
		free(p->repeats[i].counts);
	free(p->repeats);
	free(p->tasks);
	free(p->cpu_times);
	for (i = 0; i < p->nconditions; i++) {
		free(p->conditions[i].key);
		free(p->conditions[i].value);
	}
	free(p->conditions);
	for (i = 0; p->counts && i < p->ncounts; i++)
		free(p->counts[i].name);
	free(p->counts);
	for (i = 0; p->irqs && i < p->nirqs; i++) {
		free(p->irqs[i].kind);
		free(p->irqs[i].name);
		free(p->irqs[i].desc);
	}
	free(p->irqs);
	for (i = 0; p->missing && i < p->nmissing; i++) {
		free(p->missing[i].name);
		free(p->missing[i].reason);
	}
	free(p->missing);
	memset(p, 0, sizeof(*p));
}
