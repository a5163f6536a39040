/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_SUMMARY_H
#define PERPKT_SUMMARY_H

#include "reports/model/model.h"

/*
 * The report's prose, worded once for every human format (text,
 * markdown, html): header facts, test conditions, the latency
 * decomposition, reconciliation lines and notes. Built from the model
 * only; each renderer lays it out its own way.
 */

struct sum_fact {
	char *key;
	char *value;
};

/* A decomposition line: "label  value  share", indented by level. */
struct sum_line {
	int indent;          /* 0 or 1 */
	char *label;
	char *value;         /* e.g. "12.42 us", "" for a heading */
	char *share;         /* e.g. "33.0%", "" when not a part */
	int flag;            /* the number is implausible: look at it */
};

struct summary {
	/* the first line of every human report: transport, latency p50 and
	 * p99, busy kernel time per round trip with its error, top bucket */
	char *headline;
	/* what went wrong with the run, shown before anything else */
	char *warnings[8];
	size_t nwarnings;
	struct sum_fact facts[32];
	size_t nfacts;
	struct sum_fact *conds;  /* shown conditions */
	size_t nconds, nconds_hidden;
	char *decomp_title;
	struct sum_line decomp[24];
	size_t ndecomp;
	struct sum_line recon[40];  /* label only; flag marks a gap */
	size_t nrecon;
	char *notes[16];
	int note_brief[16];  /* kept in the short text report */
	size_t nnotes;
	char *empty;         /* why there is no table, NULL when there is */
	int oom;
};

/* Conditions shown without --all-conditions. */
#define SUMMARY_CONDITIONS 6

/* 0, or -1 after printing why (out of memory). */
int summary_build(struct summary *s, const struct model *m, int all_conditions);
void summary_free(struct summary *s);

/* Thresholds of the warnings at the top of every report. */
#define SUMMARY_LOSS_WARN 0.01      /* samples lost or throttled */
#define SUMMARY_OBSERVER_WARN 0.05  /* mean round trip longer under sampling */
#define SUMMARY_SHORT_WARN 0.9      /* window below this share of the asked */
#define SUMMARY_OVERRUN_WARN 1.5    /* run over this times the asked time */
#define SUMMARY_OTHER_WARN 0.2      /* workload's busy time in bucket other */
#define SUMMARY_HW_GAP_WARN 0.1     /* hardware: sampled this far off counted */
#define SUMMARY_STEAL_WARN 0.05     /* steal per round trip against its latency */

/* reports/model/glance.c: s->headline and s->warnings (called by
 * summary_build); the warnings alone, for renderers without prose. */
void summary_glance(struct summary *s, const struct model *m);
/* The run's own warnings alone (interrupted, window or run overran),
 * into s->warnings: for stat, which counts and has no model. */
void summary_run_warnings(struct summary *s, const struct run_facts *run);
/* printf into a new string; on failure NULL and s->oom set */
char *summary_fmt(struct summary *s, const char *f, ...)
	__attribute__((format(printf, 2, 3)));

/* Event unit for column heads: "ns", "cycles", "insns"; a count of
 * events by its name ("l1i-misses"). */
const char *summary_unit(const struct model *m, size_t e);

#endif
