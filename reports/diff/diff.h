/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_DIFF_H
#define PERPKT_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "reports/model/model.h"

/*
 * The diff model: per function and per bucket, the value per round trip
 * in each profile and its delta against the first (the baseline), with
 * a significance mark. Built from one report model per profile; the
 * diff renderers read only this.
 *
 * Deltas add up by construction: every function of every profile is a
 * row (one-side-only rows included), rows left out of a table are
 * summed into one "[other]" row, and the totals are the sums of the
 * rows, not numbers of their own.
 */

#define DIFF_MAX_PROFILES 16

struct diff_conditions;
#define DIFF_OTHER_NAME "[other]"

/*
 * Significance marks (the rule: reports/diff/diff-significance.c): Welch's
 * t across each side's windows, Benjamini-Hochberg over every row a
 * comparison tests, "**" where the false discovery rate is below
 * DIFF_FDR_2 and "*" below DIFF_FDR_1; never a change smaller than
 * DIFF_FLOOR of busy kernel time (the larger side's), nor a latency
 * change under DIFF_FLOOR_LATENCY of A's. A side of one window marks
 * nothing.
 */
/* 5% and 1% marked 2 and 3 of 20 A/A pairs here with the floors
 * below; 1% and 0.1% marked 1 (the VM changing speed) and 0 of 16,
 * and a planted cost in 19 of 20 pairs under load 5-9 (docs/diff.md) */
#define DIFF_FDR_1 0.01    /* "*" */
#define DIFF_FDR_2 0.001   /* "**" */
/* Between separate runs: the largest change marked in 20 A/A pairs on
 * this VM at load 2-4 was 2.6% of busy for a row and 1.8% for the
 * latency (docs/diff.md), so 3% and 2%. By turns, where no run-to-run
 * change exists to guard against: 1% and 0.5%. */
#define DIFF_FLOOR 0.03
#define DIFF_FLOOR_LATENCY 0.02
#define DIFF_FLOOR_PAIRED 0.01
#define DIFF_FLOOR_LATENCY_PAIRED 0.005


/* One row's value in one profile. */
struct diff_cell {
	int present;      /* the profile has samples in this row */
	double value;     /* per round trip, in diff.unit */
	double err;       /* sampling error (Poisson), same unit */
	double mean, sd;  /* across repeats; mean = value, sd = 0 with one */
	double *rep;      /* value per repeat, nrep of them; NULL with one */
	size_t nrep;
	double se;        /* standard error of the mean, for the test */
	int n;            /* windows the spread stands on (< 2: none) */
	/* exact profiles: entries per round trip (calls_known), and for
	 * function rows with call paths the inclusive value (incl_known),
	 * in diff.unit (model_row.calls_per_rt, incl_per_rt) */
	int calls_known, incl_known;
	double calls, incl;
	/* exact profiles with a cache model (model.miss_event): the row's
	 * L1I, L1D and L2 misses per round trip */
	int misses_known;
	double misses[3];
};

/* The comparison of one profile (index >= 1) against the baseline. */
struct diff_cmp {
	double delta;     /* value - baseline value */
	double rel;       /* delta / baseline, < -1e300 (DIFF_NO_REL) if none */
	double sigma;     /* standard error of the delta, 0 if none */
	int mark;         /* 0, 1 ("*") or 2 ("**") */
	int from_repeats; /* tested: Welch across both sides' windows, or
			   * exact on the instruction clock; 0: no test */
	double df;        /* Welch's degrees of freedom */
	double p;         /* two-sided p of the shift; NaN: not tested */
	double q;         /* Benjamini-Hochberg over the comparison's rows */
	int floored;      /* beyond the noise but under DIFF_FLOOR */
};

#define DIFF_NO_REL (-1e308)

struct diff_row {
	char *name;
	char *bucket;     /* function rows: bucket in the first profile having it */
	int apart;        /* the other tasks' row: shown, never marked */
	struct diff_cell cell[DIFF_MAX_PROFILES];
	struct diff_cmp cmp[DIFF_MAX_PROFILES];  /* [0] unused */
};

struct diff_view {
	struct diff_row *rows;  /* sorted by |delta| of the first comparison */
	size_t n;
	size_t shown;           /* after --limit / --threshold */
	struct diff_row other;  /* sum of rows[shown..n-1]; name DIFF_OTHER_NAME */
};

enum { DIFF_HOST_SYSCALL, DIFF_HOST_LOOP };

/* What kind of change a comparison of exact profiles with a cache model
 * is (reports/diff/diff-misses.c) */
enum diff_change {
	DIFF_CHANGE_NONE,    /* instructions and misses the same */
	DIFF_CHANGE_LAYOUT,  /* the same instructions (or nearly: padding
			      * executed), other instruction-cache misses:
			      * code moved, a layout or alignment change */
	DIFF_CHANGE_CODE,    /* other instructions executed */
	DIFF_CHANGE_DATA,    /* the same instructions, other data misses */
};
/* Instructions per round trip moved less than this share, and L1I
 * misses DIFF_LAYOUT_RATIO times as much or more: still layout (the
 * padding a new alignment puts in a path is executed) */
#define DIFF_LAYOUT_INSNS 0.002
#define DIFF_LAYOUT_RATIO 10

/* Latency percentiles compared beside the mean. */
enum diff_pct { DIFF_P50, DIFF_P90, DIFF_P99, DIFF_P999, DIFF_NPCT };
/* "p50", "p90", "p99", "p999": the names --fail-if takes after "latency." */
extern const char *const diff_pct_names[DIFF_NPCT];

struct diff_profile {
	const char *path;
	const char *label;      /* kernel release, else the file name */
	/* the model compared: the workload's own by default (other tasks
	 * one row apart), the whole profile's with all_tasks or a filter */
	const struct model *m;
	const struct model *whole;  /* the profile's, other tasks and all */
	int event;              /* event index compared */
	double scale;           /* multiply its values to get diff.unit */
	const char *unit_from;  /* its own unit */
	double latency, latency_se;  /* mean round-trip latency, ns; < 0 unknown */
	int latency_n;          /* windows behind latency_se (< 2: none) */
	double latency_sd;
	/* percentiles, ns, < 0 unknown; with repeats the windows' mean and
	 * its standard error, else the whole run's and se 0 (no test) */
	double pct[DIFF_NPCT], pct_se[DIFF_NPCT], pct_sd[DIFF_NPCT];
	int pct_n[DIFF_NPCT];
};

struct diff_options {
	enum model_by by;       /* MODEL_BY_FUNCTION, _BUCKET or _LINE (the
				 * models' model_lines() done) */
	int limit;              /* rows shown, 0 = all */
	double threshold;       /* hide rows whose |delta| is below, in unit */
	double ghz;             /* --convert-cycles-ghz, 0 = not given */
	const char *alias_file; /* --alias */
	int force;              /* --force: compare different --per units */
	int all_tasks;          /* --all-tasks: every task's rows, not the
				 * workload's and one row of the others */
};

struct diff_alias {
	char *from, *to;
};

struct diff {
	size_t n;               /* profiles, >= 2 */
	struct diff_profile prof[DIFF_MAX_PROFILES];
	const char *unit;       /* "ns" or the profiles' common unit */
	const char *per;        /* what values are per: "round trip", ... */
	struct diff_view functions, buckets;
	struct diff_view lines;        /* by MODEL_BY_LINE only */
	struct diff_row total, busy;   /* sums of the function rows */
	struct diff_cmp latency[DIFF_MAX_PROFILES];  /* [0] unused */
	/* latency is each profile's mean without its stalls (set apart
	 * in all of them, one window each), else the plain mean */
	int stalls_apart;
	struct diff_cmp pct[DIFF_NPCT][DIFF_MAX_PROFILES];  /* [..][0] unused */
	char *warnings[8];
	size_t nwarnings;
	struct diff_alias *aliases;
	size_t naliases;
	enum model_by by;
	/* the conditions that differ (reports/diff/diff-conditions.h) */
	struct diff_conditions *conds;
	/* why no time-based row can be marked ("'a.json' has one window"),
	 * or NULL; tested[i]: the rows comparison i tested */
	char *untested;
	size_t tested[DIFF_MAX_PROFILES];
	int paired;             /* the sides of one run by turns: window k
				 * of A against window k of B */
	/* the host's speed before each window (record's restarted ones):
	 * DIFF_HOST_SYSCALL, DIFF_HOST_LOOP; value[k][i] < 0: not measured */
	int have_host;
	double host[2][DIFF_MAX_PROFILES];
	struct diff_cmp host_cmp[2][DIFF_MAX_PROFILES];
	/* every profile exact with a cache model: the total's misses per
	 * round trip by level (cells of `total`) compared, every nonzero
	 * change marked when deterministic, and what kind of change each
	 * comparison is (diff-misses.c) */
	int misses_known;
	struct diff_cmp misses[3][DIFF_MAX_PROFILES];  /* [..][0] unused */
	enum diff_change change[DIFF_MAX_PROFILES];    /* [0] unused */
};

/*
 * Fill *d from n built models (paths name them in messages). Refuses,
 * after printing why, a profile without round trips, or one whose unit
 * cannot be converted to the others' (software-clock ns against
 * hardware cycles without o->ghz). Returns 0 or -1; diff_free is safe
 * after either.
 */
int diff_build(struct diff *d, const struct model *const *m,
	       const char *const *paths, size_t n,
	       const struct diff_options *o);
void diff_free(struct diff *d);
/* What the significance marks are measured against, in words: the
 * spread across boots for exact profiles, else across windows. */
const char *diff_sig_basis(const struct diff *d);
/* The rule in one line, for the renderers' legends: "Welch across
 * windows, Benjamini-Hochberg over 41 rows: ** FDR < 1%, * < 5%; no
 * mark under 2% of busy", or what stands in for it. */
void diff_sig_rule(char *buf, size_t len, const struct diff *d);
/* The floors in force for d (DIFF_FLOOR...): by turns or between runs. */
double diff_floor(const struct diff *d);
double diff_floor_latency(const struct diff *d);
/* 1 when every profile holds exact counts on the instruction clock
 * (record --kernel --exact, deterministic): differences are exact. */
int diff_deterministic(const struct diff *d);

/* Read "old new" lines (# comments) into d's aliases; -1 after printing. */
int diff_load_aliases(struct diff *d, const char *path);
/* The name after aliases: `name` itself when none applies. */
const char *diff_alias(const struct diff *d, const char *name);

/* The name a function is matched by across profiles: compiler
 * suffixes folded (symbol_fold), then aliases; in buf or an alias. */
const char *diff_match_name(const struct diff *d, const char *name,
			    char *buf, size_t len);

/* The view --by chose. */
const struct diff_view *diff_view(const struct diff *d);
/* A row by name in a view, NULL if absent. */
const struct diff_row *diff_find(const struct diff_view *v, const char *name);
/* "", "*" or "**". */
const char *diff_mark(int mark);

/* Instructions (diff.unit) per call of cell c, < 0 without calls. */
double diff_per_call(const struct diff_cell *c);
/* 1 when row r's calls per round trip differ between profile i and the
 * baseline (both known). */
int diff_calls_changed(const struct diff_row *r, size_t i);

/* The miss levels' names: "l1i-misses", "l1d-misses", "l2-misses" (the
 * profile's events, and --fail-if's targets), and short: "L1I". */
extern const char *const diff_miss_names[3];
extern const char *const diff_miss_short[3];
/* Compare the misses and say what kind of change each comparison is
 * (after the totals are built); nothing unless every profile has them. */
void diff_misses_compare(struct diff *d);
/* Comparison i's kind in words: "same instructions per round trip; L1I
 * misses +12.0 (+0.6%): a layout/alignment change". */
void diff_change_words(const struct diff *d, size_t i, char *buf, size_t len);
/* The kind's name in JSON: "none", "layout", "code", "data". */
const char *diff_change_name(enum diff_change c);

/* Wording shared by the human formats (text, markdown, html). */
/* The letter of profile i: A is the baseline. */
char diff_letter(size_t i);
/* "+4.2%", "new" for a row the baseline lacks, ">+9999%" beyond. */
void diff_fmt_rel(char *buf, size_t len, const struct diff_cmp *c);
/* " (only in A)", " (new)", " (not in A)" or "" for row r. */
void diff_presence(char *buf, size_t len, const struct diff *d,
		   const struct diff_row *r);
/* The text diff's prose, one source for text and HTML (diff-text.c):
 * the host's speed, "marks: none: ..." (nothing when marks could be
 * made), and the latency lines (change, 95% interval, p50, p99, what
 * busy kernel time explains), wrapped or laid out for `width`. */
void diff_put_host(FILE *f, const struct diff *d, int width);
void diff_put_marks(FILE *f, const struct diff *d, int width);
void diff_put_latency(FILE *f, const struct diff *d);
/* Exact profiles with a cache model: the misses per round trip by
 * level, what kind of change each comparison is, and the functions
 * whose L1I misses moved most; nothing without misses_known. */
void diff_put_misses(FILE *f, const struct diff *d, int width);

#endif
