// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table as text: profiles by repeat, the threads' layout. */
#include "reports/render/renderers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/table/table.h"

int table_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct table *t = model;
	int wl = 6, wv = 7;
	char b[64];
	size_t i, k;

	for (i = 0; i < t->n; i++) {
		if ((int)strlen(t->rows[i].label) > wl)
			wl = strlen(t->rows[i].label);
		for (k = 0; k < t->rows[i].nvals; k++) {
			table_fmt(b, sizeof(b), t, t->rows[i].vals[k]);
			if ((int)strlen(b) > wv)
				wv = strlen(b);
		}
	}
	/* keep the repeat columns inside 72 when labels are long */
	if (wl > 24)
		wl = 24;
	fprintf(f, "%s (%s%s%s), per repeat\n", t->title, t->unit,
		strcmp(t->unit, "us") ? " per " : "",
		strcmp(t->unit, "us") ? t->per : "");
	fprintf(f, "%-*s", wl, "Profile");
	for (k = 0; k < t->ncols; k++) {
		snprintf(b, sizeof(b), "Test %zu", k + 1);
		fprintf(f, " %*s", wv, b);
	}
	fprintf(f, " %*s %*s\n", wv, "Average", wv, "sd");
	for (i = 0; i < t->n; i++) {
		const struct table_row *r = &t->rows[i];

		fprintf(f, "%-*.*s", wl, wl, r->label);
		for (k = 0; k < t->ncols; k++) {
			table_fmt(b, sizeof(b), t, k < r->nvals ? r->vals[k] : NAN);
			fprintf(f, " %*s", wv, b);
		}
		table_fmt(b, sizeof(b), t, r->mean);
		fprintf(f, " %*s", wv, b);
		table_fmt(b, sizeof(b), t, r->sd < 0 ? NAN : r->sd);
		fprintf(f, " %*s\n", wv, b);
	}
	return render_flush(f, "table");
}
