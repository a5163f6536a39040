// SPDX-License-Identifier: GPL-2.0-only
/* perpkt diff: where did the time per round trip go between profiles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile/anonymize.h"
#include "commands/commands.h"
#include "commands/options.h"
#include "reports/diff/diff.h"
#include "reports/diff/diff-conditions.h"
#include "error.h"
#include "exitcode.h"
#include "reports/diff/failif.h"
#include "reports/model/model.h"
#include "reports/render/render.h"
#include "parse.h"
#include "profile/profile.h"
#include "profile/turns.h"
#include "profile/nameset.h"
#include "symbolize/symbolize.h"
#include "commands/report-options.h"
#include "commands/symsource.h"

#define MAX_FAILIF 16

static const struct opt_usage diff_usage = {
	.head =
"usage: perpkt diff [options] A B [C...]\n"
"       perpkt diff [options] TURNS (one profile of record --turn-on:\n"
"                                    its off windows against its on)\n"
"\n"
"Value per round trip (or --per unit) of every function and bucket in each profile,\n"
"its change against the first (A, the baseline), and whether that\n"
"change is larger than the noise; set beside the change in latency.\n"
"It opens with the conditions that differ between the profiles (kernel,\n"
"command line, mode, accelerator, netfilter, sysctls, CPU, placement,\n"
"perpkt version).\n"
"\n",
};

struct diff_args {
	const char *format;
	const char *buckets;
	struct render_options ro;  /* --width */
	struct diff_options o;
	struct failif fail[MAX_FAILIF];
	size_t nfail;
	int bisect;   /* --fail-if on the command line, even a bad one */
	int allow_missing;
	int include_partial;
	int anonymize;
	const char *side;  /* --side local|remote, NULL: local */
	const char *vmlinux[DIFF_MAX_PROFILES];  /* --vmlinux, repeatable */
	char *vmlinux_id[DIFF_MAX_PROFILES];     /* their build-ids */
	size_t nvmlinux;
	struct sample_filter filter;
	int next;  /* argv's first profile */
};

static int opt_by(const struct opt *o, const char *arg, void *at)
{
	int by = model_by_parse(arg);

	(void)o;
	if (by != MODEL_BY_FUNCTION && by != MODEL_BY_BUCKET &&
	    by != MODEL_BY_LINE)
		return error("unknown --by '%s' (use function, bucket or line)",
			     arg);
	*(enum model_by *)at = by;
	return 0;
}

static int opt_threshold(const struct opt *o, const char *arg, void *at)
{
	char *end;
	double v = strtod(arg, &end);

	(void)o;
	if (end == arg || *end || v < 0 || !isfinite(v))
		return error("invalid --threshold '%s': expected a value per round trip, 0 or more",
			     arg);
	*(double *)at = v;
	return 0;
}

static int opt_ghz(const struct opt *o, const char *arg, void *at)
{
	char *end;
	double v = strtod(arg, &end);

	(void)o;
	if (end == arg || *end || !(v > 0.01) || v > 100)
		return error("invalid --convert-cycles-ghz '%s': expected a clock in GHz, e.g. 2.9",
			     arg);
	*(double *)at = v;
	return 0;
}

static int opt_fail_if(const struct opt *o, const char *arg, void *at)
{
	struct diff_args *a = at;

	(void)o;
	if (a->nfail == MAX_FAILIF)
		return error("too many --fail-if: at most %d", MAX_FAILIF);
	if (failif_parse(arg, &a->fail[a->nfail]))
		return error("for example %s", FAILIF_EXAMPLE);
	a->nfail++;
	return 0;
}

static int opt_vmlinux(const struct opt *o, const char *arg, void *at)
{
	struct diff_args *a = at;

	(void)o;
	if (a->nvmlinux == DIFF_MAX_PROFILES)
		return error("too many --vmlinux: at most %d", DIFF_MAX_PROFILES);
	a->vmlinux[a->nvmlinux] = arg;
	a->vmlinux_id[a->nvmlinux] = symbolizer_file_build_id(arg);
	if (!a->vmlinux_id[a->nvmlinux])
		return error("'%s' has no build-id: is it a vmlinux?", arg);
	a->nvmlinux++;
	return 0;
}

#define A(field) OPT_AT(struct diff_args, field)
static const struct opt diff_opts[] = {
	OPT_FORMAT(A(format), &diff_renderers),
	OPT_CALLBACK(0, "by", A(o.by), "KEY",
		     "function (default), bucket or line: file:line\n"
		     "rows with their inline chains (DWARF from the\n"
		     "profiles' vmlinux, or --vmlinux); a line\n"
		     "matches its like in the other profile only at\n"
		     "the same file:line, so it is for variants of\n"
		     "one kernel (command line, config, sysctls)", opt_by),
	OPT_BOOL(0, "all-tasks", A(o.all_tasks),
		 "rows of every task sampled; by default the rows\n"
		 "are the workload's (client, responder or the\n"
		 "command, and interrupt work on their CPUs) and\n"
		 "the other tasks' busy time one [other tasks] row,\n"
		 "never marked"),
	READ_OPT_LIMIT(A(o.limit),
		       "rows shown (default 30, 0 = all); the rest is\n"
		       "one [other] row, so the deltas still add up"),
	OPT_CALLBACK(0, "threshold", A(o.threshold), "V",
		     "hide rows whose |delta| is below V per round\n"
		     "trip (in the diff's unit)", opt_threshold),
	OPT_STRING(0, "alias", A(o.alias_file), "FILE",
		   "lines \"old new\": functions renamed between\n"
		   "the kernels, matched as one"),
	OPT_CALLBACK(0, "convert-cycles-ghz", A(o.ghz), "F",
		     "compare hardware cycles with\n"
		     "software-clock ns (or latency) at F GHz", opt_ghz),
	OPT_CALLBACK(0, "fail-if", 0, "EXPR",
		     "exit 1 when EXPR holds for any profile against\n"
		     "A, e.g. 'bucket:udp > +5%', 'total > +200',\n"
		     "'function:udp_sendmsg > +200', 'latency > +1us',\n"
		     "'latency.p99 > +5%' (also p50, p90, p999),\n"
		     "'l1i-misses > +1%' (also l1d-, l2-misses:\n"
		     "record --cache-model)\n"
		     "(repeatable; errors then exit 130 or 192 so that\n"
		     "'git bisect run' stops instead of marking bad)",
		     opt_fail_if),
	READ_OPT_ANONYMIZE(A(anonymize), "report"),
	READ_OPT_INCLUDE_PARTIAL(A(include_partial)),
	OPT_BOOL(0, "allow-missing", A(allow_missing),
		 "a --fail-if bucket or function in no profile\n"
		 "moved by nothing (default: an error, exit 130)"),
	OPT_BOOL(0, "force", A(o.force),
		 "compare profiles normalised by different --per\n"
		 "units or measured in different worlds (the\n"
		 "host, a TCG or a KVM guest; sampled or exact),\n"
		 "and read profiles whose fields disagree (all\n"
		 "said at the top of the output)"),
	READ_OPT_BUCKETS(A(buckets)),
	OPT_CALLBACK(0, "vmlinux", 0, "FILE",
		     "a kernel's vmlinux, for --by line (repeatable:\n"
		     "each profile takes the one of its build-id;\n"
		     "default: the one the profile was recorded with)",
		     opt_vmlinux),
	READ_OPT_SIDE(A(side),
		      "of two-host profiles (record --peer): local\n"
		      "(default) or remote, the responder's host;\n"
		      "each profile's same side is compared"),
	READ_OPT_SAMPLE_FILTER(A(filter)),
	READ_OPT_WIDTH(A(ro.width)),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct diff_args *a)
{
	int n;

	a->next = options_parse(argc, argv, diff_opts, &diff_usage, a);
	if (a->next <= 0)
		return a->next;
	n = argc - a->next;
	if (n < 1)
		error("diff needs at least two profiles, the baseline first "
		      "(or one recorded by turns)");
	else if (n > DIFF_MAX_PROFILES)
		error("diff compares at most %d profiles", DIFF_MAX_PROFILES);
	/* diff_folded says so too, but only after loading the profiles */
	else if (!strcmp(a->format, "folded") && n != 2)
		error("folded output compares exactly two profiles");
	else
		return 1;
	return options_usage_error(&diff_usage);
}

struct loaded {
	struct profile p;
	struct symbolizer *sym;
	struct model m;
	int have_p, have_m;
};

/* The --vmlinux of p's build-id; the only one when p has none. */
static int pick_vmlinux(const struct diff_args *a, const struct profile *p,
			const char *path, const char **out)
{
	size_t i;

	*out = NULL;
	if (!a->nvmlinux)
		return 0;
	for (i = 0; i < a->nvmlinux; i++)
		if (p->build_id && !strcasecmp(p->build_id, a->vmlinux_id[i]))
			*out = a->vmlinux[i];
	if (!*out && !p->build_id && a->nvmlinux == 1)
		*out = a->vmlinux[0];
	if (!*out)
		return error("no --vmlinux is of the kernel of '%s' (build-id %s)",
			     path, p->build_id ? p->build_id : "unknown");
	return 0;
}

/* turn: the side of a profile recorded by turns (0 off, 1 on), -1 the
 * whole profile. */
static int load(struct loaded *l, const char *path, const struct diff_args *a,
		struct anonymizer *anon, int turn)
{
	const char *buckets = a->buckets, *side = a->side;
	const struct sample_filter *filter = &a->filter;
	int include_partial = a->include_partial, force = a->o.force;
	int lines = a->o.by == MODEL_BY_LINE;
	struct symsource src = { .buckets = buckets };

	if (profile_read_force(&l->p, path, force))
		return -1;
	l->have_p = 1;
	if (profile_take_side(&l->p, side, path))
		return -1;
	/* one profile and no turns in it: the command was misused */
	if (turn >= 0 && !profile_has_turns(&l->p)) {
		error("diff needs two profiles, the baseline first, or one "
		      "recorded by turns (record --turn-on): '%s' has no turns", path);
		return -2;
	}
	if (turn >= 0 && profile_take_turn(&l->p, turn, path))
		return -1;
	if (sample_filter_apply(filter, &l->p))
		return -1;
	l->p.include_partial = include_partial;
	profile_note_partial(&l->p, path);
	if (anon && anonymize_profile(anon, &l->p))
		return -1;
	if (pick_vmlinux(a, &l->p, path, &src.vmlinux))
		return -1;
	if (symsource_open(&l->sym, &src, &l->p, NULL))
		return -1;
	if (model_build(&l->m, &l->p, l->sym))
		return -1;
	l->have_m = 1;
	/* diff's default rows are the workload's model: it needs them too */
	if (lines && (model_lines(&l->m, l->sym, NULL) ||
		      (l->m.workload && model_lines(l->m.workload, l->sym, NULL))))
		return error("'%s': --by line needs its kernel's DWARF", path);
	return 0;
}

static void unload(struct loaded *l)
{
	if (l->have_m)
		model_free(&l->m);
	symbolizer_close(l->sym);
	if (l->have_p)
		profile_free(&l->p);
}

/* Whether f's bucket or function is one a profile could have sampled:
 * a bucket of the rules, a function of a profile's kernel. */
static int failif_known(const struct failif *f, const struct loaded *l,
			size_t n)
{
	char buf[512];
	size_t i;

	if (f->target == FAILIF_BUCKET)
		return l[0].sym && symbolizer_bucket_known(l[0].sym, f->name);
	if (f->target != FAILIF_FUNCTION)
		return 0;
	for (i = 0; i < n; i++)
		if (nameset_has(l[i].p.kernel_functions,
				symbol_fold(f->name, buf, sizeof(buf))) == 1)
			return 1;
	return 0;
}

/* "is beyond the noise but under the 2% floor ..." for f on d */
static const char *floor_words(const struct diff *d, const struct failif *f,
			       char *buf, size_t len)
{
	int lat = f->target == FAILIF_LATENCY || f->target == FAILIF_PERCENTILE;

	snprintf(buf, len, "is beyond the noise but under the %g%% floor of %s "
		 "(no smaller change is marked)",
		 100 * (lat ? diff_floor_latency(d) : diff_floor(d)),
		 lat ? "a latency change" : "busy kernel time");
	return buf;
}

/* 1 when any condition holds for any profile against A, 0 when none,
 * -1 when one cannot be evaluated. */
static int check_failif(const struct diff_args *a, const struct diff *d)
{
	int any = 0, r, noise;
	size_t i, k;
	double delta;
	char fw[160];

	if (d->untested && a->nfail)
		warning("--fail-if judges the raw deltas: %s", d->untested);
	for (k = 0; k < a->nfail; k++) {
		for (i = 1; i < d->n; i++) {
			r = failif_eval(&a->fail[k], d, i, &delta, &noise);
			if (r < 0)
				return -1;
			if (noise)
				info("fail-if '%s' does not hold for '%s': %+.1f%s %s",
				     a->fail[k].expr, d->prof[i].path,
				     a->fail[k].relative ? delta * 100 : delta,
				     a->fail[k].relative ? "%" :
				     a->fail[k].target == FAILIF_LATENCY ||
				     a->fail[k].target == FAILIF_PERCENTILE ||
				     a->fail[k].time ? " ns" : "",
				     noise == 2 ? floor_words(d, &a->fail[k], fw, sizeof(fw)) :
				     "passes the limit but not the noise (unmarked)");
			if (!r)
				continue;
			any = 1;
			if (a->fail[k].relative)
				info("fail-if '%s' holds for '%s': %+.1f%%",
				     a->fail[k].expr, d->prof[i].path,
				     delta * 100);
			else
				info("fail-if '%s' holds for '%s': %+.1f %s",
				     a->fail[k].expr, d->prof[i].path, delta,
				     a->fail[k].target == FAILIF_LATENCY ||
				     a->fail[k].target == FAILIF_PERCENTILE ||
				     a->fail[k].time ? "ns" :
				     a->fail[k].target == FAILIF_MISSES ?
				     diff_miss_names[a->fail[k].pct] : d->unit);
		}
	}
	return any;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .format = renderer_default(&diff_renderers),
			       .o = { .by = MODEL_BY_FUNCTION, .limit = 30 } };
	struct loaded *l = NULL;
	struct anonymizer *anon = NULL;
	const struct model *models[DIFF_MAX_PROFILES];
	const char *paths[DIFF_MAX_PROFILES];
	struct diff d;
	int ret = RESULT_FAILURE, built = 0, r, by_turns = 0;
	size_t i, n = 0, remotes = 0;
	char *turn_name[2] = { NULL, NULL };

	memset(&d, 0, sizeof(d));
	for (i = 1; i < (size_t)argc; i++)
		if (!strncmp(argv[i], "--fail-if", 9))
			a.bisect = 1;
	r = parse_args(argc, argv, &a);
	if (r <= 0) {
		ret = r ? RESULT_USAGE : RESULT_OK;
		goto out;
	}
	for (i = 0; i < a.nfail; i++)
		a.fail[i].allow_missing = a.allow_missing;
	/* one for all profiles: the same host is the same placeholder */
	if (a.anonymize && !(anon = anonymizer_new())) {
		error("out of memory");
		goto out;
	}
	n = argc - a.next;
	/* one profile recorded by turns: its off windows against its on */
	if (n == 1 &&
	    (asprintf(&turn_name[0], "%s (off)", argv[a.next]) < 0 ||
	     asprintf(&turn_name[1], "%s (on)", argv[a.next]) < 0)) {
		error("out of memory");
		goto out;
	}
	by_turns = n == 1;
	n += by_turns;
	model_set_callchains(renderer_draws_callchains(&diff_renderers, a.format));
	l = calloc(n, sizeof(*l));
	if (!l) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		paths[i] = by_turns ? turn_name[i] : argv[a.next + i];
		r = load(&l[i], argv[a.next + (by_turns ? 0 : i)], &a, anon,
			 by_turns ? (int)i : -1);
		if (r == -2) {
			options_usage_error(&diff_usage);
			ret = RESULT_USAGE;
		}
		if (r)
			goto out;
		models[i] = &l[i].m;
		remotes += l[i].p.remote != NULL;
	}
	/* a side is compared with the same side, never with the other */
	if (!a.side && remotes == n)
		info("the profiles hold the responder's side too: --side remote "
		     "compares those");
	for (i = 0; i < a.nfail; i++)
		a.fail[i].known = failif_known(&a.fail[i], l, n);
	built = 1;
	if (diff_build(&d, models, paths, n, &a.o) ||
	    diff_conditions_fill(&d, a.o.force))
		goto out;
	if (render_stdout(&diff_renderers, a.format, &d, &a.ro))
		goto out;
	r = check_failif(&a, &d);
	if (r < 0)
		goto out;
	ret = r ? RESULT_MET : RESULT_OK;
out:
	if (built || l)
		diff_free(&d);
	for (i = 0; l && i < n; i++)
		unload(&l[i]);
	free(turn_name[0]);
	free(turn_name[1]);
	free(l);
	anonymizer_free(anon);
	for (i = 0; i < a.nfail; i++)
		failif_free(&a.fail[i]);
	for (i = 0; i < a.nvmlinux; i++)
		free(a.vmlinux_id[i]);
	/* under --fail-if, errors must stop a bisect, not mark it bad */
	return a.bisect ? ret | RESULT_BISECT : ret;
}
