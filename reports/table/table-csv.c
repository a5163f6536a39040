// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table as CSV: one line per profile. */
#include "reports/render/renderers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/table/table.h"

int table_csv(FILE *f, const void *model, const struct render_options *o)
{
	const struct table *t = model;
	size_t i, k;

	fprintf(f, "profile");
	for (k = 0; k < t->ncols; k++)
		fprintf(f, ",test_%zu", k + 1);
	fprintf(f, ",mean,sd\n");
	for (i = 0; i < t->n; i++) {
		const struct table_row *r = &t->rows[i];

		render_csv_field(f, r->label);
		for (k = 0; k < t->ncols; k++) {
			if (k < r->nvals && !isnan(r->vals[k]))
				fprintf(f, ",%.6g", r->vals[k]);
			else
				fputc(',', f);
		}
		if (!isnan(r->mean))
			fprintf(f, ",%.6g", r->mean);
		else
			fputc(',', f);
		if (r->sd >= 0)
			fprintf(f, ",%.6g", r->sd);
		else
			fputc(',', f);
		fputc('\n', f);
	}
	return render_flush(f, "table");
}
