/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_MODEL_INTERNAL_H
#define PERPKT_MODEL_INTERNAL_H

/* Helpers shared by model*.c; not for renderers. */

#include "reports/model/model.h"

int strcmp_null(const char *a, const char *b);
/* The stable tie-break of rows: name, module, bucket, file. */
int row_cmp_names(const struct model_row *a, const struct model_row *b);
/* strdup that keeps NULL as NULL; returns -1 only when out of memory. */
int dup_opt(char **out, const char *s);
void row_init(struct model_row *r);
void row_clear(struct model_row *r);
/* Adds counts, weights and per-window weights; -1 when out of memory. */
int row_add(struct model_row *dst, const struct model_row *src,
	    size_t nevents);
/* One aggregated sample into a row, per window too; -1 out of memory. */
int row_add_sample(struct model_row *r, const struct profile_sample *sm,
		   size_t nrepeats);
/* per_rt, err, ipc and share of one row. */
void finish_row(struct model_row *r, const struct model *m);
/* Sort (heaviest first) and fill per_rt, shares and cum. */
void finish_rows(struct model_row *rows, size_t n, const struct model *m);
void rows_free(struct model_row *rows, size_t n);

/* One distinct sampled address, resolved once however many samples hit it. */
struct addr_info {
	uint64_t ip;
	size_t orig;         /* index before sorting, for the sample map */
	char *function;
	char *bucket;
	char *rule;
	char *module;
	char *file;
	int idle;            /* idle by context: its samples are the idle task's */
	uint64_t bucket_ip;  /* a helper's: the caller whose bucket it takes */
	struct model_row acc;
};

/* The strings of a; its acc is cleared apart (its rep moves into rows). */
void addr_clear(struct addr_info *a);
/*
 * Resolve each distinct ip of m's samples once and sum its samples per
 * event (model-addrs.c); sample_addr[i] is the address entry of sample
 * i. -1 after printing why.
 */
int collect_addrs(const struct model *m, struct symbolizer *s,
		  struct addr_info **out, size_t *nout,
		  size_t *nunknown, size_t *sample_addr, size_t nrep);

/* m->samples from the profile's, each at its place by context: -1
 * after printing why (model-irq-enable.c). */
int model_apply_context(struct model *m, struct symbolizer *s);
/* Where model_apply_context puts a sample whose callchain is st, after
 * it ran on m: *ip the frame charged, *idle idle by context, *bucket_ip
 * a helper's caller (0: none). */
void model_stack_place(const struct model *m, struct symbolizer *s,
		       const struct profile_stack *st, uint64_t *ip, int *idle,
		       uint64_t *bucket_ip);
/* The function, bucket and rule of a->ip as the rows have them, a->idle
 * and a->bucket_ip set before: 1 for an address in no symbol, -1 after
 * printing why (model-addrs.c). */
int addr_resolve(struct symbolizer *s, struct addr_info *a);

/* model_build without the workload's model: for the parts of a model
 * (model_combine, the workload's own). */
/* model_set_callchains()'s setting */
int model_callchains_wanted(void);
int model_build_part(struct model *m, const struct profile *p,
		     struct symbolizer *s);
/* m->workload from m's samples (model-workload.c); -1 after printing */
int model_build_workload(struct model *m, struct symbolizer *s);
void model_free_workload(struct model *m);

/* perf's context markers (PERF_CONTEXT_KERNEL etc.) are not addresses */
#define CONTEXT_MARKER_MIN ((uint64_t)-4095)

/* Folded callchains of the first event (model-stacks.c). */
int model_build_stacks(struct model *m, struct symbolizer *s);
void model_free_stacks(struct model *m);
/* m->frames from the stacks' addresses (model-frames.c); -1 after
 * printing why. */
int model_build_frames(struct model *m, struct symbolizer *s);
void model_free_frames(struct model *m);

/* calls_known, incl_known and the function rows' inclusive counts
 * from the folded stacks (model-calls.c); -1 after printing why. */
int model_calls(struct model *m);
/* m->miss_event and miss_model (model-calls.c) */
void model_miss_events(struct model *m);

#endif
