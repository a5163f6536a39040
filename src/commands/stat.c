// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat: run the workload, count (never sample), print per round trip. */
#include <stdio.h>
#include <stdlib.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "profile/profile.h"
#include "parse.h"
#include "commands/record-options.h"
#include "record/record.h"
#include "reports/render/render.h"
#include "reports/stat/stat.h"

static const struct opt_usage stat_usage;

/* record_options first: the shared tables' offsets are into it */
struct stat_args {
	struct record_options o;
	const char *format;
	struct stat_options rep;  /* --confidence */
};

/* "99" or "99,5": netperf's -I LEVEL,WIDTH, both in percent */
static int opt_confidence(const struct opt *opt, const char *s, void *at)
{
	struct stat_options *c = at;
	char *end;
	double l = strtod(s, &end), w = 0;

	(void)opt;
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

#define S(field) OPT_AT(struct stat_args, field)
/* stat's own options are the host's: the guest runs record */
static const struct opt stat_opts[] = {
	OPT_INCLUDE(record_workload_opts),
	OPT_CALLBACK_NUM('r', "repeat", S(o.window), "N",
			 "N counting windows of -d each: every figure\n"
			 "with its mean, sd and confidence interval",
			 opt_repeat, 1),
	OPT_WITH(OPTF_HOST,
		 OPT_CALLBACK_(0, "confidence", S(rep), "L[,W]",
			       "the interval's level in percent (default 95);\n"
			       "with W, say whether the mean latency's interval\n"
			       "is narrower than W% of it (netperf's -I 99,5)",
			       opt_confidence)),
	OPT_STRING('e', "event", S(o.sampling.events), "LIST",
		   "libpfm4 events to count (default\n"
		   "cycles,instructions)"),
	OPT_BOOL(0, "user", S(o.sampling.include_user), "count user space too"),
	OPT_CALLBACK('C', "cpus", S(o.cpus), "LIST",
		     "CPUs to count on (default: the client's, the\n"
		     "server's and perpkt's own)", opt_cpus),
	OPT_BOOL('a', "all-cpus", S(o.cpus.all), "count on every online CPU"),
	OPT_WITH(OPTF_HOST, OPT_FORMAT_(S(format), &stat_renderers)),
	OPT_BOOL(0, "no-fallback", S(o.sampling.no_fallback),
		 "fail instead of counting cpu-clock without a PMU"),
	OPT_INCLUDE(record_kernel_opts),
	OPT_REFUSED(record_sampling_opts, "is for perpkt record: stat only counts"),
	RECORD_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef S

static const struct opt_usage stat_usage = {
	.head =
"usage: perpkt stat [options] [-- CMD [ARGS...]]\n"
"\n"
"Run the ping-pong workload and count, without sampling: per round trip\n"
"cycles, instructions and IPC (CPU time without a PMU), context switches,\n"
"CPU migrations, interrupts and softirqs, CPU time by kind, netperf's\n"
"service demand, and the round trip split into client CPU, responder CPU\n"
"and the rest. With --kernel IMAGE the same inside a guest (--net nic:\n"
"two, and each side's device interrupts, softirqs and, with --exact,\n"
"NAPI polls per round trip).\n"
"\n",
	.stop = 1,
	.seen = record_option_seen,
};

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct stat_args *a)
{
	int next = options_parse(argc, argv, stat_opts, &stat_usage, a);

	if (next <= 0)
		return next;
	if (record_check_kernel(&a->o))
		return options_usage_error(&stat_usage);
	if (a->rep.width_pct && a->o.window.repeat < 2) {
		error("--confidence needs -r N with N >= 2: one window has no spread");
		return options_usage_error(&stat_usage);
	}
	if (record_check_options(&a->o, argc, argv, next))
		return options_usage_error(&stat_usage);
	return 1;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { .format = renderer_default(&stat_renderers),
			       .rep = { .confidence = 0.95 } };
	struct record_options *o = &a.o;
	struct stat_model m;
	struct profile p;
	int ret;

	record_defaults(o);
	o->sampling.counting_only = 1;
	ret = parse_args(argc, argv, &a);
	if (ret <= 0)
		return ret ? RESULT_USAGE : RESULT_OK;
	record_apply_verbosity(o);
	o->argc = argc;
	o->argv = argv;
	if (record_open_trees(o))
		return RESULT_FAILURE;
	if (o->kernel.kernel && record_guest_args(o, argc, argv, stat_opts))
		return RESULT_FAILURE;
	ret = record_run(o, &p);
	record_guest_args_free(o);
	if (ret == RESULT_FAILURE)
		return ret;
	if (stat_build(&m, &p))
		ret = RESULT_FAILURE;
	m.rep = a.rep;
	if (ret != RESULT_FAILURE &&
	    render_stdout(&stat_renderers, a.format, &m, NULL))
		ret = RESULT_FAILURE;
	if (ret != RESULT_FAILURE) {
		struct stat_figure fig[STAT_MAX_ROWS];
		int nfig = stat_figures(&m, fig);

		if (!stat_confidence_reached(fig, nfig, &a.rep))
			warning("the %g%% confidence interval of the mean latency is "
				"%.2f%% wide, not within the asked %g%%: raise -r or -d",
				100 * a.rep.confidence, 2 * spread_rel_pct(&fig[0].s),
				a.rep.width_pct);
	}
	profile_free(&p);
	return ret;
}
