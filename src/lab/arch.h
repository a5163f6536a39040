/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_ARCH_H
#define PERPKT_LAB_ARCH_H

#include <libelf.h>
#include <stddef.h>

/*
 * What differs between guest architectures under `record --kernel`:
 * the QEMU binary and machine, the console and the port the profile
 * comes back on, and where the guest binary's libraries are found.
 * The guest's architecture is the ELF machine of the perpkt binary put
 * into the initramfs (--guest-perpkt, else this program).
 */
struct lab_arch {
	const char *name;        /* "x86_64", as uname -m says */
	int elf_machine;         /* EM_X86_64 */
	const char *qemu;        /* "qemu-system-x86_64" */
	const char *qemu_deb;    /* Debian package that has it */
	const char *const *machine;  /* -M/-cpu arguments, NULL-terminated */
	const char *const *icount_machine;  /* the same on QEMU's
				     * instruction clock (no host entropy
				     * instructions); NULL: machine */
	const char *console;     /* kernel console device, "ttyS0" */
	const char *data_port;   /* second serial port, "ttyS1" */
	const char *const *libdirs;  /* where DT_NEEDED libraries are */
	const char *busybox;     /* a static busybox for this architecture;
				  * relative: in perpkt's cache folder */
	const char *ip;          /* iproute2's ip (busybox ip has no netns);
				  * NULL: busybox's, loopback only */
};

/* The architecture of ELF machine `machine`, NULL if perpkt has none. */
const struct lab_arch *lab_arch_by_machine(int machine);
/* The architecture of an ELF file; -1 after printing why. */
int lab_arch_of_file(const char *path, const struct lab_arch **out);
/* `path` open for libelf, its descriptor in *fd; NULL after printing
 * why (missing, not ELF). lab_elf_close takes what it gave, NULL too. */
Elf *lab_elf_open(const char *path, int *fd);
void lab_elf_close(Elf *e, int fd);

/* The architecture of a kernel QEMU can boot, from its boot header
 * (x86 bzImage, arm64 Image) or as an ELF vmlinux (x86 with the PVH
 * entry note); NULL when it is none, with why in `why` ("neither a
 * bzImage ..."), before any QEMU starts. */
const struct lab_arch *lab_kernel_check(const char *path, char *why, size_t len);
/* `file` as it is, when absolute; else in perpkt's cache folder:
 * $PERPKT_CACHE, $XDG_CACHE_HOME/perpkt or ~/.cache/perpkt (where
 * tests/lab/fetch-*.sh put kernels and guest files). -1 if too long. */
int lab_arch_path(const char *file, char *out, size_t len);
/* 1 when this host runs `a` natively, so KVM can run the guest. */
int lab_arch_native(const struct lab_arch *a);

#endif
