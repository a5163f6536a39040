/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_REPORT_OPTIONS_H
#define PERPKT_REPORT_OPTIONS_H

#include <getopt.h>

#include "commands/commands.h"
#include "commands/symsource.h"
#include "profile/sample-filter.h"
#include "reports/render.h"

/*
 * The options the commands that read profiles share (report, diff,
 * annotate, table, resolve; --format stat and sweep too), declared
 * once as git's parse-options does: a code, an entry to splice into a
 * command's getopt_long table, one parser of the value, and the help
 * line where every command says the same. A command lists the entries
 * it takes and calls the parser from its switch:
 *
 *	static const struct option longopts[] = {
 *		OPTION_FORMAT, OPTION_WIDTH, ..., { 0 } };
 *	case OPT_WIDTH:
 *		if (option_width(optarg, &ro.width))
 *			return -1;
 */
enum report_option_code {
	OPT_FORMAT = OPTS_REPORT,
	OPT_WIDTH,
	OPT_LIMIT,
	OPT_SIDE,
	OPT_VMLINUX,
	OPT_KALLSYMS,
	OPT_MODULES,
	OPT_FORCE,
	OPT_BUCKETS,
	OPT_ANONYMIZE,
	OPT_INCLUDE_PARTIAL,
	OPT_ROLE,
	OPT_CPU,
	OPT_PID,
};

#define OPTION_FORMAT { "format", required_argument, NULL, OPT_FORMAT }
#define OPTION_WIDTH { "width", required_argument, NULL, OPT_WIDTH }
#define OPTION_LIMIT { "limit", required_argument, NULL, OPT_LIMIT }
#define OPTION_SIDE { "side", required_argument, NULL, OPT_SIDE }
#define OPTION_VMLINUX { "vmlinux", required_argument, NULL, OPT_VMLINUX }
#define OPTION_KALLSYMS { "kallsyms", required_argument, NULL, OPT_KALLSYMS }
#define OPTION_MODULES { "modules", required_argument, NULL, OPT_MODULES }
#define OPTION_FORCE { "force", no_argument, NULL, OPT_FORCE }
#define OPTION_BUCKETS { "buckets", required_argument, NULL, OPT_BUCKETS }
#define OPTION_ANONYMIZE { "anonymize", no_argument, NULL, OPT_ANONYMIZE }
#define OPTION_INCLUDE_PARTIAL \
	{ "include-partial", no_argument, NULL, OPT_INCLUDE_PARTIAL }
/* --role, --cpu, --pid (report, diff): which samples a report keeps */
#define SAMPLE_FILTER_OPTIONS \
	{ "role", required_argument, NULL, OPT_ROLE }, \
	{ "cpu", required_argument, NULL, OPT_CPU }, \
	{ "pid", required_argument, NULL, OPT_PID }

/* Help lines said the same by every command that takes the option
 * (--limit, --side, --vmlinux, --force and --kallsyms say what they
 * mean to each command in its own usage). help_show() completes the
 * --format line with the command's renderer table. */
#define FORMAT_HELP "      --format FMT\n"
#define WIDTH_HELP \
"      --width N          text width in columns (default 72)\n"
#define BUCKETS_HELP \
"      --buckets FILE     bucket rules replacing the built-in ones\n"
#define INCLUDE_PARTIAL_HELP \
"      --include-partial  keep windows that were cut short (left out of\n" \
"                         means and spreads by default)\n"
/* what: "report" or "table", what can go public */
#define ANONYMIZE_HELP(what) \
"      --anonymize        replace host, user and interface names,\n" \
"                         addresses, paths, the VALUE of --NAME=VALUE,\n" \
"                         the kernel command line, in every field of both\n" \
"                         sides, by placeholders, so the " what " can go public\n"
#define SAMPLE_FILTER_HELP \
"      --role LIST        only samples of these roles: client, responder,\n" \
"                         workload (-- CMD, -p), perpkt, idle, other\n" \
"                         (comma-separated)\n" \
"      --cpu LIST         only samples taken on these CPUs, e.g. 0,2-3\n" \
"      --pid PID          only the workload process with this pid (the\n" \
"                         profile's client or responder)\n"

/* The parsers: each checks arg, stores it and returns 0, or returns -1
 * after printing why it is bad. */
/* --format: one of t's formats */
int option_format(const char *arg, const struct renderer_table *t,
		  const char **format);
/* --width: 60 to 1000 columns */
int option_width(const char *arg, int *width);
/* --limit: 0 (all) to 1000000 rows */
int option_limit(const char *arg, int *limit);
/* --side: local or remote */
int option_side(const char *arg, const char **side);

/* --vmlinux, --kallsyms, --modules, --force, --buckets into src (for
 * the commands whose --force means only src's): 1 when c was one of
 * them, 0 when it is not. */
int symsource_option(struct symsource *src, int c, const char *arg);
/* --role, --cpu, --pid into f: 1 when c was one of them and arg is
 * added, 0 when it is not one, -1 after printing why arg is bad. */
int sample_filter_option(struct sample_filter *f, int c, const char *arg);

#endif
