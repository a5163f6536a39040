// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/text.c and reports/json.c: the text table fits its width and
 * says what software-clock values mean; the JSON parses and adds up.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <jansson.h>

#include "reports/model/model.h"
#include "reports/render/renderers.h"
#include "report-fixture.h"

#define assert_near(a, b) assert_near_((a), (b), #a, __FILE__, __LINE__)

static void assert_near_(double a, double b, const char *expr,
			 const char *file, int line)
{
	if (!(fabs(a - b) <= 1e-9 * (1 + fabs(b)))) {
		print_error("%s = %.12g, expected %.12g\n", expr, a, b);
		_fail(file, line);
	}
}

struct fixture {
	struct profile p;
	struct symbolizer *s;
	struct model m;
	char *out;
	size_t outlen;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct profile *p;

	assert_non_null(fx);
	p = &fx->p;
	p->kernel_release = strdup("6.18.0-test");
	p->build_id = strdup("0123456789abcdef0123456789abcdef01234567");
	p->transport = strdup("udp");
	p->network = strdup("loopback");
	p->message_size = 64;
	p->client_cpu = 0;
	p->server_cpu = 1;
	p->mode = strdup("software-clock");
	p->fallback_reason = strdup("cycles: perf_event_open: No such file or directory");
	p->round_trips = 100;
	p->window_ns = 2000000000ull;
	p->latency = (struct latency_summary){
		.count = 100, .min = 4100, .p50 = 5300, .p90 = 7000,
		.p99 = 9800, .p999 = 20000, .max = 120400,
		.mean = 5600, .stddev = 900,
	};
	p->events = calloc(2, sizeof(*p->events));
	add_event(p, "cpu-clock", "ns", 1000)->samples = 145;
	p->nsamples = sizeof(samples) / sizeof(samples[0]);
	p->samples = calloc(p->nsamples + 2, sizeof(*p->samples));
	memcpy(p->samples, samples, sizeof(samples));
	assert_int_equal(symbolizer_open_entries(&fx->s, ksyms,
			 sizeof(ksyms) / sizeof(ksyms[0]), NULL), 0);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	struct profile *p = &fx->p;
	size_t i;

	model_free(&fx->m);
	symbolizer_close(fx->s);
	for (i = 0; i < p->nevents; i++) {
		free(p->events[i].name);
		free(p->events[i].unit);
	}
	free(p->events);
	free(p->samples);
	free(p->kernel_release);
	free(p->build_id);
	free(p->transport);
	free(p->network);
	free(p->mode);
	free(p->fallback_reason);
	free(fx->out);
	free(fx);
	return 0;
}

/* Build the model and render text into fx->out; returns report_text's. */
static int render(struct fixture *fx, const struct render_options *o)
{
	FILE *f;
	int ret;

	model_free(&fx->m);
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &fx->outlen);
	assert_non_null(f);
	ret = report_text(f, &fx->m, o);
	fclose(f);
	return ret;
}

static int longest_line(const char *s)
{
	int max = 0, cur = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			cur = 0;
			continue;
		}
		if (++cur > max)
			max = cur;
	}
	return max;
}

static void check_width(struct fixture *fx, int width)
{
	struct render_options o = { .width = width };

	assert_int_equal(render(fx, &o), 0);
	if (!width)
		width = 72;
	if (longest_line(fx->out) > width) {
		print_error("%s", fx->out);
		fail_msg("a line is %d columns, more than %d",
			 longest_line(fx->out), width);
	}
	/* the table is there: header and the last row */
	assert_non_null(strstr(fx->out, "cum %"));
	assert_non_null(strstr(fx->out, "busy (total minus idle)"));
	model_free(&fx->m);
}

static void test_width_72_and_100(void **state)
{
	struct fixture *fx = *state;

	check_width(fx, 72);
	check_width(fx, 100);
	/* 0 means the default of 72 */
	check_width(fx, 0);
	assert_true(longest_line(fx->out) <= 72);
	/* the long name makes the table use the whole width */
	assert_int_equal(longest_line(fx->out), 72);
}

static void test_two_events_width(void **state)
{
	struct fixture *fx = *state;
	struct render_options o = { .width = 100 };

	add_event(&fx->p, "instructions", "instructions", 2000)->samples = 145;
	fx->p.samples[fx->p.nsamples++] = (struct profile_sample){
		1, 0, 0x1111, ROLE_CLIENT, 3, 6000, 0, 0, 0 };
	assert_int_equal(render(fx, &o), 0);
	assert_true(longest_line(fx->out) <= 100);
	/* a second per-RT column fits in 100 columns */
	assert_non_null(strstr(fx->out, "insns/RT"));
	model_free(&fx->m);

	o.width = 72;
	assert_int_equal(render(fx, &o), 0);
	assert_true(longest_line(fx->out) <= 72);
}

/* A function in a module gets a module column ([kernel] for the rest),
 * as in perf report; without modules there is no such column. */
static void test_module_column(void **state)
{
	struct fixture *fx = *state;
	struct sym_entry syms[sizeof(ksyms) / sizeof(ksyms[0]) + 1];
	const char *line;

	assert_int_equal(render(fx, NULL), 0);
	assert_null(strstr(fx->out, " module "));
	memcpy(syms, ksyms, sizeof(ksyms));
	syms[sizeof(ksyms) / sizeof(ksyms[0])] =
		(struct sym_entry){ 0x5000, 0x100, 't', "veth_xmit", "veth" };
	symbolizer_close(fx->s);
	assert_int_equal(symbolizer_open_entries(&fx->s, syms,
			 sizeof(syms) / sizeof(syms[0]), NULL), 0);
	fx->p.samples[fx->p.nsamples++] =
		(struct profile_sample){ 0, 1, 0x5010, ROLE_RESPONDER, 30, 30000, 0, 0, 0 };
	assert_int_equal(render(fx, NULL), 0);
	line = strstr(fx->out, " module ");
	assert_non_null(line);
	assert_non_null(strstr(fx->out, " veth     veth_xmit\n"));
	assert_non_null(strstr(fx->out, " [kernel] udp_sendmsg\n"));
	assert_null(strstr(fx->out, "[veth]"));
	assert_true(longest_line(fx->out) <= 72);
}

/* The default report is mail-sized: the headline first, the detail
 * behind --full, and it says so. */
static void test_short_by_default(void **state)
{
	struct fixture *fx = *state;
	struct render_options full = { .full = 1 };
	size_t lines = 0, full_lines = 0;
	const char *p;

	assert_int_equal(render(fx, NULL), 0);
	assert_true(!strncmp(fx->out, "udp over loopback: p50 5.30 us, p99 9.80 us;", 44));
	assert_null(strstr(fx->out, "reconciliation (is it"));
	assert_null(strstr(fx->out, "build-id"));
	assert_non_null(strstr(fx->out, "more: --full"));
	assert_non_null(strstr(fx->out, "udp_sendmsg"));
	for (p = fx->out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(render(fx, &full), 0);
	assert_true(!strncmp(fx->out, "udp over loopback: p50 5.30 us", 30));
	assert_non_null(strstr(fx->out, "reconciliation (is it"));
	assert_non_null(strstr(fx->out, "build-id"));
	assert_null(strstr(fx->out, "more: --full"));
	for (p = fx->out; *p; p++)
		full_lines += *p == '\n';
	assert_true(lines + 15 < full_lines);
}

static void test_header_software_clock(void **state)
{
	struct fixture *fx = *state;
	struct render_options full = { .full = 1 };
	char *flat, *q;
	const char *p;

	assert_int_equal(render(fx, &full), 0);
	/* read the prose without its line breaks and indents */
	flat = calloc(1, strlen(fx->out) + 1);
	assert_non_null(flat);
	for (p = fx->out, q = flat; *p; p++) {
		int space = *p == ' ' || *p == '\n';

		if (!space || q == flat || q[-1] != ' ')
			*q++ = space ? ' ' : *p;
	}
	assert_non_null(strstr(flat, "mode: software-clock"));
	assert_non_null(strstr(flat, "nanoseconds of CPU time per round trip"));
	assert_non_null(strstr(flat, "cpu-clock sampling"));
	assert_non_null(strstr(flat, "no hardware PMU"));
	assert_non_null(strstr(flat, "No such file or directory"));
	assert_non_null(strstr(flat, "interrupts off"));
	assert_non_null(strstr(flat, "kernel: 6.18.0-test"));
	assert_non_null(strstr(flat, "0123456789abcdef"));
	assert_non_null(strstr(flat, "udp over loopback, 64-byte"));
	assert_non_null(strstr(flat, "client 0, responder 1"));
	assert_non_null(strstr(flat, "100 in a 2.000 s window (50.0 per second)"));
	assert_non_null(strstr(flat, "p50 5.3"));
	assert_non_null(strstr(flat, "p99 9.8"));
	assert_non_null(strstr(flat, "period 1000 ns"));
	assert_non_null(strstr(flat, "1450.0 ns in total, 950.0 ns busy"));
	free(flat);

	/* a hardware profile does not carry the cpu-clock caveat */
	model_free(&fx->m);
	free(fx->p.mode);
	fx->p.mode = strdup("hardware");
	assert_int_equal(render(fx, NULL), 0);
	assert_null(strstr(fx->out, "software-clock"));
	assert_null(strstr(fx->out, "interrupts off"));
}

static void test_long_name_truncated(void **state)
{
	struct fixture *fx = *state;
	const char *line;

	assert_int_equal(render(fx, NULL), 0);
	assert_null(strstr(fx->out, LONG_NAME));
	line = strstr(fx->out, "a_very_long_function");
	assert_non_null(line);
	line = strchr(line, '\n');
	assert_non_null(line);
	assert_int_equal(line[-1], '~');
}

static void test_rows_in_order(void **state)
{
	struct fixture *fx = *state;
	const char *a, *b, *c;

	assert_int_equal(render(fx, NULL), 0);
	a = strstr(fx->out, " default_idle");
	b = strstr(fx->out, " udp_sendmsg");
	c = strstr(fx->out, " udp_recvmsg");
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a < b && b < c);
	/* udp_sendmsg: 50 samples, 34.48 %, cum 68.97 %, 500.0 ns/RT */
	assert_non_null(strstr(fx->out, "50  34.48  68.97  500.0"));
}

static void test_limit_and_threshold(void **state)
{
	struct fixture *fx = *state;
	struct render_options o = { .limit = 2 };

	assert_int_equal(render(fx, &o), 0);
	assert_null(strstr(fx->out, " udp_recvmsg"));
	/* the rest: 45 samples, 31.03 %, 450 ns/RT, so the table adds up */
	assert_non_null(strstr(fx->out, "45  31.03 100.00  450.0"));
	assert_non_null(strstr(fx->out, "(4 more not shown)"));
	model_free(&fx->m);

	o = (struct render_options){ .threshold = 0.05 };
	assert_int_equal(render(fx, &o), 0);
	/* unknown is 2.76 %: it and the long name are hidden */
	assert_non_null(strstr(fx->out, " _raw_spin_unlock"));
	assert_null(strstr(fx->out, " [unknown]\n"));
	assert_non_null(strstr(fx->out, "(2 more not shown)"));
	assert_non_null(strstr(fx->out, "5   3.45 100.00   50.0"));
}

/* printf's spelling of a NaN or infinity anywhere in the text */
static int has_nonfinite(const char *s)
{
	static const char *const bad[] = { "nan", "-nan", "inf", "-inf" };
	const char *sep = " \n,()%";
	size_t i, n;

	for (; *s; s += n ? n : 1) {
		n = strcspn(s, sep);
		for (i = 0; n && i < sizeof(bad) / sizeof(bad[0]); i++)
			if (strlen(bad[i]) == n && !strncasecmp(s, bad[i], n))
				return 1;
	}
	return 0;
}

static void test_zero_round_trips_text(void **state)
{
	struct fixture *fx = *state;

	fx->p.round_trips = 0;
	assert_int_equal(render(fx, NULL), 0);
	assert_non_null(strstr(fx->out, "no round trips were counted"));
	assert_null(strstr(fx->out, "cum %"));
	assert_false(has_nonfinite(fx->out));
	assert_true(longest_line(fx->out) <= 72);
}

static void test_zero_samples_text(void **state)
{
	struct fixture *fx = *state;

	fx->p.nsamples = 0;
	fx->p.window_ns = 0;
	assert_int_equal(render(fx, NULL), 0);
	assert_non_null(strstr(fx->out, "no samples were taken"));
	assert_null(strstr(fx->out, "cum %"));
	assert_false(has_nonfinite(fx->out));
}

static void test_bad_options(void **state)
{
	struct fixture *fx = *state;
	struct render_options o = { .width = 30 };

	assert_int_equal(render(fx, &o), -1);
	model_free(&fx->m);
	o = (struct render_options){ .threshold = 2 };
	assert_int_equal(render(fx, &o), -1);
}

/* Dump JSON of the fixture's model and parse it back. */
static json_t *json_roundtrip(struct fixture *fx)
{
	json_error_t err;
	json_t *root;
	FILE *f;

	model_free(&fx->m);
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	free(fx->out);
	fx->out = NULL;
	f = open_memstream(&fx->out, &fx->outlen);
	assert_non_null(f);
	assert_int_equal(report_json(f, &fx->m, NULL), 0);
	fclose(f);
	root = json_loadb(fx->out, fx->outlen, 0, &err);
	if (!root)
		fail_msg("JSON does not parse: %s at line %d", err.text,
			 err.line);
	return root;
}

static double num(json_t *o, const char *path1, const char *path2)
{
	json_t *v = json_object_get(o, path1);

	if (path2)
		v = json_object_get(v, path2);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void test_json(void **state)
{
	struct fixture *fx = *state;
	json_t *root = json_roundtrip(fx), *fns, *fn, *bks, *ev;
	double sum = 0, share = 0;
	size_t i;

	assert_string_equal(json_string_value(json_object_get(root, "format")),
			    "perpkt-report");
	assert_int_equal(json_integer_value(json_object_get(root, "version")), 3);
	assert_string_equal(json_string_value(json_object_get(root, "mode")),
			    "software-clock");
	assert_int_equal(num(root, "round_trips", NULL), 100);
	fns = json_object_get(root, "functions");
	assert_int_equal(json_array_size(fns), 6);
	json_array_foreach(fns, i, fn) {
		sum += num(json_object_get(fn, "per_rt"), "cpu-clock", NULL);
		share += num(fn, "share", NULL);
		assert_true(json_is_string(json_object_get(fn, "bucket")));
	}
	assert_near(sum, num(json_object_get(root, "total"), "per_rt", "cpu-clock"));
	assert_near(sum, 1450);
	assert_near(share, 1);
	fn = json_array_get(fns, 1);
	assert_string_equal(json_string_value(json_object_get(fn, "name")),
			    "udp_sendmsg");
	assert_near(num(fn, "samples", "cpu-clock"), 50);
	assert_near(num(json_object_get(root, "busy"), "per_rt", "cpu-clock"), 950);

	sum = 0;
	bks = json_object_get(root, "buckets");
	json_array_foreach(bks, i, fn)
		sum += num(json_object_get(fn, "per_rt"), "cpu-clock", NULL);
	assert_near(sum, 1450);

	ev = json_array_get(json_object_get(root, "events"), 0);
	assert_string_equal(json_string_value(json_object_get(ev, "unit")), "ns");
	assert_near(num(ev, "period", NULL), 1000);
	assert_near(num(root, "latency_ns", "p99"), 9800);
	assert_near(num(root, "workload", "round_trips_per_s"), 50);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(root, "kernel"), "release")), "6.18.0-test");
	json_decref(root);
}

static void test_json_zero_round_trips(void **state)
{
	struct fixture *fx = *state;
	json_t *root;

	fx->p.round_trips = 0;
	fx->p.window_ns = 0;
	root = json_roundtrip(fx);
	assert_true(json_is_false(json_object_get(root, "per_rt_valid")));
	assert_near(num(json_object_get(root, "total"), "per_rt", "cpu-clock"), 0);
	assert_true(json_is_null(json_object_get(json_object_get(root,
			"workload"), "round_trips_per_s")));
	json_decref(root);
}

static void test_json_write_failure(void **state)
{
	struct fixture *fx = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	assert_int_equal(model_build(&fx->m, &fx->p, fx->s), 0);
	assert_int_equal(report_json(f, &fx->m, NULL), -1);
	fclose(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_width_72_and_100),
		T(test_two_events_width),
		T(test_short_by_default),
		T(test_module_column),
		T(test_header_software_clock),
		T(test_long_name_truncated),
		T(test_rows_in_order),
		T(test_limit_and_threshold),
		T(test_zero_round_trips_text),
		T(test_zero_samples_text),
		T(test_bad_options),
		T(test_json),
		T(test_json_zero_round_trips),
		T(test_json_write_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
