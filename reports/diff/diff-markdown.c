// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as markdown, for issue trackers. */
#include "reports/render/renderers.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"

static void md_row(FILE *f, const struct diff *d, const struct diff_row *r,
		   const char *label)
{
	char pres[32], rel[32];
	size_t i;

	diff_presence(pres, sizeof(pres), d, r);
	fputs("| ", f);
	if (label)
		fputs(label, f);	/* ours, markdown and all */
	else
		render_md_text(f, r->name);
	render_md_text(f, pres);
	fprintf(f, " | %.1f", r->cell[0].value);
	for (i = 1; i < d->n; i++) {
		diff_fmt_rel(rel, sizeof(rel), &r->cmp[i]);
		fprintf(f, " | %.1f | %+.1f | %s | %s", r->cell[i].value,
			r->cmp[i].delta, rel, diff_mark(r->cmp[i].mark));
	}
	fprintf(f, " |\n");
}

/* What differs between the profiles, before any number. */
static void put_conditions(FILE *f, const struct diff *d)
{
	const struct diff_conditions *c = d->conds;
	size_t r, i;

	if (!c || !c->n)
		return;
	fprintf(f, "| differs |");
	for (i = 0; i < d->n; i++)
		fprintf(f, " %c |", diff_letter(i));
	fprintf(f, "\n|---|");
	for (i = 0; i < d->n; i++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (r = 0; r < c->n; r++) {
		fputs("| ", f);
		render_md_text(f, c->rows[r].what);
		fputs(" |", f);
		for (i = 0; i < d->n; i++) {
			fputc(' ', f);
			render_md_text(f, c->rows[r].value[i]);
			fprintf(f, " |");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	/* how the profiles were recorded: what a difference does */
	for (r = 0; r < c->n; r++) {
		if (!c->rows[r].effect)
			continue;
		fputs("- ", f);
		render_md_text(f, c->rows[r].what);
		fputs(": ", f);
		render_md_text(f, c->rows[r].effect);
		fputc('\n', f);
	}
	for (r = 0; r < c->n && !c->rows[r].effect; r++)
		;
	if (r < c->n)
		fputc('\n', f);
}

int diff_markdown(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	const struct diff_view *v = diff_view(d);
	size_t i;

	fputs("### perpkt diff (", f);
	render_md_text(f, d->unit);
	fputs(" per ", f);
	render_md_text(f, d->per);
	fputs(")\n\n", f);
	for (i = 0; i < d->nwarnings; i++) {
		if (d->conds && i == d->conds->first_warnings)
			put_conditions(f, d);
		fputs("> **warning:** ", f);
		render_md_text(f, d->warnings[i]);
		fputs("\n\n", f);
	}
	if (!d->conds || d->conds->first_warnings >= d->nwarnings)
		put_conditions(f, d);
	for (i = 0; i < d->n; i++) {
		fprintf(f, "- **%c**: ", diff_letter(i));
		render_md_code(f, d->prof[i].path);
		fputs(" (", f);
		render_md_text(f, d->prof[i].label);
		fprintf(f, ", %d window%s)\n", d->prof[i].m->nrepeats,
			d->prof[i].m->nrepeats > 1 ? "s" : "");
	}
	fprintf(f, "\n");
	for (i = 1; i < d->n; i++)
		if (d->latency[i].rel != DIFF_NO_REL)
			fprintf(f, "Latency %c-A%s: %+.2f us (%+.1f%%) %s; busy kernel time %+.2f us\n\n",
				diff_letter(i), d->stalls_apart ?
				" (means without stalls)" : "",
				d->latency[i].delta / 1e3,
				d->latency[i].rel * 100,
				diff_mark(d->latency[i].mark),
				d->busy.cmp[i].delta / 1e3);
	fprintf(f, "| %s | A", d->by == MODEL_BY_BUCKET ? "bucket" : "function");
	for (i = 1; i < d->n; i++)
		fprintf(f, " | %c | %c-A | rel | sig", diff_letter(i), diff_letter(i));
	fprintf(f, " |\n|---|--:");
	for (i = 1; i < d->n; i++)
		fprintf(f, "|--:|--:|--:|:-:");
	fprintf(f, "|\n");
	for (i = 0; i < v->shown; i++)
		md_row(f, d, &v->rows[i], NULL);
	if (v->shown < v->n)
		md_row(f, d, &v->other, DIFF_OTHER_NAME);
	md_row(f, d, &d->total, "**total**");
	md_row(f, d, &d->busy, "busy (total minus idle)");
	{
		char rule[600];

		diff_sig_rule(rule, sizeof(rule), d);
		fprintf(f, "\nsig: %s.\n", rule);
	}
	if (fflush(f) || ferror(f))
		return error("cannot write diff: %s", strerror(errno));
	return 0;
}
