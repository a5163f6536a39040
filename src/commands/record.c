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
"      --kernel IMAGE     boot IMAGE under QEMU (KVM, else TCG emulation)\n"
"                         and record the same run inside it\n"
"      --vmlinux FILE     with --kernel: that kernel's vmlinux; its\n"
"                         build-id is checked, reports use its DWARF\n"
"      --qemu-arg ARG     with --kernel: one more QEMU argument\n"
"                         (repeatable, e.g. --qemu-arg=-accel=tcg)\n"
"      --qemu-timeout SECS  with --kernel: stop the guest after SECS\n"
"      --append ARGS      with --kernel: more kernel command line, after\n"
"                         perpkt's own (e.g. mitigations=off); recorded\n"
"      --modules DIR      with --kernel: where the veth module is, a\n"
"                         built tree's lib/modules/RELEASE or its\n"
"                         INSTALL_MOD_PATH (default: ../lib/modules\n"
"                         beside the image, as a .deb unpacks it)\n"
"      --config FILE      with --kernel: the image's configuration,\n"
"                         checked before booting for what the guest\n"
"                         needs (default: config-RELEASE beside\n"
"                         vmlinuz-RELEASE, or the .config of the tree a\n"
"                         bzImage was built in)\n"
"      --guest-cpus N     with --kernel: vCPUs of the guest, and with\n"
"                         --net nic of each (1 to 8, default 2); with\n"
"                         it, --irq-cpu and --rps-cpus are checked\n"
"                         against it before booting\n"
"      --peer-kernel IMAGE  with --net nic: the responder guest boots\n"
"                         IMAGE instead (its modules and config-RELEASE\n"
"                         found beside it, as a .deb unpacks them)\n"
"      --guest-perpkt FILE  with --kernel: perpkt binary for the guest\n"
"                         (another architecture's picks its QEMU)\n"
"      --exact            with --kernel: count every instruction the\n"
"                         emulated CPUs execute in the window, exactly,\n"
"                         with a QEMU TCG plugin, instead of sampling;\n"
"                         each -r window is a boot of its own\n"
"      --window-marks     count only, and mark the window's edges with\n"
"                         instructions the plugin sees (what --exact\n"
"                         runs inside the guest)\n"
VERBOSITY_HELP
"  -h, --help             show this help\n";

static const struct option record_longopts[] = {
		RECORD_SAMPLING_LONGOPTS,
		{ "repeat", required_argument, NULL, 'r' },
		{ "kernel", required_argument, NULL, 40 },
		{ "vmlinux", required_argument, NULL, 41 },
		{ "qemu-arg", required_argument, NULL, 42 },
		{ "qemu-timeout", required_argument, NULL, 43 },
		{ "guest-perpkt", required_argument, NULL, 44 },
		{ "no-remote", no_argument, NULL, 45 },
		{ "remote-cpus", required_argument, NULL, 46 },
		{ "exact", no_argument, NULL, 47 },
		{ "window-marks", no_argument, NULL, 48 },
		{ "append", required_argument, NULL, 60 },
		{ "modules", required_argument, NULL, 61 },
		{ "config", required_argument, NULL, 62 },
		{ "guest-cpus", required_argument, NULL, 30 },
		{ "peer-kernel", required_argument, NULL, 31 },
		{ "help", no_argument, NULL, 'h' },
		RECORD_COMMON_LONGOPTS,
		{ 0 }
};

const char *record_option_name(int c)
{
	return record_longopt_name(record_longopts, c);
}

/* --guest-cpus N: --irq-cpu and --rps-cpus name CPUs the guest has. */
static int check_guest_cpus(const struct record_options *o)
{
	char guest[48];

	if (o->builtin.irq_cpu >= o->kernel.cpus)
		return error("--irq-cpu %d: the guest has CPUs 0 to %d (--guest-cpus %d)",
			     o->builtin.irq_cpu, o->kernel.cpus - 1, o->kernel.cpus);
	snprintf(guest, sizeof(guest), "the guest (--guest-cpus %d)", o->kernel.cpus);
	return o->builtin.rps_cpus ?
	       tuning_check_mask(o->builtin.rps_cpus, o->kernel.cpus, guest) : 0;
}

int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help)
{
	const struct option *longopts = record_longopts;
	uint64_t v;
	int c;

	optind = 1;
	while ((c = record_getopt(argc, argv, "+o:r:c:F:gh" RECORD_COMMON_SHORTOPTS,
				  longopts, o)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
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
		case 8:
			if (o->sampling.callchain > 0)
				return error("-g and --no-call-graph both given: choose one");
			o->sampling.callchain = -1;
			break;
		case 'r':
			if (parse_u64(optarg, "--repeat", 1, 1000, &v))
				return -1;
			o->window.repeat = (int)v;
			break;
		case 'c':
			if (parse_u64(optarg, "--period", 1, UINT64_MAX / 2, &o->sampling.period))
				return -1;
			break;
		case 3:
			if (parse_u64(optarg, "--ring-pages", 1, 1 << 20, &v))
				return -1;
			if (v & (v - 1))
				return error("--ring-pages must be a power of two, not %llu",
					     (unsigned long long)v);
			o->sampling.ring_pages = (unsigned)v;
			break;
		case 40:
			o->kernel.kernel = optarg;
			break;
		case 41:
			o->kernel.vmlinux = optarg;
			break;
		case 42:
			if (o->kernel.nqemu_args == sizeof(o->kernel.qemu_args) / sizeof(o->kernel.qemu_args[0]))
				return error("too many --qemu-arg: at most %zu",
					     o->kernel.nqemu_args);
			o->kernel.qemu_args[o->kernel.nqemu_args++] = optarg;
			break;
		case 43:
			if (parse_seconds(optarg, "--qemu-timeout", 1, 86400,
					  &o->kernel.qemu_timeout))
				return -1;
			break;
		case 44:
			o->kernel.guest_perpkt = optarg;
			break;
		case 45:
			o->builtin.no_remote = 1;
			break;
		case 46: {
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
		case 47:
			o->kernel.exact = 1;
			break;
		case 48:
			o->builtin.window_marks = 1;
			o->sampling.counting_only = 1;
			break;
		case 60:
			if (strchr(optarg, '\n'))
				return error("--append '%s' has a newline: a kernel command line is one line",
					     optarg);
			o->kernel.append = optarg;
			break;
		case 61:
			o->kernel.modules = optarg;
			break;
		case 62:
			o->kernel.config = optarg;
			break;
		case 30:
			if (parse_u64(optarg, "--guest-cpus", 1, LAB_GUEST_CPUS_MAX, &v))
				return -1;
			o->kernel.cpus = (int)v;
			break;
		case 31:
			o->kernel.peer_kernel = optarg;
			break;
		case 'h':
			*help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (!o->kernel.kernel && (o->kernel.vmlinux || o->kernel.nqemu_args || o->kernel.qemu_timeout ||
			   o->kernel.guest_perpkt || o->kernel.append ||
			   o->kernel.modules || o->kernel.config || o->kernel.cpus ||
			   o->kernel.peer_kernel))
		return error("--vmlinux, --qemu-arg, --qemu-timeout, --guest-perpkt, --append, --modules, --config, --guest-cpus and --peer-kernel go with --kernel (perpkt report takes --vmlinux)");
	if (o->kernel.peer_kernel && (!o->builtin.network ||
				      strncmp(o->builtin.network, "nic", 3)))
		return error("--peer-kernel boots the responder guest of --net nic: give --net nic");
	if (o->kernel.cpus && check_guest_cpus(o))
		return -1;
	if ((o->builtin.no_remote || o->builtin.remote_cpus) && !o->builtin.peer &&
	    !(o->kernel.kernel && o->builtin.network &&
	      !strncmp(o->builtin.network, "nic", 3)))
		return error("--%s goes with --peer or --net nic: only a peer has a remote side",
			     o->builtin.no_remote ? "no-remote" : "remote-cpus");
	if (o->builtin.no_remote && o->builtin.remote_cpus)
		return error("--no-remote and --remote-cpus both given: choose one");
	if (o->kernel.exact && !o->kernel.kernel)
		return error("--exact counts with a QEMU plugin: it goes with --kernel IMAGE");
	if (o->kernel.exact && (o->sampling.period || o->sampling.freq ||
				o->sampling.callchain > 0 ||
				strcmp(o->sampling.events, RECORD_DEFAULT_EVENTS)))
		return error("--exact counts every instruction: -e, -c, -F and -g are "
			     "for sampling");
	if (o->builtin.window_marks && o->kernel.kernel)
		return error("--window-marks is what --exact runs inside the guest: "
			     "give --exact");
	if (o->kernel.kernel && o->builtin.peer)
		return error("--peer and --kernel both given: the guest has no network device");
	return record_check_options(o, argc, argv);
}

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
