/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_RECORD_OPTIONS_H
#define PERPKT_RECORD_OPTIONS_H

#include <getopt.h>

#include "commands/commands.h"
#include "record/record.h"

/* The options of record and stat: what to count and the workload's. */

/* The workload's options, shared by the help of record and stat (one
 * option table parses them for both). */
#define WORKLOAD_OPTIONS_HELP \
"  -d, --duration SECS    measurement window (default 5)\n" \
"  -w, --warmup SECS      ping-pong before the window opens (default 1)\n" \
"  -n, --count N          stop after N round trips in the window\n" \
"      --transport NAME   udp (default), tcp, pipe or icmp\n" \
"  -s, --size REQ[,RESP]  request and reply payload bytes, as netperf's\n" \
"                         -r (default 40 both ways, at most 65507)\n" \
"      --gap TIME         pause between round trips (e.g. 100us)\n" \
"      --burst N          N requests in flight (udp, tcp), as netperf's\n" \
"                         first burst; latency per request (default 1)\n" \
"      --gap-mode MODE    sleep (default) or spin through the gap\n" \
"      --net NAME         loopback (default) or veth: two namespaces\n" \
"                         made by perpkt, joined by a veth pair; or,\n" \
"                         record in guests only, nic[:virtio|vmxnet3]:\n" \
"                         two joined by an emulated NIC (virtio default)\n" \
"      --peer HOST[:PORT] responder is a 'perpkt serve' there (port 12865)\n" \
"      --peer-key FILE    the key that serve made (a copy, mode 0600);\n" \
"                         default ~/.config/perpkt/serve.key\n" \
"      --echo HOST:PORT   responder is an RFC 862 echo service\n" \
"      --flows N          N ping-pong pairs at once, each on its own\n" \
"                         ports (1 to 64, default 1); values per round\n" \
"                         trip of all flows together, e.g. --flows 4\n" \
"                         --client-cpu 0-1 --server-cpu 1,0\n" \
"      --client-cpu LIST  CPU of the client (default: last online CPU);\n" \
"                         with --flows a list (e.g. 0-3), round robin\n" \
"      --server-cpu LIST  CPU of the responder (default: the client's);\n" \
"                         with --flows a list, round robin (with --peer\n" \
"                         CPUs there: serve answers each flow)\n" \
"      --placement REL    same, smt, shared-cache, cross-cache or\n" \
"                         cross-socket: CPUs chosen from the topology;\n" \
"                         with --flows each flow's responder so to its\n" \
"                         client, clients down the online CPUs\n" \
"      --rps-cpus MASK    RPS mask of the receive queue for the run\n" \
"      --irq-cpu N        move the interface's IRQs to CPU N for the run\n" \
"                         (with --net nic, as --rps-cpus: the\n" \
"                         responder guest's NIC)\n" \
"      --busy CPUS        a user-space spinner on each of CPUS (e.g. 0-3)\n" \
"                         for the warm-up and the windows: role 'busy';\n" \
"                         with --net nic the responder guest's CPUs,\n" \
"                         a shell loop on each while serve runs\n" \
"      --no-wait          fail at once while another perpkt is changing\n" \
"                         the system (--rps-cpus, --net veth), rather\n" \
"                         than wait for it to put it back\n" \
"\n" \
"Or a workload of your own, normalised by a count the kernel keeps:\n" \
"  -- CMD [ARGS...]       run CMD (its process tree has the role\n" \
"                         'workload'); the window is its lifetime, or -d\n" \
"  -p, --pid PID,...      attach to running processes for -d seconds\n" \
"      --per UNIT         what values are per: rt (round trips of the\n" \
"                         built-in workload, the default), packets:IFACE,\n" \
"                         rx-packets:IFACE, tx-packets:IFACE,\n" \
"                         udp-datagrams[:in|out|both] (in by default),\n" \
"                         tcp-segments[:in|out|both], irqs:NAME (lines of\n" \
"                         /proc/interrupts) or count:N (your own count)\n"

/* The codes of the long options record and stat share that have no
 * short letter. */
enum record_option_code {
	/* the built-in workload's (o->builtin_only names one) */
	OPT_CLIENT_CPU = OPTS_RECORD,
	OPT_SERVER_CPU,
	OPT_TRANSPORT,
	OPT_NET,
	OPT_PEER,
	OPT_ECHO,
	OPT_PLACEMENT,
	OPT_GAP,
	OPT_GAP_MODE,
	OPT_RPS_CPUS,
	OPT_IRQ_CPU,
	OPT_NO_WAIT,
	OPT_BUSY,
	OPT_BURST,
	OPT_FLOWS,
	OPT_PEER_KEY,
	/* what is counted, and how */
	OPT_USER,
	OPT_NO_FALLBACK,
	OPT_PER,
	/* RECORD_SAMPLING_LONGOPTS */
	OPT_NO_CALL_GRAPH,
	OPT_RING_PAGES,
	OPT_FORCE_OUTPUT,
	/* RECORD_KERNEL_LONGOPTS */
	OPT_KERNEL,
	OPT_KERNEL_VMLINUX,
	OPT_QEMU_ARG,
	OPT_QEMU_TIMEOUT,
	OPT_GUEST_PERPKT,
	OPT_EXACT,
	OPT_APPEND,
	OPT_KERNEL_MODULES,
	OPT_CONFIG,
	OPT_GUEST_CPUS,
	OPT_PEER_KERNEL,
	OPT_ACCEL,
};

/* The long options record and stat share, for their option tables,
 * and their short letters. */
#define RECORD_COMMON_LONGOPTS \
	{ "duration", required_argument, NULL, 'd' }, \
	{ "warmup", required_argument, NULL, 'w' }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "user", no_argument, NULL, OPT_USER }, \
	{ "all-cpus", no_argument, NULL, 'a' }, \
	{ "cpus", required_argument, NULL, 'C' }, \
	{ "client-cpu", required_argument, NULL, OPT_CLIENT_CPU }, \
	{ "server-cpu", required_argument, NULL, OPT_SERVER_CPU }, \
	{ "size", required_argument, NULL, 's' }, \
	{ "transport", required_argument, NULL, OPT_TRANSPORT }, \
	{ "net", required_argument, NULL, OPT_NET }, \
	{ "peer", required_argument, NULL, OPT_PEER }, \
	{ "echo", required_argument, NULL, OPT_ECHO }, \
	{ "placement", required_argument, NULL, OPT_PLACEMENT }, \
	{ "count", required_argument, NULL, 'n' }, \
	{ "gap", required_argument, NULL, OPT_GAP }, \
	{ "gap-mode", required_argument, NULL, OPT_GAP_MODE }, \
	{ "rps-cpus", required_argument, NULL, OPT_RPS_CPUS }, \
	{ "irq-cpu", required_argument, NULL, OPT_IRQ_CPU }, \
	{ "no-wait", no_argument, NULL, OPT_NO_WAIT }, \
	{ "busy", required_argument, NULL, OPT_BUSY }, \
	{ "burst", required_argument, NULL, OPT_BURST }, \
	{ "flows", required_argument, NULL, OPT_FLOWS }, \
	{ "peer-key", required_argument, NULL, OPT_PEER_KEY }, \
	{ "no-fallback", no_argument, NULL, OPT_NO_FALLBACK }, \
	{ "per", required_argument, NULL, OPT_PER }, \
	{ "pid", required_argument, NULL, 'p' }, \
	VERBOSITY_OPTIONS
/* record's options for what is sampled and where it goes, which stat
 * (counting only) refuses by name: both tables list them from here. */
#define RECORD_SAMPLING_LONGOPTS \
	{ "output", required_argument, NULL, 'o' }, \
	{ "force-output", no_argument, NULL, OPT_FORCE_OUTPUT }, \
	{ "period", required_argument, NULL, 'c' }, \
	{ "freq", required_argument, NULL, 'F' }, \
	{ "call-graph", no_argument, NULL, 'g' }, \
	{ "no-call-graph", no_argument, NULL, OPT_NO_CALL_GRAPH }, \
	{ "ring-pages", required_argument, NULL, OPT_RING_PAGES }
/* --kernel and the options that go with it, record's and stat's, and
 * their help. */
#define RECORD_KERNEL_LONGOPTS \
	{ "kernel", required_argument, NULL, OPT_KERNEL }, \
	{ "vmlinux", required_argument, NULL, OPT_KERNEL_VMLINUX }, \
	{ "qemu-arg", required_argument, NULL, OPT_QEMU_ARG }, \
	{ "qemu-timeout", required_argument, NULL, OPT_QEMU_TIMEOUT }, \
	{ "guest-perpkt", required_argument, NULL, OPT_GUEST_PERPKT }, \
	{ "exact", no_argument, NULL, OPT_EXACT }, \
	{ "append", required_argument, NULL, OPT_APPEND }, \
	{ "modules", required_argument, NULL, OPT_KERNEL_MODULES }, \
	{ "config", required_argument, NULL, OPT_CONFIG }, \
	{ "guest-cpus", required_argument, NULL, OPT_GUEST_CPUS }, \
	{ "peer-kernel", required_argument, NULL, OPT_PEER_KERNEL }, \
	{ "accel", required_argument, NULL, OPT_ACCEL }
#define KERNEL_OPTIONS_HELP \
"      --kernel IMAGE|DIR boot IMAGE (a bzImage, an arm64 Image or a\n" \
"                         vmlinux with a PVH entry) under QEMU and do\n" \
"                         the same run inside it; DIR: a built kernel\n" \
"                         tree (or its O= folder): its image, vmlinux,\n" \
"                         .config and modules, its git commit recorded\n" \
"      --accel NAME       with --kernel: auto (default: KVM where this\n" \
"                         host can run a guest with it, else TCG\n" \
"                         emulation; the first KVM boot decides and\n" \
"                         the answer is kept in the cache folder), kvm\n" \
"                         or tcg (either forced, no fallback)\n" \
"      --vmlinux FILE     with --kernel: that kernel's vmlinux; its\n" \
"                         build-id is checked, reports use its DWARF\n" \
"      --qemu-arg ARG     with --kernel: one more QEMU argument\n" \
"                         (repeatable, e.g. --qemu-arg=-icount\n" \
"                         --qemu-arg=shift=1)\n" \
"      --qemu-timeout SECS  with --kernel: stop the guest after SECS\n" \
"      --append ARGS      with --kernel: more kernel command line, after\n" \
"                         perpkt's own (e.g. mitigations=off); recorded\n" \
"      --modules DIR      with --kernel: where the veth module is, a\n" \
"                         built tree, its lib/modules/RELEASE or its\n" \
"                         INSTALL_MOD_PATH (default: the tree of\n" \
"                         --kernel DIR, or ../lib/modules beside the\n" \
"                         image, as a .deb unpacks it)\n" \
"      --config FILE      with --kernel: the image's configuration,\n" \
"                         checked before booting for what the guest\n" \
"                         needs (default: config-RELEASE beside\n" \
"                         vmlinuz-RELEASE, or the .config of the tree a\n" \
"                         bzImage was built in)\n" \
"      --guest-cpus N     with --kernel: vCPUs of the guest, and with\n" \
"                         --net nic of each (1 to 8, default 2; 1 for\n" \
"                         --exact on CPU 0 only);\n" \
"                         --irq-cpu and --rps-cpus are checked against\n" \
"                         it before booting\n" \
"      --peer-kernel IMAGE|DIR  with --net nic: the responder guest\n" \
"                         boots IMAGE (or DIR's) instead (its modules\n" \
"                         and config-RELEASE found beside it, as a .deb\n" \
"                         unpacks them)\n" \
"      --guest-perpkt FILE  with --kernel: perpkt binary for the guest\n" \
"                         (another architecture's picks its QEMU)\n" \
"      --exact            with --kernel: count every instruction the\n" \
"                         emulated CPUs execute in the window, exactly,\n" \
"                         with a QEMU TCG plugin, instead of sampling;\n" \
"                         each -r window is a boot of its own (with\n" \
"                         --net nic a pair of boots); NAPI polls too;\n" \
"                         on QEMU's instruction clock (-icount), so a\n" \
"                         kernel booted again executes the same\n" \
"                         instructions (not with --net nic)\n"
/* after a '+': the first word that is not an option starts CMD */
#define RECORD_COMMON_SHORTOPTS "d:w:e:aC:s:n:p:qv"


/* commands/record-options.c */
/* The long name of the option whose value is val in opts, "?" if none. */
const char *record_longopt_name(const struct option *opts, int val);
void record_defaults(struct record_options *o);
/* --kernel DIR and --peer-kernel DIR: a built tree gives the image and,
 * unless given, its vmlinux, .config and modules (lab/kernel-tree.h).
 * After the options are checked; -1 after printing what the tree lacks. */
int record_open_trees(struct record_options *o);
/* One option of RECORD_COMMON_LONGOPTS: 1 taken, 0 not one of them,
 * -1 after printing what is wrong with arg. */
int record_common_option(int c, const char *arg, struct record_options *o);
/* After getopt: words left from optind on are -- CMD; then options
 * that exclude each other. -1 after printing which. */
int record_check_options(struct record_options *o, int argc, char **argv);
/* record's windows when -r is not given: where the built-in ping-pong
 * runs here (no guest, peer, echo, command or -n), RECORD_DEFAULT_WINDOWS
 * windows sharing -d, restarted before each on loopback, so that a
 * profile measures its own spread; else one. --restart's warm-up.
 * -1 after printing what --restart cannot go with. */
#define RECORD_DEFAULT_WINDOWS 5
int record_default_windows(struct record_options *o);
/* One option of RECORD_KERNEL_LONGOPTS: 1 taken, 0 not one of them,
 * -1 after printing what is wrong with arg. */
int record_kernel_option(int c, const char *arg, struct record_options *o);
/* After getopt: the kernel options together, and against the workload's
 * (--irq-cpu and --rps-cpus name the guest's CPUs); sets
 * kernel.one_cpu. -1 after printing why. */
int record_check_kernel(struct record_options *o);
/*
 * record --kernel: the arguments of the `perpkt record` the guest runs
 * into o->kernel.guest_args: argv (record's or stat's command line,
 * parsed again with its own shortopts and longopts, so getopt's
 * abbreviations and --opt=value are read as the command read them)
 * less the options only the host acts on (record_host_option), each
 * option named in full. -1 after printing why (out of memory).
 */
int record_guest_args(struct record_options *o, int argc, char **argv,
		      const char *shortopts, const struct option *longopts);
/* Free o->kernel.guest_args. */
void record_guest_args_free(struct record_options *o);
/* -q/-v set the process's message level: when the command runs, not
 * when sweep checks a cell's arguments. */
void record_apply_verbosity(const struct record_options *o);

/* commands/record.c */
/* "period" for 'c': record's long option names, for messages */
const char *record_option_name(int c);
/* Whether record takes the long option name (NULL: the short one,
 * letter): the guest runs record, so an option of stat's alone is the
 * host's. By name: a command's own codes are its own (OPTS_OWN). */
int record_takes_option(const char *name, int letter);
/* record's whole command line; sweep checks its cells with it. *help
 * set for -h. -1 after printing why. */
int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help);
/* record_guest_args for record's command line, with record's table. */
int record_guest_argv(struct record_options *o, int argc, char **argv);

/*
 * getopt_long for a command that takes RECORD_COMMON_LONGOPTS (record,
 * stat): the common options go to record_common_option, so the caller
 * sees only its own. Returns the next own option, -1 at the end, '?'
 * after printing what is wrong (a bad value of a common one included).
 * shortopts ends with RECORD_COMMON_SHORTOPTS; optind is the caller's.
 */
int record_getopt(int argc, char **argv, const char *shortopts,
		  const struct option *longopts, struct record_options *o);

#endif
