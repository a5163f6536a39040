// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt's own inline-chain walk (symbolize/dwarf-inline.c) against a
 * libdw descent (dwarf_child, dwarf_siblingof, dwarf_haspc, dwarf_diename
 * and the call_file/call_line attributes): every address of every
 * function of the ktree fixture (DWARF 5 and 4) must give the same chain,
 * and a sample of a real vmlinux when one is at hand (PERPKT_VMLINUX,
 * else Debian's -dbg path).
 */
#include "symbolize/symbolize.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "symbolize/symbolize-internal.h"

/* ctest runs unit tests from <build>/tests. */
#define KTREE "fixtures/ktree/"
#define REAL_VMLINUX \
	"/tmp/kdbg/x/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64"
#define MAX_DEPTH 64

struct stats {
	size_t addrs, frames;
};

/* The reference: libdw, as symbolize/dwarf.c descended before. */
static int descend(Dwarf_Die *die, uint64_t addr, Dwarf_Die *chain, int depth)
{
	Dwarf_Die c;

	if (depth >= MAX_DEPTH || dwarf_child(die, &c))
		return depth;
	do {
		int tag = dwarf_tag(&c), got;

		if (tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block)
			continue;
		if (dwarf_haspc(&c, addr) == 1) {
			if (tag == DW_TAG_inlined_subroutine)
				chain[depth++] = c;
			return descend(&c, addr, chain, depth);
		}
		if (tag == DW_TAG_lexical_block &&
		    !dwarf_hasattr(&c, DW_AT_low_pc) &&
		    !dwarf_hasattr(&c, DW_AT_ranges)) {
			got = descend(&c, addr, chain, depth);
			if (got > depth)
				return got;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return depth;
}

static void check_addr(const struct dw_sections *sec, const struct dw_unit *u,
		       const struct dw_abbrevs *a, Dwarf_Die *fn,
		       uint64_t addr, struct stats *st)
{
	Dwarf_Die want[MAX_DEPTH];
	struct dw_inline got[MAX_DEPTH];
	const char *why = NULL;
	int n, m, i;

	n = descend(fn, addr, want, 0);
	m = dw_inline_chain(sec, u, a, dwarf_dieoffset(fn), addr, got,
			    MAX_DEPTH, &why);
	if (m != n)
		fail_msg("0x%llx: depth %d, libdw %d (%s)",
			 (unsigned long long)addr, m, n, why ? why : "");
	for (i = 0; i < n; i++) {
		const char *name = dwarf_diename(&want[i]);
		Dwarf_Attribute attr;
		Dwarf_Word v = 0;
		int has;

		if (!name || !got[i].name)
			assert_ptr_equal(name, got[i].name);
		else
			assert_string_equal(got[i].name, name);
		has = dwarf_formudata(dwarf_attr(&want[i], DW_AT_call_file,
						 &attr), &v) == 0;
		assert_int_equal(got[i].has_call_file, has);
		if (has)
			assert_int_equal(got[i].call_file, v);
		v = 0;
		dwarf_formudata(dwarf_attr(&want[i], DW_AT_call_line, &attr),
				&v);
		assert_int_equal(got[i].call_line, (int)v);
	}
	st->addrs++;
	st->frames += n;
}

/*
 * Every `stride`-th CU; in each function every address (`per_fn` 0)
 * or `per_fn` addresses spread over each of its ranges.
 */
static void compare_file(const char *path, size_t stride, unsigned per_fn,
			 struct stats *st)
{
	Dwarf_Off off = 0, next, abbrev;
	struct dw_sections sec;
	size_t hsize, ncu = 0;
	uint8_t asize, osize;
	Dwarf_Half version;
	const char *why = NULL;
	Dwarf *dw;
	int fd;

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	dw = dwarf_begin(fd, DWARF_C_READ);
	assert_non_null(dw);
	assert_int_equal(dw_sections_get(&sec, dw, &why), 0);
	while (dwarf_next_unit(dw, off, &next, &hsize, &version, &abbrev,
			       &asize, &osize, NULL, NULL) == 0) {
		struct dw_unit u = { off, next, off + hsize, abbrev,
				     { asize, osize, version } };
		struct dw_abbrevs a;
		Dwarf_Die cu, fn;

		off = next;
		if (ncu++ % stride || !dwarf_offdie(dw, u.die_off, &cu) ||
		    dwarf_child(&cu, &fn))
			continue;
		assert_int_equal(dw_abbrevs_read(&a, &sec, &u, &why), 0);
		do {
			Dwarf_Addr base, lo, hi, x, step;
			ptrdiff_t r = 0;

			if (dwarf_tag(&fn) != DW_TAG_subprogram)
				continue;
			while ((r = dwarf_ranges(&fn, r, &base, &lo, &hi)) > 0) {
				if (hi <= lo || !lo)
					continue;
				step = per_fn ? (hi - lo) / per_fn + 1 : 1;
				for (x = lo; x < hi; x += step)
					check_addr(&sec, &u, &a, &fn, x, st);
				check_addr(&sec, &u, &a, &fn, hi - 1, st);
			}
		} while (dwarf_siblingof(&fn, &fn) == 0);
		dw_abbrevs_free(&a);
	}
	dwarf_end(dw);
	close(fd);
}

static void test_fixture_dwarf5(void **state)
{
	struct stats st = { 0, 0 };

	(void)state;
	compare_file(KTREE "vmlinux", 1, 0, &st);
	assert_true(st.addrs > 100);
	assert_true(st.frames > 10);
}

static void test_fixture_dwarf4(void **state)
{
	struct stats st = { 0, 0 };

	(void)state;
	compare_file(KTREE "vmlinux-dwarf4", 1, 0, &st);
	assert_true(st.addrs > 100);
	assert_true(st.frames > 10);
}

static void test_real_vmlinux(void **state)
{
	const char *path = getenv("PERPKT_VMLINUX");
	struct stats st = { 0, 0 };

	(void)state;
	if (!path)
		path = REAL_VMLINUX;
	if (access(path, R_OK)) {
		print_message("no real vmlinux at %s (set PERPKT_VMLINUX)\n",
			      path);
		skip();
	}
	/* A sample: a few addresses of each function of every 17th CU. */
	compare_file(path, 17, 6, &st);
	print_message("%zu addresses, %zu inlined frames\n", st.addrs,
		      st.frames);
	assert_true(st.addrs > 10000);
	assert_true(st.frames > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_dwarf5),
		cmocka_unit_test(test_fixture_dwarf4),
		cmocka_unit_test(test_real_vmlinux),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
