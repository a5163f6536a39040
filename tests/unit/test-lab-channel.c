// SPDX-License-Identifier: GPL-2.0-only
/* The guest's data port stream: base64 framing decoded into files, a
 * stream cut short (the guest died) and a hostile name refused; what
 * the guest adds to its arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lab/channel.h"
#include "lab/lab.h"

static char dir[] = "/tmp/perpkt-test-lab.XXXXXX";

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

static void test_base64(void **state)
{
	unsigned char out[64];

	assert_int_equal(lab_base64_decode("aGVsbG8=", out), 5);
	assert_memory_equal(out, "hello", 5);
	assert_int_equal(lab_base64_decode("aGVs\nbG8h\n", out), 6);
	assert_memory_equal(out, "hello!", 6);
	assert_int_equal(lab_base64_decode("AP8=", out), 2);
	assert_int_equal(out[0], 0x00);
	assert_int_equal(out[1], 0xff);
	assert_int_equal(lab_base64_decode("", out), 0);
	assert_int_equal(lab_base64_decode("aGV*bG8=", out), -1);
	assert_int_equal(lab_base64_decode("aG=VsbG8", out), -1);
}

static void write_stream(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_unpack(void **state)
{
	char stream[256], path[256];

	snprintf(stream, sizeof(stream), "%s/data", dir);
	/* console noise before the first frame, CRLF line ends */
	write_stream(stream, "garbage\r\nperpkt-file rc\r\nMAo=\r\nperpkt-end\r\n"
		     "perpkt-file stderr\naGVsbG8K\nd29ybGQK\nperpkt-end\n"
		     "perpkt-done\n");
	assert_int_equal(lab_channel_unpack(stream, dir), 2);
	snprintf(path, sizeof(path), "%s/rc", dir);
	assert_string_equal(slurp(path), "0\n");
	snprintf(path, sizeof(path), "%s/stderr", dir);
	assert_string_equal(slurp(path), "hello\nworld\n");

	/* an empty file after another (a kernel without /proc/modules):
	 * empty, not the one before it again */
	write_stream(stream, "perpkt-file stderr\naGVsbG8K\nperpkt-end\n"
		     "perpkt-file modules\nperpkt-end\nperpkt-done\n");
	assert_int_equal(lab_channel_unpack(stream, dir), 2);
	snprintf(path, sizeof(path), "%s/modules", dir);
	assert_string_equal(slurp(path), "");

	/* no perpkt-done: the guest stopped before the end */
	write_stream(stream, "perpkt-file rc\nMAo=\nperpkt-end\n");
	assert_int_equal(lab_channel_unpack(stream, dir), 0);

	/* a name with a folder is never written outside dir */
	write_stream(stream, "perpkt-file ../evil\nMAo=\nperpkt-end\nperpkt-done\n");
	assert_int_equal(lab_channel_unpack(stream, dir), 0);
	snprintf(path, sizeof(path), "%s/../evil", dir);
	assert_int_not_equal(access(path, F_OK), 0);

	/* garbled base64 is an error, not a short file */
	write_stream(stream, "perpkt-file rc\nM*o=\nperpkt-end\nperpkt-done\n");
	assert_int_equal(lab_channel_unpack(stream, dir), -1);
}

/* What the guest adds to its arguments (the host's options are left
 * out before, by the command: tests/unit/test-record-options.c). */
static void test_guest_args(void **state)
{
	char *args[] = { "-d", "2", "--placement", "same" };
	size_t n;
	char **a = lab_guest_args(args, 4, 0, 0, 0, &n);

	assert_non_null(a);
	assert_int_equal(n, 4);
	assert_string_equal(a[0], "-d");
	assert_string_equal(a[3], "same");
	assert_null(a[4]);
	free(a);
}

/* exact mode: the guest marks the window and counts on every vCPU */
static void test_guest_args_exact(void **state)
{
	char *args[] = { "-d", "2" };
	size_t n;
	char **a = lab_guest_args(args, 2, 1, 0, 0, &n);

	assert_non_null(a);
	assert_int_equal(n, 6);
	assert_string_equal(a[0], "-d");
	assert_string_equal(a[1], "2");
	assert_string_equal(a[2], "--window-marks");
	assert_string_equal(a[3], "-a");
	assert_string_equal(a[4], "-e");
	assert_string_equal(a[5], "cpu-clock");
	assert_null(a[6]);
	free(a);
}

/* --net nic: the client guest has the responder as its peer */
static void test_guest_args_nic(void **state)
{
	char *args[] = { "-d", "1", "--remote-cpus", "all" };
	size_t n;
	char **a = lab_guest_args(args, 4, 0, 1, 0, &n);

	assert_non_null(a);
	assert_int_equal(n, 8);
	assert_string_equal(a[2], "--remote-cpus");
	assert_string_equal(a[3], "all");
	assert_string_equal(a[4], "--peer");
	assert_string_equal(a[5], LAB_NIC_RESPONDER);
	assert_string_equal(a[6], "--peer-key");
	assert_string_equal(a[7], "/perpkt/serve.key");
	assert_null(a[8]);
	free(a);
}

/* stat --kernel: the guest's record counts only (--window-marks), once
 * however it is asked */
static void test_guest_args_stat(void **state)
{
	char *args[] = { "-d", "1", "-r", "2" };
	size_t n;
	char **a = lab_guest_args(args, 4, 0, 0, 1, &n);

	assert_non_null(a);
	assert_int_equal(n, 5);
	assert_string_equal(a[4], "--window-marks");
	assert_null(a[5]);
	free(a);
	a = lab_guest_args(args, 2, 1, 0, 1, &n);
	assert_non_null(a);
	assert_int_equal(n, 6);
	assert_string_equal(a[2], "--window-marks");
	assert_string_equal(a[5], "cpu-clock");
	assert_null(a[6]);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_unpack),
		cmocka_unit_test(test_guest_args),
		cmocka_unit_test(test_guest_args_exact),
		cmocka_unit_test(test_guest_args_nic),
		cmocka_unit_test(test_guest_args_stat),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
