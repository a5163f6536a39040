// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options record and stat share: the workload and what to count.
 * Each command has its own option table and parser and hands these to
 * record_common_option(); record's parser is here too, because sweep
 * checks every cell with it before recording any.
 */
#include "commands/record-options.h"

#include <getopt.h>
#include <stdint.h>
#include <string.h>

#include "error.h"
#include "parse.h"
#include "system/placement.h"
#include "workload/transport.h"
#include "workload/tuning.h"
#include "system/unit.h"
#include "workload/workload.h"

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
	unit_parse("rt", &o->per);
	o->ring_pages = 0;  /* chosen by the number of CPUs sampled */
}

static const struct option common_longopts[] = {
	RECORD_COMMON_LONGOPTS,
	{ 0 }
};

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

int record_common_option(int c, const char *arg, struct record_options *o)
{
	uint64_t v;

	if (!o->builtin_only && ((c >= 20 && c <= 28) || c == 1 || c == 2 ||
				 c == 's' || c == 'n'))
		o->builtin_only = option_name(common_longopts, c);
	switch (c) {
	case 7:
		if (unit_parse(arg, &o->per))
			return -1;
		break;
	case 'p':
		if (parse_pids(arg, o))
			return -1;
		break;
	case 5:
		o->include_user = 1;
		break;
	case 'a':
		o->all_cpus = 1;
		break;
	case 'd':
		if (parse_seconds(arg, "--duration", 0.01, 86400, &o->duration))
			return -1;
		o->duration_set = 1;
		break;
	case 'w':
		if (parse_seconds(arg, "--warmup", 0, 3600, &o->warmup))
			return -1;
		o->warmup_set = 1;
		break;
	case 'e':
		o->events = arg;
		break;
	case 'C':
		o->ncpus = parse_cpu_list(arg, o->cpus, MAX_CPUS);
		if (o->ncpus < 0)
			return -1;
		break;
	case 1:
		if (parse_u64(arg, "--client-cpu", 0, MAX_CPUS - 1, &v))
			return -1;
		o->client_cpu = (int)v;
		break;
	case 2:
		if (parse_u64(arg, "--server-cpu", 0, MAX_CPUS - 1, &v))
			return -1;
		o->server_cpu = (int)v;
		break;
	case 20:
		if (!transport_find(arg))
			return error("unknown transport '%s': use %s", arg,
				     transport_names());
		o->transport = arg;
		break;
	case 21:
		if (strcmp(arg, "loopback") && strcmp(arg, "veth"))
			return error("unknown network '%s': use loopback or veth",
				     arg);
		o->network = arg;
		break;
	case 22:
		o->peer = arg;
		break;
	case 23:
		o->echo = arg;
		break;
	case 24: {
		enum cpu_relation rel;

		if (placement_parse(arg, &rel))
			return -1;
		o->placement = arg;
		break;
	}
	case 'n':
		if (parse_u64(arg, "--count", 1, UINT64_MAX / 2, &o->count))
			return -1;
		break;
	case 25:
		if (workload_parse_gap(arg, &o->gap_ns))
			return -1;
		break;
	case 26:
		if (strcmp(arg, "sleep") && strcmp(arg, "spin"))
			return error("unknown gap mode '%s': use sleep or spin",
				     arg);
		o->gap_spin = !strcmp(arg, "spin");
		break;
	case 27:
		if (tuning_check_mask(arg))
			return -1;
		o->rps_cpus = arg;
		break;
	case 28:
		if (parse_u64(arg, "--irq-cpu", 0, MAX_CPUS - 1, &v))
			return -1;
		o->irq_cpu = (int)v;
		break;
	case 's':
		if (parse_u64(arg, "--size", 1, 65507, &v))
			return -1;
		o->message_size = (uint32_t)v;
		break;
	case 4:
		o->no_fallback = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case 'v':
		o->verbose = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

int record_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts, struct record_options *o)
{
	int c, r;

	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		r = record_common_option(c, optarg, o);
		if (r < 0)
			return '?';
		if (!r)
			return c;
	}
	return -1;
}

void record_apply_verbosity(const struct record_options *o)
{
	if (o->quiet || o->verbose)
		parse_verbosity(o->quiet ? 'q' : 'v');
}

int record_check_options(struct record_options *o, int argc, char **argv)
{
	if (optind < argc)
		o->command = argv + optind;
	if (check_own_workload(o))
		return -1;
	if (o->freq && o->period)
		return error("-c and -F both given: choose a period or a frequency");
	if (o->all_cpus && o->ncpus)
		return error("-a and -C both given: choose one");
	return 0;
}

static const struct option record_longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "period", required_argument, NULL, 'c' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "ring-pages", required_argument, NULL, 3 },
		{ "kernel", required_argument, NULL, 40 },
		{ "vmlinux", required_argument, NULL, 41 },
		{ "qemu-arg", required_argument, NULL, 42 },
		{ "qemu-timeout", required_argument, NULL, 43 },
		{ "guest-perpkt", required_argument, NULL, 44 },
		{ "no-remote", no_argument, NULL, 45 },
		{ "remote-cpus", required_argument, NULL, 46 },
		{ "help", no_argument, NULL, 'h' },
		RECORD_COMMON_LONGOPTS,
		{ 0 }
};

const char *record_option_name(int c)
{
	return option_name(record_longopts, c);
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
			if (parse_u64(optarg, "--freq", 1, 1000000, &o->freq))
				return -1;
			break;
		case 'g':
			o->callchain = 1;
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
		case 3:
			if (parse_u64(optarg, "--ring-pages", 1, 1 << 20, &v))
				return -1;
			if (v & (v - 1))
				return error("--ring-pages must be a power of two, not %llu",
					     (unsigned long long)v);
			o->ring_pages = (unsigned)v;
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
		case 45:
			o->no_remote = 1;
			break;
		case 46: {
			int cpus[MAX_CPUS];

			/* checked here for its form, there for its CPUs */
			if (strcmp(optarg, "all") &&
			    (strlen(optarg) >= 64 ||
			     parse_cpu_list(optarg, cpus, MAX_CPUS) <= 0))
				return error("invalid --remote-cpus '%s': give all or a "
					     "CPU list such as 0,2-3", optarg);
			o->remote_cpus = optarg;
			break;
		}
		case 'h':
			*help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (!o->kernel && (o->vmlinux || o->nqemu_args || o->qemu_timeout ||
			   o->guest_perpkt))
		return error("--vmlinux, --qemu-arg, --qemu-timeout and --guest-perpkt go with --kernel (perpkt report takes --vmlinux)");
	if ((o->no_remote || o->remote_cpus) && !o->peer)
		return error("--%s goes with --peer: only a peer has a remote side",
			     o->no_remote ? "no-remote" : "remote-cpus");
	if (o->no_remote && o->remote_cpus)
		return error("--no-remote and --remote-cpus both given: choose one");
	if (o->kernel && o->peer)
		return error("--peer and --kernel both given: the guest has no network device");
	return record_check_options(o, argc, argv);
}
