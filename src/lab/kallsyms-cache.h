/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_KALLSYMS_CACHE_H
#define PERPKT_LAB_KALLSYMS_CACHE_H

#include <stddef.h>

/*
 * record --kernel --exact folds the plugin's counts with the guest's
 * kallsyms; reading /proc/kallsyms, gzip and the serial port cost a
 * guest about 1.6 s of its time (a third of a short run). A kernel
 * booted with nokaslr has the same kallsyms every boot, and so do its
 * modules when /proc/modules shows them at the same addresses: the
 * host keeps the first boot's copy under the cache folder
 * (kallsyms/KEY.gz and KEY.modules, KEY a hash of the image) and the
 * guest sends its own only when its /proc/modules differs from the
 * copy's (lab/guest.c).
 */

/* The image's key, 32 hex digits; -1 after saying why. */
int lab_kallsyms_key(const char *kernel, char *key, size_t len);
/* The cached copy's two files; 1 when both are there, else 0. */
int lab_kallsyms_cached(const char *key, char *gz, size_t gzlen,
			char *modules, size_t modlen);
/* Keep a guest's kallsyms.gz and /proc/modules under key; a failure is
 * said and changes nothing else (the next boot sends its own). */
void lab_kallsyms_store(const char *key, const char *gz, const char *modules);

#endif
