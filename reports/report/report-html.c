// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/flame/flame.h"
#include "reports/render/html-common.h"
#include "reports/render/markup.h"
#include "reports/report/report-table.h"
#include "reports/model/sides.h"
#include "reports/model/summary.h"

/*
 * One self-contained HTML file: inline CSS, SVG and the flame graph's
 * script, no fetch of anything, so it can be attached to a bug and
 * opened offline.
 * Each chart has a colour of its own (documented in docs/report.md):
 * the screenshot test finds the charts by those colours.
 */

#define COLOR_DECOMP_CPU "#1f77b4"
#define COLOR_DECOMP_REST "#ff7f0e"
#define COLOR_BUCKET "#2ca02c"
#define COLOR_FUNCTION "#9467bd"
#define COLOR_LATENCY "#d62728"
#define TOP_FUNCTIONS 15
#define CHART_W 720
#define LABEL_W 260

/* Horizontal bars of per_rt[0], one per row, scaled to the largest. */
static void bar_chart(FILE *f, const struct model *m,
		      const struct model_view *v, size_t n, const char *color,
		      const char *id)
{
	double max = 0;
	size_t i;
	int h;

	if (n > v->n)
		n = v->n;
	for (i = 0; i < n; i++)
		if (v->rows[i].per_rt[0] > max)
			max = v->rows[i].per_rt[0];
	h = 20 * (int)n + 10;
	markup_printf(f, "<svg id=\"%s\" width=\"%d\" height=\"%d\" role=\"img\">\n",
		id, CHART_W, h + 30);
	for (i = 0; i < n; i++) {
		const struct model_row *r = &v->rows[i];
		double w = max > 0 ? (CHART_W - LABEL_W - 130) *
			   r->per_rt[0] / max : 0;
		int y = 5 + 20 * (int)i;

		markup_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">",
			LABEL_W - 6, y + 13);
		markup_escape(f, r->name);
		markup_printf(f, "</text><rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"16\" fill=\"%s\"/>",
			LABEL_W, y, w, color);
		markup_printf(f, "<text x=\"%.1f\" y=\"%d\">%.1f &#177; %.1f</text>\n",
			LABEL_W + w + 4, y + 13, r->per_rt[0],
			model_row_error(m, r, 0));
	}
	/* the value axis: 0 and the largest bar, with the unit */
	markup_printf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
		"<text x=\"%d\" y=\"%d\">0</text>"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.1f</text>"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s per round trip (&#177; %s)</text>\n",
		LABEL_W, h - 4, CHART_W - 130, h - 4, LABEL_W, h + 10,
		CHART_W - 130, h + 10, max,
		LABEL_W + (CHART_W - LABEL_W - 130) / 2, h + 24,
		m->nevents ? summary_unit(m, 0) : "value",
		m->nrepeats > 1 ? "sd across repeats" : "sampling error, 1 sd");
	fputs("</svg>\n", f);
}

/* Round trip as one stacked bar: client, responder, rest. */
static void decomp_chart(FILE *f, const struct model *m)
{
	const struct model_decomp *d = &m->decomp;
	double parts[3] = { d->client, d->responder, d->rest };
	static const char *const names[3] = { "client", "responder", "off-CPU" };
	static const char *const colors[3] = {
		COLOR_DECOMP_CPU, "#aec7e8", COLOR_DECOMP_REST };
	double x = 10, total = 0;
	int i;

	if (!d->valid)
		return;
	for (i = 0; i < 3; i++)
		total += parts[i] > 0 ? parts[i] : 0;
	if (total <= 0)
		return;
	markup_printf(f, "<svg id=\"decomposition\" width=\"%d\" height=\"60\" role=\"img\">\n",
		CHART_W);
	for (i = 0; i < 3; i++) {
		double w;

		if (parts[i] <= 0)
			continue;
		w = (CHART_W - 20) * parts[i] / total;
		markup_printf(f, "<rect x=\"%.1f\" y=\"5\" width=\"%.1f\" height=\"24\" fill=\"%s\"/>",
			x, w, colors[i]);
		markup_printf(f, "<text x=\"%.1f\" y=\"46\">%s %.2f us</text>\n",
			x + 2, names[i], parts[i] / 1e3);
		x += w;
	}
	fputs("</svg>\n", f);
}

/*
 * Older profiles keep a latency summary, not a histogram: a box plot of
 * min, p50, p90, p99, p99.9 and max on a log axis, mean marked.
 */
static void latency_chart(FILE *f, const struct latency_summary *l)
{
	double lo, hi, span;
	const double pts[6] = { l->min, l->p50, l->p90, l->p99, l->p999, l->max };
	static const char *const names[6] = {
		"min", "p50", "p90", "p99", "p99.9", "max" };
	double x[6], xm;
	int i;

	if (!l->count || !l->max)
		return;
	lo = log10(l->min > 0 ? l->min : 1);
	hi = log10((double)l->max);
	span = hi - lo > 0 ? hi - lo : 1;
	for (i = 0; i < 6; i++)
		x[i] = 40 + (CHART_W - 80) *
		       (log10(pts[i] > 0 ? pts[i] : 1) - lo) / span;
	xm = 40 + (CHART_W - 80) * (log10(l->mean > 1 ? l->mean : 1) - lo) / span;
	markup_printf(f, "<svg id=\"latency\" width=\"%d\" height=\"90\" role=\"img\">\n",
		CHART_W);
	markup_printf(f, "<line x1=\"%.1f\" y1=\"30\" x2=\"%.1f\" y2=\"30\" stroke=\"%s\" stroke-width=\"2\"/>",
		x[0], x[5], COLOR_LATENCY);
	markup_printf(f, "<rect x=\"%.1f\" y=\"15\" width=\"%.1f\" height=\"30\" fill=\"%s\"/>",
		x[1], x[3] - x[1] > 2 ? x[3] - x[1] : 2, COLOR_LATENCY);
	markup_printf(f, "<line x1=\"%.1f\" y1=\"12\" x2=\"%.1f\" y2=\"48\" stroke=\"#000\" stroke-width=\"2\"/>",
		xm, xm);
	for (i = 0; i < 6; i++)
		markup_printf(f, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"50\" stroke=\"%s\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s %.1f</text>\n",
			x[i], x[i], COLOR_LATENCY, x[i], i % 2 ? 82 : 66,
			names[i], pts[i] / 1e3);
	fputs("</svg>\n<p>Box from p50 to p99, whiskers to min and max, black line at the mean "
	      "(log scale, us). The profile has a summary, not a histogram.</p>\n", f);
}

/*
 * The round trips' latency histogram from the profile: log-linear
 * buckets drawn on a log time axis (each bucket then has about the same
 * width) with log counts, so one slow round trip in a million still
 * shows; p50 and p99 marked.
 */
static void histogram_chart(FILE *f, const struct model *m)
{
	enum { X0 = 60, PLOT_W = CHART_W - 100, Y0 = 25, PLOT_H = 100 };
	const struct model_hist_bucket *h = m->histogram;
	/* 1,024 buckets per power of two are far more than pixels: those
	 * narrower than a pixel are summed per pixel column so the SVG
	 * stays small; wider ones (coarse or sparse histograms) keep their
	 * own width */
	double col[PLOT_W] = { 0 }, lo, hi, span, top = 0, dec, x0, x1, y;
	size_t i;
	int x, pass;

	lo = log10(h[0].lo > 0 ? (double)h[0].lo : 1);
	hi = log10((double)h[m->nhistogram - 1].hi);
	span = hi - lo > 0 ? hi - lo : 1;
	markup_printf(f, "<svg id=\"latency\" width=\"%d\" height=\"175\" role=\"img\">\n",
		CHART_W);
	for (pass = 0; pass < 2; pass++) {	/* 0: the scale, 1: draw */
		for (i = 0; i < m->nhistogram; i++) {
			x0 = PLOT_W * (log10(h[i].lo > 0 ? (double)h[i].lo : 1) - lo) / span;
			x1 = PLOT_W * (log10((double)h[i].hi) - lo) / span;
			if (x1 - x0 < 1) {
				x = (int)x0 < PLOT_W ? (int)x0 : PLOT_W - 1;
				if (!pass)
					col[x] += (double)h[i].count;
				continue;
			}
			if (!pass) {
				top = (double)h[i].count > top ? (double)h[i].count : top;
				continue;
			}
			y = PLOT_H * log10(1 + (double)h[i].count) / log10(1 + top);
			markup_printf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
				X0 + x0, Y0 + PLOT_H - y, x1 - x0, y, COLOR_LATENCY);
		}
		for (x = 0; x < PLOT_W; x++) {
			if (!pass) {
				top = col[x] > top ? col[x] : top;
				continue;
			}
			if (!col[x])
				continue;
			y = PLOT_H * log10(1 + col[x]) / log10(1 + top);
			markup_printf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"1\" height=\"%.1f\" fill=\"%s\"/>\n",
				X0 + x, Y0 + PLOT_H - y, y, COLOR_LATENCY);
		}
	}
	for (i = 0; i < 2; i++) {
		double v = i ? (double)m->run.latency.p99 :
			   (double)m->run.latency.p50;
		double xv = X0 + (PLOT_W - 1) * (log10(v > 1 ? v : 1) - lo) / span;

		markup_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
			"<text x=\"%.1f\" y=\"%d\">%s %.1f us</text>\n",
			xv, i ? 18 : 4, xv, Y0 + PLOT_H + 2, xv + 3, i ? 26 : 12,
			i ? "p99" : "p50", v / 1e3);
	}
	/* axes: time ticks at 1, 2 and 5 of each power of ten that fits;
	 * counts at 1 and the tallest column */
	markup_printf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
		X0, Y0 + PLOT_H, X0 + PLOT_W, Y0 + PLOT_H, X0, Y0, X0, Y0 + PLOT_H);
	for (dec = pow(10, floor(lo)); dec <= pow(10, hi); dec *= 10) {
		static const double steps[] = { 1, 2, 5 };
		size_t k;

		for (k = 0; k < 3; k++) {
			double v = dec * steps[k], xv;

			if (log10(v) < lo || log10(v) > hi)
				continue;
			xv = X0 + (PLOT_W - 1) * (log10(v) - lo) / span;
			markup_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
				"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
				xv, Y0 + PLOT_H, xv, Y0 + PLOT_H + 4, xv,
				Y0 + PLOT_H + 16, v / 1e3);
		}
	}
	markup_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>"
		"<text x=\"%d\" y=\"%d\" text-anchor=\"end\">1</text>\n",
		X0 - 4, Y0 + 8, top, X0 - 4, Y0 + PLOT_H);
	markup_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">round-trip latency (us, log scale)</text>"
		"<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">round trips (log)</text>\n",
		X0 + PLOT_W / 2, Y0 + PLOT_H + 34, Y0 + PLOT_H / 2, Y0 + PLOT_H / 2);
	fputs("</svg>\n<p>Round trips per latency bucket (log time axis, log "
	      "counts), with p50 and p99 marked.</p>\n", f);
}

static void row(FILE *f, const struct model *m, const struct model_row *r,
		const char *name)
{
	struct report_cells c;
	size_t e;

	report_row_cells(m, r, &c);
	fputs("<tr><td>", f);
	markup_escape(f, name);
	markup_printf(f, "</td><td class=n>%llu</td><td class=n>%.2f</td><td class=n>%.2f</td>",
		c.samples, 100 * c.share, 100 * c.cum);
	for (e = 0; e < m->nevents; e++) {
		markup_printf(f, "<td class=n>%.1f</td>", c.value[e]);
		if (!e)
			markup_printf(f, "<td class=n>%.1f</td>", c.error[0]);
	}
	if (c.ipc >= 0)
		markup_printf(f, "<td class=n>%.2f</td></tr>\n", c.ipc);
	else
		fputs("<td class=n>-</td></tr>\n", f);
}

static void table(FILE *f, const struct model *m, const struct model_view *v,
		  const char *title, const struct render_options *o)
{
	size_t i, e;

	markup_printf(f, "<table><tr><th>");
	markup_escape(f, title);
	fputs("</th><th>samples</th><th>%</th><th>cum %</th>", f);
	for (e = 0; e < m->nevents; e++) {
		fputs("<th>", f);
		markup_escape(f, m->run.events[e].name);
		fputc('/', f);
		markup_escape(f, m->run.unit.abbrev);
		fputs("</th>", f);
		if (!e)
			fputs(report_error_is_spread(m) ? "<th>sd</th>" : "<th>&#177;</th>", f);
	}
	fputs("<th>IPC</th></tr>\n", f);
	for (i = 0; i < v->n; i++) {
		if (!report_row_shown(o, i, &v->rows[i]))
			break;
		row(f, m, &v->rows[i], v->rows[i].name);
	}
	/* outside the total, as in diff */
	if (model_others_row(m) && v != &m->callers)
		row(f, m, model_others_row(m), MODEL_OTHER_TASKS);
	fputs("</table>\n", f);
	if (i < v->n)
		markup_printf(f, "<p>%zu more rows not shown.</p>\n", v->n - i);
}

/* record --peer: local and remote side by side. */
static void sides(FILE *f, const struct model *m)
{
	struct sides sd;
	size_t i;

	if (sides_build(&sd, m) || !sd.n) {
		sides_free(&sd);
		return;
	}
	fputs("<h2>Both sides</h2>\n<p>", f);
	markup_escape(f, sd.title);
	fputs("</p>\n<table id=sides>\n<tr><th></th><th>local</th><th>remote</th></tr>\n", f);
	for (i = 0; i < sd.n; i++) {
		fputs(sd.lines[i].bucket ? "<tr><td>&nbsp;&nbsp;&nbsp;" : "<tr><td>", f);
		markup_escape(f, sd.lines[i].label + (sd.lines[i].bucket ? 2 : 0));
		fputs("</td><td class=n>", f);
		markup_escape(f, sd.lines[i].local);
		fputs("</td><td class=n>", f);
		markup_escape(f, sd.lines[i].remote);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<p>", f);
	markup_escape(f, sd.tops);
	fputs("</p>\n<p>", f);
	markup_escape(f, sd.note);
	fputs("</p>\n", f);
	sides_free(&sd);
}

/* Where a round trip's kernel time goes, path by path. */
static void flame_section(FILE *f, const struct model *m)
{
	struct flame fl;

	if (flame_build(&fl, m))
		return;
	fputs("<h2>Where the time of a ", f);
	markup_escape(f, m->run.unit.name);
	fputs(" goes</h2>\n", f);
	flame_html(f, &fl, "flame");
	flame_free(&fl);
}

static void body(FILE *f, const struct model *m, const struct summary *s,
		 const struct render_options *o)
{
	const struct run_facts *run = &m->run;
	size_t i;

	fputs("<h1>perpkt report: ", f);
	if (run->workload_command) {
		markup_escape(f, run->workload_command);
		fputs(", per ", f);
		markup_escape(f, run->unit.name);
		fputs("</h1>\n", f);
	} else {
		markup_escape(f, run->transport);
		fputs(" over ", f);
		markup_escape(f, run->network);
		markup_printf(f, ", %u-byte messages</h1>\n", run->message_size);
	}
	if (s->headline) {
		fputs("<p><strong>", f);
		markup_escape(f, s->headline);
		fputs("</strong></p>\n", f);
	}
	for (i = 0; i < s->nwarnings; i++) {
		fputs("<p class=warn>warning: ", f);
		markup_escape(f, s->warnings[i]);
		fputs("</p>\n", f);
	}
	fputs("<table>\n", f);
	for (i = 0; i < s->nfacts; i++) {
		fputs("<tr><th>", f);
		markup_escape(f, s->facts[i].key);
		fputs("</th><td>", f);
		markup_escape(f, s->facts[i].value);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<details><summary>test conditions</summary><ul>\n", f);
	for (i = 0; i < s->nconds; i++) {
		fputs("<li><code>", f);
		markup_escape(f, s->conds[i].key);
		fputs("</code> = ", f);
		markup_escape(f, s->conds[i].value);
		fputs("</li>\n", f);
	}
	if (s->nconds_hidden)
		markup_printf(f, "<li>and %zu more (--all-conditions)</li>\n",
			s->nconds_hidden);
	if (!s->nconds)
		fputs("<li>none recorded</li>\n", f);
	fputs("</ul></details>\n<h2>Latency decomposition</h2>\n<p>", f);
	markup_escape(f, s->decomp_title);
	fputs("</p>\n", f);
	decomp_chart(f, m);
	fputs("<table>\n", f);
	for (i = 0; i < s->ndecomp; i++) {
		fputs(s->decomp[i].flag ? "<tr class=flag><td>" : "<tr><td>", f);
		if (s->decomp[i].indent)
			fputs("&nbsp;&nbsp;&nbsp;", f);
		markup_escape(f, s->decomp[i].label);
		fputs("</td><td class=n>", f);
		markup_escape(f, s->decomp[i].value);
		fputs("</td><td class=n>", f);
		markup_escape(f, s->decomp[i].share);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n<h2>Reconciliation</h2>\n<ul>\n", f);
	for (i = 0; i < s->nrecon; i++) {
		fputs(s->recon[i].flag ? "<li class=flag>! " : "<li>", f);
		markup_escape(f, s->recon[i].label);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n<h2>Latency</h2>\n", f);
	if (m->nhistogram)
		histogram_chart(f, m);
	else
		latency_chart(f, &run->latency);
	if (s->empty) {
		fputs("<p><strong>", f);
		markup_escape(f, s->empty);
		fputs("</strong></p>\n", f);
	} else {
		flame_section(f, m);
		fputs("<h2>Buckets per ", f);
		markup_escape(f, run->unit.name);
		fputs("</h2>\n", f);
		bar_chart(f, m, &m->views[MODEL_BY_BUCKET],
			  m->views[MODEL_BY_BUCKET].n, COLOR_BUCKET, "buckets");
		markup_printf(f, "<h2>Top %d functions per ", TOP_FUNCTIONS);
		markup_escape(f, run->unit.name);
		fputs("</h2>\n", f);
		bar_chart(f, m, &m->views[MODEL_BY_FUNCTION], TOP_FUNCTIONS,
			  COLOR_FUNCTION, "functions");
		fputs("<h2>Roles</h2>\n", f);
		table(f, m, &m->views[MODEL_BY_ROLE], "role", o);
		markup_printf(f, "<h2>By %s</h2>\n", model_view_title(m, o->by));
		table(f, m, &m->views[o->by], model_view_title(m, o->by), o);
		if (m->callers_of) {
			fputs("<h2>Callers of ", f);
			markup_escape(f, m->callers_of);
			fputs("</h2>\n", f);
			table(f, m, &m->callers, "caller", o);
		}
	}
	sides(f, m);
	fputs("<h2>Notes</h2>\n<ul>\n", f);
	for (i = 0; i < s->nnotes; i++) {
		fputs("<li>", f);
		markup_escape(f, s->notes[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

int report_html(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	struct render_options defaults = { .width = 0 };
	struct summary s;
	char *doc = NULL;
	size_t len = 0;
	FILE *mem;

	if (!o)
		o = &defaults;
	if (model_empty(m))
		return error("report of an empty model");
	if (summary_build(&s, m, o->all_conditions))
		return -1;
	/* built whole in memory: a failure leaves stdout untouched */
	mem = open_memstream(&doc, &len);
	if (!mem) {
		summary_free(&s);
		return error("out of memory writing the report");
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>perpkt report</title><style>", mem);
	fputs(html_style, mem);  /* markup: the stylesheet, ours */
	fputs("</style></head><body>\n", mem);
	body(mem, m, &s, o);
	if (!s.empty)
		flame_html_script(mem);
	fputs("</body></html>\n", mem);
	summary_free(&s);
	if (fclose(mem) || !doc) {
		free(doc);
		return error("out of memory writing the report");
	}
	/* markup: the page, made above */
	if (fwrite(doc, 1, len, f) != len || fflush(f) || ferror(f)) {
		free(doc);
		return error("cannot write report: %s", strerror(errno));
	}
	free(doc);
	return 0;
}
