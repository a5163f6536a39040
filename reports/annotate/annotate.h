/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_ANNOTATE_H
#define PERPKT_ANNOTATE_H

#include <stddef.h>
#include <stdint.h>

#include "reports/model/model.h"

/*
 * perpkt annotate's model: one function, line by line, from the line
 * view of a report model (model_lines with the function's name). Each
 * line of the function holds its own code and the code inlined at it;
 * values are the model's first event per round trip.
 */
struct annotate_line {
	int line;               /* in the function's own file */
	double per_rt, own;     /* own: its own code, without inlined */
	uint64_t samples;
	const struct model_row **inl;  /* code inlined here, costliest first */
	size_t ninl;
	char *source;           /* the line's text (--source), or NULL */
};

struct annotation {
	const struct model *m;
	const char *function;
	const char *file;       /* the function's file; NULL if unknown */
	/* the compiler's clones of it that ran ("finish_task_switch.isra.0",
	 * "udp_sendmsg.cold"), from the line rows; the rest not named */
	const char *clones[4];
	size_t nclones;
	struct annotate_line *lines;   /* by line number */
	size_t n;
	double total;           /* per round trip, the lines' sum */
	uint64_t samples;
	int with_source;        /* --source given */
};

/* From m->views[MODEL_BY_LINE] (m outlives an). 0, or -1 after printing. */
int annotate_build(struct annotation *an, const struct model *m,
		   const char *function);
void annotate_free(struct annotation *an);

#endif
