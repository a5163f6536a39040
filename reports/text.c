// SPDX-License-Identifier: GPL-2.0-only
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/*
 * The mail-ready table. Every line goes through line_put() or
 * put_wrapped(), which never exceed the width: reports get pasted into
 * netdev threads, where a wrapped table is unreadable.
 */

#define TEXT_DEFAULT_WIDTH 72
#define TEXT_MIN_WIDTH 60
#define TEXT_MAX_WIDTH 1000
#define PCT_W 6    /* "100.00" */
#define BUCKET_MIN_W 6
#define BUCKET_MAX_W 10
#define SYM_MIN_W 28  /* room for most kernel function names */

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
	int wsamples;
	int wval[MODEL_MAX_EVENTS];
	char label[MODEL_MAX_EVENTS][24];
	size_t nval;      /* event columns that fit */
	int wbucket;
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

/* Prose wrapped at spaces, continuation lines indented by two. */
static void put_wrapped(struct text_ctx *c, const char *text)
{
	const char *p = text;
	int indent = 0;

	while (*p) {
		int avail = c->width - indent;
		int len = strlen(p);
		int cut;

		if (len <= avail) {
			fprintf(c->f, "%*s%s\n", indent, "", p);
			return;
		}
		for (cut = avail; cut > 0 && p[cut] != ' '; cut--)
			;
		if (cut == 0)
			cut = avail;  /* one word longer than a line */
		fprintf(c->f, "%*s%.*s\n", indent, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		indent = 2;
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
	put_wrapped(c, s);
	free(s);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static void fmt_val(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f", v);
}

static const char *unit_abbrev(const struct profile_event *ev)
{
	const char *u = ev->unit ? ev->unit : ev->name;

	if (!u)
		return "value";
	if (!strcmp(u, "instructions"))
		return "insns";
	return u;
}

static void put_cpu(char *buf, size_t len, int cpu)
{
	if (cpu < 0)
		snprintf(buf, len, "any");
	else
		snprintf(buf, len, "%d", cpu);
}

static void put_header(struct text_ctx *c, const struct model *m)
{
	const struct profile *p = m->profile;
	const struct latency_summary *lat = &p->latency;
	double window_s = p->window_ns / 1e9;
	char ccpu[16], scpu[16];
	uint64_t lost = 0, throttled = 0;
	size_t e;

	wrapf(c, "perpkt report: %s over %s, %u-byte messages",
	      or_unknown(p->transport), or_unknown(p->network),
	      p->message_size);
	/* the design wants the fallback said at the very top */
	if (model_software_clock(m))
		wrapf(c, "mode: software-clock (no hardware PMU, see note below)");
	else
		wrapf(c, "mode: %s", or_unknown(p->mode));
	wrapf(c, "kernel: %s", or_unknown(p->kernel_release));
	wrapf(c, "build-id: %s", or_unknown(p->build_id));
	put_cpu(ccpu, sizeof(ccpu), p->client_cpu);
	put_cpu(scpu, sizeof(scpu), p->server_cpu);
	wrapf(c, "CPUs: client %s, server %s", ccpu, scpu);
	if (p->window_ns)
		wrapf(c, "round trips: %llu in a %.3f s window, %.1f per second",
		      (unsigned long long)p->round_trips, window_s,
		      p->round_trips / window_s);
	else
		wrapf(c, "round trips: %llu, window length unknown",
		      (unsigned long long)p->round_trips);
	if (lat->count)
		wrapf(c, "latency (us): min %.1f, p50 %.1f, p99 %.1f, max %.1f, mean %.1f",
		      lat->min / 1e3, lat->p50 / 1e3, lat->p99 / 1e3,
		      lat->max / 1e3, lat->mean / 1e3);
	else
		wrapf(c, "latency: not measured");
	for (e = 0; e < p->nevents; e++) {
		const struct profile_event *ev = &p->events[e];

		wrapf(c, "event: %s, period %llu %s, %llu samples, %llu lost, %llu throttled",
		      or_unknown(ev->name), (unsigned long long)ev->period,
		      ev->unit ? ev->unit : "", (unsigned long long)ev->samples,
		      (unsigned long long)ev->lost,
		      (unsigned long long)ev->throttled);
		lost += ev->lost;
		throttled += ev->throttled;
	}
	if (model_software_clock(m)) {
		/* split by sentence: each stays greppable */
		wrapf(c, "note: no hardware PMU was available (%s). "
		      "Values are nanoseconds of CPU time per round trip from cpu-clock sampling. "
		      "Blind spot: code that runs with interrupts off is charged to where interrupts come back on (e.g. _raw_spin_unlock_irqrestore).",
		      or_unknown(p->fallback_reason));
	} else if (p->nevents) {
		wrapf(c, "note: values are %s per round trip from sampling.",
		      unit_abbrev(&p->events[0]));
	}
	if (lost || throttled)
		wrapf(c, "warning: %llu samples lost and %llu throttles: values per round trip are underestimated.",
		      (unsigned long long)lost, (unsigned long long)throttled);
	if (m->nunknown)
		wrapf(c, "%zu of %zu sampled addresses are in no known symbol: they are counted as %s.",
		      m->nunknown, m->naddrs, MODEL_UNKNOWN_NAME);
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
			   int width, int show_cum, int show_bucket,
			   const struct model_row *rows, size_t nrows)
{
	int fixed, w;
	size_t e, i;

	memset(L, 0, sizeof(*L));
	L->show_cum = show_cum;
	L->show_bucket = show_bucket;
	L->wsamples = num_width(m->total.samples[0]);
	if (L->wsamples < 7)
		L->wsamples = 7;  /* "samples" */
	for (e = 0; e < m->nevents; e++) {
		char v[64];

		snprintf(L->label[e], sizeof(L->label[e]), "%.20s/RT",
			 unit_abbrev(&m->profile->events[e]));
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

	fixed = L->wsamples + 1 + PCT_W + 1;
	if (show_cum)
		fixed += PCT_W + 1;
	if (show_bucket)
		fixed += L->wbucket + 1;
	if (m->nevents) {
		fixed += L->wval[0] + 1;
		L->nval = 1;
	}
	for (e = 1; e < m->nevents; e++) {
		if (width - (fixed + L->wval[e] + 1) < SYM_MIN_W)
			break;
		fixed += L->wval[e] + 1;
		L->nval++;
	}
	L->wsym = width - fixed;
}

static void put_cells(struct line *l, const struct layout *L,
		      uint64_t samples, const char *pct, const char *cum,
		      const double *per_rt)
{
	size_t e;

	line_add(l, "%*llu %*s ", L->wsamples, (unsigned long long)samples,
		 PCT_W, pct);
	if (L->show_cum)
		line_add(l, "%*s ", PCT_W, cum);
	for (e = 0; e < L->nval; e++) {
		char v[64];

		fmt_val(v, sizeof(v), per_rt[e]);
		line_add(l, "%*s ", L->wval[e], v);
	}
}

static void put_table_head(struct text_ctx *c, const struct layout *L,
			   const char *name)
{
	struct line l = { .len = 0 };
	size_t e;

	line_add(&l, "%*s %*s ", L->wsamples, "samples", PCT_W, "%");
	if (L->show_cum)
		line_add(&l, "%*s ", PCT_W, "cum %");
	for (e = 0; e < L->nval; e++)
		line_add(&l, "%*s ", L->wval[e], L->label[e]);
	if (L->show_bucket) {
		line_field(&l, "bucket", L->wbucket);
		line_add(&l, " ");
	}
	line_field(&l, name, L->wsym);
	line_put(c, &l);
}

/*
 * A function or bucket row when label is NULL; otherwise a summary row
 * (rest, total, busy) named by label, with no bucket or module.
 */
static void put_row(struct text_ctx *c, const struct layout *L,
		    const struct model_row *r, const char *label, int show_cum)
{
	struct line l = { .len = 0 };
	char pct[32], cum[32] = "", sym[512];

	snprintf(pct, sizeof(pct), "%.2f", r->share * 100);
	if (show_cum)
		snprintf(cum, sizeof(cum), "%.2f", r->cum * 100);
	put_cells(&l, L, r->samples[0], pct, cum, r->per_rt);
	if (L->show_bucket) {
		line_field(&l, !label && r->bucket ? r->bucket : "",
			   L->wbucket);
		line_add(&l, " ");
	}
	if (label)
		snprintf(sym, sizeof(sym), "%s", label);
	else if (r->module)
		snprintf(sym, sizeof(sym), "%s [%s]", r->name, r->module);
	else
		snprintf(sym, sizeof(sym), "%s", r->name);
	line_field(&l, sym, L->wsym);
	line_put(c, &l);
}

static void put_buckets(struct text_ctx *c, const struct model *m)
{
	struct layout L;
	size_t i;

	layout_compute(&L, m, c->width, 0, 0, m->buckets, m->nbuckets);
	fprintf(c->f, "\n");
	put_table_head(c, &L, "bucket");
	for (i = 0; i < m->nbuckets; i++)
		put_row(c, &L, &m->buckets[i], NULL, 0);
}

/* Rows shown: stop at the limit or the first row under the threshold. */
static size_t rows_shown(const struct model *m, const struct report_options *o)
{
	size_t i;

	for (i = 0; i < m->nfunctions; i++) {
		if (o->limit > 0 && i >= (size_t)o->limit)
			break;
		if (o->threshold > 0 && m->functions[i].share < o->threshold)
			break;
	}
	return i;
}

static void put_functions(struct text_ctx *c, const struct model *m,
			  const struct report_options *o)
{
	size_t shown = rows_shown(m, o), i, e;
	struct layout L;

	layout_compute(&L, m, c->width, 1, 1, m->functions, shown);
	fprintf(c->f, "\n");
	put_table_head(c, &L, "symbol");
	for (i = 0; i < shown; i++)
		put_row(c, &L, &m->functions[i], NULL, 1);

	if (shown < m->nfunctions) {
		/* One row for the rest, so the columns still add up. */
		struct model_row rest = { .name = NULL };
		char name[96];

		for (i = shown; i < m->nfunctions; i++) {
			rest.samples[0] += m->functions[i].samples[0];
			rest.share += m->functions[i].share;
			for (e = 0; e < m->nevents; e++)
				rest.per_rt[e] += m->functions[i].per_rt[e];
		}
		rest.cum = m->functions[m->nfunctions - 1].cum;
		snprintf(name, sizeof(name), "(%zu more not shown)",
			 m->nfunctions - shown);
		put_row(c, &L, &rest, name, 1);
	}
	put_row(c, &L, &m->total, "total", 0);
	put_row(c, &L, &m->busy, "busy (total minus " MODEL_IDLE_BUCKET ")", 0);
}

static void put_summary(struct text_ctx *c, const struct model *m)
{
	char t[64], b[64];

	fmt_val(t, sizeof(t), m->total.per_rt[0]);
	fmt_val(b, sizeof(b), m->busy.per_rt[0]);
	fprintf(c->f, "\n");
	wrapf(c, "per round trip: %s %s in total, %s %s busy (without the %s bucket)",
	      t, unit_abbrev(&m->profile->events[0]), b,
	      unit_abbrev(&m->profile->events[0]), MODEL_IDLE_BUCKET);
}

int report_text(FILE *f, const struct model *m, const struct report_options *o)
{
	struct report_options defaults = { .width = 0 };
	struct text_ctx c = { .f = f };

	if (!o)
		o = &defaults;
	c.width = o->width ? o->width : TEXT_DEFAULT_WIDTH;
	if (c.width < TEXT_MIN_WIDTH || c.width > TEXT_MAX_WIDTH)
		return error("report width %d out of range: use %d to %d columns",
			     c.width, TEXT_MIN_WIDTH, TEXT_MAX_WIDTH);
	if (o->threshold < 0 || o->threshold > 1)
		return error("threshold %g out of range: use a share from 0 to 1",
			     o->threshold);
	if (!m->profile)
		return error("report of an empty model");

	put_header(&c, m);
	if (m->no_round_trips) {
		fprintf(f, "\n");
		wrapf(&c, "no round trips were counted in the sampling window: "
		      "there is nothing to divide by, so no table.");
	} else if (!m->nevents || !m->total.samples[0] ||
		   m->total.weight[0] <= 0) {
		fprintf(f, "\n");
		wrapf(&c, "no samples were taken in the sampling window: nothing to report. "
		      "Did the workload run on the sampled CPUs?");
	} else {
		put_buckets(&c, m);
		put_functions(&c, m, o);
		put_summary(&c, m);
	}
	if (c.oom)
		return error("out of memory writing the report");
	if (fflush(f) || ferror(f))
		return error("cannot write report: %s", strerror(errno));
	return 0;
}
