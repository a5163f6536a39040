// SPDX-License-Identifier: GPL-2.0-only
/* perpkt report: per-round-trip tables from a profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/anonymize.h"
#include "commands/commands.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "reports/model/model.h"
#include "reports/render/render.h"
#include "parse.h"
#include "profile/profile.h"
#include "symbolize/symbolize.h"
#include "commands/report-options.h"
#include "commands/symsource.h"

static const struct opt_usage report_usage = {
	.head =
"usage: perpkt report [options] [-i FILE]\n"
"\n"
"Kernel time per round trip, by function, bucket, source file or line,\n"
"CPU or role, with the latency decomposition and reconciliation lines, from a\n"
"profile made by 'perpkt record'.\n"
"\n",
};

struct report_args {
	const char *input;
	const char *format;
	struct symsource src;  /* --vmlinux, --kallsyms, --force, --buckets */
	const char *sort;
	const char *callers;
	struct render_options ro;
	int anonymize;
	int all_tasks;         /* --all-tasks: every task's rows */
	enum model_by first, second;  /* --by role,function */
	struct sample_filter filter;
	const char *side;      /* --side local|remote, NULL: local */
};

static int opt_threshold(const struct opt *o, const char *arg, void *at)
{
	char *end;
	double pct = strtod(arg, &end);

	/* written so that nan fails too */
	if (end == arg || *end || !(pct >= 0 && pct <= 100))
		return error("invalid --threshold '%s': expected a percentage "
			     "between 0 and 100", arg);
	(void)o;
	((struct report_args *)at)->ro.threshold = pct / 100;
	return 0;
}

static int opt_by(const struct opt *o, const char *arg, void *at)
{
	struct report_args *a = at;
	int by = model_by_parse(arg);

	if (by < 0 && model_by_parse_combined(arg, &a->first, &a->second))
		return error("unknown --by '%s' (use function, bucket, file, line, cpu or role, or two keys such as role,function)",
			     arg);
	a->ro.by = by < 0 ? MODEL_BY_COMBINED : by;
	return 0;
}

/* perf's --sort cpu,sym is a grouping: two keys */
static int opt_sort(const struct opt *o, const char *arg, void *at)
{
	struct report_args *a = at;

	if (!model_by_parse_combined(arg, &a->first, &a->second))
		a->ro.by = MODEL_BY_COMBINED;
	else
		a->sort = arg;
	return 0;
}

static int opt_stdio(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	(void)arg;
	*(const char **)at = "text";
	return 0;
}

#define A(field) OPT_AT(struct report_args, field)
static const struct opt report_opts[] = {
	OPT_STRING('i', "input", A(input), "FILE",
		   "profile to read (default perpkt.json)"),
	OPT_FORMAT(A(format), &report_renderers),
	OPT_CALLBACK(0, "stdio", A(format), NULL,
		     "the text report (perf report's spelling)",
		     opt_stdio),
	OPT_CALLBACK(0, "by", 0, "KEY",
		     "main table by function (default), bucket, file,\n"
		     "line, cpu or role; or role or cpu, then\n"
		     "function, bucket or file: --by role,function;\n"
		     "line: file:line rows with their inline chains\n"
		     "(needs DWARF: --vmlinux, or the profile's)", opt_by),
	OPT_CALLBACK(0, "sort", 0, "KEY",
		     "samples, per-rt (default), name, or an event name;\n"
		     "two keys as in perf (--sort cpu,sym) group\n"
		     "like --by", opt_sort),
	READ_OPT_WIDTH(A(ro.width)),
	READ_OPT_LIMIT(A(ro.limit),
		       "show at most N rows, the rest summed in one row\n"
		       "(default: text 15, 40 with --full; markdown\n"
		       "and html 40; csv all; 0 = all)"),
	OPT_BOOL(0, "full", A(ro.full),
		 "text: every section (conditions, reconciliation,\n"
		 "roles, events, notes), not the mail-sized\n"
		 "summary; -v does the same"),
	OPT_CALLBACK(0, "threshold", 0, "PCT",
		     "hide rows below PCT percent", opt_threshold),
	OPT_STRING(0, "callers", A(callers), "FUNC",
		   "who calls FUNC, from callchains (record -g)"),
	OPT_BOOL(0, "all-tasks", A(all_tasks),
		 "rows of every task sampled; by default the rows\n"
		 "are the workload's (client, responder or the\n"
		 "command, and interrupt work on their CPUs) and\n"
		 "the other tasks' busy time one [other tasks] row,\n"
		 "outside the total"),
	READ_OPT_SAMPLE_FILTER(A(filter)),
	OPT_BOOL(0, "all-conditions", A(ro.all_conditions),
		 "list every test condition, not the first few"),
	READ_OPT_ANONYMIZE(A(anonymize), "report"),
	READ_OPT_BUCKETS(A(src.buckets)),
	OPT_STRING(0, "vmlinux", A(src.vmlinux), "FILE",
		   "symbols, file:line and buckets by source path\n"
		   "from this vmlinux (its build-id must match)"),
	OPT_STRING(0, "kallsyms", A(src.kallsyms), "FILE",
		   "symbols from a kallsyms file of the same boot"),
	OPT_STRING(0, "modules", A(src.modules), "DIR",
		   "module .ko files (with DWARF) for --vmlinux"),
	OPT_BOOL(0, "force", A(src.force),
		 "accept a vmlinux whose build-id differs, and\n"
		 "read a profile whose fields disagree (said at\n"
		 "the top of the report)"),
	READ_OPT_SIDE(A(side),
		      "of a two-host profile (record --peer): local\n"
		      "(default; text, markdown, html and json show\n"
		      "the remote side beside it, csv and folded one\n"
		      "side only) or remote, the responder's host"),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct report_args *a)
{
	int next = options_parse(argc, argv, report_opts, &report_usage, a);

	if (next <= 0)
		return next;
	if (next < argc) {
		error("unexpected argument '%s': a profile is read with -i "
		      "(perpkt report -i %s)", argv[next], argv[next]);
		return options_usage_error(&report_usage);
	}
	if (diag_verbosity() >= DIAG_VERBOSE)
		a->ro.full = 1;
	/* text is for mail: 15 rows, 40 with --full; markdown and html 40;
	 * csv, json and folded are for tools: every row */
	if (a->ro.limit < 0)
		a->ro.limit = !strcmp(a->format, "text") ? (a->ro.full ? 40 : 15) :
			      !strcmp(a->format, "markdown") ||
			      !strcmp(a->format, "html") ? 40 : 0;
	if (a->src.vmlinux && a->src.kallsyms) {
		error("--vmlinux and --kallsyms exclude each other");
		return options_usage_error(&report_usage);
	}
	return 1;
}

/*
 * The remote side beside the local one: its own kallsyms entries, or
 * the vmlinux given when the two hosts ran the same build. A filter or
 * an anonymized report applies to it as well; a filter that names
 * this host's pids or CPUs leaves it out instead.
 */
static int add_remote_side(struct report_args *a, struct profile *p,
			   struct model *m, struct symbolizer **rsym)
{
	struct symsource rs = a->src;
	struct profile *r = p->remote;

	if (!r)
		return 0;
	if (sample_filter_active(&a->filter) &&
	    sample_filter_apply(&a->filter, r)) {
		info("the filter leaves the remote side out: 'perpkt report "
		     "--side remote' with a filter of its own shows it");
		profile_free(r);
		free(r);
		p->remote = NULL;
		return 0;
	}
	if (!(p->build_id && r->build_id && !strcmp(p->build_id, r->build_id))) {
		rs.vmlinux = rs.kallsyms = rs.modules = NULL;
		rs.force = 0;
	}
	if (symsource_open(rsym, &rs, r, NULL))
		return -1;
	return model_build_remote(m, *rsym);
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.input = "perpkt.json",
		.format = renderer_default(&report_renderers),
		.sort = "per-rt",
		.ro = { .width = 72, .limit = -1, .by = MODEL_BY_FUNCTION },
	};
	struct symbolizer *sym = NULL, *rsym = NULL;
	struct profile p;
	struct model m;
	int ret = RESULT_FAILURE, r = parse_args(argc, argv, &a);

	if (r <= 0)
		return r ? RESULT_USAGE : RESULT_OK;
	if (profile_read_force(&p, a.input, a.src.force))
		return RESULT_FAILURE;
	if (profile_take_side(&p, a.side, a.input))
		goto out_sym;
	if (sample_filter_apply(&a.filter, &p))
		goto out_sym;
	if (a.anonymize) {
		struct anonymizer *an = anonymizer_new();
		/* both sides, when there are two */
		int bad = !an || anonymize_profile(an, &p);

		anonymizer_free(an);
		if (bad)
			goto out_sym;
	}
	/* the profile's own symbols unless --vmlinux or --kallsyms says else */
	if (symsource_open(&sym, &a.src, &p, NULL))
		goto out_sym;
	model_set_callchains(a.callers ||
			     renderer_draws_callchains(&report_renderers, a.format));
	if (model_build(&m, &p, sym))
		goto out_sym;
	if (add_remote_side(&a, &p, &m, &rsym))
		goto out_model;
	/* the tables the headline's: the workload's, as in diff */
	if (!a.all_tasks)
		model_focus_workload(&m);
	if (a.ro.by == MODEL_BY_COMBINED &&
	    model_combine(&m, sym, a.first, a.second)) {
		ret = RESULT_USAGE;
		goto out_model;
	}
	if (a.ro.by == MODEL_BY_LINE && model_lines(&m, sym, NULL))
		goto out_model;
	if (model_sort(&m, a.sort)) {
		/* which event names exist is known only now */
		error("unknown --sort '%s' (use samples, per-rt, name or an event of the profile)",
		      a.sort);
		options_usage_error(&report_usage);
		ret = RESULT_USAGE;
		goto out_model;
	}
	if (a.callers && (model_callers(&m, a.callers) ||
			  model_sort(&m, a.sort)))
		goto out_model;
	if (!render_stdout(&report_renderers, a.format, &m, &a.ro))
		ret = RESULT_OK;
out_model:
	model_free(&m);
out_sym:
	symbolizer_close(rsym);
	symbolizer_close(sym);
	profile_free(&p);
	return ret;
}
