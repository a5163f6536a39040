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
#include "options.h"
#include "profile.h"
#include "recording.h"
#include "sampler.h"
#include "symbolize.h"
#include "sysinfo.h"
#include "workload.h"

static const char record_usage[] =
"usage: perpkt record [options]\n"
"\n"
"Run a UDP ping-pong on loopback, sample kernel instruction pointers on\n"
"every CPU while it runs, and save a self-contained profile.\n"
"\n"
"  -o, --output FILE      profile to write (default perpkt.json)\n"
"  -d, --duration SECS    measurement window (default 5)\n"
"  -w, --warmup SECS      ping-pong before the window opens (default 1)\n"
"  -e, --event NAME       libpfm4 event to sample (default cycles)\n"
"  -c, --period N         sample period, in events or ns (default 1000003\n"
"                         events, or 100000 ns for cpu-clock)\n"
"  -C, --cpus LIST        CPUs to sample, e.g. 0,2-3 (default all online)\n"
"      --client-cpu N     CPU of the client (default: last online CPU)\n"
"      --server-cpu N     CPU of the responder (default: the client's)\n"
"  -s, --size BYTES       UDP payload size (default 40)\n"
"      --ring-pages N     ring buffer data pages per CPU, a power of two\n"
"                         (default 128)\n"
"      --no-fallback      fail instead of using cpu-clock without a PMU\n"
"  -q, --quiet            no progress or summary on stderr\n"
"  -h, --help             show this help\n";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static int parse_args(int argc, char **argv, struct record_options *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "event", required_argument, NULL, 'e' },
		{ "period", required_argument, NULL, 'c' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "client-cpu", required_argument, NULL, 1 },
		{ "server-cpu", required_argument, NULL, 2 },
		{ "size", required_argument, NULL, 's' },
		{ "ring-pages", required_argument, NULL, 3 },
		{ "no-fallback", no_argument, NULL, 4 },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:d:w:e:c:C:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'd':
			if (parse_seconds(optarg, "--duration", 0.01, 86400, &o->duration))
				return -1;
			break;
		case 'w':
			if (parse_seconds(optarg, "--warmup", 0, 3600, &o->warmup))
				return -1;
			break;
		case 'e':
			o->event = optarg;
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
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			fputs(record_usage, stdout);
			o->help = 1;
			return 0;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return error("unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_options o = {
		.output = "perpkt.json",
		.duration = 5,
		.warmup = 1,
		.event = "cycles",
		.client_cpu = -1,
		.server_cpu = -1,
		.message_size = 40,
		.ring_pages = 128,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	if (parse_args(argc, argv, &o)) {
		fputs(record_usage, stderr);
		return PERPKT_EXIT_USAGE;
	}
	if (o.help)
		return PERPKT_EXIT_OK;
	o.argc = argc;
	o.argv = argv;
	o.interrupted = &interrupted;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = record_run(&o);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return ret;
}
