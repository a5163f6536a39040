/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SYMSOURCE_H
#define PERPKT_SYMSOURCE_H

#include <stdint.h>

#include "profile/profile.h"
#include "symbolize/symbolize.h"

/*
 * Where kernel symbols come from, as the commands' options say
 * (--vmlinux, --kallsyms, --buckets, --force ...): one place decides,
 * so report, diff and resolve pick the same source the same way.
 */
struct symsource {
	const char *vmlinux;   /* --vmlinux FILE */
	const char *kallsyms;  /* --kallsyms FILE */
	const char *buckets;   /* --buckets FILE */
	const char *modules;   /* --modules DIR: where NAME.ko files are */
	const char *build_id;  /* --build-id HEX: overrides the profile's */
	uint64_t text_addr;    /* --text-addr: runtime _text, 0 = not given */
	int force;             /* --force: accept a build-id mismatch */
	int search;            /* no source given and no profile: look for
				* the running kernel's vmlinux, then
				* /proc/kallsyms */
};

/*
 * With a profile (may be NULL): its build-id and _text check and place
 * a vmlinux, and without --vmlinux or --kallsyms its saved entries are
 * the symbols. *origin (may be NULL) names what was opened.
 */
int symsource_open(struct symbolizer **out, const struct symsource *src,
		   const struct profile *p, const char **origin);
/* The symbolizer's warnings not printed yet, as "perpkt: warning: ...". */
void symsource_print_warnings(struct symbolizer *s);

#endif
