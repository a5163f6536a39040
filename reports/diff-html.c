// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt diff as one self-contained HTML file: inline CSS, SVG and the
 * flame graphs' script, no fetches. The delta chart draws each row's change
 * against the baseline as a bar left (less time) or right (more) of a
 * zero line, with its error bar (one standard error of the delta).
 */
#include "reports/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff.h"
#include "reports/diff-conditions.h"
#include "reports/flame.h"
#include "reports/html-common.h"

#define COLOR_MORE "#d62728"
#define COLOR_LESS "#2ca02c"
#define CHART_W 760
#define LABEL_W 240
#define CHART_ROWS 20

/* Bars of comparison `k` of the view's shown rows. */
static void delta_chart(FILE *f, const struct diff *d,
			const struct diff_view *v, size_t k)
{
	size_t n = v->shown < CHART_ROWS ? v->shown : CHART_ROWS, i;
	double max = 0, half = (CHART_W - LABEL_W - 20) / 2.0;
	double zero = LABEL_W + half;
	int h = 20 * (int)n + 30;

	for (i = 0; i < n; i++) {
		double x = fabs(v->rows[i].cmp[k].delta) +
			   v->rows[i].cmp[k].sigma;

		if (x > max)
			max = x;
	}
	fprintf(f, "<svg id=\"delta-%zu\" width=\"%d\" height=\"%d\" role=\"img\">\n",
		k, CHART_W, h);
	fprintf(f, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n",
		zero, zero, h - 20);
	for (i = 0; i < n; i++) {
		const struct diff_row *r = &v->rows[i];
		double dl = r->cmp[k].delta;
		double w = max > 0 ? half * fabs(dl) / max : 0;
		double e = max > 0 ? half * r->cmp[k].sigma / max : 0;
		double x = dl < 0 ? zero - w : zero, c = zero + (dl < 0 ? -w : w);
		int y = 5 + 20 * (int)i;

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			LABEL_W - 6, y + 13);
		html_escape(f, r->name);
		fprintf(f, "</text><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"><title>%+.1f %s %s</title></rect>",
			x, y, w, dl < 0 ? COLOR_LESS : COLOR_MORE, dl, d->unit,
			diff_mark(r->cmp[k].mark));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n",
			c - e, y + 8, c + e, y + 8);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">&#8592; less %s per %s | more &#8594; (bars: delta, lines: &#177;1 sd)</text>\n",
		zero, h - 5, d->unit, d->per);
	fprintf(f, "</svg>\n");
}

static void table_row(FILE *f, const struct diff *d, const struct diff_row *r,
		      const char *label)
{
	size_t i;

	fprintf(f, "<tr><td>");
	html_escape(f, label ? label : r->name);
	fprintf(f, "</td><td class=n>%.1f</td>", r->cell[0].value);
	for (i = 1; i < d->n; i++) {
		fprintf(f, "<td class=n>%.1f</td><td class=n>%+.1f</td>",
			r->cell[i].value, r->cmp[i].delta);
		if (r->cmp[i].rel == DIFF_NO_REL)
			fprintf(f, "<td class=n>new</td>");
		else
			fprintf(f, "<td class=n>%+.1f%%</td>",
				r->cmp[i].rel * 100);
		fprintf(f, "<td>%s</td>", diff_mark(r->cmp[i].mark));
	}
	fprintf(f, "</tr>\n");
}

/* What differs between the profiles, before any number. */
static void put_conditions(FILE *f, const struct diff *d)
{
	const struct diff_conditions *c = d->conds;
	size_t r, i;

	if (!c || !c->n)
		return;
	fprintf(f, "<table class=differs><tr><th>differs</th>");
	for (i = 0; i < d->n; i++)
		fprintf(f, "<th>%c</th>", diff_letter(i));
	fprintf(f, "</tr>\n");
	for (r = 0; r < c->n; r++) {
		fprintf(f, "<tr><td>");
		html_escape(f, c->rows[r].what);
		fprintf(f, "</td>");
		for (i = 0; i < d->n; i++) {
			fprintf(f, "<td>");
			html_escape(f, c->rows[r].value[i]);
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* Comparison k as a differential flame graph: where along which path
 * the own time of a frame changed. */
static void flame_section(FILE *f, const struct diff *d, size_t k)
{
	struct flame fl;
	char id[32];

	if (flame_build_diff(&fl, d, k))
		return;
	snprintf(id, sizeof(id), "flame-%zu", k);
	fprintf(f, "<h2>%c - A along the call paths</h2>\n", diff_letter(k));
	flame_html(f, &fl, id);
	flame_free(&fl);
}

static void write_doc(FILE *f, const struct diff *d)
{
	const struct diff_view *v = diff_view(d);
	size_t i, first;

	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		   "<title>perpkt diff</title><style>%s</style></head><body>\n",
		html_style);
	fprintf(f, "<h1>perpkt diff: %s per %s</h1>\n", d->unit, d->per);
	/* a forced comparison of worlds first, then what differs */
	first = d->conds ? d->conds->first_warnings : 0;
	for (i = 0; i < first && i < d->nwarnings; i++) {
		fprintf(f, "<p class=warn>warning: ");
		html_escape(f, d->warnings[i]);
		fprintf(f, "</p>\n");
	}
	put_conditions(f, d);
	fprintf(f, "<ul>\n");
	for (i = 0; i < d->n; i++) {
		fprintf(f, "<li><b>%c</b>: ", (char)('A' + i));
		html_escape(f, d->prof[i].path);
		fprintf(f, " (");
		html_escape(f, d->prof[i].label);
		fprintf(f, ", %d window%s)</li>\n", d->prof[i].m->nrepeats,
			d->prof[i].m->nrepeats > 1 ? "s" : "");
	}
	fprintf(f, "</ul>\n");
	for (i = first; i < d->nwarnings; i++) {
		fprintf(f, "<p class=warn>warning: ");
		html_escape(f, d->warnings[i]);
		fprintf(f, "</p>\n");
	}
	for (i = 1; i < d->n; i++) {
		if (d->latency[i].rel == DIFF_NO_REL)
			continue;
		fprintf(f, "<p>Latency %c-A%s: %+.2f us (%+.1f%%) %s; busy kernel time per %s %+.2f %s.</p>\n",
			(char)('A' + i), d->stalls_apart ?
			" (means without stalls)" : "", d->latency[i].delta / 1e3,
			d->latency[i].rel * 100, diff_mark(d->latency[i].mark),
			d->per, d->busy.cmp[i].delta, d->unit);
	}
	for (i = 1; i < d->n; i++) {
		fprintf(f, "<h2>%c - A by %s</h2>\n", (char)('A' + i),
			model_by_name(d->by));
		delta_chart(f, d, v, i);
	}
	for (i = 1; i < d->n; i++)
		flame_section(f, d, i);
	fprintf(f, "<h2>Table</h2>\n<table><tr><th>%s</th><th>A</th>",
		model_by_name(d->by));
	for (i = 1; i < d->n; i++)
		fprintf(f, "<th>%c</th><th>%c-A</th><th>rel</th><th>sig</th>",
			(char)('A' + i), (char)('A' + i));
	fprintf(f, "</tr>\n");
	for (i = 0; i < v->shown; i++)
		table_row(f, d, &v->rows[i], NULL);
	if (v->shown < v->n)
		table_row(f, d, &v->other, NULL);
	table_row(f, d, &d->total, "total");
	table_row(f, d, &d->busy, "busy (total minus idle)");
	{
		char rule[600];

		diff_sig_rule(rule, sizeof(rule), d);
		fprintf(f, "</table>\n<p>sig: ");
		html_escape(f, rule);
		fprintf(f, ".</p>\n");
	}
	flame_html_script(f);
	fputs("</body></html>\n", f);
}

int diff_html(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return error("out of memory for the HTML diff");
	write_doc(m, d);
	if (fclose(m)) {
		free(buf);
		return error("out of memory for the HTML diff");
	}
	fwrite(buf, 1, len, f);
	free(buf);
	if (fflush(f) || ferror(f))
		return error("cannot write HTML diff: %s", strerror(errno));
	return 0;
}
