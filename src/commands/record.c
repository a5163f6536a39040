// SPDX-License-Identifier: GPL-2.0-only
/* perpkt record: run the ping-pong workload, sample the kernel, save a
 * profile. Its options are commands/record-options.c's table. */
#include "commands/commands.h"
#include "commands/record-options.h"
#include "exitcode.h"
#include "record/record.h"

int cmd_record(int argc, char **argv)
{
	struct record_options o;
	int help = 0, ret;

	record_defaults(&o);
	if (record_parse_args(argc, argv, &o, &help)) {
		options_usage_error(&record_usage);
		return RESULT_USAGE;
	}
	if (help)
		return RESULT_OK;
	record_apply_verbosity(&o);
	o.argc = argc;
	o.argv = argv;
	if (record_open_trees(&o))
		return RESULT_FAILURE;
	if (o.kernel.kernel && record_guest_argv(&o, argc, argv))
		return RESULT_FAILURE;
	ret = record_run(&o, NULL);
	record_guest_args_free(&o);
	return ret;
}
