// SPDX-License-Identifier: GPL-2.0-only
/* perpkt table: profiles by repeat, like the threads' kernel tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "reports/render/render.h"
#include "parse.h"
#include "reports/table/table.h"
#include "commands/report-options.h"
#include "commands/table-load.h"

#define MAX_TABLE_FILES 256

static const struct opt_usage table_usage = {
	.head =
"usage: perpkt table [options] FILE...\n"
"\n"
"One row per profile, one column per repeat (record --repeat), then the\n"
"average and the sample standard deviation.\n"
"\n",
};

struct table_args {
	struct table_load_options tl;
	const char *format;
	const char *labels[MAX_TABLE_FILES];
	size_t nlabels;
};

static int opt_value(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (table_value_check(arg))
		return error("unknown --value '%s' (use latency, latency-p50, latency-p99, total, busy, bucket:NAME or function:NAME)",
			     arg);
	*(const char **)at = arg;
	return 0;
}

static int opt_label(const struct opt *o, const char *arg, void *at)
{
	struct table_args *a = at;

	(void)o;
	if (a->nlabels == MAX_TABLE_FILES)
		return error("too many --label: at most %d", MAX_TABLE_FILES);
	a->labels[a->nlabels++] = arg;
	return 0;
}

/* The profiles and labels on the command line: 0, or -1 after saying
 * what is wrong. */
static int check_files(const struct table_args *a, int n)
{
	if (n < 1)
		return error("table needs at least one profile");
	if (n > MAX_TABLE_FILES)
		return error("table takes at most %d profiles", MAX_TABLE_FILES);
	if (a->nlabels > (size_t)n)
		return error("%zu --label given for %d profiles", a->nlabels, n);
	return 0;
}

#define A(field) OPT_AT(struct table_args, field)
static const struct opt table_opts[] = {
	OPT_CALLBACK(0, "value", A(tl.value), "V",
		     "latency (mean, default), latency-p50,\n"
		     "latency-p99, total,\n"
		     "busy, bucket:NAME or function:NAME (per RT)", opt_value),
	OPT_CALLBACK(0, "label", 0, "L",
		     "label of the next row, in file order\n"
		     "(repeatable; default: kernel release, or the\n"
		     "file name when two share a release)", opt_label),
	OPT_FORMAT(A(format), &table_renderers),
	READ_OPT_BUCKETS(A(tl.buckets)),
	READ_OPT_INCLUDE_PARTIAL(A(tl.include_partial)),
	READ_OPT_ANONYMIZE(A(tl.anonymize), "table"),
	OPT_BOOL(0, "force", A(tl.force),
		 "read profiles whose fields disagree (said on\n"
		 "stderr)"),
	READ_OPT_SIDE(A(tl.side),
		      "of two-host profiles (record --peer): local\n"
		      "(default) or remote, the responder's host"),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

int cmd_table(int argc, char **argv)
{
	struct table_args a = { .tl = { .value = "latency" },
				.format = renderer_default(&table_renderers) };
	struct table t;
	int ret = RESULT_FAILURE, next, n;

	next = options_parse(argc, argv, table_opts, &table_usage, &a);
	if (next <= 0)
		return next ? RESULT_USAGE : RESULT_OK;
	n = argc - next;
	if (check_files(&a, n)) {
		options_usage_error(&table_usage);
		return RESULT_USAGE;
	}
	if (!table_load(&t, (const char *const *)argv + next, NULL, a.labels,
			n, &a.tl) &&
	    !render_stdout(&table_renderers, a.format, &t, NULL))
		ret = RESULT_OK;
	table_free(&t);
	return ret;
}
