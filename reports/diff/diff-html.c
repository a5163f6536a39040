// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt diff as one self-contained HTML file: inline CSS, SVG and the
 * flame graphs' script, no fetches. The delta chart draws each row's change
 * against the baseline as a bar left (less time) or right (more) of a
 * zero line, with its error bar (one standard error of the delta).
 */
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"
#include "reports/flame/flame.h"
#include "reports/render/html-common.h"
#include "reports/render/markup.h"

#define COLOR_MORE "#d62728"
#define COLOR_LESS "#2ca02c"
#define CHART_W 760
#define LABEL_W 240
#define CHART_ROWS 20

/* A tick step of 1, 2 or 5 times a power of ten: about 3 a side. */
static double tick_step(double max)
{
	double raw = max / 3, p, m;

	if (!(raw > 0))
		return 0;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Bars of comparison `k` of the view's shown rows, against a numbered
 * axis: one scale for every bar, so a small change looks small. */
static void delta_chart(FILE *f, const struct diff *d,
			const struct diff_view *v, size_t k)
{
	size_t n = v->shown < CHART_ROWS ? v->shown : CHART_ROWS, i;
	double max = 0, half = (CHART_W - LABEL_W - 20) / 2.0, step, t;
	double zero = LABEL_W + half;
	int axis = 20 * (int)n + 8, h = axis + 40;

	for (i = 0; i < n; i++) {
		double x = fabs(v->rows[i].cmp[k].delta) +
			   v->rows[i].cmp[k].sigma;

		if (x > max)
			max = x;
	}
	/* the axis ends on a whole tick */
	step = tick_step(max);
	if (step > 0)
		max = ceil(max / step - 1e-9) * step;
	markup_printf(f, "<svg id=\"delta-%zu\" class=delta width=\"%d\" height=\"%d\" role=\"img\">\n",
		k, CHART_W + 20, h);  /* room for the last tick's number */
	for (t = -max; step > 0 && t <= max + step / 2; t += step) {
		double x = zero + half * t / max, tv = fabs(t) < step / 2 ? 0 : t;

		markup_printf(f, "<line class=tick data-v=\"%.6g\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>",
			tv, x, x, axis + 4);
		markup_printf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%.6g</text>\n",
			x, axis + 16, tv > 0 ? "+" : "", tv);
	}
	markup_printf(f, "<line x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>\n",
		zero, zero, axis);
	markup_printf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n",
		LABEL_W, axis, CHART_W - 20, axis);
	for (i = 0; i < n; i++) {
		const struct diff_row *r = &v->rows[i];
		double dl = r->cmp[k].delta;
		double w = max > 0 ? half * fabs(dl) / max : 0;
		double e = max > 0 ? half * r->cmp[k].sigma / max : 0;
		double x = dl < 0 ? zero - w : zero, c = zero + (dl < 0 ? -w : w);
		int y = 5 + 20 * (int)i;

		markup_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			LABEL_W - 6, y + 13);
		markup_escape(f, r->name);
		markup_printf(f, "</text><rect class=bar x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"><title>%+.1f %s %s</title></rect>",
			x, y, w, dl < 0 ? COLOR_LESS : COLOR_MORE, dl, d->unit,
			diff_mark(r->cmp[k].mark));
		markup_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>\n",
			c - e, y + 8, c + e, y + 8);
	}
	markup_printf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">&#8592; less %s per %s | more &#8594; (bars: delta, lines: &#177;1 sd)</text>\n",
		zero, h - 5, d->unit, d->per);
	markup_printf(f, "</svg>\n");
}

static void table_row(FILE *f, const struct diff *d, const struct diff_row *r,
		      const char *label)
{
	char pres[32];
	size_t i;

	diff_presence(pres, sizeof(pres), d, r);
	markup_printf(f, "<tr><td>");
	markup_escape(f, label ? label : r->name);
	markup_escape(f, pres);
	markup_printf(f, "</td><td class=n>%.1f</td>", r->cell[0].value);
	for (i = 1; i < d->n; i++) {
		markup_printf(f, "<td class=n>%.1f</td><td class=n>%+.1f</td>",
			r->cell[i].value, r->cmp[i].delta);
		if (r->cmp[i].rel == DIFF_NO_REL)
			markup_printf(f, "<td class=n>new</td>");
		else
			markup_printf(f, "<td class=n>%+.1f%%</td>",
				r->cmp[i].rel * 100);
		markup_printf(f, "<td>%s</td>", diff_mark(r->cmp[i].mark));
	}
	markup_printf(f, "</tr>\n");
}

/* A table of view v as the text diff has it: its shown rows, the rest
 * in one, and the totals under the main one. */
static void put_table(FILE *f, const struct diff *d,
		      const struct diff_view *v, const char *what, int totals)
{
	size_t i;

	markup_printf(f, "<table class=\"by-%s\"><tr><th>%s</th><th>A</th>",
		what, what);
	for (i = 1; i < d->n; i++)
		markup_printf(f, "<th>%c</th><th>%c-A</th><th>rel</th><th>sig</th>",
			diff_letter(i), diff_letter(i));
	markup_printf(f, "</tr>\n");
	for (i = 0; i < v->shown; i++)
		table_row(f, d, &v->rows[i], NULL);
	if (v->shown < v->n) {
		char label[64];

		snprintf(label, sizeof(label), "%s (%zu rows)",
			 DIFF_OTHER_NAME, v->n - v->shown);
		table_row(f, d, &v->other, label);
	}
	if (totals) {
		table_row(f, d, &d->total, "total");
		table_row(f, d, &d->busy, "busy (total minus idle)");
	}
	markup_printf(f, "</table>\n");
}

/* Lines of the text diff's prose (diff-text.c), as it words them. */
enum prose { PROSE_HOST, PROSE_MARKS, PROSE_LATENCY, PROSE_MISSES };

static void put_prose(FILE *f, const struct diff *d, enum prose what,
		      const char *cls)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	if (what == PROSE_HOST)
		diff_put_host(mem, d, 72);
	else if (what == PROSE_MARKS)
		diff_put_marks(mem, d, 72);
	else if (what == PROSE_MISSES)
		diff_put_misses(mem, d, 72);
	else
		diff_put_latency(mem, d);
	if (!fclose(mem) && buf && len) {
		markup_printf(f, "<pre class=%s>", cls);
		markup_escape(f, buf);
		markup_printf(f, "</pre>\n");
	}
	free(buf);
}

/* What differs between the profiles, before any number. */
static void put_conditions(FILE *f, const struct diff *d)
{
	const struct diff_conditions *c = d->conds;
	size_t r, i;

	if (!c || !c->n)
		return;
	markup_printf(f, "<table class=differs><tr><th>differs</th>");
	for (i = 0; i < d->n; i++)
		markup_printf(f, "<th>%c</th>", diff_letter(i));
	markup_printf(f, "</tr>\n");
	for (r = 0; r < c->n; r++) {
		markup_printf(f, "<tr><td>");
		markup_escape(f, c->rows[r].what);
		markup_printf(f, "</td>");
		for (i = 0; i < d->n; i++) {
			markup_printf(f, "<td>");
			markup_escape(f, c->rows[r].value[i]);
			markup_printf(f, "</td>");
		}
		markup_printf(f, "</tr>\n");
	}
	markup_printf(f, "</table>\n");
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
	markup_printf(f, "<h2>%c - A along the call paths</h2>\n", diff_letter(k));
	flame_html(f, &fl, id);
	flame_free(&fl);
}

static void write_doc(FILE *f, const struct diff *d)
{
	const struct diff_view *v = diff_view(d);
	size_t i, first;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	      "<title>perpkt diff</title><style>", f);
	fputs(html_style, f);  /* markup: the stylesheet, ours */
	fputs("</style></head><body>\n", f);
	markup_printf(f, "<h1>perpkt diff: %s per %s</h1>\n", d->unit, d->per);
	/* a forced comparison of worlds first, then what differs */
	first = d->conds ? d->conds->first_warnings : 0;
	for (i = 0; i < first && i < d->nwarnings; i++) {
		markup_printf(f, "<p class=warn>warning: ");
		markup_escape(f, d->warnings[i]);
		markup_printf(f, "</p>\n");
	}
	put_conditions(f, d);
	markup_printf(f, "<ul>\n");
	for (i = 0; i < d->n; i++) {
		markup_printf(f, "<li><b>%c</b>: ", (char)('A' + i));
		markup_escape(f, d->prof[i].path);
		markup_printf(f, " (");
		markup_escape(f, d->prof[i].label);
		markup_printf(f, ", %d window%s)</li>\n", d->prof[i].m->nrepeats,
			d->prof[i].m->nrepeats > 1 ? "s" : "");
	}
	markup_printf(f, "</ul>\n");
	for (i = first; i < d->nwarnings; i++) {
		markup_printf(f, "<p class=warn>warning: ");
		markup_escape(f, d->warnings[i]);
		markup_printf(f, "</p>\n");
	}
	put_prose(f, d, PROSE_HOST, "host");
	put_prose(f, d, PROSE_MARKS, "marks");
	put_prose(f, d, PROSE_LATENCY, "latency");
	put_prose(f, d, PROSE_MISSES, "misses");
	for (i = 1; i < d->n; i++) {
		markup_printf(f, "<h2>%c - A by %s</h2>\n", (char)('A' + i),
			model_by_name(d->by));
		delta_chart(f, d, v, i);
	}
	for (i = 1; i < d->n; i++)
		flame_section(f, d, i);
	if (d->by != MODEL_BY_BUCKET) {
		markup_printf(f, "<h2>Buckets</h2>\n");
		put_table(f, d, &d->buckets, "bucket", 0);
	}
	markup_printf(f, "<h2>Table</h2>\n");
	put_table(f, d, v, model_by_name(d->by), 1);
	{
		char rule[600];

		diff_sig_rule(rule, sizeof(rule), d);
		markup_printf(f, "<p>sig: %s.</p>\n", rule);
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
	fwrite(buf, 1, len, f);  /* markup: the page, made above */
	free(buf);
	if (fflush(f) || ferror(f))
		return error("cannot write HTML diff: %s", strerror(errno));
	return 0;
}
