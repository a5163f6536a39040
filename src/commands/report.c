// SPDX-License-Identifier: GPL-2.0-only
/* perpkt report: per-round-trip tables from a profile. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/anonymize.h"
#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "reports/model.h"
#include "reports/render.h"
#include "parse.h"
#include "profile/profile.h"
#include "symbolize/symbolize.h"
#include "commands/report-options.h"
#include "commands/symsource.h"

static const char report_usage[] =
"usage: perpkt report [options] [-i FILE]\n"
"\n"
"Kernel time per round trip, by function, bucket, source file or line,\n"
"CPU or role, with the latency decomposition and reconciliation lines, from a\n"
"profile made by 'perpkt record'.\n"
"\n"
"  -i, --input FILE       profile to read (default perpkt.json)\n"
FORMAT_HELP
"      --stdio            the text report (perf report's spelling)\n"
"      --by KEY           main table by function (default), bucket, file,\n"
"                         line, cpu or role; or role or cpu, then\n"
"                         function, bucket or file: --by role,function;\n"
"                         line: file:line rows with their inline chains\n"
"                         (needs DWARF: --vmlinux, or the profile's)\n"
"      --sort KEY         samples, per-rt (default), name, or an event name;\n"
"                         two keys as in perf (--sort cpu,sym) group\n"
"                         like --by\n"
WIDTH_HELP
"      --limit N          show at most N rows, the rest summed in one row\n"
"                         (default: text 15, 40 with --full; markdown\n"
"                         and html 40; csv all; 0 = all)\n"
"      --full             text: every section (conditions, reconciliation,\n"
"                         roles, events, notes), not the mail-sized\n"
"                         summary; -v does the same\n"
"      --threshold PCT    hide rows below PCT percent\n"
"      --callers FUNC     who calls FUNC, from callchains (record -g)\n"
"      --all-tasks        rows of every task sampled; by default the rows\n"
"                         are the workload's (client, responder or the\n"
"                         command, and interrupt work on their CPUs) and\n"
"                         the other tasks' busy time one [other tasks] row,\n"
"                         outside the total\n"
SAMPLE_FILTER_HELP
"      --all-conditions   list every test condition, not the first few\n"
ANONYMIZE_HELP("report")
BUCKETS_HELP
"      --vmlinux FILE     symbols, file:line and buckets by source path\n"
"                         from this vmlinux (its build-id must match)\n"
"      --kallsyms FILE    symbols from a kallsyms file of the same boot\n"
"      --modules DIR      module .ko files (with DWARF) for --vmlinux\n"
"      --force            accept a vmlinux whose build-id differs, and\n"
"                         read a profile whose fields disagree (said at\n"
"                         the top of the report)\n"
"      --side SIDE        of a two-host profile (record --peer): local\n"
"                         (default; text, markdown, html and json show\n"
"                         the remote side beside it, csv and folded one\n"
"                         side only) or remote, the responder's host\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum report_own_option {
	OPT_THRESHOLD = OPTS_OWN,
	OPT_BY,
	OPT_SORT,
	OPT_CALLERS,
	OPT_ALL_CONDITIONS,
	OPT_STDIO,
	OPT_FULL,
	OPT_ALL_TASKS,
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
	int limit_given;
	enum model_by first, second;  /* --by role,function */
	struct sample_filter filter;
	const char *side;      /* --side local|remote, NULL: local */
	int help;
};

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		OPTION_FORMAT,
		OPTION_WIDTH,
		OPTION_LIMIT,
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		OPTION_BUCKETS,
		{ "by", required_argument, NULL, OPT_BY },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "callers", required_argument, NULL, OPT_CALLERS },
		{ "all-conditions", no_argument, NULL, OPT_ALL_CONDITIONS },
		OPTION_ANONYMIZE,
		{ "stdio", no_argument, NULL, OPT_STDIO },
		{ "full", no_argument, NULL, OPT_FULL },
		{ "all-tasks", no_argument, NULL, OPT_ALL_TASKS },
		SAMPLE_FILTER_OPTIONS,
		OPTION_VMLINUX,
		OPTION_KALLSYMS,
		OPTION_FORCE,
		OPTION_MODULES,
		OPTION_SIDE,
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	double pct;
	char *end;
	int c, by;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:hqv", longopts, NULL)) != -1) {
		int r = sample_filter_option(&a->filter, c, optarg);

		if (r < 0)
			return -1;
		if (r || symsource_option(&a->src, c, optarg) ||
		    parse_verbosity(c))
			continue;
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_FORMAT:
			if (option_format(optarg, &report_renderers, &a->format))
				return -1;
			break;
		case OPT_WIDTH:
			if (option_width(optarg, &a->ro.width))
				return -1;
			break;
		case OPT_LIMIT:
			if (option_limit(optarg, &a->ro.limit))
				return -1;
			a->limit_given = 1;
			break;
		case OPT_THRESHOLD:
			pct = strtod(optarg, &end);
			/* written so that nan fails too */
			if (end == optarg || *end || !(pct >= 0 && pct <= 100))
				return error("invalid --threshold '%s': expected a percentage "
					     "between 0 and 100", optarg);
			a->ro.threshold = pct / 100;
			break;
		case OPT_BY:
			by = model_by_parse(optarg);
			if (by < 0 && model_by_parse_combined(optarg, &a->first, &a->second))
				return error("unknown --by '%s' (use function, bucket, file, line, cpu or role, or two keys such as role,function)",
					     optarg);
			a->ro.by = by < 0 ? MODEL_BY_COMBINED : by;
			break;
		case OPT_SORT:
			/* perf's --sort cpu,sym is a grouping: two keys */
			if (!model_by_parse_combined(optarg, &a->first, &a->second))
				a->ro.by = MODEL_BY_COMBINED;
			else
				a->sort = optarg;
			break;
		case OPT_CALLERS:
			a->callers = optarg;
			break;
		case OPT_ALL_CONDITIONS:
			a->ro.all_conditions = 1;
			break;
		case OPT_ANONYMIZE:
			a->anonymize = 1;
			break;
		case OPT_STDIO:
			a->format = "text";
			break;
		case OPT_FULL:
			a->ro.full = 1;
			break;
		case OPT_ALL_TASKS:
			a->all_tasks = 1;
			break;
		case OPT_SIDE:
			if (option_side(optarg, &a->side))
				return -1;
			break;
		case 'h':
			help_show(report_usage, &report_renderers);
			a->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s': a profile is read with -i "
			     "(perpkt report -i %s)", argv[optind], argv[optind]);
	if (diag_verbosity() >= DIAG_VERBOSE)
		a->ro.full = 1;
	/* text is for mail: 15 rows, 40 with --full; markdown and html 40;
	 * csv, json and folded are for tools: every row */
	if (!a->limit_given)
		a->ro.limit = !strcmp(a->format, "text") ? (a->ro.full ? 40 : 15) :
			      !strcmp(a->format, "markdown") ||
			      !strcmp(a->format, "html") ? 40 : 0;
	if (a->src.vmlinux && a->src.kallsyms)
		return error("--vmlinux and --kallsyms exclude each other");
	return 0;
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
		.ro = { .width = 72, .limit = 40, .by = MODEL_BY_FUNCTION },
	};
	struct symbolizer *sym = NULL, *rsym = NULL;
	struct profile p;
	struct model m;
	int ret = RESULT_FAILURE;

	if (parse_args(argc, argv, &a)) {
		help_error(report_usage, &report_renderers);
		return RESULT_USAGE;
	}
	if (a.help)
		return RESULT_OK;
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
		help_error(report_usage, &report_renderers);
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
