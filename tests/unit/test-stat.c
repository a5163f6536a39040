// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat's JSON: units.primary, primary_event and per_rt.primary
 * name the first event as the report does (cycles with a PMU; cpu-clock,
 * which stat gives no per_rt, without), and the -r N figures are in ns
 * and named by the whole run's key they follow. Hand-made profiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "profile/profile.h"
#include "reports/render/renderers.h"
#include "reports/stat/stat.h"

static struct profile_event events[2];
static struct profile_count counts[4];
static struct profile_repeat repeats[3];
static uint64_t repeat_counts[3][2];

/* 100 round trips in 10 ms, 20 us each; with `hw`, cycles and
 * instructions counted on CPUs 0 and 1, else cpu-clock; context
 * switches on CPU 0 either way. */
static void make_profile(struct profile *p, int hw, int nrepeats)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	memset(events, 0, sizeof(events));
	memset(repeats, 0, sizeof(repeats));
	p->mode = hw ? "hardware" : "software-clock";
	p->round_trips = 100;
	p->window_ns = 10000000;
	p->latency.count = 100;
	p->latency.mean = 20000;
	p->latency.p50 = 19000;
	p->latency.p99 = 40000;
	p->events = events;
	events[0].name = hw ? "cycles" : "cpu-clock";
	events[0].unit = hw ? "cycles" : "ns";
	events[0].count = hw ? 300000 : 20000000;
	p->nevents = 1;
	if (hw) {
		events[1].name = "instructions";
		events[1].unit = "instructions";
		events[1].count = 150000;
		p->nevents = 2;
	}
	counts[0] = (struct profile_count){ .name = "context-switches", .cpu = 0, .value = 200 };
	counts[1] = (struct profile_count){ .name = (char *)events[0].name, .cpu = 0,
					    .value = events[0].count * 2 / 3 };
	counts[2] = (struct profile_count){ .name = (char *)events[0].name, .cpu = 1,
					    .value = events[0].count / 3 };
	counts[3] = (struct profile_count){ .name = "instructions", .cpu = 0, .value = 150000 };
	p->counts = counts;
	p->ncounts = hw ? 4 : 3;
	for (i = 0; i < (size_t)nrepeats; i++) {
		repeats[i].round_trips = 30 + 5 * i;
		repeats[i].window_ns = 3000000;
		repeats[i].latency.mean = 19000 + 1000 * (double)i;
		repeats[i].latency.p50 = 18000 + 1000 * i;
		repeats[i].latency.p99 = 39000 + 1000 * i;
		repeat_counts[i][0] = 90000 + 10000 * i;
		repeat_counts[i][1] = 45000;
		repeats[i].counts = repeat_counts[i];
	}
	p->repeats = repeats;
	p->nrepeats = (size_t)nrepeats;
}

static json_t *stat_doc(const struct profile *p)
{
	struct stat_model m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *doc;

	assert_non_null(f);
	assert_int_equal(stat_build(&m, p), 0);
	m.rep.confidence = 0.95;
	assert_int_equal(stat_json(f, &m, NULL), 0);
	fclose(f);
	doc = json_loads(buf, 0, NULL);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static double num(json_t *doc, const char *path)
{
	json_t *v = doc;
	char copy[128], *k, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", path);
	for (k = strtok_r(copy, ".", &save); k && v; k = strtok_r(NULL, ".", &save))
		v = json_object_get(v, k);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void test_primary_hardware(void **state)
{
	struct profile p;
	json_t *doc, *cpu0;

	(void)state;
	make_profile(&p, 1, 0);
	doc = stat_doc(&p);
	assert_int_equal(json_integer_value(json_object_get(doc, "version")), 3);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "units"), "primary")), "cycles");
	assert_string_equal(json_string_value(json_object_get(doc, "primary_event")),
			    "cycles");
	assert_float_equal(num(doc, "per_rt.primary"), 3000, 1e-9);
	assert_float_equal(num(doc, "per_rt.cycles"), 3000, 1e-9);
	cpu0 = json_array_get(json_object_get(doc, "cpus"), 0);
	assert_float_equal(num(cpu0, "per_rt.primary"), 2000, 1e-9);
	assert_true(json_is_null(json_object_get(doc, "repeats")));
	json_decref(doc);
}

static void test_primary_software_clock(void **state)
{
	struct profile p;
	json_t *doc, *per_rt;

	(void)state;
	make_profile(&p, 0, 0);
	doc = stat_doc(&p);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(doc, "units"), "primary")), "ns");
	assert_string_equal(json_string_value(json_object_get(doc, "primary_event")),
			    "cpu-clock");
	per_rt = json_object_get(doc, "per_rt");
	/* cpu-clock counts idle too: no per_rt for it, so no primary value */
	assert_null(json_object_get(per_rt, "cpu-clock"));
	assert_true(json_is_null(json_object_get(per_rt, "primary")));
	assert_float_equal(num(doc, "per_rt.context-switches"), 2, 1e-9);
	json_decref(doc);
}

static void test_repeats_ns(void **state)
{
	struct profile p;
	json_t *doc, *figs, *f;
	size_t i;
	int seen = 0;

	(void)state;
	make_profile(&p, 1, 3);
	doc = stat_doc(&p);
	figs = json_object_get(json_object_get(doc, "repeats"), "figures");
	assert_true(json_array_size(figs) >= 5);
	json_array_foreach(figs, i, f) {
		const char *name = json_string_value(json_object_get(f, "name"));
		double mean = num(f, "mean");

		if (!strcmp(name, "latency_ns.mean"))
			seen |= 1, assert_float_equal(mean, 20000, 1e-6);
		else if (!strcmp(name, "latency_ns.p99"))
			seen |= 2, assert_float_equal(mean, 40000, 1e-6);
		else if (!strcmp(name, "round_trips_per_s"))
			seen |= 4, assert_float_equal(mean, 35 / 3e-3, 1e-6);
		else if (!strcmp(name, "per_rt.cycles"))
			/* 90000/30, 100000/35, 110000/40 */
			seen |= 8, assert_float_equal(mean, (3000 + 100000.0 / 35 + 2750) / 3, 1e-6);
	}
	assert_int_equal(seen, 15);
	assert_string_equal(json_string_value(json_object_get(json_array_get(figs, 0),
							      "name")), "latency_ns.mean");
	json_decref(doc);
}

/* The text: an overrun run warned about, as record's reports do, and a
 * warm-up gap put on the machine, not on the counters. */
static void test_text_overrun_and_warmup(void **state)
{
	struct stat_model m;
	struct profile p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	make_profile(&p, 0, 0);
	p.asked_window_ns = 5000000000ull;
	p.asked_ns = 6000000000ull;
	p.wall_ns = 9500000000ull;
	p.latency_unsampled.count = 50;
	p.latency_unsampled.mean = 10000;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(stat_build(&m, &p), 0);
	assert_int_equal(stat_text(f, &m, NULL), 0);
	fclose(f);
	assert_non_null(strstr(buf, "warning: run overran: it took 9.5 s"));
	assert_non_null(strstr(buf, "warm-up: mean 20.00 us in the window vs 10.00 us"));
	assert_non_null(strstr(buf, "the machine's"));
	assert_null(strstr(buf, "observer:"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_primary_hardware),
		cmocka_unit_test(test_primary_software_clock),
		cmocka_unit_test(test_repeats_ns),
		cmocka_unit_test(test_text_overrun_and_warmup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
