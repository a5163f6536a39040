// SPDX-License-Identifier: GPL-2.0-only
/* The profile file: write, read back, and refuse what is malformed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "profile/output.h"
#include "profile/profile.h"

static char dir[] = "/tmp/perpkt-test-profile.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void make_profile(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->version = PROFILE_VERSION;
	p->tool_version = strdup("perpkt test");
	p->created = strdup("2026-11-30T00:00:00Z");
	p->command = strdup("perpkt record -d 1");
	p->kernel_release = strdup("6.18.0-test");
	p->build_id = strdup("0123456789abcdef0123456789abcdef01234567");
	p->ncpus = 2;
	p->text_addr = 0xffffffff81000000ULL;
	p->transport = strdup("udp");
	p->network = strdup("loopback");
	p->message_size = 40;
	p->client_cpu = 1;
	p->server_cpu = 0;
	p->warmup_s = 0.5;
	p->round_trips = 123456;
	p->window_ns = 2000000000ULL;
	p->latency = (struct latency_summary){
		.count = 123456, .min = 5000, .p50 = 5064, .p90 = 6008,
		.p99 = 9008, .p999 = 20016, .p9999 = 90056, .max = 150000,
		.mean = 5400.5, .stddev = 800.25 };
	p->hist_sub_buckets = 1024;
	p->mode = strdup("software-clock");
	p->fallback_reason = strdup("event 'cycles' is not supported");
	p->ncpus_sampled = 2;
	p->cpus = calloc(2, sizeof(int));
	p->cpus[0] = 0;
	p->cpus[1] = 1;
	p->nevents = 1;
	p->events = calloc(1, sizeof(*p->events));
	/* .samples 13: the samples listed below, as record lists every one */
	p->events[0] = (struct profile_event){
		.name = strdup("cpu-clock"), .requested = strdup("cycles"),
		.pmu = strdup("perf"), .unit = strdup("ns"), .type = 1,
		.period = 100000, .samples = 13, .lost = 3, .throttled = 1,
		.count = 4000000000ULL, .enabled_ns = 2000000000ULL,
		.running_ns = 1500000000ULL };
	p->ntasks = 1;
	p->tasks = calloc(1, sizeof(*p->tasks));
	p->tasks[0] = (struct profile_task){ ROLE_RESPONDER, 4321, -1, 1900000000ULL,
					     5000, 400000000ULL, 1500000000ULL, 77,
					     2100000000ULL };
	p->ncpu_times = 1;
	p->cpu_times = calloc(1, sizeof(*p->cpu_times));
	p->cpu_times[0] = (struct profile_cpu){ 1, 10, 20, 30, 40, 50, 60, 2, 9 };
	p->latency_unsampled.count = 777;
	p->latency_unsampled.mean = 4321.5;
	/* the round trips timed, each percentile the midpoint of the
	 * bucket its rank falls in: the reader checks both */
	p->nhistogram = 6;
	p->histogram = calloc(6, sizeof(*p->histogram));
	p->histogram[0] = (struct profile_hist_bucket){ 5000, 5128, 61728 };
	p->histogram[1] = (struct profile_hist_bucket){ 6000, 6016, 49383 };
	p->histogram[2] = (struct profile_hist_bucket){ 9000, 9016, 11111 };
	p->histogram[3] = (struct profile_hist_bucket){ 20000, 20032, 1111 };
	p->histogram[4] = (struct profile_hist_bucket){ 90000, 90112, 111 };
	p->histogram[5] = (struct profile_hist_bucket){ 150000, 155000, 12 };
	p->nrepeats = 2;
	p->repeats = calloc(2, sizeof(*p->repeats));
	p->repeats[0] = (struct profile_repeat){ .round_trips = 60000,
		.window_ns = 1000000000ULL, .counts = calloc(1, sizeof(uint64_t)),
		.client_cpu_ns = 7 };
	p->repeats[0].latency.p50 = 5100;
	p->repeats[0].counts[0] = 2000000000ULL;
	p->repeats[1] = (struct profile_repeat){ .round_trips = 63456,
		.window_ns = 1000000000ULL, .counts = calloc(1, sizeof(uint64_t)) };
	p->repeats[1].counts[0] = 2000000001ULL;
	p->nstacks = 1;
	p->stacks = calloc(1, sizeof(*p->stacks));
	p->stacks[0] = (struct profile_stack){ 0, ROLE_CLIENT, 4, 400000, 3,
					       calloc(3, sizeof(uint64_t)), 0 };
	p->stacks[0].ips[0] = 0xffffffff81a2b3c5ULL;
	p->stacks[0].ips[2] = 0xffffffff81000001ULL;
	p->ncounts = 2;
	p->counts = calloc(2, sizeof(*p->counts));
	p->counts[0] = (struct profile_count){ strdup("context-switches"), 1,
					       2000, 1000, 10, 5 };
	/* version 2 counts every sampled event */
	p->counts[1] = (struct profile_count){ strdup("cpu-clock"), 1,
					       4000000000ULL, 4000000000ULL, 10, 10 };
	p->nirqs = 1;
	p->irqs = calloc(1, sizeof(*p->irqs));
	p->irqs[0] = (struct profile_irq){ strdup("softirq"), strdup("NET_RX"),
					   NULL, 1, 424242 };
	p->nmissing = 1;
	p->missing = calloc(1, sizeof(*p->missing));
	p->missing[0] = (struct profile_missing){ strdup("instructions"),
						  strdup("no PMU") };
	assert_int_equal(profile_add_condition(p, "cpu.topology", "2 CPUs"), 0);
	assert_int_equal(profile_add_condition(p, "net.netfilter", "no tables"), 0);
	p->nsamples = 2;
	p->samples = calloc(2, sizeof(*p->samples));
	/* above 2^53: must survive JSON without losing bits */
	p->samples[0] = (struct profile_sample){ 0, 1, 0xffffffff81a2b3c5ULL,
						 ROLE_CLIENT, 10, 1000003, 0, 0, 0 };
	p->samples[1] = (struct profile_sample){ 0, 0, 0xffffffffc0001234ULL,
						 ROLE_IDLE, 3, 300000, 1, 0, 0 };
	p->nksyms = 2;
	p->ksyms = calloc(2, sizeof(*p->ksyms));
	p->ksyms[0] = (struct profile_ksym){ 0xffffffff81a2b000ULL, 0x1000, 'T',
					     strdup("udp_sendmsg"), NULL };
	p->ksyms[1] = (struct profile_ksym){ 0xffffffffc0001000ULL, 0x400, 't',
					     strdup("veth_xmit"), strdup("veth") };
}

static char *path_of(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static void test_round_trip(void **state)
{
	struct profile a, b;
	char *path = path_of("a.json");

	make_profile(&a);
	assert_int_equal(profile_write(&a, path, 0), 0);
	assert_int_equal(profile_read(&b, path), 0);
	assert_int_equal(b.version, PROFILE_VERSION);
	assert_string_equal(b.kernel_release, "6.18.0-test");
	assert_string_equal(b.build_id, a.build_id);
	assert_null(b.kernel_version);
	assert_true(b.text_addr == 0xffffffff81000000ULL);
	assert_string_equal(b.transport, "udp");
	assert_int_equal(b.message_size, 40);
	assert_int_equal(b.client_cpu, 1);
	assert_int_equal(b.round_trips, 123456);
	assert_int_equal(b.window_ns, 2000000000ULL);
	assert_int_equal(b.latency.p50, 5064);
	assert_int_equal(b.latency.max, 150000);
	assert_true(b.latency.mean == 5400.5);
	assert_string_equal(b.mode, "software-clock");
	assert_string_equal(b.fallback_reason, a.fallback_reason);
	assert_int_equal(b.ncpus_sampled, 2);
	assert_int_equal(b.cpus[1], 1);
	assert_int_equal(b.nevents, 1);
	assert_string_equal(b.events[0].name, "cpu-clock");
	assert_string_equal(b.events[0].requested, "cycles");
	assert_int_equal(b.events[0].period, 100000);
	assert_int_equal(b.events[0].lost, 3);
	assert_int_equal(b.events[0].count, 4000000000ULL);
	assert_int_equal(b.nsamples, 2);
	assert_true(b.samples[0].ip == 0xffffffff81a2b3c5ULL);
	assert_int_equal(b.samples[0].role, ROLE_CLIENT);
	assert_int_equal(b.samples[0].weight, 1000003);
	assert_int_equal(b.samples[1].role, ROLE_IDLE);
	assert_int_equal(b.nksyms, 2);
	assert_string_equal(b.ksyms[0].name, "udp_sendmsg");
	assert_null(b.ksyms[0].module);
	assert_string_equal(b.ksyms[1].module, "veth");
	assert_int_equal(b.ksyms[1].type, 't');
	assert_true(b.ksyms[1].size == 0x400);
	assert_int_equal(b.events[0].enabled_ns, 2000000000ULL);
	assert_int_equal(b.events[0].running_ns, 1500000000ULL);
	assert_int_equal(b.ntasks, 1);
	assert_int_equal(b.tasks[0].role, ROLE_RESPONDER);
	assert_int_equal(b.tasks[0].pid, 4321);
	assert_int_equal(b.tasks[0].cpu, -1);
	assert_int_equal(b.tasks[0].cpu_ns, 1900000000ULL);
	assert_int_equal(b.tasks[0].switches, 77);
	assert_int_equal(b.tasks[0].span_ns, 2100000000ULL);
	assert_int_equal(b.ncpu_times, 1);
	assert_int_equal(b.cpu_times[0].softirq_ns, 40);
	assert_int_equal(b.cpu_times[0].throttled, 9);
	assert_int_equal(b.ncounts, 2);
	assert_string_equal(b.counts[0].name, "context-switches");
	assert_int_equal(b.counts[0].value, 2000);
	assert_int_equal(b.counts[0].raw, 1000);
	assert_int_equal(b.counts[0].running_ns, 5);
	assert_int_equal(b.nirqs, 1);
	assert_string_equal(b.irqs[0].name, "NET_RX");
	assert_null(b.irqs[0].desc);
	assert_int_equal(b.irqs[0].count, 424242);
	assert_int_equal(b.nmissing, 1);
	assert_string_equal(b.missing[0].reason, "no PMU");
	assert_int_equal(b.latency_unsampled.count, 777);
	assert_true(b.latency_unsampled.mean == 4321.5);
	assert_int_equal(b.nhistogram, 6);
	assert_int_equal(b.histogram[0].hi, 5128);
	assert_int_equal(b.histogram[5].count, 12);
	assert_int_equal(b.latency.p9999, 90056);
	assert_int_equal(b.hist_sub_buckets, 1024);
	assert_int_equal(b.nrepeats, 2);
	assert_int_equal(b.repeats[0].round_trips, 60000);
	assert_int_equal(b.repeats[0].latency.p50, 5100);
	assert_int_equal(b.repeats[0].client_cpu_ns, 7);
	assert_int_equal(b.repeats[1].counts[0], 2000000001ULL);
	assert_int_equal(b.samples[0].repeat, 0);
	assert_int_equal(b.samples[1].repeat, 1);
	assert_int_equal(b.nstacks, 1);
	assert_int_equal(b.stacks[0].depth, 3);
	assert_int_equal(b.stacks[0].weight, 400000);
	assert_true(b.stacks[0].ips[0] == 0xffffffff81a2b3c5ULL);
	assert_true(b.stacks[0].ips[2] == 0xffffffff81000001ULL);
	assert_int_equal(b.nconditions, 2);
	assert_string_equal(b.conditions[1].key, "net.netfilter");
	assert_string_equal(profile_condition(&b, "cpu.topology"), "2 CPUs");
	assert_null(profile_condition(&b, "nope"));
	profile_free(&a);
	profile_free(&b);
}

/* The write is atomic: a failed write leaves the old file untouched and
 * no temporary file behind. */
static void test_write_is_atomic(void **state)
{
	struct profile a, b;
	char *path = path_of("keep.json");
	char cmd[256];

	make_profile(&a);
	assert_int_equal(profile_write(&a, path, 0), 0);
	free(a.kernel_release);
	a.kernel_release = strdup("second");
	assert_int_equal(profile_write(&a, path, 0), 0);
	assert_int_equal(profile_read(&b, path), 0);
	assert_string_equal(b.kernel_release, "second");
	profile_free(&b);
	assert_int_equal(profile_write(&a, "/nonexistent-dir/x.json", 0), -1);
	snprintf(cmd, sizeof(cmd), "test $(ls '%s' | grep -c tmp) = 0", dir);
	assert_int_equal(system(cmd), 0);
	profile_free(&a);
}

static int read_text(const char *name, const char *text)
{
	struct profile p;
	char *path = path_of(name);
	FILE *f = fopen(path, "w");
	int ret;

	fputs(text, f);
	fclose(f);
	ret = profile_read(&p, path);
	if (!ret)
		profile_free(&p);
	return ret;
}

/* Rewrite one substring of a good profile and expect the read to fail. */
static int read_mutated(const char *from, const char *to)
{
	struct profile a;
	char *path = path_of("m.json"), *buf, *at, *out;
	long n;
	FILE *f;
	int ret;

	make_profile(&a);
	assert_int_equal(profile_write(&a, path, 0), 0);
	profile_free(&a);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	at = strstr(buf, from);
	assert_non_null(at);
	out = calloc(1, (size_t)n + strlen(to) + 1);
	memcpy(out, buf, (size_t)(at - buf));
	strcat(out, to);
	strcat(out, at + strlen(from));
	ret = read_text("m.json", out);
	free(buf);
	free(out);
	return ret;
}

/* Profiles from before the resolution was stated had 32 sub-buckets:
 * they still read, and say so. */
static void test_older_histogram_reads(void **state)
{
	struct profile a, b;
	char *path = path_of("old.json");

	make_profile(&a);
	a.hist_sub_buckets = 0;		/* the writer then leaves the key out */
	a.latency.p9999 = 0;
	assert_int_equal(profile_write(&a, path, 0), 0);
	assert_int_equal(profile_read(&b, path), 0);
	assert_int_equal(b.hist_sub_buckets, 32);
	assert_int_equal(b.nhistogram, 6);
	profile_free(&a);
	profile_free(&b);
}

static void test_malformed_refused(void **state)
{
	struct profile p;

	assert_int_equal(profile_read(&p, path_of("missing.json")), -1);
	assert_int_equal(read_text("empty.json", ""), -1);
	assert_int_equal(read_text("garbage.json", "{ not json"), -1);
	assert_int_equal(read_text("array.json", "[1, 2]"), -1);
	assert_int_equal(read_text("other.json", "{\"format\": \"speedscope\"}"), -1);
	assert_int_equal(read_mutated("\"version\": 3", "\"version\": 99"), -1);
	assert_int_equal(read_mutated("\"ip\": \"0xffffffff81a2b3c5\"",
				      "\"ip\": \"ffff\""), -1);
	assert_int_equal(read_mutated("\"role\": \"client\"",
				      "\"role\": \"martian\""), -1);
	assert_int_equal(read_mutated("\"event\": 0", "\"event\": 5"), -1);
	assert_int_equal(read_mutated("\"round_trips\": 123456",
				      "\"round_trips\": -1"), -1);
	assert_int_equal(read_mutated("\"repeat\": 1", "\"repeat\": 2"), -1);
	assert_int_equal(read_mutated("2000000001", "-5"), -1);
	assert_int_equal(read_mutated("155000", "15"), -1);
	assert_int_equal(read_mutated("\"window_ns\": 1000000000,\n    \"latency_ns\"",
				      "\"latency_ns\""), -1);
	assert_int_equal(read_mutated("\"mode\": \"software-clock\"",
				      "\"mode\": \"quantum\""), -1);
	/* and the unmutated file reads: the mutations are what failed */
	/* fields that disagree: a percentile not the histogram's, no units */
	assert_int_equal(read_mutated("\"p50\": 5064", "\"p50\": 5100"), -1);
	assert_int_equal(read_mutated("\"units\"", "\"unit_s\""), -1);
	assert_int_equal(read_mutated("\"version\": 3", "\"version\": 3"), 0);
}

/* Call chains as a tree (version 3): stacks that share a root-side
 * prefix share its nodes, and each reads back leaf first. */
static void test_stack_tree(void **state)
{
	static const uint64_t chains[][4] = {
		/* leaf first; 0 ends a shorter one */
		{ 0xa3, 0xa2, 0xa1, 0xa0 },
		{ 0xb2, 0xa2, 0xa1, 0xa0 },
		{ 0xa1, 0xa0 },             /* a prefix of both */
		{ 0xa3, 0xa2, 0xa1, 0xa0 }, /* the first again, another role */
		{ 0xc0 },
	};
	static const uint32_t depth[] = { 4, 4, 2, 4, 1 };
	char *path = path_of("tree.json");
	struct profile a, b;
	size_t i, d;
	json_t *doc;

	make_profile(&a);
	free(a.stacks[0].ips);
	free(a.stacks);
	a.nstacks = 5;
	a.stacks = calloc(a.nstacks, sizeof(*a.stacks));
	for (i = 0; i < a.nstacks; i++) {
		/* one sample each: the stacks hold no more than the 13 listed */
		a.stacks[i] = (struct profile_stack){ 0, i == 3 ? ROLE_RESPONDER :
			ROLE_CLIENT, 1, 100 * (i + 1), depth[i],
			calloc(depth[i], sizeof(uint64_t)), 0 };
		memcpy(a.stacks[i].ips, chains[i], depth[i] * sizeof(uint64_t));
	}
	doc = profile_to_json(&a);
	assert_non_null(doc);
	/* a0 a1 a2 a3 b2 c0: six nodes for 15 addresses */
	assert_int_equal(json_array_size(json_object_get(doc, "stack_nodes")), 6);
	json_decref(doc);
	assert_int_equal(profile_write(&a, path, 0), 0);
	assert_int_equal(profile_read(&b, path), 0);
	assert_int_equal(b.nstacks, a.nstacks);
	for (i = 0; i < a.nstacks; i++) {
		assert_int_equal(b.stacks[i].depth, depth[i]);
		assert_int_equal(b.stacks[i].role, a.stacks[i].role);
		assert_int_equal(b.stacks[i].weight, a.stacks[i].weight);
		for (d = 0; d < depth[i]; d++)
			assert_true(b.stacks[i].ips[d] == chains[i][d]);
	}
	profile_free(&a);
	profile_free(&b);

	/* a node that is its own parent, or names a later one: no cycles */
	assert_int_equal(read_mutated("[-1, ", "[0, "), -1);
	assert_int_equal(read_mutated("[-1, ", "[7, "), -1);
	assert_int_equal(read_mutated("[-1, ", "[-2, "), -1);
	assert_int_equal(read_mutated("\"node\": 2", "\"node\": 3"), -1);
	assert_int_equal(read_mutated("\"node\": 2", "\"node\": -1"), -1);
	assert_int_equal(read_mutated("\"stack_nodes\"", "\"stack_nodez\""), -1);
	assert_int_equal(read_mutated("[-1, \"0xffffffff81000001\"]",
				      "[-1, \"81000001\"]"), -1);
	/* version 2 listed each stack's addresses ("ips"): read as such,
	 * a stack naming a node is refused (test-fixtures' v2 files read) */
	assert_int_equal(read_mutated("\"version\": 3", "\"version\": 2"), -1);
}

/* Which hardware events measured nothing although their group ran. */
static void test_not_counting(void **state)
{
	struct profile_event ev[4] = {
		/* cycles, counted and sampled */
		{ .unit = "cycles", .type = 0, .period = 250001, .samples = 400,
		  .count = 100000000, .enabled_ns = 10, .running_ns = 10 },
		/* INST_RETIRED on a dynamic PMU type: accepted, counts 0 */
		{ .unit = "instructions", .type = 8, .period = 250001,
		  .enabled_ns = 10, .running_ns = 10 },
		/* context switches: zero is a value for software events */
		{ .unit = "events", .type = 1, .enabled_ns = 10, .running_ns = 10 },
		/* counted 40 periods, not one sample: no overflow interrupt */
		{ .unit = "instructions", .type = 0, .config = 1, .period = 1000,
		  .count = 40000, .enabled_ns = 10, .running_ns = 10 },
	};
	struct profile p = { .events = ev, .nevents = 4, .window_ns = 10 };

	(void)state;
	assert_null(profile_event_not_counting(&p, 0));
	assert_non_null(strstr(profile_event_not_counting(&p, 1), "counted 0"));
	assert_null(profile_event_not_counting(&p, 2));
	assert_non_null(strstr(profile_event_not_counting(&p, 3), "no sample"));
	assert_null(profile_event_not_counting(&p, 4));
	/* a few periods without a sample is chance, not a dead counter */
	ev[3].count = 5000;
	assert_null(profile_event_not_counting(&p, 3));
	/* a group that never ran says nothing about the event */
	ev[1].running_ns = 0;
	assert_null(profile_event_not_counting(&p, 1));
	/* times not recorded: it ran if the window did */
	ev[1].enabled_ns = 0;
	assert_non_null(profile_event_not_counting(&p, 1));
	/* cpu-clock is no PMU event, whatever its type says */
	ev[1].unit = "ns";
	assert_null(profile_event_not_counting(&p, 1));
}

/* A profile cut at any byte before its end is refused, never read as
 * something (or crashing): every offset of one written here. */
static void test_truncated_refused(void **state)
{
	struct profile a, b;
	char *path = path_of("whole.json"), cut[300];
	char *text;
	size_t len, i, end;
	FILE *f;
	int null = open("/dev/null", O_WRONLY), err = dup(2);

	make_profile(&a);
	assert_int_equal(profile_write(&a, path, 0), 0);
	profile_free(&a);
	f = fopen(path, "r");
	assert_non_null(f);
	text = malloc(1 << 20);
	len = fread(text, 1, 1 << 20, f);
	fclose(f);
	assert_true(len > 1000);
	for (end = len; end && (text[end - 1] == '\n' || text[end - 1] == ' '); end--)
		;
	snprintf(cut, sizeof(cut), "%s/cut.json", dir);
	dup2(null, 2);  /* a thousand "cannot read profile" lines */
	for (i = 0; i < end; i++) {
		f = fopen(cut, "w");
		fwrite(text, 1, i, f);
		fclose(f);
		if (profile_read(&b, cut) == 0) {
			dup2(err, 2);
			fail_msg("a profile cut at byte %zu of %zu was read", i, len);
		}
	}
	dup2(err, 2);
	close(null);
	close(err);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_write_is_atomic),
		cmocka_unit_test(test_malformed_refused),
		cmocka_unit_test(test_older_histogram_reads),
		cmocka_unit_test(test_not_counting),
		cmocka_unit_test(test_stack_tree),
		cmocka_unit_test(test_truncated_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
