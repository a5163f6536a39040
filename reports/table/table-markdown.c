// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table as markdown. */
#include "reports/render/renderers.h"

#include <math.h>
#include <stdio.h>

#include "error.h"
#include "reports/table/table.h"

int table_markdown(FILE *f, const void *model, const struct render_options *o)
{
	const struct table *t = model;
	char b[64];
	size_t i, k;

	fputs("**", f);
	render_md_text(f, t->title);
	fputs("** (", f);
	render_md_text(f, t->unit);
	fputs(")\n\n| Profile |", f);
	for (k = 0; k < t->ncols; k++)
		fprintf(f, " Test %zu |", k + 1);
	fprintf(f, " Average | sd |\n|---|");
	for (k = 0; k < t->ncols + 2; k++)
		fprintf(f, "--:|");
	fprintf(f, "\n");
	for (i = 0; i < t->n; i++) {
		const struct table_row *r = &t->rows[i];

		fputs("| ", f);
		render_md_text(f, r->label);
		fputs(" |", f);
		for (k = 0; k < t->ncols; k++) {
			table_fmt(b, sizeof(b), t, k < r->nvals ? r->vals[k] : NAN);
			fprintf(f, " %s |", b);
		}
		table_fmt(b, sizeof(b), t, r->mean);
		fprintf(f, " %s |", b);
		table_fmt(b, sizeof(b), t, r->sd < 0 ? NAN : r->sd);
		fprintf(f, " %s |\n", b);
	}
	return render_flush(f, "table");
}
