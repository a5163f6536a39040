// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as CSV: one line per row, one column group per profile. */
#include "reports/render/renderers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"

static void csv_row(FILE *f, const struct diff *d, const char *kind,
		    const struct diff_row *r)
{
	size_t i;

	fprintf(f, "%s,", kind);
	render_csv_field(f, r->name);
	fputc(',', f);
	render_csv_field(f, r->bucket ? r->bucket : "");
	for (i = 0; i < d->n; i++)
		fprintf(f, ",%.6g", r->cell[i].value);
	for (i = 1; i < d->n; i++) {
		fprintf(f, ",%.6g,", r->cmp[i].delta);
		if (r->cmp[i].rel != DIFF_NO_REL)
			fprintf(f, "%.6g", r->cmp[i].rel);
		fprintf(f, ",%.6g,%s", r->cmp[i].sigma,
			diff_mark(r->cmp[i].mark));
	}
	fputc('\n', f);
}

int diff_csv(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	const struct diff_view *v = diff_view(d);
	size_t i;

	fprintf(f, "kind,name,bucket");
	for (i = 0; i < d->n; i++) {
		char name[64];

		/* the unit is the profile's: a field like any other */
		snprintf(name, sizeof(name), "%c_%s_per_rt", (char)('A' + i), d->unit);
		fputc(',', f);
		render_csv_field(f, name);
	}
	for (i = 1; i < d->n; i++)
		fprintf(f, ",%c_delta,%c_rel,%c_sigma,%c_mark", (char)('A' + i),
			(char)('A' + i), (char)('A' + i), (char)('A' + i));
	fputc('\n', f);
	/* what differs first: kind "condition", its values in the
	 * profiles' value columns */
	for (i = 0; d->conds && i < d->conds->n; i++) {
		size_t k;

		fprintf(f, "condition,");
		render_csv_field(f, d->conds->rows[i].what);
		fputc(',', f);
		for (k = 0; k < d->n; k++) {
			fputc(',', f);
			render_csv_field(f, d->conds->rows[i].value[k]);
		}
		for (k = 1; k < d->n; k++)
			fprintf(f, ",,,,");
		fputc('\n', f);
	}
	for (i = 0; i < v->shown; i++)
		csv_row(f, d, model_by_name(d->by), &v->rows[i]);
	if (v->shown < v->n)
		csv_row(f, d, "other", &v->other);
	csv_row(f, d, "total", &d->total);
	csv_row(f, d, "busy", &d->busy);
	if (fflush(f) || ferror(f))
		return error("cannot write CSV diff: %s", strerror(errno));
	return 0;
}
