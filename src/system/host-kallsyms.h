/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSTEM_HOST_KALLSYMS_H
#define PERPKT_SYSTEM_HOST_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "symbolize/symbolize.h"

/*
 * This boot's /proc/kallsyms for naming a profile's addresses, from a
 * copy in perpkt's cache where that gives the same names. The kernel
 * takes about 70 ms of CPU here to print its 5 MB (every line through
 * vsnprintf): a fifth of a short record's CPU, on every record.
 *
 * The copy (host-kallsyms/KEY.txt in perpkt's cache, mode 0600, about
 * 5 MB, written by the first record after a boot or a module change)
 * leaves out what comes and goes within a boot: BPF programs,
 * trampolines and other entries of no loaded module. KEY names the boot
 * (boot_id), the reader (uid and kptr_restrict, which decide what
 * kallsyms shows) and the modules (name, size, state and address of
 * each in /proc/modules). It is used only when every kernel address
 * (the upper half; user-space ones are in no kallsyms) lies in the
 * kernel's own text or init text (_stext to _etext, _sinittext to
 * _einittext: fixed for a boot); an
 * address anywhere else, a module's, a BPF program's, makes this read
 * /proc/kallsyms itself, as without the cache. PERPKT_KALLSYMS_CACHE=0
 * turns the copy off.
 *
 * *from_cache says which was used. -1 with err filled as
 * symbolizer_open_kallsyms does.
 */
int host_kallsyms_open(struct symbolizer **out, const uint64_t *addr, size_t n,
		       int *from_cache, struct sym_error *err);

/* _etext - _stext of this boot's kernel, from the copy (made now when
 * there is none); 0 when there is no copy to use (then read it from
 * /proc/kallsyms: conditions_text_size). */
uint64_t host_kallsyms_text_size(void);

#endif
