/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RESOLVE_H
#define PERPKT_RESOLVE_H

#include <stddef.h>

#include "symbolize/symbolize.h"

/*
 * The resolve model: every address asked about, resolved, in the order
 * asked. Filled by `perpkt resolve`; rendered through resolve_renderers
 * (reports/render/render.h).
 */
struct resolve_model {
	const char *symbols;              /* where the symbols came from */
	int dwarf;                        /* file:line and inlines known */
	const struct sym_result *results;
	size_t n;
};

#endif
