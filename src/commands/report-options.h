/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_REPORT_OPTIONS_H
#define PERPKT_REPORT_OPTIONS_H

#include "commands/commands.h"
#include "commands/options.h"
#include "commands/symsource.h"
#include "profile/sample-filter.h"
#include "reports/render/render.h"

/*
 * The options the commands that read profiles share (report, diff,
 * annotate, table, resolve), as entries of a command's option table
 * (commands/options.h): the name, the parser and the help line where
 * every command says the same. A command lists the entries it takes:
 *
 *	static const struct opt report_opts[] = {
 *		OPT_FORMAT(A(format), &report_renderers),
 *		READ_OPT_WIDTH(A(ro.width)),
 *		...
 *	};
 *
 * --limit, --side, --vmlinux, --force and --kallsyms say what they
 * mean to each command in its own help.
 */
#define READ_OPT_WIDTH(v) \
	OPT_INT(0, "width", v, 60, 1000, "N", \
		"text width in columns (default 72)")
#define READ_OPT_LIMIT(v, h) OPT_INT(0, "limit", v, 0, 1000000, "N", h)
#define READ_OPT_SIDE(v, h) OPT_CALLBACK(0, "side", v, "SIDE", h, opt_side)
#define READ_OPT_BUCKETS(v) \
	OPT_STRING(0, "buckets", v, "FILE", \
		   "bucket rules replacing the built-in ones")
#define READ_OPT_INCLUDE_PARTIAL(v) \
	OPT_BOOL(0, "include-partial", v, \
		 "keep windows that were cut short (left out of\n" \
		 "means and spreads by default)")
/* what: "report" or "table", what can go public */
#define READ_OPT_ANONYMIZE(v, what) \
	OPT_BOOL(0, "anonymize", v, \
		 "replace host, user and interface names,\n" \
		 "addresses, paths, the VALUE of --NAME=VALUE,\n" \
		 "the kernel command line, in every field of both\n" \
		 "sides, by placeholders, so the " what " can go public")
/* --role, --cpu, --pid (report, diff): which samples a report keeps,
 * into the struct sample_filter f */
#define READ_OPT_SAMPLE_FILTER(f) \
	OPT_CALLBACK_NUM(0, "role", f, "LIST", \
		"only samples of these roles: client, responder,\n" \
		"workload (-- CMD, -p), perpkt, idle, other\n" \
		"(comma-separated)", opt_sample_filter, SAMPLE_FILTER_ROLE), \
	OPT_CALLBACK_NUM(0, "cpu", f, "LIST", \
		"only samples taken on these CPUs, e.g. 0,2-3", \
		opt_sample_filter, SAMPLE_FILTER_CPU), \
	OPT_CALLBACK_NUM(0, "pid", f, "PID", \
		"only the workload process with this pid (the\n" \
		"profile's client or responder)", \
		opt_sample_filter, SAMPLE_FILTER_PID)

/* --side: local or remote, into a const char * */
int opt_side(const struct opt *o, const char *arg, void *at);
/* --role, --cpu, --pid: o->num's kind of filter, into a sample_filter */
int opt_sample_filter(const struct opt *o, const char *arg, void *at);

#endif
