// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt restore: put back what killed runs left changed, without
 * starting another run (which does the same before it changes
 * anything: src/workload/saved-state.h).
 */
#include <stdio.h>

#include "commands/commands.h"
#include "commands/options.h"
#include "error.h"
#include "exitcode.h"
#include "lab/leftovers.h"
#include "profile/output.h"
#include "workload/command-cgroup.h"
#include "workload/netns.h"
#include "workload/saved-state.h"

static const struct opt_usage restore_usage = {
	.head =
"usage: perpkt restore [options]\n"
"\n"
"Put back what perpkt runs that were killed (SIGKILL, a crash, a reboot\n"
"of the host but not of /run) left changed: the RPS masks they set,\n"
"noted in " RUNDIR_ROOT "/state.ID before each change, the network\n"
"namespaces of --net veth, the temporary files of their profiles, the\n"
"folders of their guests (--kernel) and what their commands (-- CMD)\n"
"left running in their cgroups.\n"
"Settings are put back in the network namespace restore runs in, the\n"
"one a killed run changed them in: for a run inside 'ip netns exec NS',\n"
"run 'ip netns exec NS perpkt restore' (restore elsewhere says so).\n"
"Waits while a live run is changing this namespace, as every such run\n"
"waits for another. Each thing put back is said on stderr.\n"
"\n",
};

struct restore_args {
	int no_wait;
};

static const struct opt restore_opts[] = {
	OPT_BOOL(0, "no-wait", OPT_AT(struct restore_args, no_wait),
		 "fail at once while another run is changing\n"
		 "the system"),
	OPT_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};

int cmd_restore(int argc, char **argv)
{
	struct restore_args a = { 0 };
	int next, settings, namespaces, files, guests, commands;

	next = options_parse(argc, argv, restore_opts, &restore_usage, &a);
	if (next <= 0)
		return next ? RESULT_USAGE : RESULT_OK;
	if (next < argc) {
		error("unexpected argument '%s'", argv[next]);
		options_usage_error(&restore_usage);
		return RESULT_USAGE;
	}
	settings = saved_state_restore_all(a.no_wait);
	namespaces = netns_cleanup_stale();
	files = profile_output_remove_stale();
	guests = lab_remove_stale();
	commands = command_cgroup_remove_stale();
	if (settings < 0)
		return RESULT_FAILURE;
	if (!settings && !namespaces && !files && !guests && !commands)
		info("nothing to put back: no perpkt run left the system changed");
	return RESULT_OK;
}
