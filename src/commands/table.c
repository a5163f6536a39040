// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table: profiles by repeat, like the threads' kernel tables. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "reports/render.h"
#include "parse.h"
#include "reports/table.h"
#include "commands/report-options.h"
#include "commands/table-load.h"

#define MAX_TABLE_FILES 256

enum table_own_option {
	OPT_VALUE = OPTS_OWN,
	OPT_LABEL,
};

static const char table_usage[] =
"usage: perpkt table [options] FILE...\n"
"\n"
"One row per profile, one column per repeat (record --repeat), then the\n"
"average and the sample standard deviation.\n"
"\n"
"      --value V          latency (mean, default), latency-p50,\n"
"                         latency-p99, total,\n"
"                         busy, bucket:NAME or function:NAME (per RT)\n"
"      --label L          label of the next row, in file order\n"
"                         (repeatable; default: kernel release, or the\n"
"                         file name when two share a release)\n"
FORMAT_HELP
BUCKETS_HELP
INCLUDE_PARTIAL_HELP
ANONYMIZE_HELP("table")
"      --force            read profiles whose fields disagree (said on\n"
"                         stderr)\n"
"      --side SIDE        of two-host profiles (record --peer): local\n"
"                         (default) or remote, the responder's host\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

int cmd_table(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "value", required_argument, NULL, OPT_VALUE },
		{ "label", required_argument, NULL, OPT_LABEL },
		OPTION_FORMAT,
		OPTION_BUCKETS,
		OPTION_INCLUDE_PARTIAL,
		OPTION_ANONYMIZE,
		OPTION_SIDE,
		OPTION_FORCE,
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *labels[MAX_TABLE_FILES] = { NULL };
	struct table_load_options tl = { .value = "latency" };
	const char *format = renderer_default(&table_renderers);
	struct table t;
	int ret = RESULT_FAILURE;
	size_t nlabels = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hqv", longopts, NULL)) != -1) {
		if (parse_verbosity(c))
			continue;
		switch (c) {
		case OPT_VALUE:
			if (table_value_check(optarg)) {
				error("unknown --value '%s' (use latency, latency-p50, latency-p99, total, busy, bucket:NAME or function:NAME)",
				      optarg);
				goto usage;
			}
			tl.value = optarg;
			break;
		case OPT_LABEL:
			if (nlabels == MAX_TABLE_FILES) {
				error("too many --label: at most %d",
				      MAX_TABLE_FILES);
				goto usage;
			}
			labels[nlabels++] = optarg;
			break;
		case OPT_FORMAT:
			if (option_format(optarg, &table_renderers, &format))
				goto usage;
			break;
		case OPT_BUCKETS:
			tl.buckets = optarg;
			break;
		case OPT_INCLUDE_PARTIAL:
			tl.include_partial = 1;
			break;
		case OPT_ANONYMIZE:
			tl.anonymize = 1;
			break;
		case OPT_SIDE:
			if (option_side(optarg, &tl.side))
				goto usage;
			break;
		case OPT_FORCE:
			tl.force = 1;
			break;
		case 'h':
			help_show(table_usage, &table_renderers);
			return RESULT_OK;
		default:
			goto usage;
		}
	}
	if (optind >= argc) {
		error("table needs at least one profile");
		goto usage;
	}
	if (argc - optind > MAX_TABLE_FILES) {
		error("table takes at most %d profiles", MAX_TABLE_FILES);
		goto usage;
	}
	if (nlabels > (size_t)(argc - optind)) {
		error("%zu --label given for %d profiles", nlabels,
		      argc - optind);
		goto usage;
	}
	if (!table_load(&t, (const char *const *)argv + optind, NULL, labels,
			argc - optind, &tl) &&
	    !render_stdout(&table_renderers, format, &t, NULL))
		ret = RESULT_OK;
	table_free(&t);
	return ret;
usage:
	help_error(table_usage, &table_renderers);
	return RESULT_USAGE;
}
