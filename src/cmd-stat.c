// SPDX-License-Identifier: GPL-2.0-only
/* perpkt stat: run the workload, count (never sample), print per round trip. */
#include "commands.h"
#include "recording.h"

static const char stat_usage[] =
"usage: perpkt stat [options]\n"
"\n"
"Run the ping-pong workload and count, without sampling: per round trip\n"
"cycles, instructions and IPC (CPU time without a PMU), context switches,\n"
"CPU migrations, interrupts and softirqs, CPU time by kind, netperf's\n"
"service demand, and the round trip split into client CPU, responder CPU\n"
"and the rest.\n"
"\n"
WORKLOAD_OPTIONS_HELP
"  -e, --event LIST       libpfm4 events to count (default\n"
"                         cycles,instructions)\n"
"      --user             count user space too\n"
"  -C, --cpus LIST        CPUs to count on (default: the client's, the\n"
"                         server's and perpkt's own)\n"
"  -a, --all-cpus         count on every online CPU\n"
"      --format FMT       text (default) or json\n"
"      --no-fallback      fail instead of counting cpu-clock without a PMU\n"
"  -q, --quiet            no progress or summary on stderr\n"
"  -h, --help             show this help\n";

int cmd_stat(int argc, char **argv)
{
	struct record_options o;

	record_defaults(&o);
	o.counting_only = 1;
	return record_main(&o, argc, argv, stat_usage);
}
