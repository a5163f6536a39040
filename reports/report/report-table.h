/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_REPORT_TABLE_H
#define PERPKT_REPORT_TABLE_H

#include "reports/model/model.h"

/*
 * The row tables a report prints in every format (text, markdown, html,
 * csv): a row's figures and what its error column is, worked out here
 * once, so that no format takes a row's error, or names it, its own
 * way. With repeats the error is the sd across the windows, else the
 * sampling error (model_row_error(), docs/report.md).
 */
struct report_cells {
	unsigned long long samples;	/* of the first event */
	double share, cum;		/* fractions of the view's total */
	double value[MODEL_MAX_EVENTS];	/* per unit of work, each event */
	double error[MODEL_MAX_EVENTS];	/* each value's error */
	double ipc;			/* < 0: none */
};

void report_row_cells(const struct model *m, const struct model_row *r,
		      struct report_cells *c);
/* 1: the error column is the sd across repeats ("sd"); 0: the
 * sampling error ("+-"). */
int report_error_is_spread(const struct model *m);
/* The error column's head in plain text: "sd" or "+-". */
const char *report_error_label(const struct model *m);

#endif
