// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat as JSON (jansson). */
#include "reports/renderers.h"

#include <jansson.h>
#include <stdio.h>

#include "error.h"
#include "reports/stat.h"

static json_t *values_json(const struct stat_value *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f}", "name", v[i].name,
						   "per_rt", v[i].per_rt,
						   "total", v[i].total));
	return a;
}

int stat_json(FILE *f, const void *model, const struct render_options *o)
{
	const struct stat_model *m = model;
	const struct profile *p = m->p;
	json_t *root, *cpus = json_array(), *per_rt = json_object(),
	       *missing = json_array();
	int i, e, ret;

	for (e = 0; e < m->nevents; e++)
		json_object_set_new(per_rt, m->events[e].name,
				    stat_not_counting(m->p, m->events[e].name) ?
				    json_null() : json_real(m->events[e].per_rt));
	for (i = 0; i < (int)p->nmissing; i++)
		json_array_append_new(missing, json_pack("{s:s, s:s}",
			"name", p->missing[i].name, "reason", p->missing[i].reason));
	for (i = 0; i < m->ncpus; i++) {
		const struct stat_cpu *c = &m->cpus[i];
		json_t *ev = json_object();

		for (e = 0; e < m->nevents; e++)
			json_object_set_new(ev, m->events[e].name,
					    json_real(c->events_per_rt[e]));
		json_array_append_new(cpus, json_pack(
			"{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o}",
			"cpu", c->cpu, "busy_pct", c->busy_pct, "user_pct", c->user_pct,
			"system_pct", c->system_pct, "irq_pct", c->irq_pct,
			"softirq_pct", c->softirq_pct, "idle_pct", c->idle_pct,
			"busy_us_per_rt", c->busy_us_per_rt, "per_rt", ev));
	}
	root = json_pack("{s:s, s:i, s:s, s:s, s:s, s:I, s:f, s:f, s:f, s:o, s:o, s:o,"
			 " s:o, s:o, s:o, s:f, s:{s:f, s:f, s:f, s:f, s:b}}",
		"format", "perpkt-stat", "version", 1,
		"mode", p->mode ? p->mode : "unknown",
		"transport", p->transport ? p->transport : "",
		"network", p->network ? p->network : "",
		"round_trips", (json_int_t)p->round_trips,
		"window_s", m->window_s, "latency_mean_us", m->latency_us,
		"latency_unsampled_mean_us", p->latency_unsampled.count ?
			p->latency_unsampled.mean / 1000 : 0.0,
		"per_rt", per_rt,
		"ipc", m->ipc >= 0 ? json_real(m->ipc) : json_null(),
		"missing_events", missing,
		"cpus", cpus,
		"softirqs", values_json(m->softirqs, m->nsoftirqs),
		"irqs", values_json(m->irqs, m->nirqs),
		"service_demand_us", m->service_demand_us,
		"decomposition", "round_trip_us", m->latency_us,
		"client_cpu_us", m->client_us, "responder_cpu_us", m->responder_us,
		"other_us", m->rest_us, "from_schedstat", m->have_tasks);
	if (!root)
		return error("cannot build the stat JSON (internal error)");
	json_object_set_new(root, "unit", report_unit_json(p));
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (ret || fputc('\n', f) == EOF)
		return error("cannot write the stat report");
	return 0;
}
