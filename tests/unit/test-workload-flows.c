// SPDX-License-Identifier: GPL-2.0-only
/* --flows: N ping-pong pairs through workload_start's one window. */
#include "workload/workload.h"

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static const int clients[] = { 0, 1, 0 }, servers[] = { 1, 0, 1 };

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static struct workload_config flows_config(int n, const char *transport)
{
	struct workload_config c = {
		.transport = transport, .network = "loopback",
		.client_cpu = 0, .server_cpu = 1, .message_size = 40,
		.nflows = n, .client_cpus = clients, .server_cpus = servers,
	};
	cpu_set_t set;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET(0, &set) ||
	    !CPU_ISSET(1, &set))
		skip();
	return c;
}

/* Three flows, one window: the flows' round trips add up, each flow
 * ran, each on its own port and processes. */
static void test_three_flows(void **state)
{
	const char *transports[] = { "udp", "tcp", "pipe" };
	size_t k;

	for (k = 0; k < 3; k++) {
		struct workload_config c = flows_config(3, transports[k]);
		static struct workload_result res;
		uint64_t sum = 0;
		struct workload *w;
		pid_t pc[3], pr[3];
		int i;

		assert_int_equal(workload_start(&w, &c), 0);
		assert_int_equal(workload_nflows(w), 3);
		for (i = 0; i < 3; i++) {
			workload_flow_pids(w, i, &pc[i], &pr[i]);
			assert_true(pc[i] > 0 && pr[i] > 0 && pc[i] != pr[i]);
			assert_true(i == 0 || (pc[i] != pc[i - 1] && pr[i] != pr[i - 1]));
		}
		assert_int_equal(workload_window_open(w), 0);
		sleep_ms(200);
		assert_int_equal(workload_window_close(w, &res), 0);
		workload_stop(w);
		assert_int_equal(res.nflows, 3);
		for (i = 0; i < 3; i++) {
			assert_true(res.flow[i].round_trips > 0);
			assert_true(res.flow[i].p50_ns > 0);
			assert_int_equal(res.flow[i].client_cpu, clients[i]);
			assert_int_equal(res.flow[i].server_cpu, servers[i]);
			sum += res.flow[i].round_trips;
		}
		assert_int_equal(sum, res.round_trips);
		assert_int_equal(res.latency.count, res.round_trips);
		if (strcmp(transports[k], "pipe")) {
			assert_true(res.flow[0].port && res.flow[1].port &&
				    res.flow[0].port != res.flow[1].port);
		}
		/* udp: at least two datagrams a round trip (the host's other
		 * traffic may add; t0516 checks it exactly in a namespace) */
		assert_int_equal(res.udp_in_valid, !strcmp(transports[k], "udp"));
		if (res.udp_in_valid)
			assert_true(res.udp_in >= 2 * res.round_trips);
		print_message("%s: %llu round trips (%llu, %llu, %llu)\n",
			      transports[k], (unsigned long long)res.round_trips,
			      (unsigned long long)res.flow[0].round_trips,
			      (unsigned long long)res.flow[1].round_trips,
			      (unsigned long long)res.flow[2].round_trips);
	}
}

/* A flow whose responder dies fails the run, named. */
static void test_flow_named(void **state)
{
	struct workload_config c = flows_config(2, "tcp");
	static struct workload_result res;
	struct workload *w;
	pid_t pc, pr;

	assert_int_equal(workload_start(&w, &c), 0);
	workload_flow_pids(w, 1, &pc, &pr);
	assert_int_equal(workload_window_open(w), 0);
	kill(pr, SIGKILL);
	sleep_ms(100);
	assert_int_equal(workload_window_close(w, &res), -1);
	workload_stop(w);
	assert_true(res.failed);
	assert_non_null(strstr(res.error, "flow 1 (port "));
	assert_non_null(strstr(res.error, "client CPU 1, responder CPU 0"));
}

static void test_bad_flows(void **state)
{
	struct workload_config c = flows_config(65, "udp");

	assert_int_equal(workload_check_config(&c), -1);
	c = flows_config(2, "icmp");
	assert_int_equal(workload_check_config(&c), -1);
	c = flows_config(2, "udp");
	c.count = 100;
	assert_int_equal(workload_check_config(&c), -1);
	c = flows_config(2, "pipe");
	c.burst = 2;
	assert_int_equal(workload_check_config(&c), -1);
	c = flows_config(2, "udp");
	assert_int_equal(workload_check_config(&c), 0);
}

static void test_flows_text(void **state)
{
	static struct workload_result res;
	char buf[512];

	res.nflows = 1;
	workload_flows_text(&res, buf, sizeof(buf));
	assert_string_equal(buf, "");
	res.nflows = 3;
	res.flow[0] = (struct workload_flow_result){ 100, 20000, 0, 1, 4000 };
	res.flow[1] = (struct workload_flow_result){ 50, 31500, 1, 0, 4001 };
	res.flow[2] = (struct workload_flow_result){ 120, 19000, 0, -1, 0 };
	workload_flows_text(&res, buf, sizeof(buf));
	assert_string_equal(buf, "p50 slowest 31.5 us flow 1 (port 4001, client "
			    "CPU 1, responder CPU 0), fastest 19.0 us flow 2 "
			    "(client CPU 0); round trips by flow 100,50,120");
	/* cut short, still a string */
	workload_flows_text(&res, buf, 40);
	assert_int_equal(strlen(buf), 39);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flows_text),
		cmocka_unit_test(test_bad_flows),
		cmocka_unit_test(test_three_flows),
		cmocka_unit_test(test_flow_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
