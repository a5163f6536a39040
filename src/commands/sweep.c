// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt sweep: record a matrix of configurations, one profile per
 * cell, then print the table. Each cell is this binary run as a child
 * `perpkt record`, so a sweep measures exactly what record would; the
 * network is whatever record makes (loopback, or its own veth pair).
 *
 * Resumable: a cell whose profile exists and reads cleanly is kept
 * (recording them: commands/sweep-run.c). With --plan it records
 * nothing and writes what GNU parallel or a Slurm job array runs
 * instead (commands/sweep-plan.c); the same sweep without --plan then
 * keeps what they recorded and prints the table.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/profile.h"
#include "commands/record-options.h"
#include "commands/report-options.h"
#include "record/record.h"
#include "record/workload-ops.h"
#include "reports/render/render.h"
#include "reports/table/table.h"
#include "commands/sweep.h"
#include "commands/table-load.h"
#include "lab/qemu.h"

#define MAX_CELLS 4096
/* Most words after --, so a cell's arguments fit in SWEEP_MAX_ARGS. */
#define MAX_EXTRA 32

static const struct opt_usage sweep_usage = {
	.head =
"usage: perpkt sweep [options] -o DIR [-- RECORD-OPTIONS...]\n"
"\n"
"Record every combination of the lists given (one 'perpkt record' per\n"
"cell, one profile per cell in DIR), then print the table. Cells whose\n"
"profile is already in DIR are kept, so an interrupted sweep resumes.\n"
"\n",
};

/* The matrix's dimensions, one row each: sweep's option, the word in
 * cell names, and the record option each value goes to (NULL for cpu
 * pairs, which give --client-cpu and --server-cpu). */
static const struct dim_spec dim_specs[D_MAX] = {
	[D_PLACE] = { "placements", "place", "--placement" },
	[D_PAIR] = { "cpu-pairs", "cpu", NULL },
	[D_CCPU] = { "client-cpu", "client", "--client-cpu" },
	[D_SCPU] = { "server-cpu", "server", "--server-cpu" },
	[D_RPS] = { "rps-cpus", "rps", "--rps-cpus" },
	[D_IRQ] = { "irq-cpu", "irq", "--irq-cpu" },
	[D_GAP] = { "gap", "gap", "--gap" },
	[D_SIZE] = { "size", "size", "--size" },
	[D_TRANS] = { "transport", "tr", "--transport" },
	[D_FLOWS] = { "flows", "flows", "--flows" },
	[D_BURST] = { "burst", "burst", "--burst" },
};

static int split(struct dim *d, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (d->n == SWEEP_MAX_VALUES) {
			free(copy);
			return error("too many values for --%s: at most %d",
				     d->spec->option, SWEEP_MAX_VALUES);
		}
		if (!(d->values[d->n++] = strdup(tok))) {
			free(copy);
			return error("out of memory");
		}
	}
	free(copy);
	if (!d->n)
		return error("empty list for --%s", d->spec->option);
	return 0;
}

/* Text of `record --help`, to see which options record has today. */
static char *record_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	char cmd[64];
	FILE *p, *m;
	int c;

	snprintf(cmd, sizeof(cmd), "/proc/%d/exe record --help", (int)getpid());
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		pclose(p);
		return NULL;
	}
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	pclose(p);
	fclose(m);
	return buf;
}

static int check_record(struct sweep *s)
{
	char *help = record_help();
	size_t i;
	char opt[64];

	if (!help)
		return error("cannot run 'perpkt record --help' to check its options");
	for (i = 0; i < D_MAX; i++) {
		const struct dim *d = &s->dims[i];

		if (!d->n || !d->spec->record)
			continue;
		snprintf(opt, sizeof(opt), "%s ", d->spec->record);
		if (!strstr(help, opt)) {
			free(help);
			return error("record has no %s yet: cannot sweep over --%s",
				     d->spec->record, d->spec->option);
		}
	}
	s->record_repeat = strstr(help, "--repeat ") != NULL;
	free(help);
	if (s->repeat > 1 && !s->record_repeat)
		info("record has no --repeat yet: running %u records per cell, one per window",
		     s->repeat);
	return 0;
}

/* Cell names: the settings that vary, e.g. "cpu1-1_size40". */
static void cell_name(char *buf, size_t len, const struct sweep *s,
		      const size_t *idx)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < D_MAX; i++) {
		const struct dim *d = &s->dims[i];
		const char *v;
		char *p;

		if (!d->n)
			continue;
		v = d->values[idx[i]];
		at += snprintf(buf + at, len > at ? len - at : 0, "%s%s%s",
			       at ? "_" : "", d->spec->cell, v);
		if (at >= len)
			break;
		/* keep file names plain */
		for (p = buf; *p; p++)
			if (*p == '/' || *p == ' ' || *p == ':')
				*p = '-';
	}
	if (!buf[0])
		snprintf(buf, len, "default");
}

void sweep_cell_path(char *buf, size_t len, const struct sweep *s,
		      const char *name, int k, int partial)
{
	if (k < 0)
		snprintf(buf, len, "%s/%s%s.json", s->dir, name,
			 partial ? ".partial" : "");
	else
		snprintf(buf, len, "%s/%s.r%d%s.json", s->dir, name, k + 1,
			 partial ? ".partial" : "");
}

int sweep_file_k(const struct sweep_cells *c, size_t i)
{
	return c->files > 1 ? (int)i : -1;
}

int sweep_profile_readable(const char *path)
{
	struct profile p;

	if (access(path, R_OK))
		return 0;
	/* profile_read says why on stderr: a broken file is news */
	if (profile_read(&p, path))
		return 0;
	profile_free(&p);
	return 1;
}

static int next_index(const struct sweep *s, size_t *idx)
{
	int i;

	for (i = D_MAX - 1; i >= 0; i--) {
		if (!s->dims[i].n)
			continue;
		if (++idx[i] < s->dims[i].n)
			return 1;
		idx[i] = 0;
	}
	return 0;
}

size_t sweep_record_argv(const struct sweep *s, const size_t *idx,
			  const char *out, char **argv)
{
	static char exe[64], rep[16];
	size_t n = 0, i;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	argv[n++] = exe;
	argv[n++] = "record";
	/* the user's first: sweep's own and the cell's come after them */
	for (i = 0; i < s->nextra; i++)
		argv[n++] = s->extra[i];
	argv[n++] = "-q";
	argv[n++] = "-d";
	argv[n++] = (char *)s->duration;
	if (s->warmup) {
		argv[n++] = "-w";
		argv[n++] = (char *)s->warmup;
	}
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	if (s->repeat > 1 && s->record_repeat) {
		snprintf(rep, sizeof(rep), "%u", s->repeat);
		argv[n++] = "--repeat";
		argv[n++] = rep;
	}
	for (i = 0; i < D_MAX; i++) {
		const struct dim *d = &s->dims[i];
		char *v;

		if (!d->n)
			continue;
		v = d->values[idx[i]];
		if (i == D_PAIR) {
			/* "C:S" was checked when parsed */
			static char c[16], sv[16];

			snprintf(c, sizeof(c), "%.*s",
				 (int)(strchr(v, ':') - v), v);
			snprintf(sv, sizeof(sv), "%s", strchr(v, ':') + 1);
			argv[n++] = "--client-cpu";
			argv[n++] = c;
			argv[n++] = "--server-cpu";
			argv[n++] = sv;
		} else {
			argv[n++] = (char *)d->spec->record;
			argv[n++] = v;
		}
	}
	argv[n] = NULL;
	return n;
}

/* The cell's CPUs as record's workload places them (online CPUs, a
 * --placement this topology offers), before anything runs. */
static int check_cpus(struct record_options *o)
{
	struct record_workload *w = record_workload_builtin(&o->builtin, &o->cpus,
							    &o->window, &o->sampling);
	int ret;

	if (!w)
		return -1;
	ret = w->ops->prepare(w);
	w->ops->destroy(w);
	return ret;
}

/* Whether a cell's record is exact on QEMU's instruction clock (as
 * lab/run.c's choose_clock decides): what it counts does not depend on
 * what else the host runs, so such cells may run side by side. */
static int cell_deterministic(const struct record_options *o)
{
	const struct lab_request *k = &o->kernel;

	return k->kernel && k->exact &&
	       !(o->builtin.network && !strncmp(o->builtin.network, "nic", 3)) &&
	       !lab_qemu_args_icount((char *const *)k->qemu_args, k->nqemu_args);
}

/* Every cell through record's own option parser and CPU placement
 * before any runs, so a bad value in any list fails at once (exit 64),
 * not after hours or after other cells recorded. Sets s->deterministic. */
static int check_cells(struct sweep *s)
{
	size_t idx[D_MAX] = { 0 };
	char *argv[SWEEP_MAX_ARGS], name[256];

	if (table_value_check(s->value))
		return error("unknown --value '%s': see perpkt table --help", s->value);
	s->deterministic = 1;
	do {
		struct record_options o;
		size_t n = sweep_record_argv(s, idx, "/dev/null", argv);
		int help = 0;

		record_defaults(&o);
		/* a guest's CPUs are not this host's */
		if (record_parse_args((int)n - 1, argv + 1, &o, &help) ||
		    (!o.kernel.kernel && check_cpus(&o))) {
			cell_name(name, sizeof(name), s, idx);
			return error("cell %s: record refuses these settings; nothing "
				     "was recorded", name);
		}
		s->deterministic &= cell_deterministic(&o);
	} while (next_index(s, idx));
	return 0;
}

/* The options after --: none that sweep sets itself for each record. */
static int check_extra(struct sweep *s, char **words, size_t n)
{
	static const char *const own[] = { "-o", "--output", "-d", "--duration",
					   "-r", "--repeat" };
	size_t i, k, len;

	if (n > MAX_EXTRA)
		return error("%zu words after --: at most %d", n, MAX_EXTRA);
	for (i = 0; i < n; i++) {
		const char *w = words[i];

		for (k = 0; k < sizeof(own) / sizeof(own[0]); k++) {
			len = strlen(own[k]);
			if (!strncmp(w, own[k], len) &&
			    (!w[len] || w[len] == '=' || len == 2))
				return error("'%s' after --: sweep gives each record "
					     "its %s itself", w, own[k]);
		}
		for (k = 0; k < D_MAX; k++) {
			const char *r = s->dims[k].spec->record;

			len = r ? strlen(r) : 0;
			if (s->dims[k].n && r && !strncmp(w, r, len) &&
			    (!w[len] || w[len] == '='))
				return error("'%s' after --: sweep gives each record "
					     "its %s from --%s", w, r,
					     s->dims[k].spec->option);
		}
	}
	s->extra = words;
	s->nextra = n;
	return 0;
}

/* a dimension's list, o->num its index */
static int opt_dim(const struct opt *o, const char *arg, void *at)
{
	struct dim *d = (struct dim *)at + o->num;

	if (d->n)
		return error("--%s given twice", d->spec->option);
	return split(d, arg);
}

/* -d (o->num 0) and -w (1): checked as record checks them, handed to
 * each record as given */
static int opt_secs(const struct opt *o, const char *arg, void *at)
{
	double secs;

	if (o->num ? parse_seconds(arg, "--warmup", 0, 3600, &secs) :
		     parse_seconds(arg, "--duration", 0.01, 86400, &secs))
		return -1;
	*(const char **)at = arg;
	return 0;
}

/* --plan's engine */
static int opt_plan(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (strcmp(arg, "parallel") && strcmp(arg, "slurm"))
		return error("unknown --plan engine '%s': parallel or slurm", arg);
	*(const char **)at = arg;
	return 0;
}

#define A(field) OPT_AT(struct sweep, field)
/* the names are dim_specs' */
#define DIM(i, name, help) \
	OPT_CALLBACK_NUM(0, name, A(dims), "LIST", help, opt_dim, i)
static const struct opt sweep_opts[] = {
	OPT_STRING('o', "output", A(dir), "DIR",
		   "directory of the profiles (made if missing)"),
	OPT_CALLBACK_NUM('d', "duration", A(duration), "SECS",
			 "measurement window of each record (default 2)",
			 opt_secs, 0),
	OPT_CALLBACK_NUM('w', "warmup", A(warmup), "SECS",
			 "ping-pong before each record's window\n"
			 "(default: record's, 1)", opt_secs, 1),
	OPT_INT(0, "repeat", A(repeat), 1, 1000, "N",
		"windows per cell (default 1): record --repeat N\n"
		"when record has it, else N records per cell"),
	OPT_INT('j', "jobs", A(jobs), 1, SWEEP_MAX_JOBS, "N",
		"records at once (default 1): exact cells on\n"
		"QEMU's instruction clock only; sampled cells\n"
		"run one at a time"),
	OPT_CALLBACK(0, "plan", A(plan), "ENGINE",
		     "record nothing: write DIR/plan, one command\n"
		     "line a file, for 'parallel' (GNU parallel) or\n"
		     "'slurm' (and DIR/plan.sbatch, a job array);\n"
		     "the same sweep without --plan then takes\n"
		     "their profiles and prints the table",
		     opt_plan),
	DIM(D_PLACE, "placements", "record --placement values, e.g. same,smt"),
	DIM(D_PAIR, "cpu-pairs", "client:server CPU pairs, e.g. 1:1,0:1"),
	DIM(D_CCPU, "client-cpu", "client CPUs (each with each --server-cpu)"),
	DIM(D_SCPU, "server-cpu", "responder CPUs"),
	DIM(D_RPS, "rps-cpus", "RPS masks, e.g. 0,1,2"),
	DIM(D_IRQ, "irq-cpu", "CPUs for the interface's IRQs, e.g. 0,1"),
	DIM(D_GAP, "gap", "pauses between round trips, e.g. 0,100us"),
	DIM(D_SIZE, "size", "message sizes in bytes, e.g. 40,1400"),
	DIM(D_TRANS, "transport", "e.g. udp,tcp"),
	DIM(D_FLOWS, "flows", "concurrent ping-pong pairs, e.g. 1,2,4"),
	DIM(D_BURST, "burst", "requests in flight, e.g. 1,4"),
	OPT_STRING(0, "value", A(value), "V",
		   "table value (see perpkt table; default latency)"),
	OPT_FORMAT(A(format), &table_renderers),
	OPT_GROUP("\n"
"After --, options every record of the sweep takes as they are, e.g.\n"
"-- --kernel IMAGE --net nic --guest-cpus 3: then --rps-cpus and\n"
"--irq-cpu act on the responder guest's NIC. Not -o, -d or --repeat\n"
"(sweep's own) nor an option swept. A profile already in DIR is kept\n"
"whatever these were when it was recorded, unless DIR has a plan\n"
"(--plan): then it must be what the plan's line records.\n"
"\n"),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef DIM
#undef A

/* What follows the options: only words after --, then -o DIR and
 * the dimensions against each other; -1 after saying what is wrong. */
static int check_operands(struct sweep *s, int argc, char **argv, int next)
{
	size_t i;

	if (next < argc && strcmp(argv[next - 1], "--"))
		return error("unexpected argument '%s'", argv[next]);
	if (check_extra(s, argv + next, (size_t)(argc - next)))
		return -1;
	if (!s->dir)
		return error("sweep needs -o DIR for its profiles");
	for (i = 0; i < s->dims[D_PAIR].n; i++) {
		const char *p = s->dims[D_PAIR].values[i], *colon = strchr(p, ':');

		if (!colon || colon == p || !colon[1] || strlen(p) > 12)
			return error("invalid --cpu-pairs value '%s': expected CLIENT:SERVER, e.g. 1:1", p);
	}
	if (s->dims[D_PAIR].n && (s->dims[D_CCPU].n || s->dims[D_SCPU].n))
		return error("--cpu-pairs and --client-cpu/--server-cpu exclude each other");
	return 0;
}

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct sweep *s)
{
	int next = options_parse(argc, argv, sweep_opts, &sweep_usage, s);

	if (next <= 0)
		return next;
	if (check_operands(s, argc, argv, next))
		return options_usage_error(&sweep_usage);
	return 1;
}

static void init_dims(struct sweep *s)
{
	size_t i;

	for (i = 0; i < D_MAX; i++)
		s->dims[i].spec = &dim_specs[i];
}

static void free_dims(struct sweep *s)
{
	size_t i, j;

	for (i = 0; i < D_MAX; i++)
		for (j = 0; j < s->dims[i].n; j++)
			free(s->dims[i].values[j]);
}

/* The table of the cells that have profiles. */
static int table_of(const struct sweep *s, const struct sweep_cells *c)
{
	char **paths = calloc(c->n * c->files, sizeof(*paths));
	const char **labels = calloc(c->n, sizeof(*labels));
	size_t *per = calloc(c->n, sizeof(*per)), i, k, n = 0, kept = 0;
	struct table_load_options tl = { .value = s->value };
	int ret = RESULT_FAILURE;
	struct table t;

	memset(&t, 0, sizeof(t));
	if (!paths || !labels || !per) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < c->n; i++) {
		if (c->failed[i])
			continue;
		labels[kept] = c->names[i];
		per[kept++] = c->files;
		for (k = 0; k < c->files; k++) {
			paths[n] = malloc(4096);
			if (!paths[n]) {
				error("out of memory");
				goto out;
			}
			sweep_cell_path(paths[n++], 4096, s, c->names[i],
					sweep_file_k(c, k), 0);
		}
	}
	if (!kept) {
		error("no cell was recorded: no table");
		goto out;
	}
	if (!table_load(&t, (const char *const *)paths, per, labels, kept, &tl) &&
	    !render_stdout(&table_renderers, s->format, &t, NULL))
		ret = RESULT_OK;
out:
	table_free(&t);
	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
	free(labels);
	free(per);
	return ret;
}

/* The cells of the matrix, named; -1 when out of memory. */
static int cells_make(const struct sweep *s, struct sweep_cells *c, size_t n)
{
	size_t idx[D_MAX] = { 0 }, cell = 0;

	c->n = n;
	c->files = s->record_repeat || s->repeat < 2 ? 1 : s->repeat;
	c->names = calloc(n, sizeof(*c->names));
	c->idx = calloc(n, sizeof(*c->idx));
	c->why = calloc(n, sizeof(*c->why));
	c->failed = calloc(n, 1);
	if (!c->names || !c->idx || !c->why || !c->failed)
		return error("out of memory");
	do {
		cell_name(c->names[cell], sizeof(c->names[cell]), s, idx);
		memcpy(c->idx[cell++], idx, sizeof(idx));
	} while (next_index(s, idx));
	return 0;
}

static void cells_free(struct sweep_cells *c)
{
	free(c->names);
	free(c->idx);
	free(c->why);
	free(c->failed);
}

/* --jobs N for these cells: sampled ones one at a time, said */
static void choose_jobs(struct sweep *s)
{
	if (s->jobs > 1 && !s->deterministic) {
		info("--jobs %u: one cell at a time all the same: these cells sample "
		     "the host's CPUs (or count on a threaded clock), so two at once "
		     "would measure each other; only exact cells on QEMU's "
		     "instruction clock (--exact, one guest) run side by side",
		     s->jobs);
		s->jobs = 1;
	}
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep s = { .duration = "2", .repeat = 1, .value = "latency",
			   .format = renderer_default(&table_renderers),
			   .jobs = 1 };
	struct sweep_cells c = { 0 };
	size_t ncells = 1, i;
	int ret = RESULT_FAILURE, r;

	init_dims(&s);
	r = parse_args(argc, argv, &s);
	if (r <= 0) {
		free_dims(&s);
		return r ? RESULT_USAGE : RESULT_OK;
	}
	for (i = 0; i < D_MAX; i++)
		if (s.dims[i].n)
			ncells *= s.dims[i].n;
	if (ncells > MAX_CELLS) {
		error("%zu cells are too many: at most %d", ncells, MAX_CELLS);
		free_dims(&s);
		return RESULT_USAGE;
	}
	if (check_record(&s))
		goto out;
	if (check_cells(&s)) {
		ret = RESULT_USAGE;
		goto out;
	}
	if (mkdir(s.dir, 0777) && errno != EEXIST) {
		error("cannot make directory '%s': %s", s.dir, strerror(errno));
		goto out;
	}
	if (cells_make(&s, &c, ncells))
		goto out;
	if (s.plan) {
		ret = sweep_plan_write(&s, &c) ? RESULT_FAILURE : RESULT_OK;
		goto out;
	}
	choose_jobs(&s);
	r = sweep_run(&s, &c);
	if (r) {
		ret = r > 0 ? RESULT_PARTIAL : RESULT_FAILURE;
		goto out;
	}
	ret = table_of(&s, &c);
	if (c.nfailed) {
		/* after the table, so it is the last thing said */
		if (c.nfailed > c.nrefused)
			error("%zu of %zu cells failed (noted in %s/CELL.failed; the "
			      "next sweep tries them again):", c.nfailed, c.n, s.dir);
		else
			error("%zu of %zu cells have a profile the plan did not make:",
			      c.nfailed, c.n);
		for (i = 0; i < c.n; i++)
			if (c.failed[i])
				error("  %s: %s", c.names[i], c.why[i]);
		if (ret == RESULT_OK)
			ret = RESULT_PARTIAL;
	}
out:
	cells_free(&c);
	free_dims(&s);
	return ret;
}
