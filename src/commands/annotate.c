// SPDX-License-Identifier: GPL-2.0-only
/* perpkt annotate: one function, source line by source line, per round trip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "commands/report-options.h"
#include "commands/symsource.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/profile.h"
#include "reports/annotate/annotate.h"
#include "reports/model/model.h"
#include "reports/render/render.h"
#include "symbolize/symbolize.h"

static const struct opt_usage annotate_usage = {
	.head =
"usage: perpkt annotate [options] FUNCTION\n"
"\n"
"One kernel function source line by source line, as perf annotate\n"
"--stdio and opannotate give it but per round trip (or --per unit):\n"
"each line of FUNCTION with its cost (sampled time, cycles, or exact\n"
"instructions), its share of the function, and the code inlined there\n"
"below it (file:line in the inlined function, and the chain of calls).\n"
"Needs the kernel's DWARF: --vmlinux, or the one the profile names.\n"
"\n",
};

struct annotate_args {
	const char *input, *format, *function, *source;
	struct symsource src;
	int width;
};

#define A(field) OPT_AT(struct annotate_args, field)
static const struct opt annotate_opts[] = {
	OPT_STRING('i', "input", A(input), "FILE",
		   "profile to read (default perpkt.json)"),
	OPT_FORMAT(A(format), &annotate_renderers),
	OPT_STRING(0, "vmlinux", A(src.vmlinux), "FILE",
		   "the kernel's vmlinux (its -dbg package)"),
	OPT_BOOL(0, "force", A(src.force),
		 "accept a vmlinux whose build-id differs"),
	OPT_STRING(0, "source", A(source), "DIR",
		   "the kernel source tree: show each line's text"),
	READ_OPT_WIDTH(A(width)),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

/* 1: go on; 0: --help shown; -1: a usage error, said */
static int parse_args(int argc, char **argv, struct annotate_args *a)
{
	int next = options_parse(argc, argv, annotate_opts, &annotate_usage, a);

	if (next <= 0)
		return next;
	if (argc - next != 1) {
		error("annotate takes one function name, e.g. perpkt annotate udp_sendmsg");
		return options_usage_error(&annotate_usage);
	}
	a->function = argv[next];
	return 1;
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
	int r = parse_args(argc, argv, &a);

	if (r <= 0)
		return r ? RESULT_USAGE : RESULT_OK;
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
