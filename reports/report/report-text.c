// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reports/report/report-table.h"
#include "reports/model/sides.h"
#include "reports/model/summary.h"

/*
 * The mail-ready report. Every line goes through line_put() or
 * put_wrapped(), which never exceed the width: reports get pasted into
 * netdev threads, where a wrapped table is unreadable.
 */

#define TEXT_DEFAULT_WIDTH 72
#define TEXT_MIN_WIDTH 60
#define TEXT_MAX_WIDTH 1000
#define PCT_W 6    /* "100.00" */
#define CALLS_W 8  /* "calls/RT" */
#define INCL_MIN_W 7  /* "incl/RT" */
#define BUCKET_MIN_W 6
#define BUCKET_MAX_W 10
#define SYM_MIN_W 24  /* room for most kernel function names */
#define MODULE_MIN_W 8  /* "[kernel]" */
#define MODULE_MAX_W 12

struct text_ctx {
	FILE *f;
	int width;
	int oom;
};

/* One table line, built left to right. */
struct line {
	char buf[TEXT_MAX_WIDTH + 64];
	size_t len;
};

struct layout {
	int show_cum;
	int show_bucket;
	int show_err;
	int show_ipc;
	int show_calls, show_incl;  /* exact: calls/RT, inclusive/RT */
	int wincl;
	int wsamples;
	int wval[MODEL_MAX_EVENTS];
	int werr;
	char label[MODEL_MAX_EVENTS][32];
	/* "+-": sampling error; "sd": spread across repeats (issue 7) */
	const char *bar_label;
	const struct model *m;
	size_t nval;      /* event columns that fit */
	int wbucket;
	int wmodule;      /* 0: no module column (no row is in a module) */
	int wsym;
};

static void line_add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_add(struct line *l, const char *fmt, ...)
{
	size_t room = sizeof(l->buf) - l->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	l->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Left-aligned in w columns; longer text is cut and ends in '~'. */
static void line_field(struct line *l, const char *s, int w)
{
	if (w <= 0)
		return;
	if ((int)strlen(s) > w)
		line_add(l, "%.*s~", w - 1, s);
	else
		line_add(l, "%-*s", w, s);
}

static void line_put(struct text_ctx *c, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	/* Layout keeps within the width; this is only the last guard. */
	if (l->len > (size_t)c->width) {
		l->len = c->width;
		l->buf[l->len - 1] = '~';
	}
	fprintf(c->f, "%.*s\n", (int)l->len, l->buf);
	l->len = 0;
}

/* Prose wrapped at spaces; continuation lines indented by `indent`. */
static void put_wrapped(struct text_ctx *c, const char *text, int first,
			int indent)
{
	const char *p = text;
	/* measured once: strlen per line made a long string quadratic */
	size_t len = strlen(text);
	int ind = first;

	while (*p) {
		int avail = c->width - ind;
		int cut;

		if (len <= (size_t)avail) {
			fprintf(c->f, "%*s%s\n", ind, "", p);
			return;
		}
		for (cut = avail; cut > 0 && p[cut] != ' '; cut--)
			;
		if (cut == 0)
			cut = avail;  /* one word longer than a line */
		fprintf(c->f, "%*s%.*s\n", ind, "", cut, p);
		p += cut;
		len -= (size_t)cut;
		while (*p == ' ') {
			p++;
			len--;
		}
		ind = indent;
	}
}

static void wrapf(struct text_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void wrapf(struct text_ctx *c, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->oom = 1;
		return;
	}
	put_wrapped(c, s, 0, 2);
	free(s);
}

static void fmt_val(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f", v);
}

/* The facts a mail-sized report keeps; --full shows every one. With a
 * hardware PMU the mode and the events come first of all. */
static int short_fact(const char *key, const struct model *m)
{
	static const char *const keep[] = {
		"side", "kernel", "CPUs", "round trips", "latency (us)", "latency",
		"unit", "PARTIAL", "flows",
	};
	size_t i;

	const char *mode = m->run.mode;

	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (!strcmp(key, keep[i]))
			return 1;
	return mode && !strcmp(mode, "hardware") && !m->run.exact &&
	       !model_software_clock(m) &&
	       (!strcmp(key, "mode") || !strcmp(key, "event") ||
		!strcmp(key, "not counting"));
}

/* The headline first, then what went wrong, before any detail. */
static void put_glance(struct text_ctx *c, const struct summary *s)
{
	size_t i;

	if (s->headline)
		put_wrapped(c, s->headline, 0, 2);
	for (i = 0; i < s->nwarnings; i++)
		wrapf(c, "warning: %s", s->warnings[i]);
}

static void put_header(struct text_ctx *c, const struct model *m,
		       const struct summary *s, int full)
{
	const struct run_facts *run = &m->run;
	size_t i;

	fprintf(c->f, "\n");
	if (run->workload_command && full)
		wrapf(c, "perpkt report: '%s', per %s", run->workload_command,
		      run->unit.name);
	else if (full)	/* the headline says it in the short one */
		wrapf(c, "perpkt report: %s over %s, %u-byte messages",
		      run->transport ? run->transport : "unknown",
		      run->network ? run->network : "unknown", run->message_size);
	for (i = 0; i < s->nfacts; i++)
		if (full || short_fact(s->facts[i].key, m))
			wrapf(c, "%s: %s", s->facts[i].key, s->facts[i].value);
	if (!full) {
		if (model_software_clock(m))
			wrapf(c, "mode: software-clock, no hardware PMU: values are ns of CPU time per %s, from cpu-clock sampling (blind spot and events: --full)",
			      run->unit.name);
		return;
	}
	if (s->nconds) {
		char *all = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&all, &len);

		if (!f) {
			c->oom = 1;
			return;
		}
		for (i = 0; i < s->nconds; i++)
			fprintf(f, "%s%s=%s", i ? "; " : "", s->conds[i].key,
				s->conds[i].value);
		if (s->nconds_hidden)
			fprintf(f, "; and %zu more (--all-conditions)",
				s->nconds_hidden);
		fclose(f);
		wrapf(c, "conditions: %s", all ? all : "");
		free(all);
	} else {
		wrapf(c, "conditions: none recorded");
	}
}

static void put_decomp(struct text_ctx *c, const struct summary *s, int full)
{
	int wl = c->width - 2 - 12 - 8;
	size_t i;

	fprintf(c->f, "\n");
	wrapf(c, "%s", s->decomp_title);
	for (i = 0; i < s->ndecomp; i++) {
		const struct sum_line *d = &s->decomp[i];
		struct line l = { .len = 0 };

		if (!full && d->indent && !d->flag)
			continue;	/* the parts of a part: --full */
		line_add(&l, "%s", d->flag ? "! " : "  ");
		line_add(&l, "%*s", d->indent * 2, "");
		line_field(&l, d->label, wl - d->indent * 2);
		line_add(&l, " %11s %7s", d->value, d->share);
		line_put(c, &l);
	}
}

static void put_recon(struct text_ctx *c, const struct summary *s)
{
	size_t i;

	fprintf(c->f, "\nreconciliation (is it the system or the observer?):\n");
	for (i = 0; i < s->nrecon; i++) {
		char *t;

		if (asprintf(&t, "%s%s", s->recon[i].flag ? "! " : "  ",
			     s->recon[i].label) < 0) {
			c->oom = 1;
			return;
		}
		put_wrapped(c, t, 0, 4);
		free(t);
	}
}

static int num_width(uint64_t v)
{
	int w = 1;

	while (v >= 10) {
		v /= 10;
		w++;
	}
	return w;
}

/* Column widths from the data, then as many event columns as fit. */
static void layout_compute(struct layout *L, const struct model *m,
			   int width, int show_bucket,
			   const struct model_row *rows, size_t nrows)
{
	int fixed, w;
	size_t e, i;

	memset(L, 0, sizeof(*L));
	L->m = m;
	L->bar_label = report_error_label(m);
	/* exact counts: no sampling error, a spread only across boots */
	L->show_err = !m->run.exact || m->nrepeats > 1;
	L->show_cum = 1;
	L->show_bucket = show_bucket;
	L->wsamples = num_width(m->total.samples[0]);
	if (L->wsamples < 7)
		L->wsamples = 7;  /* "samples" */
	for (e = 0; e < m->nevents; e++) {
		char v[64];

		snprintf(L->label[e], sizeof(L->label[e]), "%.20s/%.6s",
			 summary_unit(m, e), m->run.unit.abbrev);
		fmt_val(v, sizeof(v), m->total.per_rt[e]);
		w = strlen(L->label[e]);
		L->wval[e] = (int)strlen(v) > w ? (int)strlen(v) : w;
	}
	L->wbucket = BUCKET_MIN_W;
	for (i = 0; show_bucket && i < nrows; i++) {
		w = strlen(rows[i].bucket ? rows[i].bucket : "");
		if (w > L->wbucket)
			L->wbucket = w;
	}
	if (L->wbucket > BUCKET_MAX_W)
		L->wbucket = BUCKET_MAX_W;
	/* a module column beside the bucket when any function is in one */
	for (i = 0; show_bucket && i < nrows; i++) {
		w = rows[i].module ? (int)strlen(rows[i].module) : 0;
		if (w > L->wmodule)
			L->wmodule = w < MODULE_MIN_W ? MODULE_MIN_W : w;
	}
	if (L->wmodule > MODULE_MAX_W)
		L->wmodule = MODULE_MAX_W;

	fixed = L->wsamples + 1 + PCT_W + 1 + PCT_W + 1;
	if (show_bucket)
		fixed += L->wbucket + 1;
	if (L->wmodule)
		fixed += L->wmodule + 1;
	if (m->nevents) {
		char v[64];

		fixed += L->wval[0] + 1;
		L->nval = 1;
		fmt_val(v, sizeof(v), model_row_error(m, &m->total, 0));
		L->werr = strlen(v) > 5 ? strlen(v) : 5;
		if (L->show_err)
			fixed += L->werr + 1;
	}
	if (m->cycles_event >= 0 && m->insns_event >= 0 &&
	    width - (fixed + 5) >= SYM_MIN_W) {
		L->show_ipc = 1;
		fixed += 5;
	}
	/* exact function rows: calls, and inclusive with call paths */
	if (m->calls_known && show_bucket && nrows && m->nevents) {
		L->show_calls = 1;
		fixed += CALLS_W + 1;
		if (m->incl_known) {
			L->show_incl = 1;
			L->wincl = L->wval[0] > INCL_MIN_W ? L->wval[0] : INCL_MIN_W;
			fixed += L->wincl + 1;
		}
	}
	for (e = 1; e < m->nevents; e++) {
		if (width - (fixed + L->wval[e] + 1) < SYM_MIN_W)
			break;
		fixed += L->wval[e] + 1;
		L->nval++;
	}
	/* names matter more than the running sum: drop cum % first */
	if (width - fixed < SYM_MIN_W + 4 && show_bucket) {
		L->show_cum = 0;
		fixed -= PCT_W + 1;
	}
	L->wsym = width - fixed;
}

static void put_table_head(struct text_ctx *c, const struct layout *L,
			   const char *name)
{
	struct line l = { .len = 0 };
	size_t e;

	/* exact: what the samples column sums is instructions executed */
	line_add(&l, "%*s %*s ", L->wsamples, L->m->run.exact ? "insns" : "samples",
		 PCT_W, "%");
	if (L->show_cum)
		line_add(&l, "%*s ", PCT_W, "cum %");
	for (e = 0; e < L->nval; e++) {
		line_add(&l, "%*s ", L->wval[e], L->label[e]);
		if (!e && L->show_err)
			line_add(&l, "%*s ", L->werr, L->bar_label);
	}
	if (L->show_ipc)
		line_add(&l, "%4s ", "IPC");
	if (L->show_calls)
		line_add(&l, "%*s ", CALLS_W, "calls/RT");
	if (L->show_incl)
		line_add(&l, "%*s ", L->wincl, "incl/RT");
	if (L->show_bucket) {
		line_field(&l, "bucket", L->wbucket);
		line_add(&l, " ");
	}
	if (L->wmodule) {
		line_field(&l, "module", L->wmodule);
		line_add(&l, " ");
	}
	line_field(&l, name, L->wsym);
	line_put(c, &l);
}

/*
 * A row of a view when label is NULL; otherwise a summary row (rest,
 * total, busy) named by label, with no bucket or module.
 */
static void put_row(struct text_ctx *c, const struct layout *L,
		    const struct model_row *r, const char *label, int show_cum)
{
	struct line l = { .len = 0 };
	char pct[32], cum[32] = "", sym[512], v[64];
	struct report_cells cells;
	size_t e;

	/* a row of omitted rows has no repeats: its sampling error */
	report_row_cells(L->m, r, &cells);
	snprintf(pct, sizeof(pct), "%.2f", cells.share * 100);
	if (show_cum)
		snprintf(cum, sizeof(cum), "%.2f", cells.cum * 100);
	line_add(&l, "%*llu %*s ", L->wsamples, cells.samples, PCT_W, pct);
	if (L->show_cum)
		line_add(&l, "%*s ", PCT_W, cum);
	for (e = 0; e < L->nval; e++) {
		if (L->m->run.events[e].not_counting)
			snprintf(v, sizeof(v), "n/a");
		else
			fmt_val(v, sizeof(v), cells.value[e]);
		line_add(&l, "%*s ", L->wval[e], v);
		if (!e && L->show_err) {
			fmt_val(v, sizeof(v), cells.error[0]);
			line_add(&l, "%*s ", L->werr, v);
		}
	}
	if (L->show_ipc) {
		if (cells.ipc >= 0)
			line_add(&l, "%4.2f ", cells.ipc);
		else
			line_add(&l, "%4s ", "-");
	}
	if (L->show_calls) {
		fmt_val(v, sizeof(v), r->calls_per_rt);
		line_add(&l, "%*s ", CALLS_W, v);
	}
	if (L->show_incl) {
		/* a sum of rows has no inclusive count of its own */
		if (label)
			snprintf(v, sizeof(v), "-");
		else
			fmt_val(v, sizeof(v), r->incl_per_rt);
		line_add(&l, "%*s ", L->wincl, v);
	}
	if (L->show_bucket) {
		line_field(&l, !label && r->bucket ? r->bucket : "",
			   L->wbucket);
		line_add(&l, " ");
	}
	if (L->wmodule) {
		/* the core kernel, as perf report shows it */
		line_field(&l, label ? "" : r->module ? r->module : "[kernel]",
			   L->wmodule);
		line_add(&l, " ");
	}
	if (label)
		snprintf(sym, sizeof(sym), "%s", label);
	else if (r->module && !L->wmodule)
		snprintf(sym, sizeof(sym), "%s [%s]", r->name, r->module);
	else
		snprintf(sym, sizeof(sym), "%s", r->name);
	line_field(&l, sym, L->wsym);
	line_put(c, &l);
}

/* Rows shown: stop at the limit or the first row under the threshold. */
static size_t rows_shown(const struct model_view *v,
			 const struct render_options *o)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (!report_row_shown(o, i, &v->rows[i]))
			break;
	}
	return i;
}

static void put_view(struct text_ctx *c, const struct model *m,
		     const struct model_view *v, const char *name,
		     int show_bucket, const struct render_options *o,
		     int totals)
{
	size_t shown = rows_shown(v, o), i;
	struct layout L;

	layout_compute(&L, m, c->width, show_bucket, v->rows, shown);
	fprintf(c->f, "\n");
	put_table_head(c, &L, name);
	for (i = 0; i < shown; i++)
		put_row(c, &L, &v->rows[i], NULL, 1);
	if (shown < v->n) {
		/* One row for the rest, so the columns still add up. */
		struct model_row rest;
		char label[96];

		model_rest_row(m, v, shown, &rest);
		snprintf(label, sizeof(label), "(%zu more not shown)",
			 v->n - shown);
		put_row(c, &L, &rest, label, 1);
	}
	if (totals) {
		put_row(c, &L, &m->total, "total", 0);
		put_row(c, &L, &m->busy, "busy (total minus " MODEL_IDLE_BUCKET ")", 0);
	}
	/* outside the total, as in diff */
	if (model_others_row(m) && v != &m->callers)
		put_row(c, &L, model_others_row(m), MODEL_OTHER_TASKS, 0);
}

static void put_callers(struct text_ctx *c, const struct model *m,
			const struct render_options *o)
{
	char v[64], t[64];

	fmt_val(v, sizeof(v), m->callee.per_rt[0]);
	fmt_val(t, sizeof(t), m->callee.err[0]);
	fprintf(c->f, "\n");
	if (m->run.exact)  /* exact: call paths, every execution on one */
		wrapf(c, "callers of %s: %s %s per %s inclusive, on the call paths "
		      "(%llu executed); %% is of that", m->callers_of, v,
		      summary_unit(m, 0), m->run.unit.name,
		      (unsigned long long)m->callee.samples[0]);
	else
		wrapf(c, "callers of %s: %s +- %s %s per %s inclusive, from %llu callchain samples; %% is of that",
		      m->callers_of, v, t, summary_unit(m, 0),
		      m->run.unit.name,
		      (unsigned long long)m->callee.samples[0]);
	put_view(c, m, &m->callers, "caller", 0, o, 0);
}

struct miss_rank {
	double l1i;
	const struct model_row *r;
};

/* by L1I misses per round trip, most first; then by name */
static int cmp_l1i(const void *a, const void *b)
{
	const struct miss_rank *x = a, *y = b;

	if (x->l1i != y->l1i)
		return x->l1i < y->l1i ? 1 : -1;
	return strcmp(x->r->name, y->r->name);
}

static void put_miss_row(struct text_ctx *c, const struct model *m,
			 const struct model_row *r, const char *name)
{
	struct line l = { .len = 0 };
	int k;

	for (k = 0; k < 3; k++)
		line_add(&l, "%9.2f ", r->per_rt[m->miss_event[k]]);
	line_add(&l, "%9.1f ", r->per_rt[0]);
	line_field(&l, name, c->width - 4 * 10);
	line_put(c, &l);
}

/* exact with a cache model: the functions by L1I misses per round trip */
static void put_misses(struct text_ctx *c, const struct model *m,
		       const struct render_options *o)
{
	const struct model_view *v = &m->views[MODEL_BY_FUNCTION];
	struct miss_rank *rows;
	size_t i, n = o->limit > 0 && (size_t)o->limit < v->n ? (size_t)o->limit : v->n;
	struct line l = { .len = 0 };

	if (m->miss_event[0] < 0 || m->miss_event[1] < 0 || m->miss_event[2] < 0 ||
	    o->by != MODEL_BY_FUNCTION || !v->n)
		return;
	rows = malloc(v->n * sizeof(*rows));
	if (!rows) {
		c->oom = 1;
		return;
	}
	for (i = 0; i < v->n; i++)
		rows[i] = (struct miss_rank){ v->rows[i].per_rt[m->miss_event[0]], &v->rows[i] };
	qsort(rows, v->n, sizeof(*rows), cmp_l1i);
	fprintf(c->f, "\n");
	/* the model's figures, up to where the condition goes on to what
	 * it is not */
	wrapf(c, "cache misses per %s, modelled (%.*s), the functions with the most "
	      "L1I misses:", m->run.unit.name,
	      m->miss_model ? (int)strcspn(m->miss_model, ";") : 1,
	      m->miss_model ? m->miss_model : "?");
	line_add(&l, "%9s %9s %9s %9s ", "L1I/RT", "L1D/RT", "L2/RT", "insns/RT");
	line_field(&l, "symbol", c->width - 4 * 10);
	line_put(c, &l);
	for (i = 0; i < n && rows[i].l1i > 0; i++)
		put_miss_row(c, m, rows[i].r, rows[i].r->name);
	put_miss_row(c, m, &m->total, "total");
	free(rows);
}

static void put_tables(struct text_ctx *c, const struct model *m,
		       const struct render_options *o)
{
	struct render_options all = *o;
	char t[64], b[64];

	all.limit = 0;
	all.threshold = 0;
	if (o->by != MODEL_BY_ROLE && o->full)
		put_view(c, m, &m->views[MODEL_BY_ROLE], "role", 0, &all, 0);
	if (o->by != MODEL_BY_BUCKET)
		put_view(c, m, &m->views[MODEL_BY_BUCKET], "bucket", 0, &all, 0);
	put_view(c, m, &m->views[o->by], o->by == MODEL_BY_FUNCTION ?
		 "symbol" : model_view_title(m, o->by),
		 model_view_of_functions(m, o->by), o, 1);
	if (m->callers_of)
		put_callers(c, m, o);
	put_misses(c, m, o);
	fmt_val(t, sizeof(t), m->total.per_rt[0]);
	fmt_val(b, sizeof(b), m->busy.per_rt[0]);
	fprintf(c->f, "\n");
	wrapf(c, "per %s: %s %s in total, %s %s busy (without the %s bucket)",
	      m->run.unit.name,
	      t, summary_unit(m, 0), b, summary_unit(m, 0), MODEL_IDLE_BUCKET);
	if (model_others_row(m))
		wrapf(c, "%s: the busy time of the tasks that are not the workload's, on the same CPUs, outside the total (--all-tasks gives their rows)",
		      MODEL_OTHER_TASKS);
}

/* record --peer: local and remote side by side. */
static void put_sides(struct text_ctx *c, const struct model *m)
{
	struct sides sd;
	int wv = 18, wl = c->width - 2 - 2 * (wv + 1);
	size_t i;

	if (sides_build(&sd, m)) {
		c->oom = 1;
		return;
	}
	if (!sd.n)
		return;
	fprintf(c->f, "\n");
	wrapf(c, "%s", sd.title);
	{
		struct line l = { .len = 0 };

		line_add(&l, "  %*s ", wl, "");
		line_field(&l, "local", wv);
		line_add(&l, " remote");
		line_put(c, &l);
	}
	for (i = 0; i < sd.n; i++) {
		struct line l = { .len = 0 };

		line_add(&l, "  ");
		line_field(&l, sd.lines[i].label, wl);
		line_add(&l, " ");
		line_field(&l, sd.lines[i].local, wv);
		line_add(&l, " ");
		line_field(&l, sd.lines[i].remote, wv);
		line_put(c, &l);
	}
	wrapf(c, "%s", sd.tops);
	wrapf(c, "note: %s", sd.note);
	sides_free(&sd);
}

int report_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct model *m = model;
	struct render_options defaults = { .width = 0 };
	struct text_ctx c = { .f = f };
	struct summary s;
	size_t i;

	if (!o)
		o = &defaults;
	c.width = o->width ? o->width : TEXT_DEFAULT_WIDTH;
	if (c.width < TEXT_MIN_WIDTH || c.width > TEXT_MAX_WIDTH)
		return error("report width %d out of range: use %d to %d columns",
			     c.width, TEXT_MIN_WIDTH, TEXT_MAX_WIDTH);
	if (o->threshold < 0 || o->threshold > 1)
		return error("threshold %g out of range: use a share from 0 to 1",
			     o->threshold);
	if (model_empty(m))
		return error("report of an empty model");
	if (summary_build(&s, m, o->all_conditions))
		return -1;

	put_glance(&c, &s);
	put_header(&c, m, &s, o->full || o->all_conditions);
	put_decomp(&c, &s, o->full);
	if (o->full)
		put_recon(&c, &s);
	if (s.empty) {
		fprintf(f, "\n");
		wrapf(&c, "%s", s.empty);
	} else {
		put_tables(&c, m, o);
	}
	put_sides(&c, m);
	fprintf(f, "\n");
	for (i = 0; i < s.nnotes; i++)
		if (o->full || s.note_brief[i])
			wrapf(&c, "note: %s", s.notes[i]);
	if (!o->full)
		wrapf(&c, "more: --full (or -v) adds the test conditions, the reconciliation of sampled against counted time, roles, events and notes");
	summary_free(&s);
	if (c.oom)
		return error("out of memory writing the report");
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
