// SPDX-License-Identifier: GPL-2.0-only
/* perpkt report: per-round-trip tables from a profile. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "model.h"
#include "options.h"
#include "profile.h"
#include "symbolize.h"

static const char report_usage[] =
"usage: perpkt report [options] [-i FILE]\n"
"\n"
"Kernel time per round trip, by function and by bucket, from a profile\n"
"made by 'perpkt record'.\n"
"\n"
"  -i, --input FILE       profile to read (default perpkt.json)\n"
"      --format FMT       text (default) or json\n"
"      --width N          text width in columns (default 72)\n"
"      --limit N          show at most N functions (default 40, 0 = all)\n"
"      --threshold PCT    hide functions below PCT percent\n"
"      --buckets FILE     bucket rules replacing the built-in ones\n"
"  -h, --help             show this help\n";

struct report_args {
	const char *input;
	const char *format;
	const char *buckets;
	struct report_options ro;
	int help;
};

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 1 },
		{ "width", required_argument, NULL, 2 },
		{ "limit", required_argument, NULL, 3 },
		{ "threshold", required_argument, NULL, 4 },
		{ "buckets", required_argument, NULL, 5 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	double pct;
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 1:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return error("unknown format '%s' (use text or json)", optarg);
			a->format = optarg;
			break;
		case 2:
			if (parse_u64(optarg, "--width", 60, 1000, &v))
				return -1;
			a->ro.width = (int)v;
			break;
		case 3:
			if (parse_u64(optarg, "--limit", 0, 1000000, &v))
				return -1;
			a->ro.limit = (int)v;
			break;
		case 4:
			pct = strtod(optarg, &end);
			if (end == optarg || *end || pct < 0 || pct > 100)
				return error("invalid --threshold '%s': expected a percentage "
					     "between 0 and 100", optarg);
			a->ro.threshold = pct / 100;
			break;
		case 5:
			a->buckets = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			a->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s'", argv[optind]);
	return 0;
}

static int open_symbols(const struct profile *p, struct symbolizer **sym)
{
	struct sym_entry *e = calloc(p->nksyms ? p->nksyms : 1, sizeof(*e));
	size_t i;
	int ret;

	if (!e)
		return error("out of memory");
	for (i = 0; i < p->nksyms; i++) {
		e[i].addr = p->ksyms[i].addr;
		e[i].size = p->ksyms[i].size;
		e[i].type = p->ksyms[i].type;
		e[i].name = p->ksyms[i].name;
		e[i].module = p->ksyms[i].module;
	}
	ret = symbolizer_open_entries(sym, e, p->nksyms);
	free(e);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {
		.input = "perpkt.json",
		.format = "text",
		.ro = { .width = 72, .limit = 40 },
	};
	struct symbolizer *sym = NULL;
	struct profile p;
	struct model m;
	int ret;

	if (parse_args(argc, argv, &a)) {
		fputs(report_usage, stderr);
		return PERPKT_EXIT_USAGE;
	}
	if (a.help)
		return PERPKT_EXIT_OK;
	if (profile_read(&p, a.input))
		return PERPKT_EXIT_FAILURE;
	if (open_symbols(&p, &sym) ||
	    (a.buckets && symbolizer_load_buckets(sym, a.buckets))) {
		symbolizer_close(sym);
		profile_free(&p);
		return PERPKT_EXIT_FAILURE;
	}
	if (model_build(&m, &p, sym)) {
		symbolizer_close(sym);
		profile_free(&p);
		return PERPKT_EXIT_FAILURE;
	}
	if (!strcmp(a.format, "json"))
		ret = report_json(stdout, &m);
	else
		ret = report_text(stdout, &m, &a.ro);
	model_free(&m);
	symbolizer_close(sym);
	profile_free(&p);
	return ret ? PERPKT_EXIT_FAILURE : PERPKT_EXIT_OK;
}
