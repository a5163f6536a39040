// SPDX-License-Identifier: GPL-2.0-only
#include "lab/arch.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "error.h"
#include "system/dirs.h"

static const char *const x86_machine[] = {
	/* KVM is chosen separately (lab/qemu.c); -cpu max runs both */
	"-cpu", "max", NULL,
};
/* Deterministic mode (lab.h): RDRAND and RDSEED would bring the
 * host's entropy in (QEMU's -seed covers them too; both, as measured). */
static const char *const x86_icount_machine[] = {
	"-cpu", "max,-rdrand,-rdseed", NULL,
};
static const char *const x86_libdirs[] = {
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
	"/usr/lib64", "/lib", "/usr/lib", NULL,
};

/* QEMU's virt board; pauth-impdef=on emulates pointer authentication
 * with a cheap hash: -cpu max boots about 3x faster with it. Its PMU
 * driver (armv8_pmuv3) is real; the counters are emulated. */
static const char *const arm64_machine[] = {
	"-M", "virt", "-cpu", "max,pauth-impdef=on", NULL,
};
static const char *const arm64_libdirs[] = {
	"/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
	"/usr/aarch64-linux-gnu/lib", NULL,
};

static const struct lab_arch arches[] = {
	{
		.name = "x86_64",
		.elf_machine = EM_X86_64,
		.qemu = "qemu-system-x86_64",
		.qemu_deb = "qemu-system-x86",
		.machine = x86_machine,
		.icount_machine = x86_icount_machine,
		.console = "ttyS0",
		.data_port = "ttyS1",
		.libdirs = x86_libdirs,
		.busybox = "/bin/busybox",
		.ip = "/usr/bin/ip",
	},
	{
		.name = "aarch64",
		.elf_machine = EM_AARCH64,
		.qemu = "qemu-system-aarch64",
		.qemu_deb = "qemu-system-arm",
		.machine = arm64_machine,
		/* virt has one PL011: the data follow the console's lines
		 * (the guest silences printk first) */
		.console = "ttyAMA0",
		.data_port = "ttyAMA0",
		.libdirs = arm64_libdirs,
		/* busybox-static:arm64 does not co-install with the host's:
		 * tests/lab/fetch-guest.sh unpacks it into the cache */
		.busybox = "busybox/aarch64/busybox",
		.ip = NULL,  /* busybox ip: loopback only, no netns */
	},
};

/* Xen's ELF note that QEMU's x86 -kernel needs to boot an ELF vmlinux
 * (PVH, CONFIG_PVH): XEN_ELFNOTE_PHYS32_ENTRY. */
#define PVH_NOTE_TYPE 18

/* Whether the ELF file e has the section `name`, and a PVH note. */
static void elf_kernel_parts(Elf *e, int *init_text, int *pvh)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;

	*init_text = *pvh = 0;
	if (elf_getshdrstrndx(e, &shstrndx))
		return;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".init.text"))
			*init_text = 1;
		if (sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == PVH_NOTE_TYPE && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "Xen", 4))
				*pvh = 1;
	}
}

/* An ELF vmlinux that QEMU can boot: its architecture, or NULL with
 * why in `why` ("" when it is no ELF file at all). */
static const struct lab_arch *elf_kernel(const char *path, char *why, size_t len)
{
	const struct lab_arch *a = NULL;
	GElf_Ehdr eh;
	Elf *e;
	int fd, init_text, pvh;

	why[0] = '\0';
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		lab_elf_close(e, fd);
		return NULL;
	}
	elf_kernel_parts(e, &init_text, &pvh);
	a = lab_arch_by_machine(eh.e_machine);
	if (eh.e_type != ET_EXEC || !init_text)
		snprintf(why, len, "an ELF file but no Linux kernel (%s)",
			 eh.e_type != ET_EXEC ? "not an executable" : "no .init.text section");
	else if (!a)
		snprintf(why, len, "a kernel for ELF machine %d: perpkt has no QEMU guest for it",
			 eh.e_machine);
	else if (a->elf_machine == EM_X86_64 && !pvh)
		snprintf(why, len, "an x86_64 vmlinux without a PVH entry note (CONFIG_PVH): QEMU boots only its bzImage (arch/x86/boot/bzImage)");
	else if (a->elf_machine == EM_AARCH64)
		snprintf(why, len, "an arm64 vmlinux: QEMU boots its Image (arch/arm64/boot/Image)");
	lab_elf_close(e, fd);
	return why[0] ? NULL : a;
}

const struct lab_arch *lab_kernel_check(const char *path, char *why, size_t len)
{
	unsigned char h[0x210];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(h, 1, sizeof(h), f) : 0;
	const struct lab_arch *a;

	if (!f) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return NULL;
	}
	fclose(f);
	/* arm64 Image: "ARM\x64" at 0x38 (Documentation/arm64/booting.rst) */
	if (n >= 0x3c && !memcmp(h + 0x38, "ARM\x64", 4))
		return lab_arch_by_machine(EM_AARCH64);
	/* x86 bzImage: "HdrS" at 0x202 (Documentation/x86/boot.rst) */
	if (n >= 0x206 && !memcmp(h + 0x202, "HdrS", 4))
		return lab_arch_by_machine(EM_X86_64);
	a = elf_kernel(path, why, len);
	if (!a && !why[0])
		snprintf(why, len, "neither an x86 bzImage (no 'HdrS' at 0x202), an arm64 Image (no 'ARM\\x64' at 0x38) nor an ELF vmlinux");
	return a;
}

int lab_arch_path(const char *file, char *out, size_t len)
{
	return dirs_cache_path(file, out, len);
}

int lab_arch_native(const struct lab_arch *a)
{
	struct utsname u;

	return !uname(&u) && !strcmp(u.machine, a->name);
}

const struct lab_arch *lab_arch_by_machine(int machine)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].elf_machine == machine)
			return &arches[i];
	return NULL;
}

Elf *lab_elf_open(const char *path, int *fd)
{
	GElf_Ehdr eh;
	Elf *e;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY);
	if (*fd < 0) {
		error("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	e = elf_begin(*fd, ELF_C_READ, NULL);
	if (!e || !gelf_getehdr(e, &eh)) {
		error("'%s' is not an ELF file: %s", path, elf_errmsg(-1));
		lab_elf_close(e, *fd);
		return NULL;
	}
	return e;
}

void lab_elf_close(Elf *e, int fd)
{
	elf_end(e);
	if (fd >= 0)
		close(fd);
}

int lab_arch_of_file(const char *path, const struct lab_arch **out)
{
	GElf_Ehdr eh;
	int fd;
	Elf *e = lab_elf_open(path, &fd);

	if (!e)
		return -1;
	gelf_getehdr(e, &eh);  /* lab_elf_open read it once already */
	*out = lab_arch_by_machine(eh.e_machine);
	lab_elf_close(e, fd);
	if (!*out)
		return error("'%s' is for ELF machine %d: perpkt has no QEMU guest for it",
			     path, eh.e_machine);
	return 0;
}
