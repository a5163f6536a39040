// SPDX-License-Identifier: GPL-2.0-only
/* perpkt record: run the ping-pong workload, sample the kernel, save a profile. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands/commands.h"
#include "commands/record-options.h"
#include "error.h"
#include "exitcode.h"
#include "parse.h"
#include "profile/output.h"
#include "record/record.h"
#include "reports/render.h"
#include "workload/tuning.h"

static const char record_usage[] =
"usage: perpkt record [options] [-- CMD [ARGS...]]\n"
"\n"
"Run a ping-pong workload (UDP on loopback by default) or CMD, sample\n"
"kernel instruction pointers on the CPUs it runs on, and save a\n"
"self-contained profile.\n"
"\n"
"  -o, --output FILE      profile to write (default perpkt.json; - for\n"
"                         standard output)\n"
FORCE_OUTPUT_HELP
"  -r, --repeat N         N measurement windows of -d each, one after the\n"
"                         other, kept apart so every figure has a spread\n"
"                         (default, for the ping-pong here: 5 windows\n"
"                         sharing -d, restarted before each on loopback;\n"
"                         -r 1: one window, and no spread for diff)\n"
"      --restart          start the ping-pong anew before each window:\n"
"                         new processes and sockets on the same CPUs, so\n"
"                         the spread covers what differs between runs\n""      --turn-on CMD      compare a setting by turns in one ping-pong:\n"
"      --turn-off CMD     sh -c CMD switches it on before each odd window\n"
"                         and off before each even one, and off at the\n"
"                         end; -r N windows a side (default 10 of 0.2 s,\n"
"                         --between 0.05); 'perpkt diff PROFILE' compares\n"
"                         the sides (docs/diff.md)\n"
"      --between SECONDS  with -r: the workload runs SECONDS with the\n"
"                         counters off before each window after the\n"
"                         first, its latency kept beside the window's\n"
"                         (the observer effect window by window)\n"
"      --window-fifo CTL[,ACK]\n"
"                         tell another tool each window's edges: enable\n"
"                         and disable lines to the FIFO CTL, each waited\n"
"                         for until ack comes on ACK: perf record's\n"
"                         control FIFOs, so that a perf started disabled\n"
"                         samples just perpkt's windows (docs/workload.md)\n"
"      --gap-fifo CTL[,ACK]\n"
"                         the same for the gaps between windows: enable\n"
"                         as each closes, disable before the next opens\n"
"                         (two tools sampling one workload by turns)\n"
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
"  -g, --call-graph       record kernel callchains (aggregated stacks);\n"
"                         with cpu-clock a short one (16 frames) is\n"
"                         kept by default, to charge a sample at an\n"
"                         irq-enable point to its caller\n"
"      --no-call-graph    no callchains at all\n"
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
KERNEL_OPTIONS_HELP
"      --window-marks     count only, and mark the window's edges with\n"
"                         instructions the plugin sees (what --exact\n"
"                         runs inside the guest)\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

enum record_own_option {
	OPT_NO_REMOTE = OPTS_OWN,
	OPT_REMOTE_CPUS,
	OPT_WINDOW_MARKS,
	OPT_BETWEEN,
	OPT_WINDOW_FIFO,
	OPT_GAP_FIFO,
	OPT_RESTART,
	OPT_TURN_ON,
	OPT_TURN_OFF,
};

/* after a '+': the first word that is not an option starts CMD */
#define RECORD_SHORTOPTS "+o:r:c:F:gh" RECORD_COMMON_SHORTOPTS

static const struct option record_longopts[] = {
		RECORD_SAMPLING_LONGOPTS,
		{ "repeat", required_argument, NULL, 'r' },
		RECORD_KERNEL_LONGOPTS,
		{ "no-remote", no_argument, NULL, OPT_NO_REMOTE },
		{ "remote-cpus", required_argument, NULL, OPT_REMOTE_CPUS },
		{ "window-marks", no_argument, NULL, OPT_WINDOW_MARKS },
		{ "between", required_argument, NULL, OPT_BETWEEN },
		{ "window-fifo", required_argument, NULL, OPT_WINDOW_FIFO },
		{ "gap-fifo", required_argument, NULL, OPT_GAP_FIFO },
		{ "restart", no_argument, NULL, OPT_RESTART },
		{ "turn-on", required_argument, NULL, OPT_TURN_ON },
		{ "turn-off", required_argument, NULL, OPT_TURN_OFF },
		{ "help", no_argument, NULL, 'h' },
		RECORD_COMMON_LONGOPTS,
		{ 0 }
};

const char *record_option_name(int c)
{
	return record_longopt_name(record_longopts, c);
}

int record_takes_option(const char *name, int letter)
{
	const struct option *opt;

	if (!name)
		return letter != '+' && letter != ':' &&
		       strchr(RECORD_SHORTOPTS, letter);
	for (opt = record_longopts; opt->name; opt++)
		if (!strcmp(opt->name, name))
			return 1;
	return 0;
}

int record_guest_argv(struct record_options *o, int argc, char **argv)
{
	return record_guest_args(o, argc, argv, RECORD_SHORTOPTS, record_longopts);
}

int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help)
{
	const struct option *longopts = record_longopts;
	uint64_t v;
	int c;

	optind = 1;
	while ((c = record_getopt(argc, argv, RECORD_SHORTOPTS, longopts, o)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORCE_OUTPUT:
			o->output_flags |= PROFILE_OUTPUT_FORCE;
			break;
		case 'F':
			if (parse_u64(optarg, "--freq", 1, 1000000, &o->sampling.freq))
				return -1;
			break;
		case 'g':
			if (o->sampling.callchain < 0)
				return error("-g and --no-call-graph both given: choose one");
			o->sampling.callchain = 1;
			break;
		case OPT_NO_CALL_GRAPH:
			if (o->sampling.callchain > 0)
				return error("-g and --no-call-graph both given: choose one");
			o->sampling.callchain = -1;
			break;
		case 'r':
			if (parse_u64(optarg, "--repeat", 1, 1000, &v))
				return -1;
			o->window.repeat = (int)v;
			o->window.repeat_set = 1;
			break;
		case OPT_RESTART:
			o->window.restart = 1;
			break;
		case OPT_TURN_ON:
			o->window.turn_on = optarg;
			break;
		case OPT_TURN_OFF:
			o->window.turn_off = optarg;
			break;
		case 'c':
			if (parse_u64(optarg, "--period", 1, UINT64_MAX / 2, &o->sampling.period))
				return -1;
			break;
		case OPT_RING_PAGES:
			if (parse_u64(optarg, "--ring-pages", 1, 1 << 20, &v))
				return -1;
			if (v & (v - 1))
				return error("--ring-pages must be a power of two, not %llu",
					     (unsigned long long)v);
			o->sampling.ring_pages = (unsigned)v;
			break;
		case OPT_NO_REMOTE:
			o->builtin.no_remote = 1;
			break;
		case OPT_REMOTE_CPUS: {
			int cpus[MAX_CPUS];

			/* checked here for its form, there for its CPUs */
			if (strcmp(optarg, "all") &&
			    (strlen(optarg) >= 64 ||
			     parse_cpu_list(optarg, cpus, MAX_CPUS) <= 0))
				return error("invalid --remote-cpus '%s': give all or a "
					     "CPU list such as 0,2-3", optarg);
			o->builtin.remote_cpus = optarg;
			break;
		}
		case OPT_WINDOW_MARKS:
			o->builtin.window_marks = 1;
			o->sampling.counting_only = 1;
			break;
		case OPT_BETWEEN:
			if (parse_seconds(optarg, "--between", 0.01, 3600,
					  &o->window.between))
				return -1;
			break;
		case OPT_WINDOW_FIFO:
			o->window.fifo = optarg;
			break;
		case OPT_GAP_FIFO:
			o->window.gap_fifo = optarg;
			break;
		case 'h':
			*help = 1;
			return 0;
		default:
			if (record_kernel_option(c, optarg, o) == 1)
				break;
			return -1;
		}
	}
	if (record_check_kernel(o))
		return -1;
	if ((o->builtin.no_remote || o->builtin.remote_cpus) && !o->builtin.peer &&
	    !(o->kernel.kernel && o->builtin.network &&
	      !strncmp(o->builtin.network, "nic", 3)))
		return error("--%s goes with --peer or --net nic: only a peer has a remote side",
			     o->builtin.no_remote ? "no-remote" : "remote-cpus");
	if (o->builtin.no_remote && o->builtin.remote_cpus)
		return error("--no-remote and --remote-cpus both given: choose one");
	if (o->window.between > 0 && o->window.repeat < 2 && !o->window.turn_on)
		return error("--between is the gap between windows: give -r N, "
			     "N of 2 or more");
	if (o->window.between > 0 && o->kernel.exact)
		return error("--between: --exact boots a guest for each window, "
			     "nothing runs between them");
	if ((o->window.fifo || o->window.gap_fifo) && o->kernel.kernel)
		return error("--%s names a FIFO on this host: the guest's "
			     "windows cannot reach it",
			     o->window.fifo ? "window-fifo" : "gap-fifo");
	if (o->window.gap_fifo && o->window.between <= 0)
		return error("--gap-fifo samples the gaps between windows: give "
			     "-r N and --between SECONDS");
	if (o->builtin.window_marks && o->kernel.kernel)
		return error("--window-marks is what --exact runs inside the guest: "
			     "give --exact");
	if (o->window.restart && o->kernel.exact)
		return error("--restart: --exact boots a guest for each window, "
			     "each its own start already");
	return record_check_options(o, argc, argv) || record_default_windows(o);
}

int cmd_record(int argc, char **argv)
{
	struct record_options o;
	int help = 0, ret;

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
	if (record_open_trees(&o))
		return RESULT_FAILURE;
	if (o.kernel.kernel && record_guest_argv(&o, argc, argv))
		return RESULT_FAILURE;
	ret = record_run(&o, NULL);
	record_guest_args_free(&o);
	return ret;
}
