// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module addresses with the module's own DWARF: tests/fixtures/kmod's
 * pktmod.ko (a relocatable module built by the test build) placed at
 * made-up runtime section bases, beside the ktree vmlinux. Expected
 * positions are those eu-addr2line -f -i -j SECTION gives on the .ko
 * (the lines of pktmod.c and pktmod.h).
 */
#include "symbolize/symbolize.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* ctest runs unit tests from <build>/tests. */
#define KTREE "fixtures/ktree/"
#define KMOD "fixtures/kmod/"

#define TEXT 0xffffffffc0a5e000ULL
#define INIT 0xffffffffc0a70000ULL

struct placed {
	struct sym_section secs[2];
	struct sym_module mod;
	struct sym_entry syms[2];
	struct symbolizer_options o;
};

/* pktmod's sections at text and init; its two functions start their
 * sections (st_value 0), as kallsyms would list them. */
static void place(struct placed *p, uint64_t text, uint64_t init,
		  const char *dir)
{
	memset(p, 0, sizeof(*p));
	p->secs[0] = (struct sym_section){ ".text", text };
	p->secs[1] = (struct sym_section){ ".init.text", init };
	p->mod = (struct sym_module){ "pktmod", p->secs, 2 };
	p->syms[0] = (struct sym_entry){ text, 0, 'T', "pktmod_xmit", "pktmod" };
	p->syms[1] = (struct sym_entry){ init, 0, 't', "pktmod_init", "pktmod" };
	p->o.modules = p->syms;
	p->o.nmodules = 2;
	p->o.loaded = &p->mod;
	p->o.nloaded = 1;
	p->o.modules_dir = dir;
}

static struct symbolizer *open_placed(struct placed *p)
{
	struct symbolizer *s = NULL;
	struct sym_error err;

	if (access(KMOD "pktmod.ko", R_OK) || access(KTREE "vmlinux", R_OK))
		fail_msg("fixtures missing (run from <build>/tests)");
	if (symbolizer_open_vmlinux(&s, KTREE "vmlinux", &p->o, &err))
		fail_msg("%s", err.msg);
	return s;
}

static void test_module_dwarf(void **state)
{
	struct placed p;
	struct symbolizer *s;
	struct sym_result r;

	(void)state;
	place(&p, TEXT, INIT, KMOD);
	s = open_placed(&p);
	assert_null(symbolizer_warning(s));
	assert_int_equal(symbolizer_resolve(s, TEXT, &r), 0);
	assert_string_equal(r.function, "pktmod_xmit");
	assert_string_equal(r.module, "pktmod");
	assert_string_equal(r.unit, "pktmod.c");
	assert_string_equal(r.file, "pktmod.c");
	assert_int_equal(r.line, 14);
	assert_int_equal(r.ninlines, 1);
	assert_string_equal(r.inlines[0].function, "pktmod_clamp");
	assert_string_equal(r.inlines[0].file, "pktmod.h");
	assert_int_equal(r.inlines[0].line, 10);
	assert_int_equal(symbolizer_resolve(s, TEXT + 0x10, &r), 0);
	assert_int_equal(r.inlines[0].line, 12);
	/* The second section has its own base. */
	assert_int_equal(symbolizer_resolve(s, INIT, &r), 0);
	assert_string_equal(r.function, "pktmod_init");
	assert_string_equal(r.file, "pktmod.c");
	assert_int_equal(r.line, 22);
	/* Past the end of .text (0x29 bytes): the symbol, no position. */
	assert_int_equal(symbolizer_resolve(s, TEXT + 0x40, &r), 0);
	assert_string_equal(r.function, "pktmod_xmit");
	assert_null(r.file);
	/* The core kernel is untouched. */
	assert_true(symbolizer_has_dwarf(s));
	symbolizer_close(s);
}

/* Another load address, the same answers: only the offset counts. */
static void test_module_elsewhere(void **state)
{
	const uint64_t shift = 0x1234000;
	struct placed a, b;
	struct symbolizer *sa, *sb;
	struct sym_result ra, rb;
	uint64_t off;

	(void)state;
	place(&a, TEXT, INIT, KMOD);
	place(&b, TEXT + shift, INIT - shift, KMOD);
	sa = open_placed(&a);
	sb = open_placed(&b);
	for (off = 0; off < 0x29; off++) {
		assert_int_equal(symbolizer_resolve(sa, TEXT + off, &ra), 0);
		assert_int_equal(symbolizer_resolve(sb, TEXT + shift + off, &rb), 0);
		assert_non_null(ra.file);
		assert_string_equal(ra.file, rb.file);
		assert_int_equal(ra.line, rb.line);
		assert_int_equal(ra.ninlines, rb.ninlines);
	}
	assert_int_equal(symbolizer_resolve(sb, INIT - shift, &rb), 0);
	assert_int_equal(rb.line, 22);
	symbolizer_close(sa);
	symbolizer_close(sb);
}

/* No file for the module: names only, and a warning that says so. */
static void test_module_not_found(void **state)
{
	struct placed p;
	struct symbolizer *s;
	struct sym_result r;
	const char *w;

	(void)state;
	place(&p, TEXT, INIT, KTREE);
	s = open_placed(&p);
	w = symbolizer_warning(s);
	assert_non_null(w);
	assert_non_null(strstr(w, "no pktmod.ko or pktmod.ko.debug under fixtures/ktree/"));
	assert_int_equal(symbolizer_resolve(s, TEXT, &r), 0);
	assert_string_equal(r.function, "pktmod_xmit");
	assert_null(r.file);
	symbolizer_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_dwarf),
		cmocka_unit_test(test_module_elsewhere),
		cmocka_unit_test(test_module_not_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
