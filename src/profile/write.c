// SPDX-License-Identifier: GPL-2.0-only
/* Writing the profile file: JSON through jansson, atomically. */
#include "profile/profile.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "profile/output.h"

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
		if (e->user >= 0)
			json_object_set_new(json_array_get(a, i), "user",
					    json_boolean(e->user));
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

/* "modules": [{"name": "veth", "sections": {".text": "0x..."}}] */
static json_t *modules_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i, j;

	for (i = 0; a && i < p->nmodules; i++) {
		const struct profile_module *m = &p->modules[i];
		json_t *secs = json_object();

		for (j = 0; secs && j < m->nsections; j++)
			json_object_set_new(secs, m->sections[j].name,
					    hex(m->sections[j].addr));
		json_array_append_new(a, json_pack("{s:s, s:o}", "name",
						   m->name, "sections", secs));
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
		json_t *counts = json_array(), *o;

		for (e = 0; e < p->nevents; e++)
			json_array_append_new(counts, json_integer(
				r->counts ? (json_int_t)r->counts[e] : 0));
		json_array_append_new(a, o = json_pack(
			"{s:I, s:I, s:o, s:o, s:I, s:I, s:b, s:f}",
			"round_trips", (json_int_t)r->round_trips,
			"window_ns", (json_int_t)r->window_ns,
			"latency_ns", latency_to_json(&r->latency),
			"counts", counts,
			"client_cpu_ns", (json_int_t)r->client_cpu_ns,
			"responder_cpu_ns", (json_int_t)r->responder_cpu_ns,
			"complete", !r->partial, "fraction", r->fraction));
		if (o && r->snapshot_ns)
			json_object_set_new(o, "snapshot_ns", json_integer((json_int_t)r->snapshot_ns));
	}
	return a;
}

/* Call chains repeat the same few thousand addresses hundreds of
 * thousands of times: one shared string per distinct address (jansson
 * counts references) keeps the document, and record's peak RSS, small. */
struct hex_pool {
	uint64_t *ips;  /* sorted, distinct */
	json_t **str;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int hex_pool_init(struct hex_pool *hp, const struct profile *p)
{
	size_t total = 0, i, d, n = 0;

	memset(hp, 0, sizeof(*hp));
	for (i = 0; i < p->nstacks; i++)
		total += p->stacks[i].depth;
	hp->ips = malloc((total ? total : 1) * sizeof(*hp->ips));
	if (!hp->ips)
		return -1;
	for (i = 0; i < p->nstacks; i++)
		for (d = 0; d < p->stacks[i].depth; d++)
			hp->ips[n++] = p->stacks[i].ips[d];
	if (n > 1)
		qsort(hp->ips, n, sizeof(*hp->ips), cmp_u64);
	for (i = 0, hp->n = 0; i < n; i++)
		if (!hp->n || hp->ips[hp->n - 1] != hp->ips[i])
			hp->ips[hp->n++] = hp->ips[i];
	hp->str = calloc(hp->n ? hp->n : 1, sizeof(*hp->str));
	if (!hp->str)
		return -1;
	for (i = 0; i < hp->n; i++)
		if (!(hp->str[i] = hex(hp->ips[i])))
			return -1;
	return 0;
}

/* A new reference to the string of `ip`, which the pool holds. */
static json_t *hex_pool_get(const struct hex_pool *hp, uint64_t ip)
{
	const uint64_t *k = bsearch(&ip, hp->ips, hp->n, sizeof(ip), cmp_u64);

	return k ? json_incref(hp->str[k - hp->ips]) : hex(ip);
}

static void hex_pool_free(struct hex_pool *hp)
{
	size_t i;

	for (i = 0; hp->str && i < hp->n; i++)
		json_decref(hp->str[i]);
	free(hp->str);
	free(hp->ips);
}

static json_t *stacks_to_json(const struct profile *p)
{
	json_t *a = json_array();
	struct hex_pool hp;
	size_t i, d;

	if (hex_pool_init(&hp, p)) {
		hex_pool_free(&hp);
		json_decref(a);
		return NULL;  /* out of memory: the pack fails, and says so */
	}
	for (i = 0; i < p->nstacks; i++) {
		const struct profile_stack *st = &p->stacks[i];
		json_t *ips = json_array();

		for (d = 0; d < st->depth; d++)
			json_array_append_new(ips, hex_pool_get(&hp, st->ips[d]));
		json_array_append_new(a, json_pack(
			"{s:I, s:s, s:I, s:I, s:o}",
			"event", (json_int_t)st->event, "role", role_name(st->role),
			"count", (json_int_t)st->count,
			"weight", (json_int_t)st->weight, "ips", ips));
	}
	hex_pool_free(&hp);
	return a;
}

static json_t *tasks_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ntasks; i++) {
		const struct profile_task *t = &p->tasks[i];
		json_t *o;

		json_array_append_new(a, o = json_pack(
			"{s:s, s:i, s:i, s:I, s:I, s:I, s:I, s:I}",
			"role", role_name(t->role), "pid", t->pid, "cpu", t->cpu,
			"cpu_ns", (json_int_t)t->cpu_ns,
			"wait_ns", (json_int_t)t->wait_ns,
			"user_ns", (json_int_t)t->user_ns,
			"system_ns", (json_int_t)t->system_ns,
			"switches", (json_int_t)t->switches));
		if (o && t->span_ns)
			json_object_set_new(o, "span_ns", json_integer((json_int_t)t->span_ns));
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

json_t *profile_to_json(const struct profile *p)
{
	json_t *root = json_pack(
		"{s:s, s:i, s:o, s:o, s:o,"
		" s:{s:o, s:o, s:o, s:o, s:o, s:i, s:o},"
		" s:{s:o, s:o, s:I, s:i, s:i, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
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
		"warmup_ns", (json_int_t)llround(p->warmup_s * 1e9),
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
	/* version 2: every time in ns (1 had warmup_s), said once here */
	if (root && json_object_set_new(root, "units",
					json_pack("{s:s, s:s}", "time", "ns",
						  "ratio", "fraction"))) {
		json_decref(root);
		return NULL;
	}
	/* Added beside the version's fields: older readers ignore them. */
	if (root) {
		json_object_set_new(json_object_get(root, "system"), "machine",
				    str_or_null(p->machine));
		json_object_set_new(root, "modules", modules_to_json(p));
		if (p->kernel_functions)
			json_object_set_new(root, "kernel_functions",
					    json_string(p->kernel_functions));
	}
	if (root && (p->asked_ns || p->wall_ns))
		json_object_update_new(json_object_get(root, "workload"), json_pack(
			"{s:I, s:I, s:I}", "asked_window_ns", (json_int_t)p->asked_window_ns,
			"asked_ns", (json_int_t)p->asked_ns,
			"wall_ns", (json_int_t)p->wall_ns));
	/* record --peer: the responder's side, a whole profile of its own */
	if (root && p->remote &&
	    json_object_set_new(root, "remote", profile_to_json(p->remote))) {
		json_decref(root);
		return NULL;
	}
	if (root && p->remote_missing)
		json_object_set_new(root, "remote_missing",
				    json_string(p->remote_missing));
	return root;
}

/* The integers the reader takes as signed (reader_int): a CPU or a pid
 * of -1 is "none". Every other integer is a count, read with
 * reader_u64. */
static int signed_key(const char *key)
{
	static const char *const keys[] = { "cpu", "pid", "client_cpu",
					    "server_cpu" };
	size_t i;

	for (i = 0; key && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/*
 * Every count is cast from uint64_t to json_int_t on its way into the
 * document: one past PROFILE_INT_MAX turns negative there, where the
 * reader refuses it. Checking the document, not each cast, keeps a
 * field added later checked too. path holds where v is.
 */
static int check_ints(json_t *v, const char *key, char *path, size_t at,
		      size_t len, const char *what)
{
	const char *k;
	json_t *item;
	size_t i;

	if (at >= len)
		at = len - 1;
	if (json_is_object(v)) {
		json_object_foreach(v, k, item) {
			snprintf(path + at, len - at, "%s%s", at ? "." : "", k);
			if (check_ints(item, k, path, at + strlen(path + at),
				       len, what))
				return -1;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			snprintf(path + at, len - at, "[%zu]", i);
			if (check_ints(item, key, path, at + strlen(path + at),
				       len, what))
				return -1;
		}
	} else if (json_is_integer(v) && json_integer_value(v) < 0 &&
		   !signed_key(key)) {
		path[at] = '\0';
		return error("cannot write %s: field '%s' is %" PRIu64 ", more "
			     "than a profile holds (at most %" PRId64 ")", what,
			     path, (uint64_t)json_integer_value(v),
			     (int64_t)PROFILE_INT_MAX);
	}
	return 0;
}

int profile_json_check(json_t *doc, const char *what)
{
	char path[512] = "";

	return check_ints(doc, NULL, path, 0, sizeof(path), what);
}

/* jansson hands the text over a few bytes at a time: collect it in a
 * buffer and write that, one write(2) per 64 KiB. */
struct doc_writer {
	int fd;
	int err;  /* errno of the first failed write */
	size_t used;
	char buf[65536];
};

static int doc_flush(struct doc_writer *w)
{
	size_t off = 0;

	while (!w->err && off < w->used) {
		ssize_t n = write(w->fd, w->buf + off, w->used - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->err = n < 0 ? errno : EIO;
		else
			off += (size_t)n;
	}
	w->used = 0;
	return w->err ? -1 : 0;
}

static int doc_put(const char *buf, size_t len, void *ctx)
{
	struct doc_writer *w = ctx;

	while (len) {
		size_t n = sizeof(w->buf) - w->used;

		if (n > len)
			n = len;
		memcpy(w->buf + w->used, buf, n);
		w->used += n;
		buf += n;
		len -= n;
		if (w->used == sizeof(w->buf) && doc_flush(w))
			return -1;
	}
	return 0;
}

int profile_json_write(json_t *doc, int fd)
{
	struct doc_writer *w = malloc(sizeof(*w));
	int ret;

	if (!w)
		return -1;
	w->fd = fd;
	w->err = 0;
	w->used = 0;
	/* straight to the file: no second copy of the text in memory */
	ret = json_dump_callback(doc, doc_put, w,
				 JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (!ret)
		ret = doc_put("\n", 1, w);
	if (!ret)
		ret = doc_flush(w);
	errno = w->err ? w->err : (ret ? ENOMEM : 0);
	free(w);
	return ret ? -1 : 0;
}

int profile_write(const struct profile *p, const char *path, unsigned flags)
{
	struct profile_output out;

	if (profile_output_open(&out, path, flags))
		return -1;
	return profile_output_commit(&out, p);
}
