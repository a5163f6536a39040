// SPDX-License-Identifier: GPL-2.0-only
/* perpkt merge: the windows of several runs of one configuration as one
 * profile, each window a repeat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "profile/merge.h"
#include "profile/output.h"
#include "profile/profile.h"

static const struct opt_usage merge_usage = {
	.head =
"usage: perpkt merge -o OUTPUT FILE...\n"
"\n"
"One profile from runs of one configuration (the same kernel, mode,\n"
"events and workload): every window of every FILE becomes a repeat of\n"
"OUTPUT, so report, diff and table show the spread across the runs.\n"
"make lab records the boots of two kernels one at a time, A B A B, and\n"
"merges each kernel's: the spread is across boots at different times.\n"
"\n",
};

struct merge_args {
	const char *output;
	unsigned flags;
};

#define A(field) OPT_AT(struct merge_args, field)
static const struct opt merge_opts[] = {
	OPT_STRING('o', "output", A(output), "FILE",
		   "profile to write (- for standard output)"),
	OPT_BIT(0, "force-output", A(flags), PROFILE_OUTPUT_FORCE,
		FORCE_OUTPUT_HELP),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef A

int cmd_merge(int argc, char **argv)
{
	struct profile_output out = { .fd = -1 };
	struct merge_args a = { NULL, 0 };
	const char *output;
	struct profile total, p;
	char buf[64];
	int next, i, ret = RESULT_FAILURE;

	next = options_parse(argc, argv, merge_opts, &merge_usage, &a);
	if (next <= 0)
		return next ? RESULT_USAGE : RESULT_OK;
	output = a.output;
	if (!output || next >= argc) {
		error(!output ? "merge needs -o OUTPUT" : "merge needs at least one profile");
		options_usage_error(&merge_usage);
		return RESULT_USAGE;
	}
	/* a bad -o fails before anything is read */
	if (profile_output_open(&out, output, a.flags))
		return RESULT_FAILURE;
	if (profile_read(&total, argv[next]))
		goto out_abort;
	for (i = next + 1; i < argc; i++) {
		if (profile_read(&p, argv[i]))
			goto out;
		if (profile_merge(&total, &p, argv[i])) {
			profile_free(&p);
			goto out;
		}
		profile_free(&p);
	}
	snprintf(buf, sizeof(buf), "%d profiles", argc - next);
	if (profile_add_condition(&total, "merged", buf)) {
		error("out of memory");
		goto out;
	}
	if (profile_output_commit(&out, &total))
		goto out;
	info("%zu windows from %d profiles, %llu %ss; wrote '%s'", total.nrepeats,
	     argc - next, (unsigned long long)total.round_trips,
	     profile_unit_name(&total), output);
	ret = RESULT_OK;
out:
	profile_free(&total);
out_abort:
	profile_output_abort(&out);
	return ret;
}
