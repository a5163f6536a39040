/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_JSON_COMMON_H
#define PERPKT_JSON_COMMON_H

#include <jansson.h>

#include "profile/profile.h"
#include "reports/model/facts.h"

/*
 * What every JSON document of perpkt shares (docs/schema/): the
 * "units" object that states each unit once, so keys need not repeat
 * it. Times are ns (keys end in _ns where the name alone would not
 * say it is a time), ratios are fractions (0.25, not 25), counts are
 * counts, and "per_rt" values are per `per_rt` unit: "round trip".
 */
#define JSON_UNIT_TIME "ns"
#define JSON_UNIT_RATIO "fraction"
#define JSON_UNIT_PER_RT "round trip"

/* {"time": "ns", "ratio": "fraction", "per_rt": per_rt_unit or
 * "round trip"} plus "primary": the first event's unit when given.
 * per_rt_unit is the profile's --per unit ("udp-datagram"): the keys
 * stay per_rt whatever the unit. NULL without memory. */
json_t *render_json_units(const char *primary_unit, const char *per_rt_unit);

/* A latency summary, ns: {count, min, p50, p90, p99, p999, max, mean,
 * stddev}; NULL without memory. Report, stat and diff share it. */
json_t *render_json_latency(const struct latency_summary *l);

/* --flows: [[client_cpu, server_cpu], ...] a pair per flow, as the
 * profile's workload.flow_cpus; null with one flow. Report and stat
 * share it. */
json_t *render_json_flow_cpus(const struct run_facts *run);

#endif
