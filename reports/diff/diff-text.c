// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff as text (mail, 72 columns). */
#include "reports/render/renderers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/latency-stalls.h"
#include "reports/diff/diff.h"
#include "stats/stats.h"
#include "reports/diff/diff-conditions.h"

#define VAL_W 10
#define REL_W 7
#define SIG_W 3
#define NAME_MIN_W 16

static void fmt_num(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f", v);
}

static void fmt_delta(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%+.1f", v);
}

/* Prose at spaces into `width` columns, continuation indented. */
static void wrap(FILE *f, const char *text, int width)
{
	const char *p = text;
	int ind = 0;

	while (*p) {
		int avail = width - ind, cut;

		if ((int)strlen(p) <= avail) {
			fprintf(f, "%*s%s\n", ind, "", p);
			return;
		}
		for (cut = avail; cut > 0 && p[cut] != ' '; cut--)
			;
		if (cut == 0)
			cut = avail;
		fprintf(f, "%*s%.*s\n", ind, "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		ind = 2;
	}
}

static void put_head(FILE *f, const struct diff *d, const char *what,
		     int wname)
{
	char h[32];
	size_t i;

	snprintf(h, sizeof(h), "A %s/%.6s", d->unit,
		 d->prof[0].m->run.unit.abbrev);
	fprintf(f, "%*s", VAL_W, h);
	if (d->n == 2) {
		snprintf(h, sizeof(h), "B %s/%.6s", d->unit,
			 d->prof[0].m->run.unit.abbrev);
		fprintf(f, " %*s %*s %*s %-*s", VAL_W, h, VAL_W, "delta",
			REL_W, "rel", SIG_W, "sig");
	} else {
		for (i = 1; i < d->n; i++) {
			snprintf(h, sizeof(h), "%c-A", diff_letter(i));
			fprintf(f, " %*s%-2s", VAL_W, h, "");
		}
	}
	fprintf(f, " %.*s\n", wname, what);
}

static void put_row(FILE *f, const struct diff *d, const struct diff_row *r,
		    const char *label, int wname)
{
	char a[32], b[32], dl[32], rel[32], pres[32], name[512];
	size_t i;

	fmt_num(a, sizeof(a), r->cell[0].value);
	fprintf(f, "%*s", VAL_W, a);
	if (d->n == 2) {
		fmt_num(b, sizeof(b), r->cell[1].value);
		fmt_delta(dl, sizeof(dl), r->cmp[1].delta);
		diff_fmt_rel(rel, sizeof(rel), &r->cmp[1]);
		fprintf(f, " %*s %*s %*s %-*s", VAL_W, b, VAL_W, dl, REL_W,
			rel, SIG_W, diff_mark(r->cmp[1].mark));
	} else {
		for (i = 1; i < d->n; i++) {
			fmt_delta(dl, sizeof(dl), r->cmp[i].delta);
			fprintf(f, " %*s%-2s", VAL_W, dl,
				diff_mark(r->cmp[i].mark));
		}
	}
	diff_presence(pres, sizeof(pres), d, r);
	snprintf(name, sizeof(name), "%s%s", label ? label : r->name, pres);
	if ((int)strlen(name) > wname)
		fprintf(f, " %.*s~\n", wname - 1, name);
	else
		fprintf(f, " %s\n", name);
}

static int name_width(const struct diff *d, int width)
{
	int used = VAL_W + 1;

	if (d->n == 2)
		used += VAL_W + 1 + VAL_W + 1 + REL_W + 1 + SIG_W + 1;
	else
		used += (int)(d->n - 1) * (VAL_W + 2 + 1);
	return width - used < NAME_MIN_W ? NAME_MIN_W : width - used;
}

static void put_table(FILE *f, const struct diff *d,
		      const struct diff_view *v, const char *what, int width,
		      int totals)
{
	int wname = name_width(d, width);
	size_t i;

	fprintf(f, "\n");
	put_head(f, d, what, wname);
	for (i = 0; i < v->shown; i++)
		put_row(f, d, &v->rows[i], NULL, wname);
	if (v->shown < v->n) {
		char label[64];

		snprintf(label, sizeof(label), "%s (%zu rows)",
			 DIFF_OTHER_NAME, v->n - v->shown);
		put_row(f, d, &v->other, label, wname);
	}
	if (!totals)
		return;
	put_row(f, d, &d->total, "total", wname);
	put_row(f, d, &d->busy, "busy (total minus idle)", wname);
}

/* "2.0", or "-" for an unknown or absent figure */
static void fmt_or_dash(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		fmt_num(buf, len, v);
}

/*
 * Exact profiles: for each function row shown whose value moved, how:
 * its calls per round trip first, then its instructions per call, then
 * (with call paths) its inclusive instructions.
 */
static void put_calls(FILE *f, const struct diff *d, const struct diff_view *v,
		      int width)
{
	size_t i, k;
	int head = 0;

	if (d->by != MODEL_BY_FUNCTION)
		return;
	for (i = 0; i < v->shown; i++) {
		const struct diff_row *r = &v->rows[i];

		for (k = 1; k < d->n; k++) {
			const struct diff_cell *a = &r->cell[0], *b = &r->cell[k];
			char ca[32], cb[32], pa[32], pb[32], ia[32], ib[32], line[512];
			char who[8] = "";

			if (!a->calls_known || !b->calls_known || r->cmp[k].delta == 0)
				continue;
			if (!head++) {
				fprintf(f, "\n");
				wrap(f, "each function that moved, exact: its calls per round "
				     "trip, then its instructions per call (and inclusive, "
				     "itself and what it calls):", width);
			}
			if (d->n > 2)
				snprintf(who, sizeof(who), "%c: ", diff_letter(k));
			snprintf(ca, sizeof(ca), "%.2f", a->calls);
			snprintf(cb, sizeof(cb), "%.2f", b->calls);
			fmt_or_dash(pa, sizeof(pa), diff_per_call(a));
			fmt_or_dash(pb, sizeof(pb), diff_per_call(b));
			fmt_or_dash(ia, sizeof(ia), a->incl_known ? a->incl : -1);
			fmt_or_dash(ib, sizeof(ib), b->incl_known ? b->incl : -1);
			snprintf(line, sizeof(line), "  %s%s: %s %s -> %s; %s a call %s -> %s%s%s%s%s",
				 who, r->name,
				 diff_calls_changed(r, k) ? "calls" : "calls the same,",
				 ca, cb, d->unit, pa, pb,
				 a->incl_known || b->incl_known ? "; inclusive " : "",
				 a->incl_known || b->incl_known ? ia : "",
				 a->incl_known || b->incl_known ? " -> " : "",
				 a->incl_known || b->incl_known ? ib : "");
			wrap(f, line, width);
		}
	}
}

/* by |L1I misses moved| of comparison `cmp`, most first */
struct miss_move {
	double moved;
	const struct diff_row *r;
};

static int cmp_moved(const void *a, const void *b)
{
	const struct miss_move *x = a, *y = b;

	if (x->moved != y->moved)
		return x->moved < y->moved ? 1 : -1;
	return strcmp(x->r->name, y->r->name);
}

/* The functions whose L1I misses moved most in comparison i */
static void put_miss_rows(FILE *f, const struct diff *d, size_t i, int width)
{
	const struct diff_view *v = &d->functions;
	struct miss_move *m = calloc(v->n ? v->n : 1, sizeof(*m));
	size_t k, n = 0;
	char line[512], who[8] = "";

	if (!m)
		return;
	for (k = 0; k < v->n; k++) {
		const struct diff_row *r = &v->rows[k];
		double moved = fabs(r->cell[i].misses[0] - r->cell[0].misses[0]);

		if (!r->apart && moved > 0)
			m[n++] = (struct miss_move){ moved, r };
	}
	qsort(m, n, sizeof(*m), cmp_moved);
	if (d->n > 2)
		snprintf(who, sizeof(who), "%c: ", diff_letter(i));
	if (n)
		wrap(f, d->n > 2 ? "  the functions whose L1I misses moved most:" :
		     "the functions whose L1I misses moved most:", width);
	for (k = 0; k < n && k < 8; k++) {
		const struct diff_cell *a = &m[k].r->cell[0], *b = &m[k].r->cell[i];

		snprintf(line, sizeof(line), "  %s%s: L1I %.2f -> %.2f, L1D %.2f -> %.2f, "
			 "L2 %.2f -> %.2f; %s %.1f -> %.1f", who, m[k].r->name,
			 a->misses[0], b->misses[0], a->misses[1], b->misses[1],
			 a->misses[2], b->misses[2], d->unit, a->value, b->value);
		wrap(f, line, width);
	}
	free(m);
}

void diff_put_misses(FILE *f, const struct diff *d, int width)
{
	const char *model = d->prof[0].m->miss_model;
	char line[640], num[32];
	size_t i;
	int k;

	if (!d->misses_known)
		return;
	snprintf(line, sizeof(line), "cache misses per %s, modelled (%.*s):", d->per,
		 model ? (int)strcspn(model, ";") : 1, model ? model : "?");
	wrap(f, line, width);
	snprintf(line, sizeof(line), "  %-4s", "");
	for (i = 0; i < d->n; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " %*c",
			 VAL_W, diff_letter(i));
	fprintf(f, "%s\n", line);
	for (k = 0; k < 3; k++) {
		snprintf(line, sizeof(line), "  %-4s", diff_miss_short[k]);
		for (i = 0; i < d->n; i++) {
			snprintf(num, sizeof(num), "%.2f", d->total.cell[i].misses[k]);
			snprintf(line + strlen(line), sizeof(line) - strlen(line), " %*s",
				 VAL_W, num);
		}
		/* two profiles: the change and its mark beside */
		if (d->n == 2) {
			char rel[32];

			diff_fmt_rel(rel, sizeof(rel), &d->misses[k][1]);
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " %+10.2f %*s%s%s", d->misses[k][1].delta, REL_W, rel,
				 d->misses[k][1].mark ? " " : "",
				 diff_mark(d->misses[k][1].mark));
		}
		fprintf(f, "%s\n", line);
	}
	for (i = 1; i < d->n; i++) {
		char words[512];

		diff_change_words(d, i, words, sizeof(words));
		snprintf(line, sizeof(line), "%c against A: %s", diff_letter(i), words);
		wrap(f, line, width);
		put_miss_rows(f, d, i, width);
	}
}

static void put_profiles(FILE *f, const struct diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct diff_profile *dp = &d->prof[i];
		const struct run_facts *run = &dp->m->run;

		fprintf(f, "%c: %s\n", diff_letter(i), dp->path);
		fprintf(f, "   %s, %s over %s, %u bytes, %llu RTs, %d window%s%s%s\n",
			dp->label, run->transport ? run->transport : "?",
			run->network ? run->network : "?", run->message_size,
			(unsigned long long)run->round_trips, dp->m->nrepeats,
			dp->m->nrepeats > 1 ? "s" : "",
			dp->scale != 1 ? ", cycles as ns" : "",
			run->side ? ", the remote side (--side remote)" : "");
	}
}

/* The host's speed before the windows, when both sides measured it:
 * whether B met a slower host than A, before any figure is read. */
void diff_put_host(FILE *f, const struct diff *d, int width)
{
	char *text;
	size_t i;

	if (!d->have_host)
		return;
	for (i = 1; i < d->n; i++) {
		const struct diff_cmp *s = &d->host_cmp[DIFF_HOST_SYSCALL][i];
		const struct diff_cmp *l = &d->host_cmp[DIFF_HOST_LOOP][i];

		if (asprintf(&text, "host speed %c-A (before each window): getppid %.0f -> %.0f ns (%+.1f%%)%s%s, 1000 integer steps %.0f -> %.0f ns (%+.1f%%)%s%s",
			     diff_letter(i), d->host[DIFF_HOST_SYSCALL][0],
			     d->host[DIFF_HOST_SYSCALL][i], s->rel * 100,
			     s->mark ? " " : "", diff_mark(s->mark),
			     d->host[DIFF_HOST_LOOP][0], d->host[DIFF_HOST_LOOP][i],
			     l->rel * 100, l->mark ? " " : "", diff_mark(l->mark)) < 0)
			return;
		wrap(f, text, width);
		free(text);
	}
}

static void put_percentile(FILE *f, const struct diff *d, size_t i,
			   enum diff_pct k)
{
	const struct diff_cmp *c = &d->pct[k][i];

	if (c->rel == DIFF_NO_REL)
		return;
	fprintf(f, "  %s: %.2f -> %.2f us, %+.2f us (%+.1f%%)%s%s\n",
		diff_pct_names[k], d->prof[0].pct[k] / 1e3,
		d->prof[i].pct[k] / 1e3, c->delta / 1e3, c->rel * 100,
		c->mark ? " " : "", diff_mark(c->mark));
}

/* What the latency line stands on: each side's mean without the stalls
 * set apart, and how many there were. */
static void put_stalls(FILE *f, const struct diff *d, size_t i)
{
	const struct latency_summary *la = &d->prof[0].m->run.latency;
	const struct latency_summary *lb = &d->prof[i].m->run.latency;

	if (!d->stalls_apart || (!la->stalls && !lb->stalls))
		return;
	fprintf(f, "  (means without stalls: %llu over %.1f us set apart in A,\n"
		   "  %.2f%% of its time; %llu over %.1f us in %c, %.2f%%)\n",
		(unsigned long long)la->stalls, la->stall_cut / 1e3,
		100 * latency_stall_share(la),
		(unsigned long long)lb->stalls, lb->stall_cut / 1e3,
		diff_letter(i), 100 * latency_stall_share(lb));
}

/* Latency beside the kernel time: how much of the change it explains. */
void diff_put_latency(FILE *f, const struct diff *d)
{
	size_t i;

	for (i = 1; i < d->n; i++) {
		const struct diff_cmp *lc = &d->latency[i];
		const struct diff_profile *a = &d->prof[0], *b = &d->prof[i];
		double busy = d->busy.cmp[i].delta;
		double total = d->total.cmp[i].delta;

		if (a->latency < 0 || b->latency < 0) {
			fprintf(f, "latency %c-A: not measured on both sides\n",
				diff_letter(i));
			continue;
		}
		fprintf(f, "latency %c-A: %.2f -> %.2f us, %+.2f us (%+.1f%%)%s%s\n",
			diff_letter(i), a->latency / 1e3, b->latency / 1e3,
			lc->delta / 1e3, lc->rel * 100, lc->mark ? " " : "",
			diff_mark(lc->mark));
		put_stalls(f, d, i);
		/* what the windows can resolve, marked or not */
		if (lc->from_repeats && lc->sigma > 0 && lc->df > 0) {
			double h = student_t(0.95, lc->df) * lc->sigma;

			fprintf(f, "  95%% interval of the change: %+.2f to %+.2f us\n"
				   "  (%s, %.0f df)\n", (lc->delta - h) / 1e3,
				(lc->delta + h) / 1e3,
				d->paired ? "paired t over the turns" : "Welch's t",
				lc->df);
		}
		put_percentile(f, d, i, DIFF_P50);
		put_percentile(f, d, i, DIFF_P99);
		if (diff_deterministic(d)) {
			fprintf(f, "  (virtual latency: the guests' clock counts their\n  instructions, %d ns each; the exact instructions below\n  are not set beside it)\n",
				1 << d->prof[0].m->run.icount_shift);
			continue;
		}
		if (d->prof[0].m->run.exact && d->prof[i].m->run.exact) {
			fprintf(f, "  (emulated latency; the exact instructions below are\n  not time and are not set beside it)\n");
			continue;
		}
		if (strcmp(d->unit, "ns")) {
			fprintf(f, "  kernel %s cannot be set beside us: give\n  --convert-cycles-ghz to compare\n",
				d->unit);
			continue;
		}
		fprintf(f, "  kernel time per %s: total %+.2f us, busy %+.2f us\n",
			d->prof[0].m->run.unit.abbrev, total / 1e3,
			busy / 1e3);
		/* a share of a change that is noise means nothing */
		if (lc->mark && lc->delta != 0)
			fprintf(f, "  busy kernel time explains %+.2f of the %+.2f us (%.0f%%);\n  residual %+.2f us (user time and off-CPU: waiting, wire)\n",
				busy / 1e3, lc->delta / 1e3,
				100 * busy / lc->delta,
				(lc->delta - busy) / 1e3);
		else if (lc->from_repeats)
			fprintf(f, "  no latency change beyond the noise to explain\n");
	}
}

void diff_put_marks(FILE *f, const struct diff *d, int width)
{
	char *w;

	if (!d->untested || asprintf(&w, "marks: none: %s", d->untested) < 0)
		return;
	wrap(f, w, width);
	free(w);
}

/* The other tasks' row, when the rows are the workload's. */
static void put_others_note(FILE *f, const struct diff *d)
{
	if (diff_find(&d->functions, MODEL_OTHER_TASKS))
		fprintf(f, "%s: the busy time of the tasks that are not the\n"
			   "workload's, outside the total and never marked\n"
			   "(--all-tasks gives their rows).\n", MODEL_OTHER_TASKS);
}

static void put_notes(FILE *f, const struct diff *d, int width)
{
	char rule[600], *text;

	diff_sig_rule(rule, sizeof(rule), d);
	if (asprintf(&text, "sig: %s. Rows sum to the totals; total delta %+.1f %s = sum of the rows' deltas.",
		     rule, d->total.cmp[1].delta, d->unit) < 0)
		return;
	fprintf(f, "\n");
	wrap(f, text, width);
	free(text);
	put_others_note(f, d);
}

/* What differs between the profiles, before any number. */
static void put_conditions(FILE *f, const struct diff *d, int width)
{
	const struct diff_conditions *c = d->conds;
	size_t r, i;

	if (!c || !c->n)
		return;
	for (r = 0; r < c->n; r++) {
		char *line = NULL, *p;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);

		if (!m)
			return;
		fprintf(m, "differs: %s: ", c->rows[r].what);
		for (i = 0; i < d->n; i++)
			if (d->n == 2)
				fprintf(m, "%s%s", i ? " -> " : "", c->rows[r].value[i]);
			else
				fprintf(m, "%s%c %s", i ? "; " : "", diff_letter(i),
					c->rows[r].value[i]);
		fclose(m);
		for (p = line; p && *p; p++)
			if (*p == '\n')
				*p = ' ';
		if (line)
			wrap(f, line, width);
		free(line);
		if (c->rows[r].effect && asprintf(&line, "  what it does: %s",
						  c->rows[r].effect) >= 0) {
			wrap(f, line, width);
			free(line);
		}
	}
}

int diff_text(FILE *f, const void *model, const struct render_options *o)
{
	const struct diff *d = model;
	int width = o && o->width ? o->width : 72;
	size_t i, first;

	fprintf(f, "perpkt diff: %s per %s, baseline A\n", d->unit, d->per);
	/* a forced comparison of worlds first, then what differs */
	first = d->conds ? d->conds->first_warnings : 0;
	for (i = 0; i < d->nwarnings; i++) {
		char *w;

		if (i == first)
			put_conditions(f, d, width);
		if (asprintf(&w, "warning: %s", d->warnings[i]) < 0)
			return error("out of memory");
		wrap(f, w, width);
		free(w);
	}
	if (first >= d->nwarnings)
		put_conditions(f, d, width);
	put_profiles(f, d);
	diff_put_host(f, d, width);
	/* what the marks cannot say, before any of them is read */
	diff_put_marks(f, d, width);
	fprintf(f, "\n");
	diff_put_latency(f, d);
	if (d->by != MODEL_BY_BUCKET)
		put_table(f, d, &d->buckets, "bucket", width, 0);
	put_table(f, d, diff_view(d), model_by_name(d->by), width, 1);
	put_calls(f, d, diff_view(d), width);
	if (d->misses_known) {
		fprintf(f, "\n");
		diff_put_misses(f, d, width);
	}
	put_notes(f, d, width);
	if (fflush(f) || ferror(f))
		return error("cannot write diff: %s", strerror(errno));
	return 0;
}
