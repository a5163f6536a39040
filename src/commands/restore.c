// SPDX-License-Identifier: GPL-2.0-only
/*
 * perpkt restore: put back what killed runs left changed, without
 * starting another run (which does the same before it changes
 * anything: src/workload/saved-state.h).
 */
#include <getopt.h>
#include <stdio.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "lab/leftovers.h"
#include "profile/output.h"
#include "reports/render.h"
#include "workload/command-cgroup.h"
#include "workload/netns.h"
#include "workload/saved-state.h"

static const char restore_usage[] =
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
"\n"
"      --no-wait          fail at once while another run is changing\n"
"                         the system\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum restore_own_option {
	OPT_NO_WAIT = OPTS_OWN,
};

int cmd_restore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "no-wait", no_argument, NULL, OPT_NO_WAIT },
		VERBOSITY_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, no_wait = 0, settings, namespaces, files, guests, commands;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hqv", longopts, NULL)) != -1) {
		if (parse_verbosity(c))
			continue;
		switch (c) {
		case OPT_NO_WAIT:
			no_wait = 1;
			break;
		case 'h':
			help_show(restore_usage, NULL);
			return RESULT_OK;
		default:
			help_error(restore_usage, NULL);
			return RESULT_USAGE;
		}
	}
	if (optind < argc) {
		error("unexpected argument '%s'", argv[optind]);
		help_error(restore_usage, NULL);
		return RESULT_USAGE;
	}
	settings = saved_state_restore_all(no_wait);
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
