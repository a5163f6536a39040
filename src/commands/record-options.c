// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options record and stat share: the workload and what to count.
 * Each command has its own option table and parser and hands these to
 * record_common_option() (record's is in commands/record.c).
 */
#include "commands/record-options.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lab/accel.h"
#include "lab/qemu.h"
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
	o->window.duration = 5;
	o->window.warmup = 1;
	o->window.repeat = 1;
	o->sampling.events = RECORD_DEFAULT_EVENTS;
	o->cpus.client = -1;
	o->cpus.server = -1;
	o->builtin.message_size = 40;
	o->builtin.irq_cpu = -1;
	unit_parse("rt", &o->own.per);
	o->sampling.ring_pages = 0;  /* chosen by the number of CPUs sampled */
}

static const struct option common_longopts[] = {
	RECORD_COMMON_LONGOPTS,
	{ 0 }
};

const char *record_longopt_name(const struct option *opts, int val)
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
		if (o->own.nattach == (int)(sizeof(o->own.attach) / sizeof(o->own.attach[0])))
			return error("-p: at most %d processes",
				     (int)(sizeof(o->own.attach) / sizeof(o->own.attach[0])));
		o->own.attach[o->own.nattach++] = (int)v;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* -- CMD and -p bring their own traffic: the built-in's options and
 * round trips have no meaning there, and a count needs a workload. */
/* --size REQ[,RESP], as netperf's -r; 65507 is the largest UDP payload
 * over IPv4, and every transport's buffers are sized for it. */
static int parse_sizes(const char *arg, struct builtin_request *b)
{
	const char *comma = strchr(arg, ',');
	char req[32];
	uint64_t v;

	if (!comma) {
		if (parse_u64(arg, "--size", 1, 65507, &v))
			return -1;
		b->message_size = (uint32_t)v;
		b->reply_size = 0;
		return 0;
	}
	if ((size_t)(comma - arg) >= sizeof(req))
		return error("invalid --size '%s': expected REQ[,RESP] bytes, "
			     "e.g. 100,2000", arg);
	memcpy(req, arg, comma - arg);
	req[comma - arg] = '\0';
	if (parse_u64(req, "--size request", 1, 65507, &v))
		return -1;
	b->message_size = (uint32_t)v;
	if (parse_u64(comma + 1, "--size reply", 1, 65507, &v))
		return -1;
	b->reply_size = (uint32_t)v;
	return 0;
}

static int check_own_workload(struct record_options *o)
{
	int own = o->own.argv || o->own.nattach;

	if (o->own.argv && o->own.nattach)
		return error("-p and a command both given: attach or run, not both");
	if (own && o->kernel.kernel)
		return error("--kernel runs the built-in workload in the guest: "
			     "a command of your own cannot go with it");
	if (!own && o->own.per.kind != UNIT_RT)
		return error("--per %s needs a workload of your own (-- CMD or -p "
			     "PID): the built-in one is counted in round trips",
			     o->own.per.spec);
	if (!own)
		return 0;
	if (o->own.per.kind == UNIT_RT)
		return error("--per rt counts the built-in workload's round trips: "
			     "for %s give a unit, e.g. --per udp-datagrams or "
			     "--per packets:IFACE", o->own.argv ? "a command" : "-p");
	if (o->builtin_only)
		return error("'--%s' is for the built-in workload: %s brings its own "
			     "traffic", o->builtin_only, o->own.argv ? "the command" : "-p");
	if (o->window.repeat > 1)
		return error("-r is for the built-in workload: run the command again "
			     "for another window");
	if (!o->window.warmup_set)
		o->window.warmup = 0;
	return 0;
}

/* The built-in ping-pong on loopback with nothing of the host's
 * changed for it: restarting it costs a fork and two sockets. */
static int restartable(const struct record_options *o)
{
	const struct builtin_request *b = &o->builtin;

	/* --flows: each flow's gate and pinning are made once (restarting
	 * them left a flow with no first round trip here) */
	return (!b->network || !strcmp(b->network, "loopback")) &&
	       !b->rps_cpus && b->irq_cpu < 0 && b->flows <= 1;
}

int record_default_windows(struct record_options *o)
{
	struct window_request *win = &o->window;
	const struct builtin_request *b = &o->builtin;
	int elsewhere = o->kernel.kernel || o->own.argv || o->own.nattach ||
			b->peer || b->echo;

	if (!win->turn_on != !win->turn_off)
		return error("--turn-on and --turn-off go together: one switches "
			     "the setting on, the other puts it back");
	if (win->turn_on) {
		if (elsewhere || (b->network && strcmp(b->network, "loopback")))
			return error("--turn-on runs its commands here, in this "
				     "network namespace: the built-in ping-pong on "
				     "loopback only (run perpkt inside 'ip netns "
				     "exec NS' for another namespace)");
		if (win->count || win->restart || win->fifo || win->gap_fifo)
			return error("--turn-on compares by turns in one ping-pong "
				     "of timed windows: not with %s",
				     win->count ? "-n" : win->restart ? "--restart" :
				     win->fifo ? "--window-fifo" : "--gap-fifo");
		/* -r: windows a side */
		win->repeat = 2 * (win->repeat_set ? win->repeat : 10);
		if (!win->duration_set)
			win->duration = 0.2;
		if (win->between <= 0)
			win->between = 0.05;
		return 0;
	}
	if (win->restart && (o->own.argv || o->own.nattach || b->peer || b->echo))
		return error("--restart starts the built-in ping-pong anew: %s",
			     b->peer || b->echo ? "a peer's responder is not ours to restart" :
			     "run the command again instead");
	if (win->restart && !o->kernel.kernel && !restartable(o))
		return error("--restart starts the ping-pong on loopback anew, one "
			     "flow, nothing of the host's changed for it: not with "
			     "%s", b->flows > 1 ? "--flows" : b->rps_cpus ?
			     "--rps-cpus" : b->irq_cpu >= 0 ? "--irq-cpu" : "--net");
	if (!win->repeat_set && !elsewhere && !win->count && !win->fifo &&
	    !win->gap_fifo && !b->window_marks) {
		win->repeat = RECORD_DEFAULT_WINDOWS;
		win->duration /= RECORD_DEFAULT_WINDOWS;
		win->restart = restartable(o);
	}
	/* long enough to leave the first round trips' cold caches behind,
	 * short beside the window, and never more than -w asked */
	win->restart_warmup = win->duration / 2 < 0.2 ? win->duration / 2 : 0.2;
	if (win->warmup < win->restart_warmup)
		win->restart_warmup = win->warmup;
	return 0;
}

int record_common_option(int c, const char *arg, struct record_options *o)
{
	uint64_t v;

	if (!o->builtin_only && ((c >= OPT_CLIENT_CPU && c <= OPT_PEER_KEY) ||
				 c == 's' || c == 'n'))
		o->builtin_only = record_longopt_name(common_longopts, c);
	switch (c) {
	case OPT_PER:
		if (unit_parse(arg, &o->own.per))
			return -1;
		break;
	case 'p':
		if (parse_pids(arg, o))
			return -1;
		break;
	case OPT_USER:
		o->sampling.include_user = 1;
		break;
	case 'a':
		o->cpus.all = 1;
		break;
	case 'd':
		if (parse_seconds(arg, "--duration", 0.01, 86400, &o->window.duration))
			return -1;
		o->window.duration_set = 1;
		break;
	case 'w':
		if (parse_seconds(arg, "--warmup", 0, 3600, &o->window.warmup))
			return -1;
		o->window.warmup_set = 1;
		break;
	case 'e':
		o->sampling.events = arg;
		break;
	case 'C':
		o->cpus.n = parse_cpu_list(arg, o->cpus.list, MAX_CPUS);
		if (o->cpus.n < 0)
			return -1;
		break;
	case OPT_CLIENT_CPU:
		o->cpus.nclients = parse_cpu_list(arg, o->cpus.clients, MAX_CPUS);
		if (o->cpus.nclients < 0)
			return -1;
		o->cpus.client = o->cpus.clients[0];
		break;
	case OPT_SERVER_CPU:
		o->cpus.nservers = parse_cpu_list(arg, o->cpus.servers, MAX_CPUS);
		if (o->cpus.nservers < 0)
			return -1;
		o->cpus.server = o->cpus.servers[0];
		break;
	case OPT_FLOWS:
		if (parse_u64(arg, "--flows", 1, WORKLOAD_FLOWS_MAX, &v))
			return -1;
		o->builtin.flows = (int)v;
		break;
	case OPT_TRANSPORT:
		if (!transport_find(arg))
			return error("unknown transport '%s': use %s", arg,
				     transport_names());
		o->builtin.transport = arg;
		break;
	case OPT_NET:
		if (strcmp(arg, "loopback") && strcmp(arg, "veth") &&
		    strcmp(arg, "nic") && strcmp(arg, "nic:virtio") &&
		    strcmp(arg, "nic:vmxnet3"))
			return error("unknown network '%s': use loopback, veth or "
				     "(with --kernel) nic, nic:virtio, nic:vmxnet3",
				     arg);
		o->builtin.network = arg;
		break;
	case OPT_PEER:
		o->builtin.peer = arg;
		break;
	case OPT_ECHO:
		o->builtin.echo = arg;
		break;
	case OPT_PLACEMENT: {
		enum cpu_relation rel;

		if (placement_parse(arg, &rel))
			return -1;
		o->cpus.placement = arg;
		break;
	}
	case 'n':
		if (parse_u64(arg, "--count", 1, UINT64_MAX / 2, &o->window.count))
			return -1;
		break;
	case OPT_GAP:
		if (workload_parse_gap(arg, &o->builtin.gap_ns))
			return -1;
		break;
	case OPT_GAP_MODE:
		if (strcmp(arg, "sleep") && strcmp(arg, "spin"))
			return error("unknown gap mode '%s': use sleep or spin",
				     arg);
		o->builtin.gap_spin = !strcmp(arg, "spin");
		break;
	case OPT_RPS_CPUS:
		/* the form now; the CPUs once it is known whose they are
		 * (record_check_options: a guest's with --kernel) */
		if (tuning_check_mask(arg, -1, NULL))
			return -1;
		o->builtin.rps_cpus = arg;
		break;
	case OPT_IRQ_CPU:
		if (parse_u64(arg, "--irq-cpu", 0, MAX_CPUS - 1, &v))
			return -1;
		o->builtin.irq_cpu = (int)v;
		break;
	case OPT_NO_WAIT:
		o->builtin.no_wait = 1;
		break;
	case OPT_BURST:
		if (parse_u64(arg, "--burst", 1, WORKLOAD_BURST_MAX, &v))
			return -1;
		o->builtin.burst = (int)v;
		break;
	case OPT_BUSY:
		o->builtin.nbusy = parse_cpu_list(arg, o->builtin.busy_cpus,
						  BUSY_MAX);
		if (o->builtin.nbusy <= 0)
			return o->builtin.nbusy ? -1 :
			       error("invalid --busy '%s': no CPU", arg);
		break;
	case OPT_PEER_KEY:
		o->builtin.peer_key = arg;
		break;
	case 's':
		if (parse_sizes(arg, &o->builtin))
			return -1;
		break;
	case OPT_NO_FALLBACK:
		o->sampling.no_fallback = 1;
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

int record_kernel_option(int c, const char *arg, struct record_options *o)
{
	struct lab_request *k = &o->kernel;
	uint64_t v;

	switch (c) {
	case OPT_KERNEL:
		k->kernel = arg;
		break;
	case OPT_KERNEL_VMLINUX:
		k->vmlinux = arg;
		break;
	case OPT_QEMU_ARG:
		if (k->nqemu_args == sizeof(k->qemu_args) / sizeof(k->qemu_args[0]))
			return error("too many --qemu-arg: at most %zu", k->nqemu_args);
		k->qemu_args[k->nqemu_args++] = arg;
		break;
	case OPT_QEMU_TIMEOUT:
		if (parse_seconds(arg, "--qemu-timeout", 1, 86400, &k->qemu_timeout))
			return -1;
		break;
	case OPT_GUEST_PERPKT:
		k->guest_perpkt = arg;
		break;
	case OPT_EXACT:
		k->exact = 1;
		break;
	case OPT_APPEND:
		if (strchr(arg, '\n'))
			return error("--append '%s' has a newline: a kernel command line is one line",
				     arg);
		k->append = arg;
		break;
	case OPT_KERNEL_MODULES:
		k->modules = arg;
		break;
	case OPT_CONFIG:
		k->config = arg;
		break;
	case OPT_GUEST_CPUS:
		if (parse_u64(arg, "--guest-cpus", 1, LAB_GUEST_CPUS_MAX, &v))
			return -1;
		k->cpus = (int)v;
		break;
	case OPT_PEER_KERNEL:
		k->peer_kernel = arg;
		break;
	case OPT_ACCEL:
		if (lab_accel_parse(arg, &k->accel))
			return -1;
		k->accel_set = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* --irq-cpu and --rps-cpus name CPUs the guest has (--guest-cpus, else
 * LAB_GUEST_CPUS). */
static int check_guest_cpus(const struct record_options *o)
{
	int n = o->kernel.cpus ? o->kernel.cpus : LAB_GUEST_CPUS, i;
	char given[48], guest[64];

	if (o->kernel.cpus)
		snprintf(given, sizeof(given), "--guest-cpus %d", n);
	else
		snprintf(given, sizeof(given), "%d without --guest-cpus", n);
	if (o->builtin.irq_cpu >= n)
		return error("--irq-cpu %d: the guest has CPUs 0 to %d (%s)",
			     o->builtin.irq_cpu, n - 1, given);
	for (i = 0; i < o->builtin.nbusy; i++)
		if (o->builtin.busy_cpus[i] >= n)
			return error("--busy CPU %d: the guest has CPUs 0 to %d (%s)",
				     o->builtin.busy_cpus[i], n - 1, given);
	snprintf(guest, sizeof(guest), "the guest (%s)", given);
	return o->builtin.rps_cpus ?
	       tuning_check_mask(o->builtin.rps_cpus, n, guest) : 0;
}

/* 1 when every one of the n CPUs in list is 0 */
static int all_cpu0(const int *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (list[i] != 0)
			return 0;
	return 1;
}

/* The run uses CPU 0 only: --exact's guest then has one vCPU. --flows
 * with a --client-cpu or --server-cpu list, and --busy, name CPUs of
 * their own. */
static int on_cpu0_only(const struct record_options *o)
{
	const struct cpu_request *c = &o->cpus;

	return c->client <= 0 && c->server <= 0 &&
	       all_cpu0(c->clients, c->nclients) &&
	       all_cpu0(c->servers, c->nservers) &&
	       all_cpu0(o->builtin.busy_cpus, o->builtin.nbusy) &&
	       (!c->placement || !strcmp(c->placement, "same")) &&
	       (c->n == 0 || (c->n == 1 && c->list[0] == 0)) &&
	       o->builtin.irq_cpu < 0 && !o->builtin.rps_cpus &&
	       !(o->builtin.network && !strncmp(o->builtin.network, "nic", 3));
}

/*
 * --kernel: what the guest's workload would refuse (--flows with -n;
 * with --net nic, whose client guest records with --peer (lab/lab.h),
 * what a peer cannot do: --flows before serve takes them, --size
 * REQ,RESP) is said now, not after a boot. CPU 0 stands for the
 * guest's CPUs, which its own record checks.
 */
static int check_guest_workload(const struct record_options *o)
{
	const struct builtin_request *b = &o->builtin;
	int nic = b->network && !strncmp(b->network, "nic", 3);
	struct workload_config wc = {
		.transport = b->transport, .network = nic ? NULL : b->network,
		.peer = nic ? LAB_NIC_RESPONDER : NULL,
		.nflows = b->flows, .message_size = b->message_size,
		.reply_size = b->reply_size, .burst = b->burst,
		.count = o->window.count, .gap_ns = b->gap_ns,
		.window_marks = o->kernel.exact, .client_cpu = 0,
		.server_cpu = 0,
	};

	if (workload_check_request(&wc))
		return !nic ? -1 : error("--net nic runs the client guest's record with "
			     "--peer %s, perpkt serve in the responder guest",
			     LAB_NIC_RESPONDER);
	return 0;
}

int record_open_trees(struct record_options *o)
{
	static struct lab_tree tree, peer_tree;
	struct lab_request *k = &o->kernel;

	if (k->kernel && lab_tree_is(k->kernel)) {
		if (lab_tree_open(&tree, k->kernel, "--kernel"))
			return -1;
		k->tree = &tree;
		k->kernel = tree.image;
		if (!k->vmlinux)
			k->vmlinux = tree.vmlinux;
		if (!k->config)
			k->config = tree.config;
		if (!k->modules && tree.modules)
			k->modules = tree.dir;
	}
	if (k->peer_kernel && lab_tree_is(k->peer_kernel)) {
		if (lab_tree_open(&peer_tree, k->peer_kernel, "--peer-kernel"))
			return -1;
		k->peer_tree = &peer_tree;
		k->peer_kernel = peer_tree.image;
	}
	return 0;
}

int record_check_kernel(struct record_options *o)
{
	struct lab_request *k = &o->kernel;

	if (!k->kernel && (k->vmlinux || k->nqemu_args || k->qemu_timeout ||
			   k->guest_perpkt || k->append || k->modules ||
			   k->config || k->cpus || k->peer_kernel || k->accel_set))
		return error("--vmlinux, --qemu-arg, --qemu-timeout, --guest-perpkt, --append, --modules, --config, --guest-cpus, --peer-kernel and --accel go with --kernel (perpkt report takes --vmlinux)");
	if (k->accel != LAB_ACCEL_AUTO && lab_qemu_args_accel((char *const *)k->qemu_args, k->nqemu_args))
		return error("--accel and an -accel in --qemu-arg both given: choose one");
	if (k->exact && k->accel == LAB_ACCEL_KVM)
		return error("--exact counts with a QEMU TCG plugin: it cannot go with --accel kvm");
	if (k->peer_kernel && (!o->builtin.network ||
			       strncmp(o->builtin.network, "nic", 3)))
		return error("--peer-kernel boots the responder guest of --net nic: give --net nic");
	if (k->kernel && check_guest_cpus(o))
		return -1;
	if (k->exact && !k->kernel)
		return error("--exact counts with a QEMU plugin: it goes with --kernel IMAGE");
	if (k->exact && (o->sampling.period || o->sampling.freq ||
			 o->sampling.callchain > 0 ||
			 strcmp(o->sampling.events, RECORD_DEFAULT_EVENTS)))
		return error("--exact counts every instruction: -e, -c, -F and -g are "
			     "for sampling");
	if (k->kernel && o->builtin.peer)
		return error("--peer and --kernel both given: the guest has no network device");
	if (k->kernel && !o->own.argv && !o->own.nattach &&
	    check_guest_workload(o))
		return -1;
	k->one_cpu = on_cpu0_only(o);
	return 0;
}

int record_check_options(struct record_options *o, int argc, char **argv)
{
	if (optind < argc)
		o->own.argv = argv + optind;
	if (check_own_workload(o))
		return -1;
	if (o->sampling.freq && o->sampling.period)
		return error("-c and -F both given: choose a period or a frequency");
	if (o->cpus.all && o->cpus.n)
		return error("-a and -C both given: choose one");
	if (o->builtin.rps_cpus && !o->kernel.kernel &&
	    tuning_check_mask(o->builtin.rps_cpus, 0, NULL))
		return -1;
	if (o->builtin.peer_key && !o->builtin.peer)
		return error("--peer-key is the key of a 'perpkt serve': it goes "
			     "with --peer");
	if (o->builtin.network && !strncmp(o->builtin.network, "nic", 3) &&
	    !o->kernel.kernel)
		return error("--net '%s' boots two guests joined by an emulated "
			     "NIC: it goes with --kernel IMAGE", o->builtin.network);
	return 0;
}

static const struct option kernel_longopts[] = {
	RECORD_KERNEL_LONGOPTS,
	{ 0 }
};

/*
 * Whether option c (its value arg) under --kernel is the host's alone,
 * left out of the guest's record: every option of
 * RECORD_KERNEL_LONGOPTS (they boot the guest), one that record does
 * not take (stat's --format, --confidence), and these.
 */
static int record_host_option(int c, const char *name, const char *arg,
			      const struct record_options *o)
{
	switch (c) {
	case 'o':           /* the guest's profile comes out to the host's */
	case OPT_FORCE_OUTPUT:
		return 1;
	case 'r':           /* --exact: one boot per window */
		return o->kernel.exact;
	case OPT_NET:       /* nic: the host joins two guests by it */
		return !strncmp(arg, "nic", 3);
	case OPT_RPS_CPUS:  /* --net nic: the responder guest's NIC's, */
	case OPT_IRQ_CPU:
	case OPT_BUSY:      /* its CPUs (the thread's target's) */
		return o->builtin.network && !strncmp(o->builtin.network, "nic", 3);
	default:
		return strcmp(record_longopt_name(kernel_longopts, c), "?") ||
		       !record_takes_option(name, c);
	}
}

/* Append a copy of "<prefix><s>" to o's guest arguments. */
static int guest_push(struct lab_request *k, size_t *cap, const char *prefix,
		      const char *s)
{
	char *w;

	if (k->nguest_args + 1 >= *cap) {
		size_t n = *cap ? *cap * 2 : 16;
		char **v = realloc(k->guest_args, n * sizeof(*v));

		if (!v)
			return error("out of memory");
		k->guest_args = v;
		*cap = n;
	}
	w = malloc(strlen(prefix) + strlen(s) + 1);
	if (!w)
		return error("out of memory");
	strcat(strcpy(w, prefix), s);
	k->guest_args[k->nguest_args++] = w;
	k->guest_args[k->nguest_args] = NULL;
	return 0;
}

int record_guest_args(struct record_options *o, int argc, char **argv,
		      const char *shortopts, const struct option *longopts)
{
	struct lab_request *k = &o->kernel;
	int saved_optind = optind, saved_opterr = opterr, c, idx, ret = 0;
	size_t cap = 0;
	char letter[2] = "";

	record_guest_args_free(o);
	optind = 0;  /* argv parsed anew, from the start */
	opterr = 0;  /* parsed once already: its errors were said */
	while (!ret && (idx = -1,
			c = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		if (c == '?' || c == ':') {
			ret = error("cannot read '%s' again for the guest", argv[optind - 1]);
			break;
		}
		if (record_host_option(c, idx >= 0 ? longopts[idx].name : NULL,
				       optarg, o))
			continue;
		letter[0] = (char)c;
		/* in full: an abbreviation of stat's might be another
		 * option's in record's table */
		ret = idx >= 0 ? guest_push(k, &cap, "--", longopts[idx].name) :
				 guest_push(k, &cap, "-", letter);
		if (!ret && optarg)
			ret = guest_push(k, &cap, "", optarg);
	}
	/* one window a boot with --exact, and no default windows of the
	 * guest's own: the host resolved them */
	if (!ret && (o->kernel.exact || !o->window.repeat_set))
		ret = guest_push(k, &cap, "", "-r") || guest_push(k, &cap, "", "1");
	if (!ret && optind < argc)
		ret = guest_push(k, &cap, "", "--");
	for (; !ret && optind < argc; optind++)
		ret = guest_push(k, &cap, "", argv[optind]);
	optind = saved_optind;
	opterr = saved_opterr;
	if (ret)
		record_guest_args_free(o);
	return ret;
}

void record_guest_args_free(struct record_options *o)
{
	size_t i;

	for (i = 0; i < o->kernel.nguest_args; i++)
		free(o->kernel.guest_args[i]);
	free(o->kernel.guest_args);
	o->kernel.guest_args = NULL;
	o->kernel.nguest_args = 0;
}
