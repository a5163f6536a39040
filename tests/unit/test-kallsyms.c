// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms parsing, lookups, saved entries and name folding.
 * Fixture kallsyms-small.txt (hand-made, laid out like /proc/kallsyms on
 * 6.x): padding symbols, ties at one address, a weak symbol, the _etext
 * hole, data symbols and a module.
 */
#include "symbolize/symbolize.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define BASE 0xffffffff81000000ull
#define MOD 0xffffffffc0001000ull

static int setup_small(void **state)
{
	struct symbolizer *s = NULL;

	if (symbolizer_open_kallsyms(&s, FIXTURES_DIR "/kallsyms-small.txt", NULL))
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	symbolizer_close(*state);
	return 0;
}

/* Resolve and check name + offset in one go; NULL name = not found. */
static void expect_sym(struct symbolizer *s, uint64_t addr, const char *name,
		       uint64_t offset)
{
	struct sym_result r;
	int rc = symbolizer_resolve(s, addr, &r);

	assert_int_equal(r.addr, addr);
	if (!name) {
		assert_int_equal(rc, 1);
		assert_null(r.name);
		assert_null(r.function);
		assert_string_equal(r.bucket, "unknown");
		return;
	}
	assert_int_equal(rc, 0);
	assert_non_null(r.name);
	assert_string_equal(r.name, name);
	assert_int_equal(r.offset, offset);
	assert_null(r.file);
	assert_int_equal(r.line, 0);
}

static void test_lookup_start_middle_end(void **state)
{
	struct symbolizer *s = *state;

	expect_sym(s, BASE + 0x70, "udp_sendmsg", 0);
	expect_sym(s, BASE + 0xf0, "udp_sendmsg", 0x80);
	/* Ends where the next padding starts. */
	expect_sym(s, BASE + 0x16f, "udp_sendmsg", 0xff);
	expect_sym(s, BASE + 0x20, "start_func", 0);
	/* Data symbols do not end a function; padding does. */
	expect_sym(s, BASE + 0x55, "start_func", 0x35);
	expect_sym(s, BASE + 0x5f, "start_func", 0x3f);
}

static void test_lookup_outside(void **state)
{
	struct symbolizer *s = *state;

	expect_sym(s, BASE - 1, NULL, 0);
	expect_sym(s, 0, NULL, 0);
	/* _etext ends the last core function; the hole after is unknown. */
	expect_sym(s, BASE + 0x2ff, "weak_func", 0x5f);
	expect_sym(s, BASE + 0x300, NULL, 0);
	expect_sym(s, 0xffffffff82000000ull, NULL, 0);
	/* The last symbol gets one page, nothing after it. */
	expect_sym(s, MOD + 0x200 + 0xfff, "veth_poll", 0xfff);
	expect_sym(s, MOD + 0x200 + 0x1000, NULL, 0);
	expect_sym(s, UINT64_MAX, NULL, 0);
}

static void test_padding_is_never_a_result(void **state)
{
	struct symbolizer *s = *state;
	struct sym_entry e;

	/* Padding before a function resolves to "unknown". */
	expect_sym(s, BASE + 0x60, NULL, 0);
	expect_sym(s, BASE + 0x6f, NULL, 0);
	expect_sym(s, BASE + 0x175, NULL, 0);
	expect_sym(s, BASE + 0x10, NULL, 0);
	assert_int_equal(symbolizer_symbol(s, BASE + 0x175, &e), 1);
	assert_null(e.name);
}

static void test_ties(void **state)
{
	struct symbolizer *s = *state;

	/* A real function beats the _text/_stext markers. */
	expect_sym(s, BASE, "srso_alias_untrain_ret", 0);
	/* Global T beats local t. */
	expect_sym(s, BASE + 0x180, "dup_a_global", 0);
	/* Among equals, the smallest name. */
	expect_sym(s, BASE + 0x210, "alpha_local", 0x10);
	assert_int_equal(symbolizer_text_addr(s), BASE);
}

static void test_module(void **state)
{
	struct symbolizer *s = *state;
	struct sym_result r;

	assert_int_equal(symbolizer_resolve(s, MOD + 0x20, &r), 0);
	assert_string_equal(r.name, "veth_xmit");
	assert_int_equal(r.offset, 0x10);
	assert_non_null(r.module);
	assert_string_equal(r.module, "veth");
	assert_int_equal(symbolizer_resolve(s, BASE + 0x70, &r), 0);
	assert_null(r.module);
	/* Module padding ends nothing before it but is no result. */
	expect_sym(s, MOD + 0x8, NULL, 0);
}

static void test_symbol_entry(void **state)
{
	struct symbolizer *s = *state;
	struct sym_entry e;

	assert_int_equal(symbolizer_symbol(s, BASE + 0xf0, &e), 0);
	assert_int_equal(e.addr, BASE + 0x70);
	assert_int_equal(e.size, 0x100);
	assert_int_equal(e.type, 'T');
	assert_string_equal(e.name, "udp_sendmsg");
	assert_null(e.module);

	assert_int_equal(symbolizer_symbol(s, MOD + 0x1f, &e), 0);
	assert_int_equal(e.addr, MOD + 0x10);
	assert_int_equal(e.size, 0x1f0);
	assert_int_equal(e.type, 't');
	assert_string_equal(e.module, "veth");

	assert_int_equal(symbolizer_symbol(s, BASE + 0x2a0, &e), 0);
	assert_int_equal(e.type, 'W');
	assert_int_equal(e.size, 0x60);
	assert_int_equal(symbolizer_symbol(s, BASE - 1, &e), 1);
}

static void test_folded_function(void **state)
{
	struct symbolizer *s = *state;
	struct sym_result r;

	assert_int_equal(symbolizer_resolve(s, BASE + 0x260, &r), 0);
	assert_string_equal(r.name, "finish_task_switch.isra.0");
	assert_string_equal(r.function, "finish_task_switch");
	assert_string_equal(r.bucket, "scheduler");
	assert_int_equal(r.offset, 0x10);
}

static void test_hidden_addresses(void **state)
{
	struct symbolizer *s = (struct symbolizer *)1;

	assert_int_equal(symbolizer_open_kallsyms(&s, FIXTURES_DIR
						  "/kallsyms-hidden.txt", NULL), -1);
	assert_null(s);
}

static void test_malformed_and_missing(void **state)
{
	struct symbolizer *s = (struct symbolizer *)1;
	struct sym_error err;

	assert_int_equal(symbolizer_open_kallsyms(&s, FIXTURES_DIR
						  "/kallsyms-malformed.txt", &err), -1);
	assert_null(s);
	assert_non_null(strstr(err.msg, "malformed kallsyms line at '"));
	s = (struct symbolizer *)1;
	assert_int_equal(symbolizer_open_kallsyms(&s, FIXTURES_DIR
						  "/no-such-file.txt", &err), -1);
	assert_null(s);
	assert_non_null(strstr(err.msg, "cannot open kallsyms file '"));
}

/* Not a kallsyms file: refused at once, not read until memory runs out. */
static void test_bounded_input(void **state)
{
	char path[] = "/tmp/perpkt-test-kallsyms-XXXXXX", line[2048];
	struct symbolizer *s = (struct symbolizer *)1;
	struct sym_error err;
	FILE *f;
	int fd;

	assert_int_equal(symbolizer_open_kallsyms(&s, "/dev/zero", &err), -1);
	assert_null(s);
	assert_non_null(strstr(err.msg, "'/dev/zero' is not text (a NUL byte at offset 0)"));
	/* /dev/urandom would have NULs too; an endless text file does not. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	fprintf(f, "ffffffff81000000 T _text\nffffffff81000010 T %s\n", line);
	fclose(f);
	assert_int_equal(symbolizer_open_kallsyms(&s, path, &err), -1);
	assert_non_null(strstr(err.msg, "line 2 of kallsyms file"));
	assert_non_null(strstr(err.msg, "is over 1024 bytes"));
	unlink(path);
}

/* JIT-ed BPF programs as /proc/kallsyms lists them: at the end, out of
 * address order, module [bpf]. A sample in one is named and bucketed
 * bpf, not [unknown]; the dispatcher too; the kernel's bpf_prog_run_*
 * helpers stay net-core. */
static void test_bpf_programs(void **state)
{
	char path[] = "/tmp/perpkt-test-kallsyms-XXXXXX";
	struct symbolizer *s = NULL;
	struct sym_result r;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _text\n"
		"ffffffff81000100 T bpf_prog_run_generic_xdp\n"
		"ffffffff81000200 T udp_sendmsg\n"
		"ffffffff82000000 T _etext\n"
		"ffffffffc0100000 t veth_xmit\t[veth]\n"
		"ffffffffc0000720 t bpf_prog_59f4a931744dcdc6_cls_pp\t[bpf]\n"
		"ffffffffc000074c t bpf_prog_614b434cd8324ecc_xdp_pass_pp\t[bpf]\n"
		"ffffffffc00010c0 t bpf_dispatcher_xdp\t[bpf]\n");
	fclose(f);
	assert_int_equal(symbolizer_open_kallsyms(&s, path, NULL), 0);
	unlink(path);
	assert_int_equal(symbolizer_resolve(s, 0xffffffffc0000730ull, &r), 0);
	assert_string_equal(r.name, "bpf_prog_59f4a931744dcdc6_cls_pp");
	assert_string_equal(r.module, "bpf");
	assert_string_equal(r.bucket, "bpf");
	assert_int_equal(symbolizer_resolve(s, 0xffffffffc0000760ull, &r), 0);
	assert_string_equal(r.name, "bpf_prog_614b434cd8324ecc_xdp_pass_pp");
	assert_string_equal(r.bucket, "bpf");
	assert_int_equal(symbolizer_resolve(s, 0xffffffffc00010d0ull, &r), 0);
	assert_string_equal(r.bucket, "bpf");
	assert_int_equal(symbolizer_resolve(s, 0xffffffff81000110ull, &r), 0);
	assert_string_equal(r.bucket, "net-core");
	symbolizer_close(s);
}

static void test_entries(void **state)
{
	char name[] = "udp_sendmsg.isra.0", mod[] = "veth";
	struct sym_entry in[] = {
		/* Out of order on purpose: the symbolizer sorts. */
		{ 0x2000, 0x10, 't', "veth_poll", mod },
		{ 0x1000, 0x100, 'T', name, NULL },
		{ 0x3000, 0, 't', "empty", NULL },
	};
	struct symbolizer *s = NULL;
	struct sym_result r;
	struct sym_entry e;

	assert_int_equal(symbolizer_open_entries(&s, in, 3, NULL), 0);
	assert_non_null(s);
	/* Entries are copied: scribbling on the caller's strings is safe. */
	memset(name, 'x', sizeof(name) - 1);
	memset(mod, 'y', sizeof(mod) - 1);

	assert_int_equal(symbolizer_resolve(s, 0x1000, &r), 0);
	assert_string_equal(r.name, "udp_sendmsg.isra.0");
	assert_string_equal(r.function, "udp_sendmsg");
	assert_string_equal(r.bucket, "udp");
	assert_int_equal(symbolizer_resolve(s, 0x10ff, &r), 0);
	assert_int_equal(r.offset, 0xff);
	/* Beyond addr + size is unknown even before the next entry. */
	assert_int_equal(symbolizer_resolve(s, 0x1100, &r), 1);
	assert_string_equal(r.bucket, "unknown");
	assert_int_equal(symbolizer_resolve(s, 0xfff, &r), 1);
	assert_int_equal(symbolizer_resolve(s, 0x200f, &r), 0);
	assert_string_equal(r.name, "veth_poll");
	assert_string_equal(r.module, "veth");
	assert_int_equal(symbolizer_resolve(s, 0x2010, &r), 1);
	/* A saved entry of size 0 contains nothing. */
	assert_int_equal(symbolizer_resolve(s, 0x3000, &r), 1);

	assert_int_equal(symbolizer_symbol(s, 0x1050, &e), 0);
	assert_int_equal(e.addr, 0x1000);
	assert_int_equal(e.size, 0x100);
	assert_int_equal(e.type, 'T');
	assert_string_equal(e.name, "udp_sendmsg.isra.0");
	assert_int_equal(symbolizer_text_addr(s), 0);
	symbolizer_close(s);
}

static void test_entries_round_trip(void **state)
{
	struct symbolizer *k = *state, *s = NULL;
	struct sym_entry e[2];
	struct sym_result r;

	/* What a recorder saves resolves the same way when reopened. */
	assert_int_equal(symbolizer_symbol(k, BASE + 0xf0, &e[0]), 0);
	assert_int_equal(symbolizer_symbol(k, MOD + 0x20, &e[1]), 0);
	assert_int_equal(symbolizer_open_entries(&s, e, 2, NULL), 0);
	assert_int_equal(symbolizer_resolve(s, BASE + 0xf0, &r), 0);
	assert_string_equal(r.name, "udp_sendmsg");
	assert_int_equal(r.offset, 0x80);
	assert_int_equal(symbolizer_resolve(s, MOD + 0x20, &r), 0);
	assert_string_equal(r.module, "veth");
	assert_int_equal(symbolizer_resolve(s, BASE + 0x170, &r), 1);
	symbolizer_close(s);
}

static void test_entries_empty_and_bad(void **state)
{
	struct sym_entry bad = { 0x1000, 0x10, 't', NULL, NULL };
	struct symbolizer *s = NULL;
	struct sym_result r;

	assert_int_equal(symbolizer_open_entries(&s, NULL, 0, NULL), 0);
	assert_int_equal(symbolizer_resolve(s, 0x1000, &r), 1);
	symbolizer_close(s);
	s = (struct symbolizer *)1;
	assert_int_equal(symbolizer_open_entries(&s, &bad, 1, NULL), -1);
	assert_null(s);
}

static void test_fold(void **state)
{
	static const char *const cases[][2] = {
		{ "udp_sendmsg", "udp_sendmsg" },
		{ "udp_sendmsg.isra.0", "udp_sendmsg" },
		{ "foo.constprop.0", "foo" },
		{ "foo.part.0", "foo" },
		{ "foo.cold", "foo" },
		{ "foo.cold.12", "foo" },
		{ "foo.isra.0.cold", "foo" },
		{ "foo.constprop.0.isra.0", "foo" },
		{ "foo.llvm.12345678901234567", "foo" },
		{ "foo.lto_priv.0", "foo" },
		{ "foo.part.1.constprop.0.cold", "foo" },
		/* Not compiler suffixes: left alone. */
		{ "foo.5", "foo.5" },
		{ "foo.bar", "foo.bar" },
		{ "foo.bar.isra.0", "foo.bar" },
		{ ".cold", ".cold" },
		{ "foo.", "foo." },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, '#', sizeof(buf));
		assert_ptr_equal(symbol_fold(cases[i][0], buf, sizeof(buf)),
				 buf);
		assert_string_equal(buf, cases[i][1]);
	}
	/* A short buffer truncates and stays terminated. */
	symbol_fold("abcdef.isra.0", buf, 4);
	assert_string_equal(buf, "abc");
	symbol_fold("abc.isra.0", buf, 4);
	assert_string_equal(buf, "abc");
	/* In place works too. */
	strcpy(buf, "tcp_v4_rcv.cold");
	assert_string_equal(symbol_fold(buf, buf, sizeof(buf)), "tcp_v4_rcv");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lookup_start_middle_end,
						setup_small, teardown),
		cmocka_unit_test_setup_teardown(test_lookup_outside,
						setup_small, teardown),
		cmocka_unit_test_setup_teardown(test_padding_is_never_a_result,
						setup_small, teardown),
		cmocka_unit_test_setup_teardown(test_ties, setup_small,
						teardown),
		cmocka_unit_test_setup_teardown(test_module, setup_small,
						teardown),
		cmocka_unit_test_setup_teardown(test_symbol_entry, setup_small,
						teardown),
		cmocka_unit_test_setup_teardown(test_folded_function,
						setup_small, teardown),
		cmocka_unit_test_setup_teardown(test_entries_round_trip,
						setup_small, teardown),
		cmocka_unit_test(test_hidden_addresses),
		cmocka_unit_test(test_malformed_and_missing),
		cmocka_unit_test(test_bounded_input),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_bpf_programs),
		cmocka_unit_test(test_entries_empty_and_bad),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
