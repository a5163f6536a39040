/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_COMMANDS_SWEEP_H
#define PERPKT_COMMANDS_SWEEP_H

/*
 * perpkt sweep's parts: the matrix and its cells (commands/sweep.c),
 * recording them, one or --jobs at once (commands/sweep-run.c), and
 * the plan other engines run: GNU parallel, a Slurm job array
 * (commands/sweep-plan.c).
 */
#include <stddef.h>

#define SWEEP_MAX_VALUES 32
#define SWEEP_MAX_JOBS 64
#define SWEEP_MAX_ARGS 96

enum { D_PLACE, D_PAIR, D_CCPU, D_SCPU, D_RPS, D_IRQ, D_GAP, D_SIZE, D_TRANS,
       D_FLOWS, D_BURST, D_MAX };

/* A dimension: sweep's option, the word in cell names, and the record
 * option each value goes to (NULL for cpu pairs, which give
 * --client-cpu and --server-cpu). */
struct dim_spec {
	const char *option, *cell, *record;
};

/* One dimension of the matrix: its row of dim_specs and its values. */
struct dim {
	const struct dim_spec *spec;
	char *values[SWEEP_MAX_VALUES];
	size_t n;
};

struct sweep {
	const char *dir;
	const char *duration;
	const char *warmup;    /* NULL: record's own default */
	unsigned repeat;
	const char *value, *format;
	struct dim dims[D_MAX];
	int record_repeat;     /* record accepts --repeat */
	char **extra;          /* after --: every record's own options */
	size_t nextra;
	unsigned jobs;         /* --jobs: records at once */
	int deterministic;     /* every cell exact on QEMU's instruction
				* clock: side by side they count what they
				* count alone */
	const char *plan;      /* --plan ENGINE: write the plan, record nothing */
};

/* The cells, in the matrix's order. */
struct sweep_cells {
	size_t n;
	size_t files;          /* profiles per cell: --repeat N without
				* record's --repeat makes N */
	char (*names)[256];
	size_t (*idx)[D_MAX];  /* each dimension's value */
	char (*why)[200];      /* why a cell has no profile */
	char *failed;
	size_t nfailed;
	size_t nrefused;       /* of them: a profile the plan did not make */
};

/* commands/sweep.c */
/* The profile path of a cell's file k (k < 0: the cell's only file). */
void sweep_cell_path(char *buf, size_t len, const struct sweep *s,
		     const char *name, int k, int partial);
/* k for file number i of a cell: -1 when a cell has one file */
int sweep_file_k(const struct sweep_cells *c, size_t i);
/* 1 when path is a profile that reads cleanly (profile_read says what
 * is wrong with one that does not) */
int sweep_profile_readable(const char *path);
/* record's argv for a cell (argv[0] this binary, argv[1] "record"),
 * NULL-terminated; its length. Static buffers: used before the next
 * call. */
size_t sweep_record_argv(const struct sweep *s, const size_t *idx,
			 const char *out, char **argv);

/* commands/sweep-run.c: record every file not yet in s->dir, up to
 * s->jobs at once; c->failed and c->why say which cells failed. 0 done
 * (some cells may have failed), 1 interrupted (said), -1 failure. */
int sweep_run(const struct sweep *s, struct sweep_cells *c);

/* commands/sweep-plan.c */
/* Write s->dir/plan (one self-contained command line per file) and, for
 * --plan slurm, s->dir/plan.sbatch; say how to run them. */
int sweep_plan_write(const struct sweep *s, const struct sweep_cells *c);
/* A profile recorded from the plan in s->dir: 0 when it is what the
 * plan's line made (its options, the kernel image and the guest's
 * perpkt), with the host that ran it in host; -1 after saying how it
 * differs (and in c->why[cell]). 1 when s->dir has no plan. */
int sweep_plan_check(const struct sweep *s, struct sweep_cells *c, size_t cell,
		     int k, char *host, size_t hostlen);

#endif
