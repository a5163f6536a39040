/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_KCONFIG_H
#define PERPKT_LAB_KCONFIG_H

#include <stddef.h>

#include "lab/arch.h"

/*
 * What a guest kernel must be built with for record --kernel: its
 * /init mounts proc, sysfs, devtmpfs and tmpfs from an initramfs, perpkt
 * opens perf events and reads kallsyms, the workload needs IPv4, the
 * console and the profile go out on a built-in serial port, and
 * --net veth needs network namespaces and veth (a module is fine).
 */

/* The configuration of `kernel`: `given` (--config) when set, else
 * config-R beside vmlinuz-R (as a .deb unpacks it), else the .config
 * of the tree a bzImage or Image was built in (arch/ARCH/boot/..).
 * Writes the path to out; -1 when none is found (nothing printed). */
int lab_kconfig_find(const char *kernel, const char *given, char *out,
		     size_t len);

/* Check the configuration at `path` against what the guest needs;
 * `veth`: --net veth. Returns 0, or -1 after naming every missing
 * option in one error. */
int lab_kconfig_check(const char *path, const struct lab_arch *a, int veth);

/* The options lab_kconfig_check asks for, comma-separated, for the
 * docs and messages ("CONFIG_BLK_DEV_INITRD=y, ..."). */
const char *lab_kconfig_needs(const struct lab_arch *a, int veth);

#endif
