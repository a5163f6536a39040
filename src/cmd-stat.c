// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat: run the workload, count (never sample), print per round trip. */
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "profile.h"
#include "options.h"
#include "recording.h"
#include "reports/render.h"
#include "reports/stat.h"

static const char stat_usage[] =
"usage: perpkt stat [options] [-- CMD [ARGS...]]\n"
"\n"
"Run the ping-pong workload and count, without sampling: per round trip\n"
"cycles, instructions and IPC (CPU time without a PMU), context switches,\n"
"CPU migrations, interrupts and softirqs, CPU time by kind, netperf's\n"
"service demand, and the round trip split into client CPU, responder CPU\n"
"and the rest.\n"
"\n"
WORKLOAD_OPTIONS_HELP
"  -e, --event LIST       libpfm4 events to count (default\n"
"                         cycles,instructions)\n"
"      --user             count user space too\n"
"  -C, --cpus LIST        CPUs to count on (default: the client's, the\n"
"                         server's and perpkt's own)\n"
"  -a, --all-cpus         count on every online CPU\n"
"      --format FMT\n"
"      --no-fallback      fail instead of counting cpu-clock without a PMU\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

static int parse_args(int argc, char **argv, struct record_options *o,
		      const char **format, int *help)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 6 },
		/* record's, named in the error rather than unknown */
		{ "output", required_argument, NULL, 'o' },
		{ "period", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "ring-pages", required_argument, NULL, 3 },
		{ "help", no_argument, NULL, 'h' },
		RECORD_COMMON_LONGOPTS,
		{ 0 }
	};
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+ho:c:F:g" RECORD_COMMON_SHORTOPTS,
				longopts, NULL)) != -1) {
		r = record_common_option(c, optarg, o);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 6:
			if (!renderer_find(&stat_renderers, optarg))
				return -1;
			*format = optarg;
			break;
		case 'h':
			*help = 1;
			return 0;
		case 'o': case 'c': case 'F': case 'g': case 3:
			return error("'--%s' is for perpkt record: stat only counts",
				     record_option_name(c));
		default:
			return -1;
		}
	}
	return record_check_options(o, argc, argv);
}

int cmd_stat(int argc, char **argv)
{
	const char *format = renderer_default(&stat_renderers);
	struct record_options o;
	struct stat_model m;
	struct profile p;
	int help = 0, ret;

	record_defaults(&o);
	o.counting_only = 1;
	if (parse_args(argc, argv, &o, &format, &help)) {
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
	ret = record_run(&o, &p);
	if (ret == RESULT_FAILURE)
		return ret;
	if (stat_build(&m, &p) ||
	    render_stdout(&stat_renderers, format, &m, NULL))
		ret = RESULT_FAILURE;
	profile_free(&p);
	return ret;
}
