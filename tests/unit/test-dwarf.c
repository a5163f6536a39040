// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vmlinux symbolizer on the ktree fixture (tests/fixtures/ktree, built
 * into <build>/tests/fixtures/ktree): inline chains, buckets by compilation
 * unit, the per-address cache, KASLR, build-id, bad files; and source-path
 * normalisation.
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
#include <fcntl.h>
#include <gelf.h>

#include <cmocka.h>

#include "symbolize/symbolize-internal.h"

/* ctest runs unit tests from <build>/tests. */
#define KTREE "fixtures/ktree/"

static uint64_t sym_addr(struct symbolizer *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->syms[i].name, name))
			return s->syms[i].addr;
	fail_msg("no symbol %s", name);
	return 0;
}

/* The first address of `fn` with `depth` inlined frames. */
static uint64_t find_depth(struct symbolizer *s, const char *fn, size_t depth)
{
	uint64_t a = sym_addr(s, fn), end = a + 0x100;
	struct sym_result r;

	for (; a < end; a++) {
		assert_int_equal(symbolizer_resolve(s, a, &r), 0);
		if (r.ninlines == depth)
			return a;
	}
	fail_msg("no address of %s with %zu inlined frames", fn, depth);
	return 0;
}

static int setup(void **state)
{
	struct symbolizer *s = NULL;

	if (access(KTREE "vmlinux", R_OK)) {
		print_message("fixture " KTREE "vmlinux missing (run from <build>/tests)\n");
		return -1;
	}
	if (symbolizer_open_vmlinux(&s, KTREE "vmlinux", NULL, NULL))
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	symbolizer_close(*state);
	return 0;
}

static void test_inline_chain(void **state)
{
	struct symbolizer *s = *state;
	uint64_t a = find_depth(s, "udp_sendmsg", 2);
	struct sym_result r;

	assert_true(symbolizer_has_dwarf(s));
	assert_int_equal(symbolizer_resolve(s, a, &r), 0);
	assert_string_equal(r.function, "udp_sendmsg");
	assert_int_equal(r.offset, a - sym_addr(s, "udp_sendmsg"));
	assert_null(r.module);
	/* The position in udp_sendmsg is the outer call site. */
	assert_string_equal(r.file, "net/ipv4/udp.c");
	assert_int_equal(r.line, 15);
	assert_string_equal(r.inlines[0].function, "__skb_put");
	assert_string_equal(r.inlines[0].file, "include/linux/skbuff.h");
	assert_int_equal(r.inlines[0].line, 21);
	assert_string_equal(r.inlines[1].function, "skb_put_csum");
	assert_string_equal(r.inlines[1].file, "include/linux/skbuff.h");
	assert_int_equal(r.inlines[1].line, 35);
	/* Classified by its unit, not by skbuff.h. */
	assert_string_equal(r.unit, "net/ipv4/udp.c");
	assert_string_equal(r.bucket, "udp");
	assert_string_equal(r.rule, "udp path net/ipv4/udp");
}

/* Assembly units: one with a function (.type @function), one with
 * lines but none (a bare label), whose empty function table must not
 * reach qsort(NULL, 0) (test-dwarf-ubsan). */
static void test_assembly_unit(void **state)
{
	struct symbolizer *s = *state;
	struct sym_result r;

	assert_int_equal(symbolizer_resolve(s, sym_addr(s, "startup_64") + 1,
					    &r), 0);
	assert_string_equal(r.function, "startup_64");
	assert_non_null(r.file);
	assert_string_equal(r.file, "arch/x86/kernel/head_64.S");
	assert_true(r.line > 0);
	assert_int_equal(r.ninlines, 0);
	assert_int_equal(symbolizer_resolve(s, sym_addr(s, "entry_SYSCALL_64") +
					    1, &r), 0);
	assert_string_equal(r.function, "entry_SYSCALL_64");
	assert_non_null(r.file);
	assert_string_equal(r.file, "arch/x86/entry/entry_64.S");
	assert_int_equal(r.ninlines, 0);
}

static void test_buckets_by_unit(void **state)
{
	static const char *const want[][3] = {
		{ "schedule", "scheduler", "scheduler path kernel/sched/" },
		{ "pick_next_task", "scheduler", "scheduler path kernel/sched/" },
		{ "veth_xmit", "driver", "driver path drivers/net/" },
		{ "udp_rcv", "udp", "udp path net/ipv4/udp" },
		{ "start_kernel", "other", "(unclassified)" },
	};
	struct symbolizer *s = *state;
	struct sym_result r;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(symbolizer_resolve(s, sym_addr(s, want[i][0]) + 1,
						    &r), 0);
		assert_string_equal(r.function, want[i][0]);
		assert_string_equal(r.bucket, want[i][1]);
		assert_string_equal(r.rule, want[i][2]);
		assert_non_null(r.file);
	}
}

static void test_cache_same_result(void **state)
{
	struct symbolizer *s = *state;
	uint64_t a = find_depth(s, "veth_xmit", 1);
	struct sym_result r1, r2;

	assert_int_equal(symbolizer_resolve(s, a, &r1), 0);
	assert_int_equal(symbolizer_resolve(s, a, &r2), 0);
	assert_ptr_equal(r1.inlines, r2.inlines);
	assert_ptr_equal(r1.file, r2.file);
	assert_string_equal(r1.inlines[0].function, "dev_sw_stats_add");
	assert_string_equal(r1.inlines[0].file, "include/linux/netdevice.h");
}

/* Every position the fixture's symbols resolve to, as text: each
 * symbol's first two bytes, function, file:line and inline frames. */
static char *describe_all(const char *cache_dir)
{
	struct symbolizer_options o = { .cache_dir = cache_dir };
	struct symbolizer *k = NULL;
	char *buf = NULL;
	size_t len = 0, i, j;
	FILE *m = open_memstream(&buf, &len);
	struct sym_result r;

	assert_non_null(m);
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), 0);
	for (i = 0; i < k->n; i++) {
		for (j = 0; j < 2; j++) {
			assert_int_equal(symbolizer_resolve(k, k->syms[i].addr + j, &r), 0);
			fprintf(m, "%s %s:%d", r.function, r.file ? r.file : "-", r.line);
			for (size_t f = 0; f < r.ninlines; f++)
				fprintf(m, " <- %s %s:%d", r.inlines[f].function,
					r.inlines[f].file ? r.inlines[f].file : "-",
					r.inlines[f].line);
			fputc('\n', m);
		}
	}
	symbolizer_close(k);
	fclose(m);
	return buf;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

/* The line tables kept per build-id (symbolize/linecache.c): a cold
 * run writes them, a warm one reads them and writes nothing, and
 * either gives what libdw gives with no cache; a cache cut short (a run
 * killed while it appended) or of another format is put right. */
static void test_line_cache(void **state)
{
	char dir[64] = "/tmp/perpkt-linecache.XXXXXX", path[4200];
	char *none, *cold, *warm, *fixed, *id;
	long size;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	id = symbolizer_file_build_id(KTREE "vmlinux");
	assert_non_null(id);
	snprintf(path, sizeof(path), "%s/lines/%s.lines", dir, id);
	free(id);
	strcat(dir, "/lines");
	none = describe_all(NULL);
	assert_int_equal(access(path, F_OK), -1);
	cold = describe_all(dir);
	assert_string_equal(cold, none);
	size = file_size(path);
	assert_true(size > 200);
	warm = describe_all(dir);
	assert_string_equal(warm, none);
	assert_int_equal(file_size(path), size);
	/* a tail cut short: the good records kept, the rest decoded again */
	assert_int_equal(truncate(path, size - 5), 0);
	fixed = describe_all(dir);
	assert_string_equal(fixed, none);
	assert_int_equal(file_size(path), size);
	free(fixed);
	/* not a cache at all: ignored and written anew */
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs("not a line cache", f);
	fclose(f);
	fixed = describe_all(dir);
	assert_string_equal(fixed, none);
	assert_int_equal(file_size(path), size);
	free(fixed);
	free(none);
	free(cold);
	free(warm);
	unlink(path);
	rmdir(dir);
	dir[strlen(dir) - strlen("/lines")] = '\0';
	rmdir(dir);
}

static void test_kaslr(void **state)
{
	struct symbolizer *s = *state, *k = NULL;
	const uint64_t shift = 0x3c00000;
	struct symbolizer_options o = {
		.text_addr = symbolizer_text_addr(s) + shift,
	};
	uint64_t a = find_depth(s, "udp_sendmsg", 2);
	struct sym_result r1, r2;

	assert_int_equal(symbolizer_text_addr(s), 0xffffffff81000000ULL);
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), 0);
	assert_int_equal(symbolizer_text_addr(k), 0xffffffff81000000ULL + shift);
	assert_int_equal(symbolizer_resolve(s, a, &r1), 0);
	assert_int_equal(symbolizer_resolve(k, a + shift, &r2), 0);
	assert_string_equal(r1.function, r2.function);
	assert_int_equal(r1.offset, r2.offset);
	assert_string_equal(r1.file, r2.file);
	assert_int_equal(r1.line, r2.line);
	assert_int_equal(r1.ninlines, r2.ninlines);
	assert_int_equal(symbolizer_resolve(k, a, &r2), 1);
	symbolizer_close(k);
}

static void test_build_id(void **state)
{
	struct symbolizer *k = NULL;
	char *id = symbolizer_file_build_id(KTREE "vmlinux");
	struct symbolizer_options o = { .build_id = id };

	(void)state;
	assert_non_null(id);
	assert_int_equal(strlen(id), 40);
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), 0);
	symbolizer_close(k);
	o.build_id = "0123";
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), -1);
	assert_null(k);
	o.force = 1;
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), 0);
	symbolizer_close(k);
	free(id);
}

static void test_modules_from_entries(void **state)
{
	static const struct sym_entry mods[] = {
		{ 0xffffffffc0001000ULL, 0, 't', "veth_poll", "veth" },
		{ 0xffffffffc0001100ULL, 0, 't', "veth_open", "veth" },
		{ 0xffffffff81000100ULL, 0, 'T', "not_a_module", NULL },
	};
	struct symbolizer_options o = { .modules = mods, .nmodules = 3 };
	struct symbolizer *k = NULL;
	struct sym_result r;

	(void)state;
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, NULL), 0);
	assert_int_equal(symbolizer_resolve(k, 0xffffffffc0001010ULL, &r), 0);
	assert_string_equal(r.function, "veth_poll");
	assert_string_equal(r.module, "veth");
	assert_null(r.file);
	assert_string_equal(r.bucket, "driver");
	/* Core entries are the vmlinux's business: this one is ignored. */
	assert_int_equal(symbolizer_resolve(k, 0xffffffff81000100ULL, &r), 0);
	assert_string_not_equal(r.function, "not_a_module");
	symbolizer_close(k);
}

static void test_bad_files(void **state)
{
	struct symbolizer *k = NULL;
	struct sym_result r;

	(void)state;
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux-stripped",
						 NULL, NULL), -1);
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux-truncated",
						 NULL, NULL), -1);
	assert_int_equal(symbolizer_open_vmlinux(&k, FIXTURES_DIR
						 "/kallsyms-small.txt", NULL, NULL), -1);
	assert_int_equal(symbolizer_open_vmlinux(&k, "/nonexistent", NULL, NULL), -1);
	assert_null(k);
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux-nodwarf",
						 NULL, NULL), 0);
	assert_false(symbolizer_has_dwarf(k));
	assert_int_equal(symbolizer_resolve(k, 0xffffffff81000071ULL, &r), 0);
	assert_null(r.file);
	assert_null(r.unit);
	assert_int_equal(r.ninlines, 0);
	symbolizer_close(k);
	assert_null(symbolizer_find_vmlinux("0.0.0-no-such-release"));
}

/* A copy of the fixture vmlinux with `len` bytes at `off` replaced. */
static void patched_copy(char *path, long off, const void *bytes, size_t len)
{
	FILE *in = fopen(KTREE "vmlinux", "rb");
	char buf[65536];
	size_t n;
	int fd;

	assert_non_null(in);
	strcpy(path, "/tmp/perpkt-test-vmlinux-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(write(fd, buf, n), (ssize_t)n);
	fclose(in);
	assert_int_equal(pwrite(fd, bytes, len, off), (ssize_t)len);
	close(fd);
}

/* Where the .symtab section header's sh_entsize lies in the file. */
static long symtab_entsize_offset(void)
{
	int fd = open(KTREE "vmlinux", O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	long off = -1;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(gelf_getehdr(elf, &eh));
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			off = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize +
			      offsetof(Elf64_Shdr, sh_entsize);
	elf_end(elf);
	close(fd);
	assert_true(off > 0);
	return off;
}

/* entsize 0 used to give "corrupt symbol table: no error". */
static void test_symtab_entsize(void **state)
{
	const uint64_t zero = 0;
	struct symbolizer *k = NULL;
	struct sym_error err;
	char path[64];

	(void)state;
	patched_copy(path, symtab_entsize_offset(), &zero, sizeof(zero));
	assert_int_equal(symbolizer_open_vmlinux(&k, path, NULL, &err), -1);
	unlink(path);
	assert_null(k);
	assert_non_null(strstr(err.msg, "corrupt symbol table: entry size 0, not 24"));
	assert_null(strstr(err.msg, "no error"));
}

/* A vmlinux of another architecture is refused, or with force warned. */
static void test_wrong_machine(void **state)
{
	const uint16_t aarch64 = EM_AARCH64;
	struct symbolizer_options o = { .machine = "x86_64" };
	struct symbolizer *k = NULL;
	struct sym_error err;
	const char *w;
	char path[64];

	(void)state;
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux", &o, &err),
			 0);
	symbolizer_close(k);
	patched_copy(path, offsetof(Elf64_Ehdr, e_machine), &aarch64,
		     sizeof(aarch64));
	assert_int_equal(symbolizer_open_vmlinux(&k, path, &o, &err), -1);
	assert_null(k);
	assert_non_null(strstr(err.msg, "is built for AArch64 (ELF machine 183) but the kernel is x86_64"));
	o.force = 1;
	assert_int_equal(symbolizer_open_vmlinux(&k, path, &o, &err), 0);
	w = symbolizer_warning(k);
	assert_non_null(w);
	assert_non_null(strstr(w, "accepted (--force)"));
	symbolizer_close(k);
	/* Unknown to the check (no machine given): not refused. */
	assert_int_equal(symbolizer_open_vmlinux(&k, path, NULL, &err), 0);
	symbolizer_close(k);
	unlink(path);
}

/* Degradations come back as warnings, none printed. */
static void test_warnings(void **state)
{
	struct symbolizer *k = NULL;
	const char *w;

	(void)state;
	assert_int_equal(symbolizer_open_vmlinux(&k, KTREE "vmlinux-nodwarf",
						 NULL, NULL), 0);
	w = symbolizer_warning(k);
	assert_non_null(w);
	assert_non_null(strstr(w, "has no DWARF"));
	assert_null(symbolizer_warning(k));
	symbolizer_close(k);
}

/* The kernel's own notes (as in /sys/kernel/notes): the fixture's
 * .note.gnu.build-id section carries the same records. */
static void test_notes_build_id(void **state)
{
	char *id = symbolizer_file_build_id(KTREE "vmlinux"), *notes;

	(void)state;
	notes = symbolizer_notes_build_id(KTREE "vmlinux.notes");
	assert_non_null(id);
	assert_non_null(notes);
	assert_string_equal(id, notes);
	assert_null(symbolizer_notes_build_id("/nonexistent"));
	assert_null(symbolizer_notes_build_id(FIXTURES_DIR "/kallsyms-small.txt"));
	free(id);
	free(notes);
}

static void expect_path(struct srcpath *sp, const char *raw,
			const char *comp_dir, const char *want)
{
	char *got = srcpath_normalise(sp, raw, comp_dir);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_srcpath(void **state)
{
	struct srcpath *sp = srcpath_new(), *mod;
	const char *deb = "debian/build/build_amd64_none_cloud-amd64";
	const char *root = "/build/reproducible-path/linux-6.1.192/";
	char name[128];

	(void)state;
	/* Debian: relative CU names, the object directory as comp_dir. */
	srcpath_vote(sp, "net/ipv4/udp.c", deb);
	srcpath_vote(sp, "kernel/sched/core.c", deb);
	srcpath_vote(sp, "drivers/net/veth.c", deb);
	/* ... and assembly CUs with the absolute source root. */
	snprintf(name, sizeof(name), "%sarch/x86/entry/entry_64.S", root);
	srcpath_vote(sp, name, deb);
	snprintf(name, sizeof(name), "%sarch/x86/lib/memcpy_64.S", root);
	srcpath_vote(sp, name, deb);
	expect_path(sp, "debian/build/build_amd64_none_cloud-amd64/include/net/ip.h",
		    deb, "include/net/ip.h");
	expect_path(sp, "net/ipv4/udp.c", deb, "net/ipv4/udp.c");
	expect_path(sp, "drivers/net/veth.c", deb, "drivers/net/veth.c");
	snprintf(name, sizeof(name), "%sarch/x86/entry/entry_64.S", root);
	expect_path(sp, name, deb, "arch/x86/entry/entry_64.S");
	expect_path(sp, "./arch/x86/kernel/../include/asm/trace/./irq_vectors.h",
		    NULL, "arch/x86/include/asm/trace/irq_vectors.h");
	expect_path(sp, "a//b/./c/", NULL, "a/b/c");
	expect_path(sp, "../x/y.h", NULL, "../x/y.h");
	expect_path(sp, "/..", NULL, "/");
	srcpath_free(sp);

	/* A root that holds a top-level name ("kernel") itself. */
	sp = srcpath_new();
	srcpath_vote(sp, "/home/kernel/linux/kernel/fork.c", "/home/kernel/linux");
	srcpath_vote(sp, "/home/kernel/linux/net/core/dev.c", "/x");
	srcpath_vote(sp, "/home/kernel/linux/drivers/net/veth.c", "/x");
	expect_path(sp, "/home/kernel/linux/drivers/net/veth.c", "/x",
		    "drivers/net/veth.c");
	expect_path(sp, "/home/kernel/linux/kernel/fork.c", "/x",
		    "kernel/fork.c");
	/* Under comp_dir: stripped first. */
	expect_path(sp, "/home/kernel/linux/kernel/fork.c", "/home/kernel/linux",
		    "kernel/fork.c");
	srcpath_free(sp);

	/* A module's one CU ("drivers/" ties with "") follows its
	 * kernel's votes. */
	sp = srcpath_new();
	srcpath_vote(sp, "net/ipv4/udp.c", deb);
	srcpath_vote(sp, "kernel/sched/core.c", deb);
	mod = srcpath_new();
	assert_int_equal(srcpath_vote_all(mod, sp), 0);
	srcpath_vote(mod, "drivers/net/veth.c", deb);
	expect_path(mod, "drivers/net/veth.c", deb, "drivers/net/veth.c");
	srcpath_free(mod);
	srcpath_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inline_chain),
		cmocka_unit_test(test_assembly_unit),
		cmocka_unit_test(test_buckets_by_unit),
		cmocka_unit_test(test_cache_same_result),
		cmocka_unit_test(test_line_cache),
		cmocka_unit_test(test_kaslr),
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_modules_from_entries),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_symtab_entsize),
		cmocka_unit_test(test_wrong_machine),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_notes_build_id),
		cmocka_unit_test(test_srcpath),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
