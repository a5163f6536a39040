/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_NAMESET_H
#define PERPKT_NAMESET_H

#include <stddef.h>

/*
 * The kernel's function names in a compact form a profile can carry
 * ("kernel_functions"): a Bloom filter of the folded names, as text
 * "bloom1:K:BITS:BASE64". It answers "was this a function of that
 * kernel?" for a name no sample fell in (diff --fail-if): never no for a
 * name it holds, yes for one it does not about once in 300 (12 bits a
 * name, 8 probes), some 100 KB for 60,000 names.
 */

/* The set of n names (malloc'd text), NULL when out of memory or n 0. */
char *nameset_build(const char *const *names, size_t n);
/* 1 when `name` is (probably) in set, 0 when surely not, -1 when the
 * text is not a set this perpkt reads. */
int nameset_has(const char *set, const char *name);

#endif
