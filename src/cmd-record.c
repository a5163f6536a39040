// SPDX-License-Identifier: GPL-2.0-only
/* perpkt record: run the ping-pong workload, sample the kernel, save a profile. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"
#include "exitcode.h"
#include "lab/lab.h"
#include "options.h"
#include "profile.h"
#include "recording.h"
#include "counters/sampler.h"
#include "symbolize/symbolize.h"
#include "sysinfo.h"
#include "workload/placement.h"
#include "workload/transport.h"
#include "workload/tuning.h"
#include "workload/workload.h"

static const char record_usage[] =
"usage: perpkt record [options] [-- CMD [ARGS...]]\n"
"\n"
"Run a ping-pong workload (UDP on loopback by default) or CMD, sample\n"
"kernel instruction pointers on the CPUs it runs on, and save a\n"
"self-contained profile.\n"
"\n"
"  -o, --output FILE      profile to write (default perpkt.json)\n"
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
"      --kernel IMAGE     boot IMAGE under QEMU (KVM, else TCG emulation)\n"
"                         and record the same run inside it\n"
"      --vmlinux FILE     with --kernel: that kernel's vmlinux; its\n"
"                         build-id is checked, reports use its DWARF\n"
"      --qemu-arg ARG     with --kernel: one more QEMU argument\n"
"                         (repeatable, e.g. --qemu-arg=-accel=tcg)\n"
"      --qemu-timeout SECS  with --kernel: stop the guest after SECS\n"
"      --guest-perpkt FILE  with --kernel: perpkt binary for the guest\n"
"                         (another architecture's picks its QEMU)\n"
"  -q, --quiet            no progress or summary on stderr\n"
"  -h, --help             show this help\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static const char *option_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

static int parse_pids(const char *s, struct record_options *o)
{
	const char *p = s;

	while (*p) {
		uint64_t v;
		char num[24];
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof(num))
			return error("invalid -p '%s': give PID or PID,PID,...", s);
		memcpy(num, p, len);
		num[len] = 0;
		if (parse_u64(num, "-p", 1, 1 << 30, &v))
			return -1;
		if (o->nattach == (int)(sizeof(o->attach) / sizeof(o->attach[0])))
			return error("-p: at most %d processes",
				     (int)(sizeof(o->attach) / sizeof(o->attach[0])));
		o->attach[o->nattach++] = (int)v;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* -- CMD and -p bring their own traffic: the built-in's options and
 * round trips have no meaning there, and a count needs a workload. */
static int check_own_workload(struct record_options *o)
{
	int own = o->command || o->nattach;

	if (o->command && o->nattach)
		return error("-p and a command both given: attach or run, not both");
	if (own && o->kernel)
		return error("--kernel runs the built-in workload in the guest: "
			     "a command of your own cannot go with it");
	if (!own && o->per.kind != UNIT_RT)
		return error("--per %s needs a workload of your own (-- CMD or -p "
			     "PID): the built-in one is counted in round trips",
			     o->per.spec);
	if (!own)
		return 0;
	if (o->per.kind == UNIT_RT)
		return error("--per rt counts the built-in workload's round trips: "
			     "for %s give a unit, e.g. --per udp-datagrams or "
			     "--per packets:IFACE", o->command ? "a command" : "-p");
	if (o->builtin_only)
		return error("'--%s' is for the built-in workload: %s brings its own "
			     "traffic", o->builtin_only, o->command ? "the command" : "-p");
	if (o->repeat > 1)
		return error("-r is for the built-in workload: run the command again "
			     "for another window");
	if (!o->warmup_set)
		o->warmup = 0;
	return 0;
}

int record_parse_args(int argc, char **argv, struct record_options *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "event", required_argument, NULL, 'e' },
		{ "period", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "user", no_argument, NULL, 5 },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 6 },
		{ "cpus", required_argument, NULL, 'C' },
		{ "client-cpu", required_argument, NULL, 1 },
		{ "server-cpu", required_argument, NULL, 2 },
		{ "size", required_argument, NULL, 's' },
		{ "transport", required_argument, NULL, 20 },
		{ "net", required_argument, NULL, 21 },
		{ "peer", required_argument, NULL, 22 },
		{ "echo", required_argument, NULL, 23 },
		{ "placement", required_argument, NULL, 24 },
		{ "count", required_argument, NULL, 'n' },
		{ "gap", required_argument, NULL, 25 },
		{ "gap-mode", required_argument, NULL, 26 },
		{ "rps-cpus", required_argument, NULL, 27 },
		{ "irq-cpu", required_argument, NULL, 28 },
		{ "ring-pages", required_argument, NULL, 3 },
		{ "no-fallback", no_argument, NULL, 4 },
		{ "kernel", required_argument, NULL, 40 },
		{ "vmlinux", required_argument, NULL, 41 },
		{ "qemu-arg", required_argument, NULL, 42 },
		{ "qemu-timeout", required_argument, NULL, 43 },
		{ "guest-perpkt", required_argument, NULL, 44 },
		{ "per", required_argument, NULL, 7 },
		{ "pid", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 1;
	/* '+': the first word that is not an option starts CMD */
	while ((c = getopt_long(argc, argv, "+o:d:w:r:e:c:F:gaC:s:n:p:qh", longopts,
				NULL)) != -1) {
		/* stat counts only: sampling options make no sense there */
		if (o->counting_only && (c == 'o' || c == 'c' || c == 'F' ||
					 c == 'g' || c == 'r' || c == 3 ||
					 (c >= 40 && c <= 44)))
			return error("'%s' is for perpkt record: stat only counts",
				     argv[optind - 1]);
		if (!o->counting_only && c == 6)
			return error("--format is for perpkt stat; use perpkt report");
		if (!o->builtin_only && ((c >= 20 && c <= 28) || c == 1 || c == 2 ||
					 c == 's' || c == 'n'))
			o->builtin_only = option_name(longopts, c);
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 7:
			if (unit_parse(optarg, &o->per))
				return -1;
			break;
		case 'p':
			if (parse_pids(optarg, o))
				return -1;
			break;
		case 'F':
			if (parse_u64(optarg, "--freq", 1, 1000000, &o->freq))
				return -1;
			break;
		case 'g':
			o->callchain = 1;
			break;
		case 5:
			o->include_user = 1;
			break;
		case 'a':
			o->all_cpus = 1;
			break;
		case 6:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return error("unknown format '%s' (use text or json)", optarg);
			o->format = optarg;
			break;
		case 'd':
			if (parse_seconds(optarg, "--duration", 0.01, 86400, &o->duration))
				return -1;
			o->duration_set = 1;
			break;
		case 'w':
			if (parse_seconds(optarg, "--warmup", 0, 3600, &o->warmup))
				return -1;
			o->warmup_set = 1;
			break;
		case 'e':
			o->events = optarg;
			break;
		case 'r':
			if (parse_u64(optarg, "--repeat", 1, 1000, &v))
				return -1;
			o->repeat = (int)v;
			break;
		case 'c':
			if (parse_u64(optarg, "--period", 1, UINT64_MAX / 2, &o->period))
				return -1;
			break;
		case 'C':
			o->ncpus = parse_cpu_list(optarg, o->cpus, MAX_CPUS);
			if (o->ncpus < 0)
				return -1;
			break;
		case 1:
			if (parse_u64(optarg, "--client-cpu", 0, MAX_CPUS - 1, &v))
				return -1;
			o->client_cpu = (int)v;
			break;
		case 2:
			if (parse_u64(optarg, "--server-cpu", 0, MAX_CPUS - 1, &v))
				return -1;
			o->server_cpu = (int)v;
			break;
		case 20:
			if (!transport_find(optarg))
				return error("unknown transport '%s': use %s", optarg,
					     transport_names());
			o->transport = optarg;
			break;
		case 21:
			if (strcmp(optarg, "loopback") && strcmp(optarg, "veth"))
				return error("unknown network '%s': use loopback or veth",
					     optarg);
			o->network = optarg;
			break;
		case 22:
			o->peer = optarg;
			break;
		case 23:
			o->echo = optarg;
			break;
		case 24: {
			enum cpu_relation rel;

			if (placement_parse(optarg, &rel))
				return -1;
			o->placement = optarg;
			break;
		}
		case 'n':
			if (parse_u64(optarg, "--count", 1, UINT64_MAX / 2, &o->count))
				return -1;
			break;
		case 25:
			if (workload_parse_gap(optarg, &o->gap_ns))
				return -1;
			break;
		case 26:
			if (strcmp(optarg, "sleep") && strcmp(optarg, "spin"))
				return error("unknown gap mode '%s': use sleep or spin",
					     optarg);
			o->gap_spin = !strcmp(optarg, "spin");
			break;
		case 27:
			if (tuning_check_mask(optarg))
				return -1;
			o->rps_cpus = optarg;
			break;
		case 28:
			if (parse_u64(optarg, "--irq-cpu", 0, MAX_CPUS - 1, &v))
				return -1;
			o->irq_cpu = (int)v;
			break;
		case 's':
			if (parse_u64(optarg, "--size", 1, 65507, &v))
				return -1;
			o->message_size = (uint32_t)v;
			break;
		case 3:
			if (parse_u64(optarg, "--ring-pages", 1, 1 << 20, &v))
				return -1;
			if (v & (v - 1))
				return error("--ring-pages must be a power of two, not %llu",
					     (unsigned long long)v);
			o->ring_pages = (unsigned)v;
			break;
		case 4:
			o->no_fallback = 1;
			break;
		case 40:
			o->kernel = optarg;
			break;
		case 41:
			o->vmlinux = optarg;
			break;
		case 42:
			if (o->nqemu_args == sizeof(o->qemu_args) / sizeof(o->qemu_args[0]))
				return error("too many --qemu-arg: at most %zu",
					     o->nqemu_args);
			o->qemu_args[o->nqemu_args++] = optarg;
			break;
		case 43:
			if (parse_seconds(optarg, "--qemu-timeout", 1, 86400,
					  &o->qemu_timeout))
				return -1;
			break;
		case 44:
			o->guest_perpkt = optarg;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			o->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (optind < argc)
		o->command = argv + optind;
	if (check_own_workload(o))
		return -1;
	if (o->freq && o->period)
		return error("-c and -F both given: choose a period or a frequency");
	if (o->all_cpus && o->ncpus)
		return error("-a and -C both given: choose one");
	if (!o->kernel && (o->vmlinux || o->nqemu_args || o->qemu_timeout ||
			   o->guest_perpkt))
		return error("--vmlinux, --qemu-arg, --qemu-timeout and --guest-perpkt go with --kernel (perpkt report takes --vmlinux)");
	if (o->kernel && o->peer)
		return error("--peer and --kernel both given: the guest has no network device");
	return 0;
}

void record_defaults(struct record_options *o)
{
	memset(o, 0, sizeof(*o));
	o->output = "perpkt.json";
	o->duration = 5;
	o->warmup = 1;
	o->repeat = 1;
	o->events = "cycles,instructions";
	o->client_cpu = -1;
	o->server_cpu = -1;
	o->message_size = 40;
	o->irq_cpu = -1;
	o->ring_pages = 0;  /* chosen by the number of CPUs sampled */
	o->format = "text";
	unit_parse("rt", &o->per);
}

int record_main(struct record_options *o, int argc, char **argv,
		const char *usage)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	if (record_parse_args(argc, argv, o)) {
		fputs(usage, stderr);
		return RESULT_USAGE;
	}
	if (o->help) {
		fputs(usage, stdout);
		return RESULT_OK;
	}
	o->argc = argc;
	o->argv = argv;
	o->interrupted = &interrupted;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = o->kernel ? lab_record(o) :
	      o->command || o->nattach ? record_run_command(o) : record_run(o);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct record_options o;

	record_defaults(&o);
	return record_main(&o, argc, argv, record_usage);
}
