// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/json-common.h"

json_t *render_json_units(const char *primary_unit, const char *per_rt_unit)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "time", JSON_UNIT_TIME,
			      "ratio", JSON_UNIT_RATIO, "per_rt",
			      per_rt_unit ? per_rt_unit : JSON_UNIT_PER_RT);

	if (o && primary_unit &&
	    json_object_set_new(o, "primary", json_string(primary_unit))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *render_json_latency(const struct latency_summary *l)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
			 "count", (json_int_t)l->count, "min", (json_int_t)l->min,
			 "p50", (json_int_t)l->p50, "p90", (json_int_t)l->p90,
			 "p99", (json_int_t)l->p99, "p999", (json_int_t)l->p999,
			 "max", (json_int_t)l->max, "mean", l->mean,
			 "stddev", l->stddev);
}

json_t *render_json_flow_cpus(const struct run_facts *run)
{
	json_t *a;
	size_t i;

	if (run->nflows <= 1)
		return json_null();
	a = json_array();
	for (i = 0; a && i < run->nflows; i++)
		if (json_array_append_new(a, json_pack("[i, i]",
				run->flow_cpus[i].client,
				run->flow_cpus[i].server))) {
			json_decref(a);
			return NULL;
		}
	return a;
}
