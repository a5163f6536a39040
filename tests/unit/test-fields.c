// SPDX-License-Identifier: GPL-2.0-only
/* The profile's field tables (src/profile/fields.c): written in table
 * order, an optional 0 left out, read back the same, summed by merge
 * (saturating; a span only where both know it), and which integer
 * keys may be negative. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "profile/fields.h"
#include "profile/profile.h"

static void test_write_read(void **state)
{
	struct profile_task t = { .role = ROLE_CLIENT, .pid = 42, .cpu = -1,
				  .cpu_ns = 5, .wait_ns = 6, .user_ns = 7,
				  .system_ns = 8, .switches = 9 }, back;
	struct reader r = { .path = "test" };
	json_t *o = json_object();
	char *text;

	(void)state;
	assert_int_equal(profile_fields_write(o, profile_task_fields, &t), 0);
	text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
	/* span_ns 0 (unknown) is left out */
	assert_string_equal(text, "{\"pid\":42,\"cpu\":-1,\"cpu_ns\":5,"
			    "\"wait_ns\":6,\"user_ns\":7,\"system_ns\":8,"
			    "\"switches\":9}");
	free(text);
	memset(&back, 0xff, sizeof(back));
	profile_fields_read(&r, o, profile_task_fields, &back);
	assert_false(r.failed);
	assert_int_equal(back.pid, 42);
	assert_int_equal(back.cpu, -1);
	assert_int_equal(back.switches, 9);
	assert_int_equal(back.span_ns, 0);
	/* a required field missing fails the reader */
	json_object_del(o, "wait_ns");
	profile_fields_read(&r, o, profile_task_fields, &back);
	assert_true(r.failed);
	json_decref(o);
}

static void test_sum(void **state)
{
	struct profile_task a = { .pid = 1, .cpu_ns = UINT64_MAX - 1,
				  .wait_ns = 2, .span_ns = 10 };
	struct profile_task b = { .pid = 2, .cpu_ns = 5, .wait_ns = 3,
				  .span_ns = 20 };

	(void)state;
	profile_fields_sum(&a, &b, profile_task_fields);
	assert_int_equal(a.pid, 1);             /* an int is not summed */
	assert_true(a.cpu_ns == UINT64_MAX);    /* saturates */
	assert_int_equal(a.wait_ns, 5);
	assert_int_equal(a.span_ns, 30);
	b.span_ns = 0;                          /* one side unknown */
	profile_fields_sum(&a, &b, profile_task_fields);
	assert_int_equal(a.span_ns, 0);
}

static void test_signed(void **state)
{
	(void)state;
	assert_true(profile_key_signed("cpu"));
	assert_true(profile_key_signed("pid"));
	assert_true(profile_key_signed("client_cpu"));
	assert_false(profile_key_signed("cpu_ns"));
	assert_false(profile_key_signed("value"));
	assert_false(profile_key_signed(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_signed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
