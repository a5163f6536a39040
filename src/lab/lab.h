/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_LAB_H
#define PERPKT_LAB_LAB_H

#include "profile/profile.h"
#include "record/record.h"

/*
 * perpkt record --kernel IMAGE: boot IMAGE under QEMU with an initramfs
 * perpkt builds, run the same `perpkt record` inside, bring the profile
 * out on a serial port, add how it was emulated to its conditions and
 * write it to o->output. With o->vmlinux, that file's build-id must be
 * the guest's, and reports use its DWARF. Returns an enum result.
 */
int lab_record(const struct record_options *o);

/* The `perpkt record` arguments for inside the guest: argv without the
 * host-only options (--kernel, --vmlinux, --qemu-arg, --guest-perpkt,
 * --qemu-timeout, -o). Returns a NULL-terminated array of argv's own
 * strings (free only the array), NULL when out of memory. */
char **lab_guest_args(int argc, char **argv, size_t *n);

/* Conditions a lab profile carries (docs/guide.md, "Other kernels"). */
#define LAB_COND_ACCEL PROFILE_COND_ACCEL
#define LAB_COND_QEMU "lab.qemu"          /* QEMU's version line */
#define LAB_COND_COMMAND PROFILE_COND_QEMU_COMMAND
#define LAB_COND_KERNEL "lab.kernel"      /* the image booted */
#define LAB_COND_VMLINUX PROFILE_COND_VMLINUX
#define LAB_COND_BOOT "lab.boot_s"        /* host seconds to /init */
#define LAB_COND_GUEST_BOOT "lab.guest_boot_s"  /* guest uptime then */
#define LAB_COND_WALL "lab.wall_s"        /* QEMU's run, host seconds */

#endif
