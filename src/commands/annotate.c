// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate: one function, source line by source line, per round trip. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/report-options.h"
#include "commands/symsource.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/profile.h"
#include "reports/annotate.h"
#include "reports/model.h"
#include "reports/render.h"
#include "symbolize/symbolize.h"

static const char annotate_usage[] =
"usage: perpkt annotate [options] FUNCTION\n"
"\n"
"One kernel function source line by source line, as perf annotate\n"
"--stdio and opannotate give it but per round trip (or --per unit):\n"
"each line of FUNCTION with its cost (sampled time, cycles, or exact\n"
"instructions), its share of the function, and the code inlined there\n"
"below it (file:line in the inlined function, and the chain of calls).\n"
"Needs the kernel's DWARF: --vmlinux, or the one the profile names.\n"
"\n"
"  -i, --input FILE       profile to read (default perpkt.json)\n"
FORMAT_HELP
"      --vmlinux FILE     the kernel's vmlinux (its -dbg package)\n"
"      --force            accept a vmlinux whose build-id differs\n"
"      --source DIR       the kernel source tree: show each line's text\n"
WIDTH_HELP
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum annotate_own_option {
	OPT_SOURCE = OPTS_OWN,
};

struct annotate_args {
	const char *input, *format, *function, *source;
	struct symsource src;
	int width;
	int help;
};

static int parse_args(int argc, char **argv, struct annotate_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		OPTION_FORMAT,
		OPTION_VMLINUX,
		OPTION_FORCE,
		{ "source", required_argument, NULL, OPT_SOURCE },
		OPTION_WIDTH,
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:hqv", longopts, NULL)) != -1) {
		if (symsource_option(&a->src, c, optarg) || parse_verbosity(c))
			continue;
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case OPT_FORMAT:
			if (option_format(optarg, &annotate_renderers, &a->format))
				return -1;
			break;
		case OPT_SOURCE:
			a->source = optarg;
			break;
		case OPT_WIDTH:
			if (option_width(optarg, &a->width))
				return -1;
			break;
		case 'h':
			a->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (argc - optind != 1)
		return error("annotate takes one function name, e.g. perpkt annotate udp_sendmsg");
	a->function = argv[optind];
	return 0;
}

/* Line `line` of `file` under the source tree, without its newline;
 * malloc'd, NULL when it cannot be read. */
static char *source_line(const char *dir, const char *file, int line)
{
	char path[4096], *buf = NULL;
	size_t cap = 0;
	FILE *f;
	int n = 0;

	if (!dir || !file)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (getline(&buf, &cap, f) >= 0)
		if (++n == line) {
			buf[strcspn(buf, "\n")] = '\0';
			fclose(f);
			return buf;
		}
	free(buf);
	fclose(f);
	return NULL;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_args a = { .input = "perpkt.json",
				   .format = renderer_default(&annotate_renderers) };
	struct render_options ro = { .width = 72 };
	struct annotation an = { 0 };
	struct symbolizer *sym = NULL;
	struct profile p;
	struct model m;
	int ret = RESULT_FAILURE, have_m = 0;
	size_t i;

	if (parse_args(argc, argv, &a)) {
		help_error(annotate_usage, &annotate_renderers);
		return RESULT_USAGE;
	}
	if (a.help) {
		help_show(annotate_usage, &annotate_renderers);
		return RESULT_OK;
	}
	if (profile_read_force(&p, a.input, a.src.force))
		return RESULT_FAILURE;
	if (symsource_open(&sym, &a.src, &p, NULL) || model_build(&m, &p, sym))
		goto out;
	have_m = 1;
	symsource_print_warnings(sym);
	if (model_lines(&m, sym, a.function))
		goto out;
	if (annotate_build(&an, &m, a.function))
		goto out;
	if (!an.n) {
		error("no %s of '%s' in '%s' with a source line: is it the function's name as report shows it?",
		      m.run.exact ? "instructions" : "samples", a.function, a.input);
		goto out;
	}
	an.with_source = a.source != NULL;
	for (i = 0; a.source && i < an.n; i++)
		an.lines[i].source = source_line(a.source, an.file, an.lines[i].line);
	if (a.width)
		ro.width = a.width;
	if (!render_stdout(&annotate_renderers, a.format, &an, &ro))
		ret = RESULT_OK;
out:
	annotate_free(&an);
	if (have_m)
		model_free(&m);
	symbolizer_close(sym);
	profile_free(&p);
	return ret;
}
