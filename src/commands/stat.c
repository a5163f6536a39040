// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat: run the workload, count (never sample), print per round trip. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "profile/profile.h"
#include "parse.h"
#include "commands/record-options.h"
#include "commands/report-options.h"
#include "record/record.h"
#include "reports/render.h"
#include "reports/stat.h"

static const char stat_usage[] =
"usage: perpkt stat [options] [-- CMD [ARGS...]]\n"
"\n"
"Run the ping-pong workload and count, without sampling: per round trip\n"
"cycles, instructions and IPC (CPU time without a PMU), context switches,\n"
"CPU migrations, interrupts and softirqs, CPU time by kind, netperf's\n"
"service demand, and the round trip split into client CPU, responder CPU\n"
"and the rest. With --kernel IMAGE the same inside a guest (--net nic:\n"
"two, and each side's device interrupts, softirqs and, with --exact,\n"
"NAPI polls per round trip).\n"
"\n"
WORKLOAD_OPTIONS_HELP
"  -r, --repeat N         N counting windows of -d each: every figure\n"
"                         with its mean, sd and confidence interval\n"
"      --confidence L[,W] the interval's level in percent (default 95);\n"
"                         with W, say whether the mean latency's interval\n"
"                         is narrower than W% of it (netperf's -I 99,5)\n"
"  -e, --event LIST       libpfm4 events to count (default\n"
"                         cycles,instructions)\n"
"      --user             count user space too\n"
"  -C, --cpus LIST        CPUs to count on (default: the client's, the\n"
"                         server's and perpkt's own)\n"
"  -a, --all-cpus         count on every online CPU\n"
FORMAT_HELP
"      --no-fallback      fail instead of counting cpu-clock without a PMU\n"
KERNEL_OPTIONS_HELP
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum stat_own_option {
	OPT_CONFIDENCE = OPTS_OWN,
};

/* "99" or "99,5": netperf's -I LEVEL,WIDTH, both in percent */
static int parse_confidence(const char *s, struct stat_options *c)
{
	char *end;
	double l = strtod(s, &end), w = 0;

	if (end != s && *end == ',') {
		const char *ws = end + 1;

		w = strtod(ws, &end);
		if (end == ws || w <= 0 || w > 10000)
			end = (char *)s;
	}
	if (end == s || *end || !(l >= 50 && l < 100))
		return error("invalid --confidence '%s': expected LEVEL[,WIDTH] in "
			     "percent, e.g. 99,5 (level 50-99.99)", s);
	c->confidence = l / 100;
	c->width_pct = w;
	return 0;
}

/* after a '+': the first word that is not an option starts CMD */
#define STAT_SHORTOPTS "+ho:c:F:gr:" RECORD_COMMON_SHORTOPTS

static const struct option stat_longopts[] = {
	OPTION_FORMAT,
	/* record's, named in the error rather than unknown */
	RECORD_SAMPLING_LONGOPTS,
	{ "repeat", required_argument, NULL, 'r' },
	{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
	RECORD_KERNEL_LONGOPTS,
	{ "help", no_argument, NULL, 'h' },
	RECORD_COMMON_LONGOPTS,
	{ 0 }
};

static int parse_args(int argc, char **argv, struct record_options *o,
		      const char **format, struct stat_options *confidence,
		      int *help)
{
	uint64_t v;
	int c;

	optind = 1;
	while ((c = record_getopt(argc, argv, STAT_SHORTOPTS, stat_longopts,
				  o)) != -1) {
		switch (c) {
		case OPT_FORMAT_CODE:
			if (option_format(optarg, &stat_renderers, format))
				return -1;
			break;
		case 'h':
			*help = 1;
			return 0;
		case 'r':
			if (parse_u64(optarg, "--repeat", 1, 1000, &v))
				return -1;
			o->window.repeat = (int)v;
			break;
		case OPT_CONFIDENCE:
			if (parse_confidence(optarg, confidence))
				return -1;
			break;
		case 'o': case 'c': case 'F': case 'g': case OPT_RING_PAGES:
		case OPT_NO_CALL_GRAPH: case OPT_FORCE_OUTPUT:
			return error("'--%s' is for perpkt record: stat only counts",
				     record_option_name(c));
		default:
			if (record_kernel_option(c, optarg, o) == 1)
				break;
			return -1;
		}
	}
	if (record_check_kernel(o))
		return -1;
	if (confidence->width_pct && o->window.repeat < 2)
		return error("--confidence needs -r N with N >= 2: one window has no spread");
	return record_check_options(o, argc, argv);
}

int cmd_stat(int argc, char **argv)
{
	const char *format = renderer_default(&stat_renderers);
	struct stat_options rep = { .confidence = 0.95 };
	struct record_options o;
	struct stat_model m;
	struct profile p;
	int help = 0, ret;

	record_defaults(&o);
	o.sampling.counting_only = 1;
	if (parse_args(argc, argv, &o, &format, &rep, &help)) {
		help_error(stat_usage, &stat_renderers);
		return RESULT_USAGE;
	}
	if (help) {
		help_show(stat_usage, &stat_renderers);
		return RESULT_OK;
	}
	record_apply_verbosity(&o);
	o.argc = argc;
	o.argv = argv;
	if (record_open_trees(&o))
		return RESULT_FAILURE;
	if (o.kernel.kernel && record_guest_args(&o, argc, argv, STAT_SHORTOPTS,
						 stat_longopts))
		return RESULT_FAILURE;
	ret = record_run(&o, &p);
	record_guest_args_free(&o);
	if (ret == RESULT_FAILURE)
		return ret;
	if (stat_build(&m, &p))
		ret = RESULT_FAILURE;
	m.rep = rep;
	if (ret != RESULT_FAILURE &&
	    render_stdout(&stat_renderers, format, &m, NULL))
		ret = RESULT_FAILURE;
	if (ret != RESULT_FAILURE) {
		struct stat_figure fig[STAT_MAX_ROWS];
		int nfig = stat_figures(&m, fig);

		if (!stat_confidence_reached(fig, nfig, &rep))
			warning("the %g%% confidence interval of the mean latency is "
				"%.2f%% wide, not within the asked %g%%: raise -r or -d",
				100 * rep.confidence, 2 * spread_rel_pct(&fig[0].s),
				rep.width_pct);
	}
	profile_free(&p);
	return ret;
}
