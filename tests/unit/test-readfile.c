// SPDX-License-Identifier: GPL-2.0-only
/* The one whole-file reader (base/readfile.c): read to the end, within
 * its bound; over it refused (never cut short), a NUL byte in text
 * refused at once with its offset, a pipe read like a file; a gzip file
 * (/proc/config.gz) inflated in the process, under the same bound; a
 * command's output under its caller's bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/readfile.h"
#include "system/procfile.h"

static char path[64];

static void make_file(size_t n, char fill)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perpkt-readfile-%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	while (n--)
		fputc(fill, f);
	assert_int_equal(fclose(f), 0);
}

static void test_bound(void **state)
{
	struct readfile r;
	FILE *f;

	(void)state;
	/* 100000 bytes: over several reads, exactly at the bound read */
	make_file(100000, 'x');
	assert_int_equal(readfile_path(path, 100000, READFILE_TEXT, &r), 0);
	assert_int_equal(r.len, 100000);
	assert_int_equal(strlen(r.data), 100000);
	free(r.data);
	/* one byte over: refused, nothing handed back */
	r.data = (char *)1;
	assert_int_equal(readfile_path(path, 99999, 0, &r), -1);
	assert_int_equal(errno, EFBIG);
	assert_null(r.data);
	/* the program's reader keeps that policy */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_null(procfile_read_stream(f, 99999));
	fclose(f);
	unlink(path);
	assert_int_equal(readfile_path(path, 10, 0, &r), -1);
	assert_int_equal(errno, ENOENT);
}

static void test_text(void **state)
{
	struct readfile r;
	FILE *f;

	(void)state;
	make_file(5000, 'a');
	f = fopen(path, "a");
	assert_non_null(f);
	fputc('\0', f);
	fclose(f);
	assert_int_equal(readfile_path(path, 1 << 20, READFILE_TEXT, &r), -1);
	assert_int_equal(errno, EILSEQ);
	assert_int_equal(r.len, 5000);
	/* not text: read whole */
	assert_int_equal(readfile_path(path, 1 << 20, 0, &r), 0);
	assert_int_equal(r.len, 5001);
	free(r.data);
	unlink(path);
	/* /dev/zero under READFILE_TEXT: refused at its first byte */
	assert_int_equal(readfile_path("/dev/zero", (size_t)1 << 40,
				       READFILE_TEXT, &r), -1);
	assert_int_equal(errno, EILSEQ);
	assert_int_equal(r.len, 0);
}

static void test_pipe(void **state)
{
	FILE *f = popen("seq 1 20000", "r");
	char *s;

	(void)state;
	assert_non_null(f);
	s = procfile_read_stream(f, 1 << 20);
	pclose(f);
	assert_non_null(s);
	assert_int_equal(strlen(s), 108894);  /* seq 1 20000 | wc -c */
	assert_non_null(strstr(s, "\n19999\n20000\n"));
	free(s);
}

static void test_gz(void **state)
{
	char cmd[160], *s;

	(void)state;
	/* 300,000 bytes, compressed by gzip(1): the buffer grows past its
	 * first 64 KiB several times */
	make_file(0, 0);
	snprintf(cmd, sizeof(cmd), "seq 1 100000 | head -c 300000 | gzip -c >%s", path);
	assert_int_equal(system(cmd), 0);
	s = procfile_read_gz(path, 300000);
	assert_non_null(s);
	assert_int_equal(strlen(s), 300000);
	assert_memory_equal(s, "1\n2\n3\n", 6);
	free(s);
	/* one byte over the bound: refused */
	assert_null(procfile_read_gz(path, 299999));
	/* a file that is not gzip is read as it is */
	make_file(10, 'z');
	s = procfile_read_gz(path, 100);
	assert_non_null(s);
	assert_string_equal(s, "zzzzzzzzzz");
	free(s);
	unlink(path);
	assert_null(procfile_read_gz(path, 100));
}

static void test_command(void **state)
{
	char *argv[] = { "seq", "1", "20000", NULL };
	char *fails[] = { "false", NULL };
	char *s;

	(void)state;
	s = procfile_command(argv, 108894);
	assert_non_null(s);
	assert_int_equal(strlen(s), 108893);  /* the last newline cut */
	free(s);
	assert_null(procfile_command(argv, 108893));
	assert_null(procfile_command(fails, 100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_gz),
		cmocka_unit_test(test_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
