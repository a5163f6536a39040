// SPDX-License-Identifier: GPL-2.0-only
/* perpkt merge: the windows of several runs of one configuration as one
 * profile, each window a repeat. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/merge.h"
#include "profile/output.h"
#include "profile/profile.h"
#include "reports/render.h"

static const char merge_usage[] =
"usage: perpkt merge -o OUTPUT FILE...\n"
"\n"
"One profile from runs of one configuration (the same kernel, mode,\n"
"events and workload): every window of every FILE becomes a repeat of\n"
"OUTPUT, so report, diff and table show the spread across the runs.\n"
"make lab records the boots of two kernels one at a time, A B A B, and\n"
"merges each kernel's: the spread is across boots at different times.\n"
"\n"
"  -o, --output FILE      profile to write (- for standard output)\n"
FORCE_OUTPUT_HELP
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum merge_own_option {
	OPT_FORCE_OUTPUT = OPTS_OWN,
};

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force-output", no_argument, NULL, OPT_FORCE_OUTPUT },
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct profile_output out = { .fd = -1 };
	const char *output = NULL;
	unsigned flags = 0;
	struct profile total, p;
	char buf[64];
	int c, i, ret = RESULT_FAILURE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:hqv", longopts, NULL)) != -1) {
		if (parse_verbosity(c))
			continue;
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case OPT_FORCE_OUTPUT:
			flags |= PROFILE_OUTPUT_FORCE;
			break;
		case 'h':
			help_show(merge_usage, NULL);
			return RESULT_OK;
		default:
			help_error(merge_usage, NULL);
			return RESULT_USAGE;
		}
	}
	if (!output || optind >= argc) {
		error(!output ? "merge needs -o OUTPUT" : "merge needs at least one profile");
		help_error(merge_usage, NULL);
		return RESULT_USAGE;
	}
	/* a bad -o fails before anything is read */
	if (profile_output_open(&out, output, flags))
		return RESULT_FAILURE;
	if (profile_read(&total, argv[optind]))
		goto out_abort;
	for (i = optind + 1; i < argc; i++) {
		if (profile_read(&p, argv[i]))
			goto out;
		if (profile_merge(&total, &p, argv[i])) {
			profile_free(&p);
			goto out;
		}
		profile_free(&p);
	}
	snprintf(buf, sizeof(buf), "%d profiles", argc - optind);
	if (profile_add_condition(&total, "merged", buf)) {
		error("out of memory");
		goto out;
	}
	if (profile_output_commit(&out, &total))
		goto out;
	info("%zu windows from %d profiles, %llu %ss; wrote '%s'", total.nrepeats,
	     argc - optind, (unsigned long long)total.round_trips,
	     profile_unit_name(&total), output);
	ret = RESULT_OK;
out:
	profile_free(&total);
out_abort:
	profile_output_abort(&out);
	return ret;
}
