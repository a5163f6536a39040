// SPDX-License-Identifier: GPL-2.0-only
/* The --peer control protocol: setup parsing and bounded line reads. */
#include "workload/control.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

static void test_parse_setup(void **state)
{
	struct control_setup s;
	char err[128];

	assert_int_equal(control_parse_setup("perpkt-serve 2 transport=udp size=40 cpu=1 user=ann host=h7 warmup_ms=1500",
					     &s, err, sizeof(err)), 0);
	assert_string_equal(s.transport, "udp");
	assert_int_equal(s.size, 40);
	assert_int_equal(s.cpu, 1);
	assert_string_equal(s.user, "ann");
	assert_string_equal(s.host, "h7");
	assert_int_equal(s.warmup_ms, 1500);
	assert_int_equal(s.window_ms, 0);
	assert_int_equal(s.profile, 0);
	assert_int_equal(s.marks, 0);
	/* record --kernel --exact --net nic's client: count only, marked */
	assert_int_equal(control_parse_setup("perpkt-serve 2 transport=udp size=40 cpu=1 user=ann host=h7 warmup_ms=300 window_ms=500 profile=1 period=0 freq=0 callchain=0 user_space=0 events=cpu-clock marks=1",
					     &s, err, sizeof(err)), 0);
	assert_int_equal(s.profile, 1);
	assert_int_equal(s.marks, 1);
	assert_string_equal(s.events, "cpu-clock");
	assert_string_equal(s.cpus, "");
	assert_int_equal(control_parse_setup("perpkt-serve 2 transport=tcp size=65507 cpu=-1 user=a;b",
					     &s, err, sizeof(err)), 0);
	assert_int_equal(s.cpu, -1);
	/* who asks is a plain word, or "unknown" */
	assert_string_equal(s.user, "unknown");
	assert_string_equal(s.host, "unknown");
	assert_int_equal(s.flows, 1);
	assert_int_equal(s.flow_cpu[0], -1);
	/* record --flows: each flow's responder CPU, the first cpu= */
	assert_int_equal(control_parse_setup("perpkt-serve 2 transport=udp size=40 cpu=1 flows=3 flow_cpus=1,0,-1 user=u",
					     &s, err, sizeof(err)), 0);
	assert_int_equal(s.flows, 3);
	assert_int_equal(s.flow_cpu[0], 1);
	assert_int_equal(s.flow_cpu[1], 0);
	assert_int_equal(s.flow_cpu[2], -1);
	/* without a list every flow on cpu= */
	assert_int_equal(control_parse_setup("perpkt-serve 2 transport=tcp size=40 cpu=2 flows=2",
					     &s, err, sizeof(err)), 0);
	assert_int_equal(s.flows, 2);
	assert_int_equal(s.flow_cpu[1], 2);
}

static void test_parse_setup_rejects(void **state)
{
	static const char *const bad[] = {
		"", "GET / HTTP/1.0", "perpkt-serve 1 transport=udp size=40 cpu=0", "perpkt-serve 2 hello",
		"perpkt-serve 2x transport=udp size=40 cpu=0",
		"perpkt-serve 2 size=40 cpu=0",
		"perpkt-serve 2 transport=pipe size=40 cpu=0",
		"perpkt-serve 2 transport=udpudpudpudpudpudp size=40 cpu=0",
		"perpkt-serve 2 transport=udp size=0 cpu=0",
		"perpkt-serve 2 transport=udp size=65508 cpu=0",
		"perpkt-serve 2 transport=udp size=40",
		"perpkt-serve 2 transport=udp size=40 cpu=-2",
		"perpkt-serve 2 transport=udp size=4x cpu=0",
		"perpkt-serve 2 transport=udp size=99999999999999999999 cpu=0",
		/* flows: 1 to CONTROL_FLOWS_MAX, one CPU each, the first cpu= */
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=0",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=65",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=1000000",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=x",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flow_cpus=0,1",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=0",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=0,1,2",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=1,0",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=0,-2",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=0,,1",
		"perpkt-serve 2 transport=udp size=40 cpu=0 flows=2 flow_cpus=0,70000",
	};
	struct control_setup s;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(control_parse_setup(bad[i], &s, err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
}

static void test_read_line_bounds(void **state)
{
	char big[CONTROL_LINE_MAX + 10], buf[CONTROL_LINE_MAX + 1], err[128];
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "stop\r\nstart\n", 12), 12);
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), 0);
	assert_string_equal(buf, "stop");
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), 0);
	assert_string_equal(buf, "start");

	/* too long: rejected, not truncated */
	memset(big, 'x', sizeof(big));
	assert_int_equal(write(sv[0], big, sizeof(big)), (ssize_t)sizeof(big));
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than"));
	close(sv[0]);
	close(sv[1]);

	/* NUL byte, timeout, EOF */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[0], "st\0p\n", 5), 5);
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NUL"));
	/* (the server closes the connection then; here the rest is read) */
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), 0);
	assert_string_equal(buf, "p");
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 50, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no answer within"));
	close(sv[0]);
	assert_int_equal(control_read_line(sv[1], buf, sizeof(buf), 1000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "closed"));
	close(sv[1]);
}

static void test_get(void **state)
{
	int64_t v;

	assert_int_equal(control_get("ok port=4000", "port", &v), 0);
	assert_int_equal(v, 4000);
	assert_int_equal(control_get("ok cpu=1 cpu_ns=77", "cpu_ns", &v), 0);
	assert_int_equal(v, 77);
	assert_int_equal(control_get("ok cpu=1 cpu_ns=77", "cpu", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(control_get("ok xport=1", "port", &v), -1);
	assert_int_equal(control_get("ok port=", "port", &v), -1);
	assert_int_equal(control_get("ok port=12a", "port", &v), -1);
}

static void test_get_list(void **state)
{
	int64_t v[4];

	assert_int_equal(control_get_list("ok flows=3 ports=40001,40002,9 x=1", "ports",
					  v, 4, 1, 65535), 3);
	assert_int_equal(v[0], 40001);
	assert_int_equal(v[2], 9);
	assert_int_equal(control_get_list("ok ports=7", "ports", v, 4, 1, 65535), 1);
	assert_int_equal(control_get_list("ok ports=1,2,3,4,5", "ports", v, 4, 1, 65535), -1);
	assert_int_equal(control_get_list("ok ports=1,0", "ports", v, 4, 1, 65535), -1);
	assert_int_equal(control_get_list("ok ports=1,", "ports", v, 4, 1, 65535), -1);
	assert_int_equal(control_get_list("ok ports=", "ports", v, 4, 1, 65535), -1);
	assert_int_equal(control_get_list("ok ports=1;2", "ports", v, 4, 1, 65535), -1);
	assert_int_equal(control_get_list("ok xports=1", "ports", v, 4, 1, 65535), -1);
}

static void test_resolve(void **state)
{
	struct sockaddr_in a;

	assert_int_equal(control_resolve("127.0.0.1", 12865, &a, "peer"), 0);
	assert_int_equal(ntohs(a.sin_port), 12865);
	assert_int_equal(control_resolve("127.0.0.1:7", 0, &a, "echo service"), 0);
	assert_int_equal(ntohs(a.sin_port), 7);
	assert_int_equal(control_resolve("127.0.0.1", 0, &a, "echo service"), -1);
	assert_int_equal(control_resolve("127.0.0.1:0", 1, &a, "peer"), -1);
	assert_int_equal(control_resolve("127.0.0.1:70000", 1, &a, "peer"), -1);
	assert_int_equal(control_resolve(":80", 1, &a, "peer"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_setup),
		cmocka_unit_test(test_parse_setup_rejects),
		cmocka_unit_test(test_get_list),
		cmocka_unit_test(test_read_line_bounds),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_resolve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
