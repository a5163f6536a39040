// SPDX-License-Identifier: GPL-2.0-only
/* The guest's architecture from an ELF file (this test binary, which is
 * built for the host), and the ELF opening the initramfs builder shares:
 * a missing file and a file that is not ELF are refused with -1/NULL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <gelf.h>
#include <sys/utsname.h>

#include "lab/arch.h"

static void test_arch_of_self(void **state)
{
	const struct lab_arch *a = NULL;
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	if (strcmp(u.machine, "x86_64") && strcmp(u.machine, "aarch64"))
		skip();  /* perpkt has guests for these two only */
	assert_int_equal(lab_arch_of_file("/proc/self/exe", &a), 0);
	assert_non_null(a);
	assert_string_equal(a->name, u.machine);
	assert_true(lab_arch_native(a));
}

static void test_elf_open(void **state)
{
	GElf_Ehdr eh;
	int fd = -1;
	Elf *e = lab_elf_open("/proc/self/exe", &fd);

	assert_non_null(e);
	assert_true(fd >= 0);
	assert_int_equal(elf_kind(e), ELF_K_ELF);
	assert_non_null(gelf_getehdr(e, &eh));
	assert_true(eh.e_type == ET_EXEC || eh.e_type == ET_DYN);
	lab_elf_close(e, fd);
	lab_elf_close(NULL, -1);
}

static void test_not_elf(void **state)
{
	char path[] = "/tmp/perpkt-test-arch.XXXXXX";
	const struct lab_arch *a = NULL;
	int fd = mkstemp(path);
	char why[256];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\necho hi\n", 18), 18);
	close(fd);
	fd = 12345;
	assert_null(lab_elf_open(path, &fd));
	assert_int_equal(lab_arch_of_file(path, &a), -1);
	assert_null(lab_kernel_check(path, why, sizeof(why)));
	assert_non_null(strstr(why, "neither an x86 bzImage"));
	unlink(path);
	assert_null(lab_kernel_check(path, why, sizeof(why)));
	assert_non_null(strstr(why, "cannot read it"));
	assert_null(lab_elf_open(path, &fd));
	assert_int_equal(lab_arch_of_file(path, &a), -1);
}

/* A file with `magic` at `at` in its first 0x210 bytes. */
static void boot_header(char *path, size_t at, const char *magic)
{
	unsigned char h[0x210] = { 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	memcpy(h + at, magic, 4);
	assert_int_equal(write(fd, h, sizeof(h)), (int)sizeof(h));
	close(fd);
}

/* Kernels by their boot headers; an ELF program is no kernel, said
 * before any QEMU would start. */
static void test_kernel_check(void **state)
{
	char bz[] = "/tmp/perpkt-test-bz.XXXXXX", img[] = "/tmp/perpkt-test-img.XXXXXX";
	char why[256];
	const struct lab_arch *a;

	(void)state;
	boot_header(bz, 0x202, "HdrS");
	a = lab_kernel_check(bz, why, sizeof(why));
	assert_non_null(a);
	assert_string_equal(a->name, "x86_64");
	boot_header(img, 0x38, "ARM\x64");
	a = lab_kernel_check(img, why, sizeof(why));
	assert_non_null(a);
	assert_string_equal(a->name, "aarch64");
	unlink(bz);
	unlink(img);
	/* this test program: ELF, but no kernel */
	assert_null(lab_kernel_check("/proc/self/exe", why, sizeof(why)));
	assert_non_null(strstr(why, "an ELF file but no Linux kernel"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arch_of_self),
		cmocka_unit_test(test_elf_open),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_kernel_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
