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
#include "profile/fields.h"
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
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
			      "count", (json_int_t)l->count, "min", (json_int_t)l->min,
			      "p50", (json_int_t)l->p50, "p90", (json_int_t)l->p90,
			      "p99", (json_int_t)l->p99, "p999", (json_int_t)l->p999,
			      "p9999", (json_int_t)l->p9999,
			      "max", (json_int_t)l->max, "mean", l->mean,
			      "stddev", l->stddev);

	/* the stalls set apart (profile/latency-stalls.h): the warm-up's
	 * round trips keep no histogram to find them in later */
	if (o && l->stalls_known &&
	    json_object_update_new(o, json_pack("{s:I, s:I, s:f, s:f, s:f}",
				"stalls", (json_int_t)l->stalls,
				"stall_cut_ns", (json_int_t)l->stall_cut,
				"stall_ns", l->stall_ns,
				"mean_without_stalls", l->mean_kept,
				"stddev_without_stalls", l->sd_kept))) {
		json_decref(o);
		return NULL;
	}
	return o;
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

static json_t *sample_json(const struct profile *p, size_t i)
{
	const struct profile_sample *s = &p->samples[i];
	json_t *o = json_pack("{s:I, s:I, s:o, s:s, s:I, s:I}",
			      "event", (json_int_t)s->event, "cpu", (json_int_t)s->cpu,
			      "ip", hex(s->ip), "role", role_name(s->role),
			      "count", (json_int_t)s->count,
			      "weight", (json_int_t)s->weight);

	/* only repeated runs carry it: single runs stay compact */
	if (o && s->repeat)
		json_object_set_new(o, "repeat", json_integer(s->repeat));
	/* exact profiles only, where a call entered the address */
	if (o && s->calls)
		json_object_set_new(o, "calls", json_integer((json_int_t)s->calls));
	return o;
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
		if (o && r->before.count)
			json_object_set_new(o, "latency_before_ns",
					    latency_to_json(&r->before));
		if (o && r->host_syscall_ns > 0)
			json_object_set_new(o, "host_syscall_ns",
					    json_real(r->host_syscall_ns));
		if (o && r->host_loop_ns > 0)
			json_object_set_new(o, "host_loop_ns",
					    json_real(r->host_loop_ns));
	}
	return a;
}

static json_t *tasks_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ntasks; i++) {
		const struct profile_task *t = &p->tasks[i];
		json_t *o;

		o = json_pack("{s:s}", "role", role_name(t->role));
		if (!profile_fields_write(o, profile_task_fields, t))
			json_array_append(a, o);
		json_decref(o);
	}
	return a;
}

static json_t *cpu_times_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < p->ncpu_times; i++) {
		json_t *o = json_object();

		if (!profile_fields_write(o, profile_cpu_fields, &p->cpu_times[i]))
			json_array_append(a, o);
		json_decref(o);
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
		json_t *o = json_object();

		if (!profile_fields_write(o, profile_count_fields, &p->counts[i]))
			json_array_append(a, o);
		json_decref(o);
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

/* --flows: [[client, responder], ...] a pair of CPUs per flow */
static json_t *flow_cpus_to_json(const struct profile *p)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < p->nflow_cpus; i++)
		json_array_append_new(a, json_pack("[i, i]", p->flow_cpus[i].client,
						   p->flow_cpus[i].server));
	return a;
}

/* The document but for its long arrays (profile_doc's parts). */
static json_t *head_to_json(const struct profile *p)
{
	json_t *root = json_pack(
		"{s:s, s:i, s:o, s:o, s:o,"
		" s:{s:o, s:o, s:o, s:o, s:o, s:i, s:o},"
		" s:{s:o, s:o, s:I, s:i, s:i, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
		" s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
		" s:o, s:o}",
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
	if (root && p->nflow_cpus)
		json_object_set_new(json_object_get(root, "workload"), "flow_cpus",
				    flow_cpus_to_json(p));
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

/*
 * The long arrays, made an element at a time: record's peak memory was
 * the whole document in jansson objects, about 23 MB of the 43 MiB of a
 * 60 s `record -a -g` (heaptrack).
 */
typedef json_t *element_fn(const struct profile_doc *d, size_t i);

static json_t *sample_element(const struct profile_doc *d, size_t i)
{
	return sample_json(d->p, i);
}

static json_t *stack_element(const struct profile_doc *d, size_t i)
{
	return stack_json(d->p, &d->tree, i);
}

static json_t *node_element(const struct profile_doc *d, size_t i)
{
	return stack_node_json(&d->tree, i);
}

static const struct long_array {
	const char *key;
	element_fn *element;
} long_arrays[] = {
	{ "samples", sample_element },
	{ "stacks", stack_element },
	{ "stack_nodes", node_element },
};
#define NLONG (sizeof(long_arrays) / sizeof(long_arrays[0]))

static size_t long_count(const struct profile_doc *d, size_t a)
{
	return a == 0 ? d->p->nsamples : a == 1 ? d->p->nstacks : d->tree.n;
}

int profile_doc_init(struct profile_doc *d, const struct profile *p)
{
	memset(d, 0, sizeof(*d));
	d->p = p;
	if (stack_tree_build(p, &d->tree))
		return -1;
	d->head = head_to_json(p);
	if (!d->head) {
		stack_tree_free(&d->tree);
		return -1;
	}
	return 0;
}

void profile_doc_free(struct profile_doc *d)
{
	json_decref(d->head);
	stack_tree_free(&d->tree);
	memset(d, 0, sizeof(*d));
}

json_t *profile_to_json(const struct profile *p)
{
	struct profile_doc d;
	size_t a, i;

	if (profile_doc_init(&d, p))
		return NULL;
	for (a = 0; a < NLONG; a++) {
		json_t *arr = json_array();

		for (i = 0; arr && i < long_count(&d, a); i++)
			if (json_array_append_new(arr, long_arrays[a].element(&d, i))) {
				json_decref(arr);
				arr = NULL;
			}
		if (!arr || json_object_set_new(d.head, long_arrays[a].key, arr)) {
			profile_doc_free(&d);
			return NULL;
		}
	}
	{
		json_t *doc = json_incref(d.head);

		profile_doc_free(&d);
		return doc;
	}
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
		   !profile_key_signed(key)) {
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
 * buffer and write that, one write(2) per 64 KiB. The last KEEP bytes
 * stay in the buffer, so the head's closing brace can be taken back. */
#define KEEP 2
struct doc_writer {
	int fd;
	int err;  /* errno of the first failed write */
	size_t used;
	char buf[65536];
};

static int doc_flush(struct doc_writer *w, size_t keep)
{
	size_t off = 0, end = w->used > keep ? w->used - keep : 0;

	while (!w->err && off < end) {
		ssize_t n = write(w->fd, w->buf + off, end - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->err = n < 0 ? errno : EIO;
		else
			off += (size_t)n;
	}
	memmove(w->buf, w->buf + end, w->used - end);
	w->used -= end;
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
		if (w->used == sizeof(w->buf) && doc_flush(w, KEEP))
			return -1;
	}
	return 0;
}

static int doc_puts(struct doc_writer *w, const char *s)
{
	return doc_put(s, strlen(s), w);
}

/* The head as written, with its closing "\n}" taken back. */
static int write_head(struct doc_writer *w, json_t *head)
{
	if (json_dump_callback(head, doc_put, w, JSON_INDENT(1) | JSON_PRESERVE_ORDER))
		return -1;
	if (w->used < KEEP || memcmp(w->buf + w->used - KEEP, "\n}", KEEP)) {
		errno = EINVAL;	/* jansson's indented object ends so */
		return -1;
	}
	w->used -= KEEP;
	return 0;
}

/* ,\n "key": [\n  {one element on a line},\n  ...\n ] */
static int write_long_array(struct doc_writer *w, const struct profile_doc *d,
			    size_t a)
{
	size_t i, n = long_count(d, a);
	char open[64];

	snprintf(open, sizeof(open), ",\n \"%s\": [", long_arrays[a].key);
	if (doc_puts(w, open))
		return -1;
	for (i = 0; i < n; i++) {
		json_t *e = long_arrays[a].element(d, i);
		int bad = !e || doc_puts(w, i ? ",\n  " : "\n  ") ||
			  json_dump_callback(e, doc_put, w, JSON_PRESERVE_ORDER);

		json_decref(e);
		if (bad)
			return -1;
	}
	return doc_puts(w, n ? "\n ]" : "]");
}

int profile_doc_write(const struct profile_doc *d, int fd)
{
	struct doc_writer *w = malloc(sizeof(*w));
	size_t a;
	int ret;

	if (!w)
		return -1;
	w->fd = fd;
	w->err = 0;
	w->used = 0;
	/* straight to the file: no second copy of the text in memory */
	ret = write_head(w, d->head);
	for (a = 0; !ret && a < NLONG; a++)
		ret = write_long_array(w, d, a);
	if (!ret)
		ret = doc_puts(w, "\n}\n");
	if (!ret)
		ret = doc_flush(w, 0);
	errno = w->err ? w->err : (ret ? (errno ? errno : ENOMEM) : 0);
	free(w);
	return ret ? -1 : 0;
}

int profile_doc_check(const struct profile_doc *d, const char *what)
{
	char path[512] = "";
	size_t a, i;

	if (check_ints(d->head, NULL, path, 0, sizeof(path), what))
		return -1;
	for (a = 0; a < NLONG; a++)
		for (i = 0; i < long_count(d, a); i++) {
			json_t *e = long_arrays[a].element(d, i);
			int bad;

			if (!e)
				return error("cannot encode %s (out of memory)", what);
			snprintf(path, sizeof(path), "%s[%zu]", long_arrays[a].key, i);
			bad = check_ints(e, long_arrays[a].key, path, strlen(path),
					 sizeof(path), what);
			json_decref(e);
			if (bad)
				return -1;
		}
	return 0;
}

int profile_write(const struct profile *p, const char *path, unsigned flags)
{
	struct profile_output out;

	if (profile_output_open(&out, path, flags))
		return -1;
	return profile_output_commit(&out, p);
}
