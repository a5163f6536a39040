// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/report/report-table.h"

/*
 * One table (the --by view) as RFC 4180 CSV: a header line, then one
 * line per row, all rows unless --limit or --threshold say otherwise,
 * and then a last "[other]" row sums the rest.
 * Numbers are plain ("%.6g" for values) so spreadsheets parse them.
 */

static void put_row(FILE *f, const struct model *m, const struct model_row *r,
		    int function_columns)
{
	struct report_cells c;
	size_t e;

	render_csv_field(f, r->name);
	if (function_columns) {
		fputc(',', f);
		render_csv_field(f, r->bucket);
		fputc(',', f);
		render_csv_field(f, r->module);
		fputc(',', f);
		render_csv_field(f, r->file);
	}
	report_row_cells(m, r, &c);
	fprintf(f, ",%llu,%.6f,%.6f", c.samples, c.share, c.cum);
	for (e = 0; e < m->nevents; e++)
		fprintf(f, ",%.6g,%.6g", c.value[e], c.error[e]);
	if (c.ipc >= 0)
		fprintf(f, ",%.4f", c.ipc);
	else
		fputc(',', f);
	fputc('\n', f);
}

int report_csv(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	const struct model_view *v;
	enum model_by by = o ? o->by : MODEL_BY_FUNCTION;
	/* bucket, module and file describe a function; other views are
	 * those things themselves */
	int fn = model_view_of_functions(m, by);
	struct model_row rest;
	size_t e, shown;

	if (model_empty(m))
		return error("report of an empty model");
	v = &m->views[by];
	render_csv_field(f, model_view_title(m, by));	/* "role,function" is quoted */
	fprintf(f, "%s,samples,share,cum", fn ? ",bucket,module,file" : "");
	for (e = 0; e < m->nevents; e++) {
		fputc(',', f);
		render_csv_field(f, m->run.events[e].name);
		fputs("_per_rt,", f);
		render_csv_field(f, m->run.events[e].name);
		fputs("_err", f);
	}
	fputs(",ipc\n", f);
	for (shown = 0; shown < v->n; shown++) {
		if (!report_row_shown(o, shown, &v->rows[shown]))
			break;
		put_row(f, m, &v->rows[shown], fn);
	}
	/* rows cut by --limit or --threshold: one row of their sum, so the
	 * column still adds up to the total */
	if (shown < v->n) {
		model_rest_row(m, v, shown, &rest);
		rest.name = "[other]";
		put_row(f, m, &rest, fn);
	}
	/* outside the total, as in diff: the workload's rows add up
	 * without it */
	if (model_others_row(m)) {
		struct model_row others = *model_others_row(m);

		others.name = MODEL_OTHER_TASKS;
		others.bucket = others.module = others.file = NULL;
		put_row(f, m, &others, fn);
	}
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
