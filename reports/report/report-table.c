// SPDX-License-Identifier: GPL-2.0-only
#include "reports/report/report-table.h"

void report_row_cells(const struct model *m, const struct model_row *r,
		      struct report_cells *c)
{
	size_t e;

	c->samples = (unsigned long long)r->samples[0];
	c->share = r->share;
	c->cum = r->cum;
	for (e = 0; e < m->nevents && e < MODEL_MAX_EVENTS; e++) {
		c->value[e] = r->per_rt[e];
		c->error[e] = model_row_error(m, r, e);
	}
	c->ipc = r->ipc;
}

int report_error_is_spread(const struct model *m)
{
	return m->nrepeats > 1;
}

const char *report_error_label(const struct model *m)
{
	return report_error_is_spread(m) ? "sd" : "+-";
}
