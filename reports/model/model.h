/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_MODEL_H
#define PERPKT_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"
#include "reports/model/facts.h"
#include "symbolize/symbolize.h"

/*
 * The report model: rows per function and per bucket with values per
 * round trip. Built once from a profile and a symbolizer; every
 * renderer in reports/ reads only this.
 */

#define MODEL_MAX_EVENTS 8

/* Bucket left out of the busy total: the idle loop. */
#define MODEL_IDLE_BUCKET "idle"
/* The rule of idle-task samples found idle by their context */
#define MODEL_IDLE_CONTEXT_RULE "(idle task, no interrupt work on its stack)"
/* Row for addresses in no known symbol. */
/* Samples taken in user space, with record --user: bucket "user". */
#define MODEL_USER_NAME "[user]"
#define MODEL_USER_BUCKET "user"
#define MODEL_UNKNOWN_NAME "[unknown]"
#define MODEL_UNKNOWN_BUCKET "unknown"
/* File row for functions the symbolizer knows no source file of. */
#define MODEL_NO_FILE "[no source file]"

/* The views a report can be made by (--by). */
enum model_by {
	MODEL_BY_FUNCTION,
	MODEL_BY_BUCKET,
	MODEL_BY_FILE,
	MODEL_BY_CPU,
	MODEL_BY_ROLE,
	MODEL_BY_LINE,      /* after model_lines(): file:line, inline chains */
	MODEL_BY_COMBINED,  /* after model_combine(): e.g. role,function */
	MODEL_BY_MAX,
};
#define MAX_COMBINE_VALUES 1024

/*
 * Roles of the report. The profile's role comes from the sampled pid;
 * a sample of the idle task whose function is not in the idle bucket
 * is irq/softirq work that interrupted the idle loop (the ip alone
 * cannot tell irq from softirq), so it gets a role of its own.
 */
enum model_role {
	MODEL_ROLE_CLIENT,
	MODEL_ROLE_RESPONDER,
	MODEL_ROLE_IDLE_CTX,   /* "idle-ctx irq/softirq" */
	MODEL_ROLE_IDLE,       /* the idle loop itself */
	MODEL_ROLE_SELF,       /* perpkt */
	MODEL_ROLE_OTHER,
	MODEL_ROLE_WORKLOAD,   /* record -- CMD / -p: only such profiles
				* have this row */
	MODEL_ROLE_BUSY,       /* --busy's spinners: only such profiles */
	MODEL_ROLE_MAX,
};

struct model_row {
	char *name;          /* function, bucket, file, "cpu N" or role */
	char *bucket;        /* for functions: its bucket */
	char *rule;          /* the bucket rule that matched */
	char *module;        /* NULL for the core kernel */
	char *file;          /* for functions: source file, NULL if unknown */
	int cpu;             /* for cpu rows, else -1 */
	double idle_weight;  /* for cpu rows: first event in the idle loop */
	uint64_t samples[MODEL_MAX_EVENTS];
	double weight[MODEL_MAX_EVENTS];  /* sum of periods, event's unit */
	double per_rt[MODEL_MAX_EVENTS];  /* weight / round trips */
	/* Sampling error of per_rt, one standard deviation: sample counts
	 * are Poisson, so per_rt / sqrt(samples); 0 without samples. */
	double err[MODEL_MAX_EVENTS];
	/* With repeats (model.nrepeats > 1): the per-round-trip value of
	 * each window, mean and sample standard deviation across windows;
	 * spread is 0 with one run. rep holds the weight of each window,
	 * rep[k * MODEL_MAX_EVENTS + e], NULL when the row has none. */
	double rep_mean[MODEL_MAX_EVENTS];
	double spread[MODEL_MAX_EVENTS];
	double *rep;
	size_t nrep;
	double ipc;          /* instructions / cycles, < 0 when unknown */
	/* exact profiles (model.calls_known): the entries of the row's
	 * functions by a call or tail call (profile_sample.calls), and per
	 * round trip */
	double calls, calls_per_rt;
	/* function rows of exact profiles with call paths (model.incl_known):
	 * the first event on every path through the function, itself and
	 * what it called, and per round trip */
	double incl, incl_per_rt;
	double share;        /* of the first event's total, 0..1 */
	double cum;          /* cumulative share in sort order */
	/* line rows (model_lines): file:line is where the code is (inside
	 * the innermost inlined function), `function` that function,
	 * `symbol` the function it was compiled into and function_line its
	 * line there (the call site when inlined), `inlined` the chain out
	 * ("skb_put < __ip_append_data:1021 < ip_make_skb:1638"), NULL when
	 * the code is the symbol's own */
	int line, function_line;
	char *function, *symbol, *inlined;
	/* line rows: the file of function_line (the symbol's own source),
	 * and the symbol's name when the compiler cloned the function
	 * ("finish_task_switch.isra.0"; its DWARF is the abstract origin's),
	 * NULL when it is the function's own */
	char *symbol_file, *clone;
};

struct model_view {
	struct model_row *rows;
	size_t n;
};

/* One folded callchain, root first, for flame graphs and --callers. */
struct model_stack {
	char *frames;        /* "root;...;leaf" of folded function names */
	/* the bucket the tables put its samples in: an irq-enable leaf's
	 * caller's, a helper's caller's, idle by context (model-irq-enable.c) */
	char *bucket;
	uint64_t samples;
	double weight;       /* first event's unit */
	double per_rt;
};

/* What a flame graph says of a function seen in the callchains: its
 * bucket and where it is. */
struct model_frame_info {
	char *name;          /* folded name, as in model_stack.frames */
	char *bucket;
	char *file;          /* NULL without DWARF */
	int line;            /* of its heaviest address in the stacks, 0 if
			      * unknown */
};

/*
 * Round trip = client CPU + responder CPU + the rest, per round trip,
 * as netperf's service demand argument does by hand. Times in ns; a
 * value < 0 is unknown.
 */
struct model_decomp {
	int valid;           /* round trips and a round-trip time known */
	int from_tasks;      /* 1: schedstat of the two processes;
			      * 0: kernel-only, from samples by role */
	/* from_tasks with one process on another host (record --peer):
	 * its CPU is in the rest, and in the other side's profile */
	int client_elsewhere, responder_elsewhere;
	const char *rtt_source;  /* "mean without stalls", "mean latency" or
				  * "window / round trips" */
	double rtt;
	/* the round trips set apart as stalls (profile/latency-stalls.h)
	 * when rtt is the mean without them: how many, over what (ns),
	 * their share of the time, and what they add to the mean per
	 * round trip; stalls_known 0 otherwise or when there were none */
	int stalls_known;
	uint64_t stalls;
	double stall_cut, stall_share, stall_per_rt;
	double rtt_mean, rtt_p50;  /* every round trip's mean and p50, ns */
	double client, responder, rest;
	double client_user, client_system;        /* /proc/<pid>/stat */
	double responder_user, responder_system;
	double client_kernel, responder_kernel;   /* sampled, < 0 if no ns event */
	double idle_ctx;     /* irq/softirq sampled in idle context */
	double wait;         /* run-queue wait of both processes */
	double switches;     /* context switches of both per round trip */
	/* busy CPU time per round trip on the sampled CPUs (netperf's
	 * service demand, summed over CPUs), and where it came from */
	double service_demand;
	const char *sd_source;  /* "/proc/stat", "samples (kernel only)" */
	/* steal time per round trip (or unit) on the workload's CPUs: the
	 * hypervisor ran something else (/proc/stat); -1 when unknown */
	double steal;
	double steal_share;  /* of their time, -1 when unknown */
	/* Any other unit (--per): the workload's process tree per unit,
	 * -1 when unknown; the round-trip fields above stay unknown */
	int per_unit;
	double workload, workload_user, workload_system, workload_kernel;
	/* from_tasks: what the processes' CPU times were scaled by, window
	 * over the span of the snapshots they were read at (which lie
	 * outside the window); 0 when the profile does not say the span,
	 * so they were not */
	double span_scale;
};

/* Reconciliation of one sampled CPU. */
struct model_cpu_recon {
	int cpu;
	double sampled;      /* first event's weight on this CPU */
	double sampled_busy; /* the same without the idle bucket */
	double kernel;       /* /proc/stat system+irq+softirq, ns; < 0 unknown */
	double busy;         /* /proc/stat all but idle, ns; < 0 unknown */
	double idle;
	double ratio;        /* sampled_busy / kernel, < 0 unknown */
	uint64_t lost, throttled;
	int flagged;
};

struct model_event_recon {
	double sampled;      /* sum of sample weights, all CPUs */
	double counted;      /* counted total, scaled when multiplexed */
	double running;      /* running_ns / enabled_ns; 1 if not multiplexed,
			      * < 0 when the times were not recorded */
	double ratio;        /* sampled / counted, < 0 unknown */
};

struct model_recon {
	struct model_event_recon events[MODEL_MAX_EVENTS];
	struct model_cpu_recon *cpus;
	size_t ncpus;
	double rt_per_s;     /* < 0 when the window is unknown */
	double busy_cpus;    /* service demand x round trips per second */
	double capacity;     /* CPUs sampled */
	uint64_t lost, throttled;
	int flagged;         /* any gap above MODEL_GAP_FLAG */
};

/* Sampled and counted time differing by more than this get flagged. */
#define MODEL_GAP_FLAG 0.25

/* A test condition, in the order recorded: "cpu.governor" = "performance". */
struct model_condition {
	const char *key, *value;
};

/* A bucket of the round trips' latency histogram: [lo, hi) ns. */
struct model_hist_bucket {
	uint64_t lo, hi, count;
};

struct model {
	/* For the builders (model*.c, diff.c, table.c), which may read
	 * more of it later (model_combine, model_callers). Renderers read
	 * `run` and the fields below, never the profile. */
	const struct profile *profile;
	/* What the run was: host, workload, unit, window, latency, events
	 * and mode (reports/model/facts.h), filled by model_build. */
	struct run_facts run;
	/* The model's own copies; their strings point into the profile */
	struct model_condition *conditions;
	size_t nconditions;
	struct model_hist_bucket *histogram;  /* non-empty buckets, by lo */
	size_t nhistogram;
	size_t nevents;
	struct model_row *functions;   /* sorted by first event, descending */
	size_t nfunctions;
	struct model_row *buckets;     /* sorted the same way */
	size_t nbuckets;
	struct model_view views[MODEL_BY_MAX];  /* [FUNCTION] and [BUCKET]
						 * alias the two above */
	struct model_row total;
	struct model_row busy;         /* total minus the idle bucket */
	int no_round_trips;  /* round_trips == 0: every per_rt is left 0 */
	size_t naddrs;       /* distinct addresses resolved */
	size_t nunknown;     /* of those, how many are in no known symbol */
	int time_event;      /* index of an event in ns, -1 if none */
	int cycles_event, insns_event;  /* for IPC, -1 if absent or not
					 * counting */
	int nrepeats;        /* measurement windows (record --repeat), >= 1 */
	/* Mean latency across windows and its sample standard deviation,
	 * ns; < 0 when unknown or with one window. */
	double rep_latency_mean, rep_latency_sd;

	/* The profile's samples, each at its place by context: an
	 * irq-enable point's charged to the caller, the idle task's idle
	 * or not (model-irq-enable.c); what every row is made of */
	struct profile_sample *samples;
	size_t nsamples;
	/* samples (first event) at irq-enable points, and how many of them
	 * a callchain charged to their caller */
	uint64_t pass_samples, pass_charged;
	/* why they were charged (model_irq_maskable), NULL: not charged */
	const char *pass_reason;
	/* per event: samples in user space although only the kernel was
	 * sampled (skid), and their weight; set apart, in no row */
	uint64_t skid_samples[MODEL_MAX_EVENTS], skid_weight[MODEL_MAX_EVENTS];

	/* The workload alone: its roles' samples (client, responder, a
	 * command's tree) and the idle task's on their CPUs (softirqs),
	 * per round trip as here; NULL in a part of a model. What the
	 * headline and diff's default rows are about; the rest of the busy
	 * time is other tasks' (model_other_tasks). */
	struct model *workload;
	struct profile *workload_profile;  /* its samples, owned */
	/* busy time of the other tasks: busy minus the workload's busy
	 * (name "[other tasks]"); empty without a workload model */
	struct model_row others;
	/* model_focus_workload swapped the rows: m's are the workload's,
	 * m->workload's the whole profile's */
	int focused;

	/* exact profiles: rows carry calls; with call paths, function rows
	 * their inclusive counts too (model-calls.c) */
	int calls_known, incl_known;
	/* exact profiles with a cache model (record --cache-model): the
	 * events of its L1I, L1D and L2 misses, -1 without one
	 * (model-calls.c); the model's figures in words, else NULL */
	int miss_event[3];
	const char *miss_model;
	struct model_stack *stacks;    /* first event only; empty without -g */
	size_t nstacks;
	/* every function in the stacks, sorted by name (model_frame) */
	struct model_frame_info *frames;
	size_t nframes;
	struct model_view callers;     /* after model_callers() */
	char *callers_of;
	struct model_row callee;       /* inclusive row of callers_of */

	char combined_name[48];        /* "role,function" after model_combine */
	enum model_by combined_second; /* its second key */

	struct model_decomp decomp;
	struct model_recon recon;

	/* record --peer: the responder's side, a model of its own built
	 * from profile->remote (model_build_remote); NULL when none */
	struct model *remote;
};

/*
 * Rows are grouped by (folded function, module, bucket, file): two
 * static functions of one name in different files stay apart, so bucket
 * sums equal the sum of their function rows. On failure prints the
 * reason and returns -1, leaving *m empty (model_free is still safe).
 */
int model_build(struct model *m, const struct profile *p, struct symbolizer *s);
/*
 * Whether model_build folds the callchains into m->stacks and resolves
 * their frames (flame graphs, --callers): on unless a command whose
 * output draws none turns it off, which saves half of the model's time
 * on a -g profile. One setting for the process, as the verbosity.
 */
void model_set_callchains(int on);
void model_free(struct model *m);
/* m->remote from m->profile->remote, symbols from s (the remote's own
 * kallsyms entries unless the command chose otherwise); nothing to do
 * without a remote side. -1 after printing why. */
int model_build_remote(struct model *m, struct symbolizer *s);

/* The rows of v from `from` on summed into *rest (name NULL, no IPC),
 * with their sampling error: the "(N more not shown)" row that keeps a
 * cut table adding up to its total. */
void model_rest_row(const struct model *m, const struct model_view *v,
		    size_t from, struct model_row *rest);
/* The +- of row r, event e, in every format: the sample standard
 * deviation across repeats when the profile has them, else the Poisson
 * sampling error. One definition, so text, HTML, markdown and CSV agree. */
double model_row_error(const struct model *m, const struct model_row *r,
		       size_t e);
/* 1 for a model that model_build did not fill (zeroed or freed):
 * renderers refuse it. */
int model_empty(const struct model *m);
/* 1 when values come from cpu-clock sampling (no hardware PMU). */
int model_software_clock(const struct model *m);
/* Why the sampling interrupt can be masked, so that a sample due while
 * interrupts were off lands where they come back on: "cpu-clock" (an
 * hrtimer), "arm64 PMU without pseudo-NMI"; NULL where it is a true NMI
 * (x86's PMU, arm64 with pseudo-NMI) or the count exact. */
const char *model_irq_maskable(const struct model *m);
#define MODEL_OTHER_TASKS "[other tasks]"
/* Busy time per round trip (first event) of every task that is not the
 * workload's, 0 without a workload model. */
double model_other_tasks(const struct model *m);
/*
 * report's rows by default: m's rows (views, totals, samples, stacks)
 * swap with m->workload's, so every table, sort, --callers, --by line
 * and combination made after is the workload's, as the headline is,
 * and the other tasks are one row apart (model_others_row). Nothing to
 * do without a workload model or with a --role/--cpu/--pid filter
 * (which chose the rows itself).
 */
void model_focus_workload(struct model *m);
/* The model whose rows are the workload's: m once focused, else
 * m->workload, else m itself. */
const struct model *model_workload(const struct model *m);
/* The other tasks' row shown below a focused model's tables (outside
 * its total, share of it), or NULL. */
const struct model_row *model_others_row(const struct model *m);
/* Whether a sample is the workload's: its roles, and the idle task's
 * interrupt work on the workload's CPUs (all when it is not pinned). */
int model_sample_of_workload(const struct model *m,
			     const struct profile_sample *sm);
/* The bucket row called `name`, or NULL. */
const struct model_row *model_bucket(const struct model *m, const char *name);
const char *model_role_name(enum model_role r);

/* Fill views[MODEL_BY_LINE] from the profile's addresses and s's DWARF
 * (a row per source line and inline chain); only the addresses of
 * `symbol` (folded name) when not NULL. -1 after printing why (no
 * DWARF: give --vmlinux). */
int model_lines(struct model *m, struct symbolizer *s, const char *symbol);

/* "function" -> MODEL_BY_FUNCTION, ...; -1 when unknown. */
int model_by_parse(const char *s);
/* "role,function", "cpu,sym" (perf's spelling): the two keys; -1 when it
 * is not such a pair. */
int model_by_parse_combined(const char *s, enum model_by *first,
			    enum model_by *second);
/* Fill views[MODEL_BY_COMBINED] with rows per (first, second): first is
 * role or cpu, second function, bucket or file (model-combine.c). */
int model_combine(struct model *m, struct symbolizer *s, enum model_by first,
		  enum model_by second);
/* A view's column title: "function", ..., or "role,function". */
const char *model_view_title(const struct model *m, enum model_by by);
/* Whether rows of view `by` are functions (they have a bucket column). */
int model_view_of_functions(const struct model *m, enum model_by by);
const char *model_by_name(enum model_by by);
/*
 * Sort every view by `key`: "samples", "per-rt" (first event, the
 * default), "name", or an event name (its value per round trip), and
 * recompute cumulative shares. -1 (nothing printed) for an unknown key.
 */
int model_sort(struct model *m, const char *key);

/* The frame info of folded function `name` in the stacks, or NULL. */
const struct model_frame_info *model_frame(const struct model *m,
					   const char *name);

/*
 * Who calls `func` (a folded name), from the callchains: each stack
 * that contains it is charged to the nearest frame above it that is a
 * different function. Fills m->callers and m->callee. -1 after printing
 * why (no callchains, function absent).
 */
int model_callers(struct model *m, const char *func);

/*
 * Value per round trip of row r, event e, in window k (0..nrepeats-1):
 * its weight in that window over that window's round trips. With one
 * window it is the row's per_rt; 0 for a window without round trips.
 */
double model_repeat_value(const struct model *m, const struct model_row *r,
			  size_t e, size_t k);
/* Mean latency (ns) of window k, < 0 when not measured. */
double model_repeat_latency(const struct model *m, size_t k);

/* The row's instructions per call (first event over calls), < 0 when
 * it has no calls or they are not known. */
double model_row_per_call(const struct model *m, const struct model_row *r);

/* Derived numbers: decomposition and reconciliation (model-derive.c). */
void model_derive(struct model *m);

#endif
