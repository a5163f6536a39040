/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYSTEM_KERNEL_SYMBOLS_H
#define PERPKT_SYSTEM_KERNEL_SYMBOLS_H

#include "profile/profile.h"

/* The entries of `kallsyms` (/proc/kallsyms, or a guest's copy) that
 * p's samples and callchain frames fall in, and its _text, into p, so
 * p reads anywhere. Warns when the file cannot be read. */
void kernel_symbols_attach(struct profile *p, const char *kallsyms);

/* The runtime text sections of the modules in p's ksyms, from
 * sys_module (/sys/module) or else proc_modules (/proc/modules). */
void kernel_modules_attach(struct profile *p, const char *sys_module,
			   const char *proc_modules);

#endif
