// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt sweep: record a matrix of configurations, one profile per
 * cell, then print the table. Each cell is this binary run as a child
 * `perpkt record`, so a sweep measures exactly what record would; the
 * network is whatever record makes (loopback, or its own veth pair).
 *
 * Resumable: a cell whose profile exists and reads cleanly is kept. A
 * cell records into NAME.partial.json and is renamed to NAME.json only
 * when record finished it, so an interrupted cell never looks complete.
 * A cell whose record fails (or is killed) is noted in NAME.failed and
 * the sweep goes on; the next sweep tries it again.
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
#include "reports/render.h"
#include "reports/table.h"
#include "commands/table-load.h"

#define MAX_VALUES 32
#define MAX_CELLS 4096
#define MAX_ARGS 80

static const struct opt_usage sweep_usage = {
	.head =
"usage: perpkt sweep [options] -o DIR [-- RECORD-OPTIONS...]\n"
"\n"
"Record every combination of the lists given (one 'perpkt record' per\n"
"cell, one profile per cell in DIR), then print the table. Cells whose\n"
"profile is already in DIR are kept, so an interrupted sweep resumes.\n"
"\n",
};

enum { D_PLACE, D_PAIR, D_CCPU, D_SCPU, D_RPS, D_IRQ, D_GAP, D_SIZE, D_TRANS,
       D_FLOWS, D_BURST, D_MAX };

/* The matrix's dimensions, one row each: sweep's option, the word in
 * cell names, and the record option each value goes to (NULL for cpu
 * pairs, which give --client-cpu and --server-cpu). */
static const struct dim_spec {
	const char *option, *cell, *record;
} dim_specs[D_MAX] = {
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

/* One dimension of the matrix: its row of dim_specs and its values. */
struct dim {
	const struct dim_spec *spec;
	char *values[MAX_VALUES];
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
};
/* Most words after --, so a cell's arguments fit in MAX_ARGS. */
#define MAX_EXTRA 32

static volatile sig_atomic_t interrupted;
static volatile pid_t child;

static void on_signal(int sig)
{
	interrupted = 1;
	/* the child may not be in our terminal's group: pass it on */
	if (child > 0)
		kill(child, sig);
}

static int split(struct dim *d, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;

	if (!copy)
		return error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (d->n == MAX_VALUES) {
			free(copy);
			return error("too many values for --%s: at most %d",
				     d->spec->option, MAX_VALUES);
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

/* The profile path of window k (k < 0: the cell's only file). */
static void cell_path(char *buf, size_t len, const struct sweep *s,
		      const char *name, int k, int partial)
{
	if (k < 0)
		snprintf(buf, len, "%s/%s%s.json", s->dir, name,
			 partial ? ".partial" : "");
	else
		snprintf(buf, len, "%s/%s.r%d%s.json", s->dir, name, k + 1,
			 partial ? ".partial" : "");
}

static int readable(const char *path)
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

/* record's arguments for one cell, from argv[1] = "record"; the count.
 * Uses static buffers: one cell at a time. */
static size_t record_argv(const struct sweep *s, const size_t *idx,
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

/* Every cell through record's own option parser and CPU placement
 * before any runs, so a bad value in any list fails at once (exit 64),
 * not after hours or after other cells recorded. */
static int check_cells(const struct sweep *s)
{
	size_t idx[D_MAX] = { 0 };
	char *argv[MAX_ARGS], name[256];

	if (table_value_check(s->value))
		return error("unknown --value '%s': see perpkt table --help", s->value);
	do {
		struct record_options o;
		size_t n = record_argv(s, idx, "/dev/null", argv);
		int help = 0;

		record_defaults(&o);
		/* a guest's CPUs are not this host's */
		if (record_parse_args((int)n - 1, argv + 1, &o, &help) ||
		    (!o.kernel.kernel && check_cpus(&o))) {
			cell_name(name, sizeof(name), s, idx);
			return error("cell %s: record refuses these settings; nothing "
				     "was recorded", name);
		}
	} while (next_index(s, idx));
	return 0;
}

/* record's exit code, or -1 with how it ended in why (a signal). */
static int run_record(const struct sweep *s, const size_t *idx,
		      const char *out, char *why, size_t whylen)
{
	char *argv[MAX_ARGS];
	int status;
	pid_t pid;

	record_argv(s, idx, out, argv);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error("cannot start record: %s", strerror(errno));
	if (!pid) {
		execv(argv[0], argv);
		_exit(127);
	}
	child = pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child = 0;
	if (WIFEXITED(status)) {
		snprintf(why, whylen, "record exited %d", WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "record was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "record stopped (status 0x%x)", status);
	return -1;
}

/* NAME.failed: why the cell has no profile, for the next sweep to see
 * (it tries the cell again) and for the person reading DIR. */
static void note_failed(const struct sweep *s, const char *name, const char *why)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.failed", s->dir, name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", why) < 0 || fclose(f)) {
		if (f)
			fclose(f);
		warning("cannot note the failure in '%s': %s", path, strerror(errno));
	}
}

static void forget_failed(const struct sweep *s, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s.failed", s->dir, name);
	unlink(path);
}

/* Record one file of a cell; 0 done, 1 interrupted, -1 failed (why
 * said and in why). */
static int record_file(const struct sweep *s, const size_t *idx,
		       const char *name, int k, char *why, size_t whylen)
{
	char part[4096], final[4096];
	int rc;

	cell_path(part, sizeof(part), s, name, k, 1);
	cell_path(final, sizeof(final), s, name, k, 0);
	unlink(part);
	rc = run_record(s, idx, part, why, whylen);
	if (interrupted) {
		/* record may have saved what it had: not a finished cell */
		unlink(part);
		return 1;
	}
	if (rc == PERPKT_EXIT_PARTIAL)
		warning("cell %s: record reported lost samples; kept", name);
	else if (rc != PERPKT_EXIT_OK) {
		unlink(part);
		return error("cell %s: %s; going on with the next cell", name, why);
	}
	if (rename(part, final)) {
		snprintf(why, whylen, "cannot rename '%.60s' to '%.60s': %s",
			 part, final, strerror(errno));
		return error("%s", why);
	}
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
"whatever these were when it was recorded.\n"
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

/* The table of the cells that have profiles (failed[i]: cell i has none). */
static int table_of(const struct sweep *s, char (*names)[256], size_t ncells,
		    const char *failed)
{
	size_t files = s->record_repeat || s->repeat < 2 ? 1 : s->repeat;
	char **paths = calloc(ncells * files, sizeof(*paths));
	const char **labels = calloc(ncells, sizeof(*labels));
	size_t *per = calloc(ncells, sizeof(*per)), i, k, n = 0, kept = 0;
	struct table_load_options tl = { .value = s->value };
	int ret = RESULT_FAILURE;
	struct table t;

	memset(&t, 0, sizeof(t));
	if (!paths || !labels || !per) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < ncells; i++) {
		if (failed[i])
			continue;
		labels[kept] = names[i];
		per[kept++] = files;
		for (k = 0; k < files; k++) {
			paths[n] = malloc(4096);
			if (!paths[n]) {
				error("out of memory");
				goto out;
			}
			cell_path(paths[n++], 4096, s, names[i],
				  files > 1 ? (int)k : -1, 0);
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

int cmd_sweep(int argc, char **argv)
{
	struct sweep s = { .duration = "2", .repeat = 1, .value = "latency",
			   .format = renderer_default(&table_renderers) };
	struct sigaction sa, old_int, old_term;
	char (*names)[256] = NULL, (*why)[200] = NULL, *failed = NULL;
	size_t idx[D_MAX] = { 0 }, ncells = 1, cell = 0, files, k, i, nfailed = 0;
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
	names = calloc(ncells, sizeof(*names));
	failed = calloc(ncells, 1);
	why = calloc(ncells, sizeof(*why));
	if (!names || !failed || !why) {
		error("out of memory");
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	files = s.record_repeat || s.repeat < 2 ? 1 : s.repeat;
	do {
		cell_name(names[cell], sizeof(names[cell]), &s, idx);
		for (k = 0; k < files; k++) {
			char path[4096];
			int kk = files > 1 ? (int)k : -1;

			cell_path(path, sizeof(path), &s, names[cell], kk, 0);
			if (readable(path)) {
				info("sweep %zu/%zu %s%s: kept (already recorded)",
				     cell + 1, ncells, names[cell],
				     files > 1 ? path + strlen(path) - 8 : "");
				continue;
			}
			/* what this profile records: record --repeat N
			 * makes N windows of -d seconds in one file */
			if (s.record_repeat && s.repeat > 1)
				info("sweep %zu/%zu %s: recording %u windows of %s s (%g s of windows, warm-up aside)",
				     cell + 1, ncells, names[cell], s.repeat,
				     s.duration, s.repeat * strtod(s.duration, NULL));
			else
				info("sweep %zu/%zu %s: recording one window of %s s",
				     cell + 1, ncells, names[cell], s.duration);
			r = record_file(&s, idx, names[cell], kk, why[cell],
					sizeof(why[cell]));
			if (r > 0) {
				info("sweep interrupted: %zu of %zu cells done; run the same command again to finish",
				     cell, ncells);
				ret = RESULT_PARTIAL;
				goto restore;
			}
			if (r < 0) {
				note_failed(&s, names[cell], why[cell]);
				failed[cell] = 1;
				nfailed++;
				break;
			}
		}
		if (!failed[cell])
			forget_failed(&s, names[cell]);
		cell++;
	} while (next_index(&s, idx));
	ret = table_of(&s, names, ncells, failed);
	if (nfailed) {
		/* after the table, so it is the last thing said */
		error("%zu of %zu cells failed (noted in %s/CELL.failed; the "
		      "next sweep tries them again):", nfailed, ncells, s.dir);
		for (i = 0; i < ncells; i++)
			if (failed[i])
				error("  %s: %s", names[i], why[i]);
		if (ret == RESULT_OK)
			ret = RESULT_PARTIAL;
	}
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	free(names);
	free(why);
	free(failed);
	free_dims(&s);
	return ret;
}
