// SPDX-License-Identifier: GPL-2.0-only
/*
 * record's and stat's options against each other, once they are all
 * read: what excludes what, the workload of one's own, the guest's
 * (--kernel) and the windows record opens by default.
 */
#include "commands/record-options.h"

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "lab/accel.h"
#include "lab/qemu.h"
#include "system/unit.h"
#include "workload/tuning.h"
#include "workload/workload.h"

/* -- CMD and -p bring their own traffic: the built-in's options and
 * round trips have no meaning there, and a count needs a workload. */
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
		win->repeat = 2 * (win->repeat_set ? win->repeat : 20);
		if (!win->duration_set)
			win->duration = 0.1;
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
	if (k->no_paths && !k->exact)
		return error("--no-exact-paths goes with --exact");
	if (k->cache_model && !k->exact)
		return error("--cache-model models caches in the exact plugin: it goes with --exact");
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

int record_check_options(struct record_options *o, int argc, char **argv,
			 int next)
{
	if (next < argc)
		o->own.argv = argv + next;
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

int record_check_record(struct record_options *o)
{
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
	if (o->window.fifo_timeout > 0 && !o->window.fifo && !o->window.gap_fifo)
		return error("--fifo-timeout is how long --window-fifo and "
			     "--gap-fifo wait for an ack: give one of them");
	if (o->builtin.window_marks && o->kernel.kernel)
		return error("--window-marks is what --exact runs inside the guest: "
			     "give --exact");
	if (o->window.restart && o->kernel.exact)
		return error("--restart: --exact boots a guest for each window, "
			     "each its own start already");
	return 0;
}
