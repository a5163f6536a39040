// SPDX-License-Identifier: GPL-2.0-only
/* perpkt record: run the ping-pong workload, sample the kernel, save a profile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "error.h"
#include "exitcode.h"
#include "lab/lab.h"
#include "parse.h"
#include "record/record.h"
#include "reports/render.h"

static const char record_usage[] =
"usage: perpkt record [options] [-- CMD [ARGS...]]\n"
"\n"
"Run a ping-pong workload (UDP on loopback by default) or CMD, sample\n"
"kernel instruction pointers on the CPUs it runs on, and save a\n"
"self-contained profile.\n"
"\n"
"  -o, --output FILE      profile to write (default perpkt.json; - for\n"
"                         standard output)\n"
"  -r, --repeat N         N measurement windows of -d each, one after the\n"
"                         other, kept apart so every figure has a spread\n"
WORKLOAD_OPTIONS_HELP
"  -e, --event LIST       libpfm4 events, comma-separated, each sampled\n"
"                         with its own period (default cycles,instructions;\n"
"                         without a PMU: cpu-clock, instructions n/a)\n"
"  -c, --period N         sample period, in events or ns for cpu-clock\n"
"                         (default: 4 kHz per CPU, 1 kHz for cpu-clock,\n"
"                         at most a quarter of the kernel's limit\n"
"                         perf_event_max_sample_rate; reports show what\n"
"                         sampling cost the round trip)\n"
"  -F, --freq HZ          sample at this frequency instead of a period\n"
"  -g, --call-graph       record kernel callchains (aggregated stacks)\n"
"      --user             include user space (reported as one [user] row)\n"
"  -C, --cpus LIST        CPUs to sample, e.g. 0,2-3 (default: the client's,\n"
"                         the server's and perpkt's own)\n"
"  -a, --all-cpus         sample every online CPU\n"
"      --ring-pages N     ring buffer data pages per CPU, a power of two\n"
"                         (default 128; as root up to 512, by CPU count)\n"
"      --no-fallback      fail instead of using cpu-clock without a PMU\n"
"      --no-remote        with --peer: leave the responder's side out (by\n"
"                         default perpkt serve samples its own kernel\n"
"                         over the window and the profile holds both)\n"
"      --remote-cpus CPUS with --peer: the CPUs serve samples, all or a\n"
"                         list (default: the responder's, all when it is\n"
"                         not pinned; a NIC's softirqs run on its IRQ's)\n"
"      --kernel IMAGE     boot IMAGE under QEMU (KVM, else TCG emulation)\n"
"                         and record the same run inside it\n"
"      --vmlinux FILE     with --kernel: that kernel's vmlinux; its\n"
"                         build-id is checked, reports use its DWARF\n"
"      --qemu-arg ARG     with --kernel: one more QEMU argument\n"
"                         (repeatable, e.g. --qemu-arg=-accel=tcg)\n"
"      --qemu-timeout SECS  with --kernel: stop the guest after SECS\n"
"      --guest-perpkt FILE  with --kernel: perpkt binary for the guest\n"
"                         (another architecture's picks its QEMU)\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

int cmd_record(int argc, char **argv)
{
	struct record_options o;
	int help = 0;

	record_defaults(&o);
	if (record_parse_args(argc, argv, &o, &help)) {
		help_error(record_usage, NULL);
		return RESULT_USAGE;
	}
	if (help) {
		help_show(record_usage, NULL);
		return RESULT_OK;
	}
	record_apply_verbosity(&o);
	o.argc = argc;
	o.argv = argv;
	return record_run(&o, NULL);
}
