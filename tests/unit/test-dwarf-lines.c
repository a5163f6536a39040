// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt's own DWARF readers (symbolize/dwarf-lines.c, dwarf-scan.c)
 * against libdw: every address of the ktree fixture (DWARF 5 and 4) must
 * get the same file:line, every CU the same functions; the same on a
 * sample of a real vmlinux when one is at hand (PERPKT_VMLINUX, else
 * Debian's -dbg path); and hand-made programs for what gcc rarely
 * emits (sequences out of order or overlapping, define_file, bad data).
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

struct opened {
	int fd;
	Dwarf *dw;
	struct dw_sections sec;
	struct srcpath *sp;
};

static int open_dwarf(struct opened *o, const char *path)
{
	const char *why = NULL;

	o->fd = open(path, O_RDONLY);
	if (o->fd < 0)
		return -1;
	o->dw = dwarf_begin(o->fd, DWARF_C_READ);
	assert_non_null(o->dw);
	assert_int_equal(dw_sections_get(&o->sec, o->dw, &why), 0);
	o->sp = srcpath_new();
	assert_non_null(o->sp);
	return 0;
}

static void close_dwarf(struct opened *o)
{
	srcpath_free(o->sp);
	dwarf_end(o->dw);
	close(o->fd);
}

/* libdw's answer for addr, normalised as perpkt normalises. */
static void libdw_line(struct opened *o, Dwarf_Die *cu, const char *comp_dir,
		       uint64_t addr, char **file, int *line)
{
	Dwarf_Line *l = dwarf_getsrc_die(cu, addr);
	const char *raw;

	*file = NULL;
	*line = -1;
	if (!l)
		return;
	dwarf_lineno(l, line);
	raw = dwarf_linesrc(l, NULL, NULL);
	if (raw)
		*file = srcpath_normalise(o->sp, raw, comp_dir);
}

static void check_addr(struct opened *o, Dwarf_Die *cu, const char *comp_dir,
		       struct line_table *t, uint64_t addr)
{
	const struct line_row *r = line_table_find(t, addr);
	char *want;
	int line;

	libdw_line(o, cu, comp_dir, addr, &want, &line);
	if (line < 0) {
		if (r)
			fail_msg("0x%llx: libdw has no line, perpkt %d",
				 (unsigned long long)addr, r->line);
		return;
	}
	if (!r)
		fail_msg("0x%llx: perpkt has no line, libdw %s:%d",
			 (unsigned long long)addr, want, line);
	if (r->line != line)
		fail_msg("0x%llx: line %d, libdw %d", (unsigned long long)addr,
			 r->line, line);
	if (want) {
		const char *got = line_table_file(t, r->file & ~LINE_END_SEQ);

		assert_non_null(got);
		assert_string_equal(got, want);
	}
	free(want);
}

/* File numbering shared with DW_AT_call_file. */
static void check_files(struct opened *o, Dwarf_Die *cu, const char *comp_dir,
			struct line_table *t)
{
	Dwarf_Files *files;
	size_t n, i;

	assert_int_equal(dwarf_getsrcfiles(cu, &files, &n), 0);
	assert_int_equal(t->nfiles, n);
	for (i = 0; i < n; i++) {
		char *want = srcpath_normalise(o->sp,
					       dwarf_filesrc(files, i, NULL, NULL),
					       comp_dir);

		assert_string_equal(line_table_file(t, i), want);
		free(want);
	}
}

static int range_lo_cmp(const void *a, const void *b)
{
	const struct dw_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The scan finds the functions a libdw walk of the top level finds. */
static void check_functions(struct opened *o, Dwarf_Die *cu,
			    const struct dw_unit *u)
{
	struct dw_ranges got = { NULL, 0, 0 }, todo = { NULL, 0, 0 };
	struct dw_ranges want = { NULL, 0, 0 };
	const char *why = NULL;
	Dwarf_Die child;
	size_t i;

	assert_int_equal(dw_scan_functions(&o->sec, u, &got, &todo, &why), 0);
	if (dwarf_child(cu, &child) == 0) {
		do {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			if (dwarf_tag(&child) != DW_TAG_subprogram)
				continue;
			if (dwarf_hasattr(&child, DW_AT_ranges) &&
			    !dwarf_hasattr(&child, DW_AT_high_pc)) {
				assert_int_equal(dw_range_push(&want, 0, 0,
						dwarf_dieoffset(&child)), 0);
				continue;
			}
			while ((off = dwarf_ranges(&child, off, &base, &lo,
						   &hi)) > 0)
				if (hi > lo && lo)
					assert_int_equal(dw_range_push(&want,
						lo, hi, dwarf_dieoffset(&child)), 0);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	for (i = 0; i < todo.n; i++)
		assert_int_equal(dw_range_push(&got, 0, 0, todo.v[i].idx), 0);
	assert_int_equal(got.n, want.n);
	qsort(got.v, got.n, sizeof(*got.v), range_lo_cmp);
	qsort(want.v, want.n, sizeof(*want.v), range_lo_cmp);
	for (i = 0; i < got.n; i++) {
		assert_int_equal(got.v[i].lo, want.v[i].lo);
		assert_int_equal(got.v[i].hi, want.v[i].hi);
		assert_int_equal(got.v[i].idx, want.v[i].idx);
	}
	free(got.v);
	free(todo.v);
	free(want.v);
}

/*
 * Every `stride`-th CU: functions, files, and file:line at each address
 * of its ranges (`every`), or at each row boundary and the byte before.
 */
static size_t compare_file(const char *path, size_t stride, int every)
{
	Dwarf_Off off = 0, next, abbrev;
	struct opened o;
	size_t hsize, ncu = 0, checked = 0;
	uint8_t asize, osize;
	Dwarf_Half version;

	if (open_dwarf(&o, path))
		return 0;
	while (dwarf_next_unit(o.dw, off, &next, &hsize, &version, &abbrev,
			       &asize, &osize, NULL, NULL) == 0) {
		struct dw_unit u = { off, next, off + hsize, abbrev,
				     { asize, osize, version } };
		Dwarf_Die cu;
		Dwarf_Attribute attr;
		Dwarf_Word stmt;
		const char *comp_dir, *why = NULL;
		struct line_table t;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t r = 0;

		off = next;
		if (ncu++ % stride || !dwarf_offdie(o.dw, u.die_off, &cu) ||
		    dwarf_formudata(dwarf_attr(&cu, DW_AT_stmt_list, &attr),
				    &stmt))
			continue;
		comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir,
						       &attr));
		check_functions(&o, &cu, &u);
		if (line_table_decode(&t, &o.sec, stmt, asize, comp_dir, o.sp,
				      &why))
			fail_msg("%s: CU at 0x%llx: %s", path,
				 (unsigned long long)u.off, why);
		check_files(&o, &cu, comp_dir, &t);
		if (every) {
			while ((r = dwarf_ranges(&cu, r, &base, &lo, &hi)) > 0)
				for (; lo <= hi; lo++)
					check_addr(&o, &cu, comp_dir, &t, lo);
		} else {
			Dwarf_Lines *lines;
			size_t n, i;

			assert_int_equal(dwarf_getsrclines(&cu, &lines, &n), 0);
			for (i = 0; i < n; i++) {
				Dwarf_Addr a;

				dwarf_lineaddr(dwarf_onesrcline(lines, i), &a);
				check_addr(&o, &cu, comp_dir, &t, a);
				check_addr(&o, &cu, comp_dir, &t, a - 1);
			}
		}
		line_table_free(&t);
		checked++;
	}
	close_dwarf(&o);
	return checked;
}

static void test_fixture_dwarf5(void **state)
{
	(void)state;
	assert_int_equal(compare_file(KTREE "vmlinux", 1, 1), 5);
}

static void test_fixture_dwarf4(void **state)
{
	(void)state;
	assert_int_equal(compare_file(KTREE "vmlinux-dwarf4", 1, 1), 5);
}

static void test_real_vmlinux(void **state)
{
	const char *path = getenv("PERPKT_VMLINUX");

	(void)state;
	if (!path)
		path = REAL_VMLINUX;
	if (access(path, R_OK)) {
		print_message("no real vmlinux at %s (set PERPKT_VMLINUX)\n",
			      path);
		skip();
	}
	/* A sample: libdw itself takes seconds for all ~2,400 CUs. */
	assert_true(compare_file(path, 13, 0) > 100);
}

/* Helpers building a DWARF 4 line program by hand. */
struct prog {
	uint8_t b[512];
	size_t n;
};

static void put(struct prog *p, const void *v, size_t n)
{
	memcpy(p->b + p->n, v, n);
	p->n += n;
}

static void put8(struct prog *p, uint8_t v)
{
	put(p, &v, 1);
}

static void set_addr(struct prog *p, uint64_t a)
{
	put8(p, 0);
	put8(p, 9);
	put8(p, DW_LNE_set_address);
	put(p, &a, 8);
}

static void end_seq(struct prog *p)
{
	put8(p, 0);
	put8(p, 1);
	put8(p, DW_LNE_end_sequence);
}

/* Header (version 4, opcode_base 13, line_base -5, line_range 14)
 * with dirs {"inc"} and files {"a.c" in dir 0, "b.h" in dir 1}. */
static void header(struct prog *p, uint16_t version)
{
	static const uint8_t std[12] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };
	static const char tables[] = "inc\0\0a.c\0\0\0\0b.h\0\1\0\0\0";
	uint32_t zero = 0;

	put(p, &zero, 4);           /* unit_length, patched */
	put(p, &version, 2);
	put(p, &zero, 4);           /* header_length, patched */
	put8(p, 1);                 /* min_inst_length */
	put8(p, 1);                 /* max_ops */
	put8(p, 1);                 /* default_is_stmt */
	put8(p, (uint8_t)-5);
	put8(p, 14);
	put8(p, 13);
	put(p, std, sizeof(std));
	put(p, tables, sizeof(tables) - 1);
	zero = p->n - 10;
	memcpy(p->b + 6, &zero, 4);
}

static void finish(struct prog *p)
{
	uint32_t len = p->n - 4;

	memcpy(p->b, &len, 4);
}

static int decode(struct prog *p, struct line_table *t, struct srcpath *sp,
		  const char **why)
{
	struct dw_sections s;

	memset(&s, 0, sizeof(s));
	s.line.p = p->b;
	s.line.n = p->n;
	return line_table_decode(t, &s, 0, 8, "/src", sp, why);
}

static void expect(struct line_table *t, uint64_t addr, const char *file,
		   int line)
{
	const struct line_row *r = line_table_find(t, addr);

	if (!file) {
		assert_null(r);
		return;
	}
	assert_non_null(r);
	assert_int_equal(r->line, line);
	assert_string_equal(line_table_file(t, r->file & ~LINE_END_SEQ), file);
}

static void test_handmade(void **state)
{
	struct srcpath *sp = srcpath_new();
	struct prog p = { .n = 0 };
	struct line_table t;
	const char *why = NULL;

	(void)state;
	header(&p, 4);
	/* Sequence 1 at 0x2000: line 10 (a.c), +4 bytes line 11. */
	set_addr(&p, 0x2000);
	put8(&p, DW_LNS_advance_line);
	put8(&p, 9);
	put8(&p, DW_LNS_copy);
	put8(&p, 13 + (1 - -5) + 14 * 4);   /* special: +4 addr, +1 line */
	put8(&p, DW_LNS_advance_pc);
	put8(&p, 8);
	end_seq(&p);
	/* Sequence 2, earlier addresses, emitted later: b.h via a file
	 * defined in the program (file 3), and two rows at one address. */
	put8(&p, 0);
	put8(&p, 8);
	put8(&p, DW_LNE_define_file);
	put(&p, "c.h\0\1\0\0", 7);
	set_addr(&p, 0x1000);
	put8(&p, DW_LNS_set_file);
	put8(&p, 2);
	put8(&p, DW_LNS_copy);              /* 0x1000 b.h:1 */
	put8(&p, DW_LNS_set_file);
	put8(&p, 3);
	put8(&p, DW_LNS_advance_line);
	put8(&p, 4);
	put8(&p, DW_LNS_copy);              /* 0x1000 c.h:5 wins */
	put8(&p, DW_LNS_fixed_advance_pc);
	put(&p, "\x10\x00", 2);
	end_seq(&p);                        /* ends at 0x1010 */
	/* Two discarded functions at 0: overlapping sequences. */
	set_addr(&p, 0);
	put8(&p, DW_LNS_copy);
	put8(&p, DW_LNS_advance_pc);
	put8(&p, 4);
	end_seq(&p);
	set_addr(&p, 0);
	put8(&p, DW_LNS_advance_line);
	put8(&p, 1);
	put8(&p, DW_LNS_copy);
	put8(&p, DW_LNS_advance_pc);
	put8(&p, 2);
	end_seq(&p);
	finish(&p);

	assert_int_equal(decode(&p, &t, sp, &why), 0);
	expect(&t, 0xfff, NULL, 0);
	expect(&t, 0x1000, "inc/c.h", 5);
	expect(&t, 0x100f, "inc/c.h", 5);
	expect(&t, 0x1010, NULL, 0);
	expect(&t, 0x2000, "a.c", 10);
	expect(&t, 0x2003, "a.c", 10);
	expect(&t, 0x2004, "a.c", 11);
	expect(&t, 0x200b, "a.c", 11);
	expect(&t, 0x200c, NULL, 0);
	/* At 0 both sequences start; the second ends first (at 2). */
	expect(&t, 1, "a.c", 2);
	expect(&t, 2, NULL, 0);
	expect(&t, 3, NULL, 0);
	assert_string_equal(line_table_file(&t, 0), "???");
	assert_null(line_table_file(&t, 4));
	line_table_free(&t);

	/* What is not decoded here is refused with a reason. */
	p.b[4] = 9;                         /* version 9 */
	assert_int_equal(decode(&p, &t, sp, &why), -1);
	assert_string_equal(why, "unknown line-table version");
	p.b[4] = 4;
	p.b[15 + 1] = 2;                    /* DW_LNS_copy with an operand */
	assert_int_equal(decode(&p, &t, sp, &why), -1);
	assert_string_equal(why, "non-standard opcode lengths");
	p.b[15 + 1] = 0;
	p.n -= 2;             /* truncated: an extended opcode, no length */
	finish(&p);
	assert_int_equal(decode(&p, &t, sp, &why), -1);
	assert_string_equal(why, "bad extended opcode length");
	srcpath_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_dwarf5),
		cmocka_unit_test(test_fixture_dwarf4),
		cmocka_unit_test(test_handmade),
		cmocka_unit_test(test_real_vmlinux),
	};

	if (access(KTREE "vmlinux", R_OK)) {
		fprintf(stderr, "fixture " KTREE "vmlinux missing (run from <build>/tests)\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
