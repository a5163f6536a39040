// SPDX-License-Identifier: GPL-2.0-only
#include "reports/renderers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/*
 * One table (the --by view) as RFC 4180 CSV: a header line, then one
 * line per row, all rows unless --limit or --threshold say otherwise.
 * Numbers are plain ("%.6g" for values) so spreadsheets parse them.
 */

int report_csv(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	const struct model_view *v;
	enum model_by by = o ? o->by : MODEL_BY_FUNCTION;
	size_t i, e;

	if (!m->profile)
		return error("report of an empty model");
	v = &m->views[by];
	fprintf(f, "%s,bucket,module,file,samples,share,cum", model_by_name(by));
	for (e = 0; e < m->nevents; e++) {
		fputc(',', f);
		render_csv_field(f, m->profile->events[e].name);
		fputs("_per_rt,", f);
		render_csv_field(f, m->profile->events[e].name);
		fputs("_err", f);
	}
	fputs(",ipc\n", f);
	for (i = 0; i < v->n; i++) {
		const struct model_row *r = &v->rows[i];

		if (!report_row_shown(o, i, r))
			break;
		render_csv_field(f, r->name);
		fputc(',', f);
		render_csv_field(f, r->bucket);
		fputc(',', f);
		render_csv_field(f, r->module);
		fputc(',', f);
		render_csv_field(f, r->file);
		fprintf(f, ",%llu,%.6f,%.6f", (unsigned long long)r->samples[0],
			r->share, r->cum);
		for (e = 0; e < m->nevents; e++)
			fprintf(f, ",%.6g,%.6g", r->per_rt[e], r->err[e]);
		if (r->ipc >= 0)
			fprintf(f, ",%.4f", r->ipc);
		else
			fputc(',', f);
		fputc('\n', f);
	}
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
