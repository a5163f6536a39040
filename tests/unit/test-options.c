// SPDX-License-Identifier: GPL-2.0-only
/* The option table parser: values land where the entry says, bounds
 * and callbacks refuse bad values, operands are found after options
 * and "--", and --help is laid out from the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands/options.h"

struct args {
	const char *input;
	int width;
	int full;
	int mode;
	int calls;
};

static int count(const struct opt *o, const char *arg, void *at)
{
	(void)arg;
	*(int *)at += (int)o->num;
	return 0;
}

#define A(field) OPT_AT(struct args, field)
static const struct opt opts[] = {
	OPT_GROUP("group:\n"),
	OPT_STRING('i', "input", A(input), "FILE", "profile to read"),
	OPT_INT(0, "width", A(width), 60, 1000, "N",
		"text width in columns\n(default 72)"),
	OPT_BOOL(0, "full", A(full), "every section"),
	OPT_SET_INT('x', "exact", A(mode), 2, "exact mode"),
	OPT_CALLBACK_NUM(0, "a-rather-long-option", A(calls), "VALUE",
			 "counted", count, 3),
	OPT_HELP(),
	OPT_END()
};
#undef A

static const struct opt_usage usage = {
	.head = "usage: perpkt test [options] ARG...\n\n",
	.tail = "tail\n",
};

static int parse(struct args *a, int argc, const char **argv)
{
	memset(a, 0, sizeof(*a));
	return options_parse(argc, (char **)argv, opts, &usage, a);
}

static void test_values(void **state)
{
	const char *argv[] = { "test", "op1", "-i", "x.json", "--width=80",
			       "--full", "-x", "--a-rather-long-option", "v",
			       "--a-rather-long-option=w", "--", "--full",
			       NULL };
	struct args a;
	int next;

	(void)state;
	next = parse(&a, 12, argv);
	assert_int_equal(next, 10);  /* getopt moved the operands last */
	assert_string_equal(argv[next], "op1");
	assert_string_equal(argv[next + 1], "--full");
	assert_string_equal(a.input, "x.json");
	assert_int_equal(a.width, 80);
	assert_int_equal(a.full, 1);
	assert_int_equal(a.mode, 2);
	assert_int_equal(a.calls, 6);
}

static void test_refused(void **state)
{
	const char *low[] = { "test", "--width", "59", NULL };
	const char *word[] = { "test", "--width", "wide", NULL };
	const char *unknown[] = { "test", "--nope", NULL };
	struct args a;

	(void)state;
	assert_int_equal(parse(&a, 3, low), OPTIONS_ERROR);
	assert_int_equal(parse(&a, 3, word), OPTIONS_ERROR);
	assert_int_equal(parse(&a, 2, unknown), OPTIONS_ERROR);
}

static void test_help(void **state)
{
	const char *argv[] = { "test", "--help", NULL };
	const char *want =
"usage: perpkt test [options] ARG...\n"
"\n"
"group:\n"
"  -i, --input FILE       profile to read\n"
"      --width N          text width in columns\n"
"                         (default 72)\n"
"      --full             every section\n"
"  -x, --exact            exact mode\n"
"      --a-rather-long-option VALUE  counted\n"
"  -h, --help             show this help\n"
"tail\n";
	char buf[1024] = "";
	struct args a;
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	(void)state;
	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	assert_int_equal(parse(&a, 2, argv), OPTIONS_HELP);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
