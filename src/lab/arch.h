/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_ARCH_H
#define PERPKT_LAB_ARCH_H

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
	const char *console;     /* kernel console device, "ttyS0" */
	const char *data_port;   /* second serial port, "ttyS1" */
	const char *const *libdirs;  /* where DT_NEEDED libraries are */
	const char *busybox;     /* a static busybox for this architecture */
	const char *ip;          /* iproute2's ip (busybox ip has no netns) */
};

/* The architecture of ELF machine `machine`, NULL if perpkt has none. */
const struct lab_arch *lab_arch_by_machine(int machine);
/* The architecture of an ELF file; -1 after printing why. */
int lab_arch_of_file(const char *path, const struct lab_arch **out);

#endif
