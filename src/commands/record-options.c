// SPDX-License-Identifier: GPL-2.0-only
/*
 * record's options and stat's, each one entry (commands/options.h):
 * the workload's and --kernel's tables both commands include, record's
 * own table, their parsers, and the argv a guest gets under --kernel,
 * chosen by each entry's OPTF_HOST* flags. What the options mean
 * together is checked in record-check.c.
 */
#include "commands/record-options.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "error.h"
#include "lab/accel.h"
#include "lab/plugin/cachemodel.h"
#include "parse.h"
#include "profile/output.h"
#include "system/placement.h"
#include "system/unit.h"
#include "workload/transport.h"
#include "workload/tuning.h"
#include "workload/workload.h"

#define R(field) OPT_AT(struct record_options, field)

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

/* at: the struct record_options (off 0) */
static int opt_pids(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return parse_pids(arg, at);
}

static int opt_sizes(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return parse_sizes(arg, at);
}

static int opt_per(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return unit_parse(arg, at) ? -1 : 0;
}

static int opt_duration(const struct opt *o, const char *arg, void *at)
{
	struct window_request *w = at;

	(void)o;
	if (parse_seconds(arg, "--duration", 0.01, 86400, &w->duration))
		return -1;
	w->duration_set = 1;
	return 0;
}

static int opt_warmup(const struct opt *o, const char *arg, void *at)
{
	struct window_request *w = at;

	(void)o;
	if (parse_seconds(arg, "--warmup", 0, 3600, &w->warmup))
		return -1;
	w->warmup_set = 1;
	return 0;
}

/* --count, --period, --freq: 64-bit counts, o->num their largest */
static int opt_u64(const struct opt *o, const char *arg, void *at)
{
	char what[32];

	snprintf(what, sizeof(what), "--%s", o->long_name);
	return parse_u64(arg, what, 1, (uint64_t)o->num, at);
}

int opt_cpus(const struct opt *o, const char *arg, void *at)
{
	struct cpu_request *c = at;

	(void)o;
	c->n = parse_cpu_list(arg, c->list, MAX_CPUS);
	return c->n < 0 ? -1 : 0;
}

/* --client-cpu (o->num 0) and --server-cpu (1): a list, round robin
 * over the flows, the first the CPU of one flow */
static int opt_role_cpus(const struct opt *o, const char *arg, void *at)
{
	struct cpu_request *c = at;
	int *list = o->num ? c->servers : c->clients;
	int n = parse_cpu_list(arg, list, MAX_CPUS);

	if (n < 0)
		return -1;
	if (o->num) {
		c->nservers = n;
		c->server = list[0];
	} else {
		c->nclients = n;
		c->client = list[0];
	}
	return 0;
}

static int opt_transport(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (!transport_find(arg))
		return error("unknown transport '%s': use %s", arg,
			     transport_names());
	*(const char **)at = arg;
	return 0;
}

static int opt_net(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (strcmp(arg, "loopback") && strcmp(arg, "veth") &&
	    strcmp(arg, "nic") && strcmp(arg, "nic:virtio") &&
	    strcmp(arg, "nic:vmxnet3"))
		return error("unknown network '%s': use loopback, veth or "
			     "(with --kernel) nic, nic:virtio, nic:vmxnet3", arg);
	*(const char **)at = arg;
	return 0;
}

static int opt_placement(const struct opt *o, const char *arg, void *at)
{
	enum cpu_relation rel;

	(void)o;
	if (placement_parse(arg, &rel))
		return -1;
	*(const char **)at = arg;
	return 0;
}

static int opt_gap(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return workload_parse_gap(arg, at) ? -1 : 0;
}

static int opt_gap_mode(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (strcmp(arg, "sleep") && strcmp(arg, "spin"))
		return error("unknown gap mode '%s': use sleep or spin", arg);
	*(int *)at = !strcmp(arg, "spin");
	return 0;
}

/* the form now; the CPUs once it is known whose they are
 * (record_check_options: a guest's with --kernel) */
static int opt_rps_cpus(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (tuning_check_mask(arg, -1, NULL))
		return -1;
	*(const char **)at = arg;
	return 0;
}

static int opt_busy(const struct opt *o, const char *arg, void *at)
{
	struct builtin_request *b = at;

	(void)o;
	b->nbusy = parse_cpu_list(arg, b->busy_cpus, BUSY_MAX);
	if (b->nbusy <= 0)
		return b->nbusy ? -1 : error("invalid --busy '%s': no CPU", arg);
	return 0;
}

/* -r: repeat_set says it was given (the guest then gets it, not -r 1) */
int opt_repeat(const struct opt *o, const char *arg, void *at)
{
	struct window_request *w = at;
	uint64_t v;

	if (parse_u64(arg, "--repeat", 1, 1000, &v))
		return -1;
	w->repeat = (int)v;
	w->repeat_set = o->num;
	return 0;
}

static int opt_qemu_arg(const struct opt *o, const char *arg, void *at)
{
	struct lab_request *k = at;

	(void)o;
	if (k->nqemu_args == sizeof(k->qemu_args) / sizeof(k->qemu_args[0]))
		return error("too many --qemu-arg: at most %zu", k->nqemu_args);
	k->qemu_args[k->nqemu_args++] = arg;
	return 0;
}

static int opt_qemu_timeout(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return parse_seconds(arg, "--qemu-timeout", 1, 86400, at);
}

static int opt_append(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (strchr(arg, '\n'))
		return error("--append '%s' has a newline: a kernel command line is one line",
			     arg);
	*(const char **)at = arg;
	return 0;
}

static int opt_cache_model(const struct opt *o, const char *arg, void *at)
{
	struct cachemodel_geometry g;
	char why[512];

	(void)o;
	if (cachemodel_parse(arg, &g, why, sizeof(why)))
		return error("invalid --cache-model: %s", why);
	*(const char **)at = arg;
	return 0;
}

static int opt_accel(const struct opt *o, const char *arg, void *at)
{
	struct lab_request *k = at;

	(void)o;
	if (lab_accel_parse(arg, &k->accel))
		return -1;
	k->accel_set = 1;
	return 0;
}

/* -- CMD and -p bring their own traffic: the options only the built-in
 * ping-pong takes are OPTF_BUILTIN, and the first one given is named
 * when a workload of one's own refuses it (check_own_workload). */
#define B(...) OPT_WITH(OPTF_BUILTIN, __VA_ARGS__)
/* --rps-cpus, --irq-cpu, --busy: with --net nic the responder guest's,
 * set up by the host */
#define B_NIC(...) OPT_WITH(OPTF_BUILTIN | OPTF_HOST_NIC, __VA_ARGS__)

const struct opt record_workload_opts[] = {
	OPT_CALLBACK('d', "duration", R(window), "SECS",
		     "measurement window (default 5)", opt_duration),
	OPT_CALLBACK('w', "warmup", R(window), "SECS",
		     "ping-pong before the window opens (default 1)", opt_warmup),
	B(OPT_CALLBACK_NUM_('n', "count", R(window.count), "N",
			    "stop after N round trips in the window",
			    opt_u64, UINT64_MAX / 2)),
	B(OPT_CALLBACK_(0, "transport", R(builtin.transport), "NAME",
			"udp (default), tcp, pipe or icmp", opt_transport)),
	B(OPT_CALLBACK_('s', "size", R(builtin), "REQ[,RESP]",
			"request and reply payload bytes, as netperf's\n"
			"-r (default 40 both ways, at most 65507)", opt_sizes)),
	B(OPT_CALLBACK_(0, "gap", R(builtin.gap_ns), "TIME",
			"pause between round trips (e.g. 100us)", opt_gap)),
	B(OPT_INT_(0, "burst", R(builtin.burst), 1, WORKLOAD_BURST_MAX, "N",
		   "N requests in flight (udp, tcp), as netperf's\n"
		   "first burst; latency per request (default 1)")),
	B(OPT_CALLBACK_(0, "gap-mode", R(builtin.gap_spin), "MODE",
			"sleep (default) or spin through the gap", opt_gap_mode)),
	OPT_WITH(OPTF_BUILTIN | OPTF_HOST_NIC_ARG,
		 OPT_CALLBACK_(0, "net", R(builtin.network), "NAME",
			       "loopback (default) or veth: two namespaces\n"
			       "made by perpkt, joined by a veth pair; or,\n"
			       "record in guests only, nic[:virtio|vmxnet3]:\n"
			       "two joined by an emulated NIC (virtio default)",
			       opt_net)),
	B(OPT_STRING_(0, "peer", R(builtin.peer), "HOST[:PORT]",
		      "responder is a 'perpkt serve' there (port 12865)")),
	B(OPT_STRING_(0, "peer-key", R(builtin.peer_key), "FILE",
		      "the key that serve made (a copy, mode 0600);\n"
		      "default ~/.config/perpkt/serve.key")),
	B(OPT_STRING_(0, "echo", R(builtin.echo), "HOST:PORT",
		      "responder is an RFC 862 echo service")),
	B(OPT_INT_(0, "flows", R(builtin.flows), 1, WORKLOAD_FLOWS_MAX, "N",
		   "N ping-pong pairs at once, each on its own\n"
		   "ports (1 to 64, default 1); values per round\n"
		   "trip of all flows together, e.g. --flows 4\n"
		   "--client-cpu 0-1 --server-cpu 1,0")),
	B(OPT_CALLBACK_NUM_(0, "client-cpu", R(cpus), "LIST",
			    "CPU of the client (default: last online CPU);\n"
			    "with --flows a list (e.g. 0-3), round robin",
			    opt_role_cpus, 0)),
	B(OPT_CALLBACK_NUM_(0, "server-cpu", R(cpus), "LIST",
			    "CPU of the responder (default: the client's);\n"
			    "with --flows a list, round robin (with --peer\n"
			    "CPUs there: serve answers each flow)",
			    opt_role_cpus, 1)),
	B(OPT_CALLBACK_(0, "placement", R(cpus.placement), "REL",
			"same, smt, shared-cache, cross-cache or\n"
			"cross-socket: CPUs chosen from the topology;\n"
			"with --flows each flow's responder so to its\n"
			"client, clients down the online CPUs", opt_placement)),
	B_NIC(OPT_CALLBACK_(0, "rps-cpus", R(builtin.rps_cpus), "MASK",
			    "RPS mask of the receive queue for the run",
			    opt_rps_cpus)),
	B_NIC(OPT_INT_(0, "irq-cpu", R(builtin.irq_cpu), 0, MAX_CPUS - 1, "N",
		       "move the interface's IRQs to CPU N for the run\n"
		       "(with --net nic, as --rps-cpus: the\n"
		       "responder guest's NIC)")),
	B_NIC(OPT_CALLBACK_(0, "busy", R(builtin), "CPUS",
			    "a user-space spinner on each of CPUS (e.g. 0-3)\n"
			    "for the warm-up and the windows: role 'busy';\n"
			    "with --net nic the responder guest's CPUs,\n"
			    "a shell loop on each while serve runs", opt_busy)),
	B(OPT_BOOL_(0, "no-wait", R(builtin.no_wait),
		    "fail at once while another perpkt is changing\n"
		    "the system (--rps-cpus, --net veth), rather\n"
		    "than wait for it to put it back")),
	OPT_GROUP("\n"
		  "Or a workload of your own, normalised by a count the kernel keeps:\n"
		  "  -- CMD [ARGS...]       run CMD (its process tree has the role\n"
		  "                         'workload'); the window is its lifetime, or -d\n"),
	OPT_CALLBACK('p', "pid", 0, "PID,...",
		     "attach to running processes for -d seconds", opt_pids),
	OPT_CALLBACK(0, "per", R(own.per), "UNIT",
		     "what values are per: rt (round trips of the\n"
		     "built-in workload, the default), packets:IFACE,\n"
		     "rx-packets:IFACE, tx-packets:IFACE,\n"
		     "udp-datagrams[:in|out|both] (in by default),\n"
		     "tcp-segments[:in|out|both], irqs:NAME (lines of\n"
		     "/proc/interrupts) or count:N (your own count)", opt_per),
	OPT_END()
};
#undef B
#undef B_NIC

/* They boot the guest: the host's, never the guest's. */
#define K(...) OPT_WITH(OPTF_HOST, __VA_ARGS__)
const struct opt record_kernel_opts[] = {
	K(OPT_STRING_(0, "kernel", R(kernel.kernel), "IMAGE|DIR",
		      "boot IMAGE (a bzImage, an arm64 Image or a\n"
		      "vmlinux with a PVH entry) under QEMU and do\n"
		      "the same run inside it; DIR: a built kernel\n"
		      "tree (or its O= folder): its image, vmlinux,\n"
		      ".config and modules, its git commit recorded")),
	K(OPT_CALLBACK_(0, "accel", R(kernel), "NAME",
			"with --kernel: auto (default: KVM where this\n"
			"host can run a guest with it, else TCG\n"
			"emulation; the first KVM boot decides and\n"
			"the answer is kept in the cache folder), kvm\n"
			"or tcg (either forced, no fallback)", opt_accel)),
	K(OPT_STRING_(0, "vmlinux", R(kernel.vmlinux), "FILE",
		      "with --kernel: that kernel's vmlinux; its\n"
		      "build-id is checked, reports use its DWARF")),
	K(OPT_CALLBACK_(0, "qemu-arg", R(kernel), "ARG",
			"with --kernel: one more QEMU argument\n"
			"(repeatable, e.g. --qemu-arg=-icount\n"
			"--qemu-arg=shift=1)", opt_qemu_arg)),
	K(OPT_CALLBACK_(0, "qemu-timeout", R(kernel.qemu_timeout), "SECS",
			"with --kernel: stop the guest after SECS",
			opt_qemu_timeout)),
	K(OPT_CALLBACK_(0, "append", R(kernel.append), "ARGS",
			"with --kernel: more kernel command line, after\n"
			"perpkt's own (e.g. mitigations=off); recorded",
			opt_append)),
	K(OPT_STRING_(0, "modules", R(kernel.modules), "DIR",
		      "with --kernel: where the veth module is, a\n"
		      "built tree, its lib/modules/RELEASE or its\n"
		      "INSTALL_MOD_PATH (default: the tree of\n"
		      "--kernel DIR, or ../lib/modules beside the\n"
		      "image, as a .deb unpacks it)")),
	K(OPT_STRING_(0, "config", R(kernel.config), "FILE",
		      "with --kernel: the image's configuration,\n"
		      "checked before booting for what the guest\n"
		      "needs (default: config-RELEASE beside\n"
		      "vmlinuz-RELEASE, or the .config of the tree a\n"
		      "bzImage was built in)")),
	K(OPT_INT_(0, "guest-cpus", R(kernel.cpus), 1, LAB_GUEST_CPUS_MAX, "N",
		   "with --kernel: vCPUs of the guest, and with\n"
		   "--net nic of each (1 to 8, default 2; 1 for\n"
		   "--exact on CPU 0 only);\n"
		   "--irq-cpu and --rps-cpus are checked against\n"
		   "it before booting")),
	K(OPT_STRING_(0, "peer-kernel", R(kernel.peer_kernel), "IMAGE|DIR",
		      "with --net nic: the responder guest\n"
		      "boots IMAGE (or DIR's) instead (its modules\n"
		      "and config-RELEASE found beside it, as a .deb\n"
		      "unpacks them)")),
	K(OPT_STRING_(0, "guest-perpkt", R(kernel.guest_perpkt), "FILE",
		      "with --kernel: perpkt binary for the guest\n"
		      "(another architecture's picks its QEMU)")),
	K(OPT_BOOL_(0, "exact", R(kernel.exact),
		    "with --kernel: count every instruction the\n"
		    "emulated CPUs execute in the window, exactly,\n"
		    "with a QEMU TCG plugin, instead of sampling;\n"
		    "each -r window is a boot of its own (with\n"
		    "--net nic a pair of boots); NAPI polls too;\n"
		    "on QEMU's instruction clock (-icount), so a\n"
		    "kernel booted again executes the same\n"
		    "instructions (not with --net nic)")),
	K(OPT_BOOL_(0, "no-exact-paths", R(kernel.no_paths),
		    "with --exact: count calls, but keep no call\n"
		    "paths (no inclusive counts, --callers or\n"
		    "flame graph; a smaller profile)")),
	K(OPT_CALLBACK_(0, "cache-model", R(kernel.cache_model), "MODEL",
			"CPU: skylake, skylake-server,\n"
			"icelake-server, zen3 or neoverse-n1 (their\n"
			"caches: docs/guide.md); or l1i=32K:8,\n"
			"l1d=48K:12,l2=2M:16,line=64 (size:ways), or\n"
			"a CPU then changes (skylake,l2=1M:16); with\n"
			"--exact: L1I, L1D and L2 misses per round\n"
			"trip from a model of one core's caches in\n"
			"the plugin (it costs time)", opt_cache_model)),
	OPT_END()
};
#undef K

/* -g (o->num 1) and --no-call-graph (-1) */
static int opt_call_graph(const struct opt *o, const char *arg, void *at)
{
	int *callchain = at;

	(void)arg;
	if (*callchain == -o->num)
		return error("-g and --no-call-graph both given: choose one");
	*callchain = (int)o->num;
	return 0;
}

static int opt_ring_pages(const struct opt *o, const char *arg, void *at)
{
	uint64_t v;

	(void)o;
	if (parse_u64(arg, "--ring-pages", 1, 1 << 20, &v))
		return -1;
	if (v & (v - 1))
		return error("--ring-pages must be a power of two, not %llu",
			     (unsigned long long)v);
	*(unsigned *)at = (unsigned)v;
	return 0;
}

/* checked here for its form, there for its CPUs */
static int opt_remote_cpus(const struct opt *o, const char *arg, void *at)
{
	int cpus[MAX_CPUS];

	(void)o;
	if (strcmp(arg, "all") &&
	    (strlen(arg) >= 64 || parse_cpu_list(arg, cpus, MAX_CPUS) <= 0))
		return error("invalid --remote-cpus '%s': give all or a "
			     "CPU list such as 0,2-3", arg);
	*(const char **)at = arg;
	return 0;
}

static int opt_window_marks(const struct opt *o, const char *arg, void *at)
{
	struct record_options *r = at;

	(void)o;
	(void)arg;
	r->builtin.window_marks = 1;
	r->sampling.counting_only = 1;
	return 0;
}

static int opt_between(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return parse_seconds(arg, "--between", 0.01, 3600, at);
}

static int opt_fifo_timeout(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	return parse_seconds(arg, "--fifo-timeout", 0.1, 3600, at);
}

/* The guest's profile comes out to the host's: -o is the host's. */
#define H(...) OPT_WITH(OPTF_HOST, __VA_ARGS__)
const struct opt record_sampling_opts[] = {
	H(OPT_STRING_('o', "output", R(output), "FILE",
		      "profile to write (default perpkt.json; - for\n"
		      "standard output)")),
	H(OPT_BIT_(0, "force-output", R(output_flags), PROFILE_OUTPUT_FORCE,
		   FORCE_OUTPUT_HELP)),
	OPT_CALLBACK_NUM('c', "period", R(sampling.period), "N",
			 "sample period, in events or ns for cpu-clock\n"
			 "(default: 4 kHz per CPU, 1 kHz for cpu-clock,\n"
			 "at most a quarter of the kernel's limit\n"
			 "perf_event_max_sample_rate; reports show what\n"
			 "sampling cost the round trip)", opt_u64, UINT64_MAX / 2),
	OPT_CALLBACK_NUM('F', "freq", R(sampling.freq), "HZ",
			 "sample at this frequency instead of a period",
			 opt_u64, 1000000),
	OPT_CALLBACK_NUM('g', "call-graph", R(sampling.callchain), NULL,
			 "record kernel callchains (aggregated stacks);\n"
			 "with cpu-clock a short one (16 frames) is\n"
			 "kept by default, to charge a sample at an\n"
			 "irq-enable point to its caller", opt_call_graph, 1),
	OPT_CALLBACK_NUM(0, "no-call-graph", R(sampling.callchain), NULL,
			 "no callchains at all", opt_call_graph, -1),
	OPT_CALLBACK(0, "ring-pages", R(sampling.ring_pages), "N",
		     "ring buffer data pages per CPU, a power of two\n"
		     "(default 128; as root up to 512, by CPU count)",
		     opt_ring_pages),
	OPT_END()
};

/* The entries of record_sampling_opts by name, for record's help order */
#define SAMPLING(i) OPT_INCLUDE_ONE(&record_sampling_opts[i])

static const struct opt record_opts[] = {
	SAMPLING(0), SAMPLING(1),
	OPT_WITH(OPTF_HOST_EXACT,  /* --exact: one boot per window */
		 OPT_CALLBACK_NUM_('r', "repeat", R(window), "N",
				   "N measurement windows of -d each, one after the\n"
				   "other, kept apart so every figure has a spread\n"
				   "(default, for the ping-pong here: 5 windows\n"
				   "sharing -d, restarted before each on loopback;\n"
				   "-r 1: one window, and no spread for diff)",
				   opt_repeat, 1)),
	OPT_BOOL(0, "restart", R(window.restart),
		 "start the ping-pong anew before each window:\n"
		 "new processes and sockets on the same CPUs, so\n"
		 "the spread covers what differs between runs"),
	OPT_STRING(0, "turn-on", R(window.turn_on), "CMD",
		   "compare a setting by turns in one ping-pong:"),
	OPT_STRING(0, "turn-off", R(window.turn_off), "CMD",
		   "sh -c CMD switches it on before each odd window\n"
		   "and off before each even one, and off at the\n"
		   "end; -r N windows a side (default 20 of 0.1 s,\n"
		   "--between 0.05); 'perpkt diff PROFILE' compares\n"
		   "the sides (docs/diff.md)"),
	OPT_CALLBACK(0, "between", R(window.between), "SECONDS",
		     "with -r: the workload runs SECONDS with the\n"
		     "counters off before each window after the\n"
		     "first, its latency kept beside the window's\n"
		     "(the observer effect window by window)", opt_between),
	OPT_STRING(0, "window-fifo", R(window.fifo), "CTL[,ACK]",
		   "\n"
		   "tell another tool each window's edges: enable\n"
		   "and disable lines to the FIFO CTL, each waited\n"
		   "for until ack comes on ACK: perf record's\n"
		   "control FIFOs, so that a perf started disabled\n"
		   "samples just perpkt's windows (docs/workload.md)"),
	OPT_STRING(0, "gap-fifo", R(window.gap_fifo), "CTL[,ACK]",
		   "\n"
		   "the same for the gaps between windows: enable\n"
		   "as each closes, disable before the next opens\n"
		   "(two tools sampling one workload by turns)"),
	OPT_CALLBACK(0, "fifo-timeout", R(window.fifo_timeout), "SECONDS",
		     "\n"
		     "how long --window-fifo and --gap-fifo wait for\n"
		     "each ack before the run fails (default 10; the\n"
		     "workload runs meanwhile)", opt_fifo_timeout),
	OPT_INCLUDE(record_workload_opts),
	OPT_STRING('e', "event", R(sampling.events), "LIST",
		   "libpfm4 events, comma-separated, each sampled\n"
		   "with its own period (default cycles,instructions;\n"
		   "without a PMU: cpu-clock, instructions n/a)"),
	SAMPLING(2), SAMPLING(3), SAMPLING(4), SAMPLING(5),
	OPT_BOOL(0, "user", R(sampling.include_user),
		 "include user space (reported as one [user] row)"),
	OPT_CALLBACK('C', "cpus", R(cpus), "LIST",
		     "CPUs to sample, e.g. 0,2-3 (default: the client's,\n"
		     "the server's and perpkt's own)", opt_cpus),
	OPT_BOOL('a', "all-cpus", R(cpus.all), "sample every online CPU"),
	SAMPLING(6),
	OPT_BOOL(0, "no-fallback", R(sampling.no_fallback),
		 "fail instead of using cpu-clock without a PMU"),
	OPT_BOOL(0, "no-remote", R(builtin.no_remote),
		 "with --peer: leave the responder's side out (by\n"
		 "default perpkt serve samples its own kernel\n"
		 "over the window and the profile holds both)"),
	OPT_CALLBACK(0, "remote-cpus", R(builtin.remote_cpus), "CPUS",
		     "with --peer: the CPUs serve samples, all or a\n"
		     "list (default: the responder's, all when it is\n"
		     "not pinned; a NIC's softirqs run on its IRQ's)",
		     opt_remote_cpus),
	OPT_INCLUDE(record_kernel_opts),
	OPT_CALLBACK(0, "window-marks", 0, NULL,
		     "count only, and mark the window's edges with\n"
		     "instructions the plugin sees (what --exact\n"
		     "runs inside the guest)", opt_window_marks),
	RECORD_VERBOSITY(),
	OPT_HELP(),
	OPT_END()
};
#undef H
#undef SAMPLING

void record_option_seen(const struct opt *o, void *args)
{
	struct record_options *r = args;

	if ((o->flags & OPTF_BUILTIN) && !r->builtin_only)
		r->builtin_only = o->long_name;
}

const struct opt_usage record_usage = {
	.head =
"usage: perpkt record [options] [-- CMD [ARGS...]]\n"
"\n"
"Run a ping-pong workload (UDP on loopback by default) or CMD, sample\n"
"kernel instruction pointers on the CPUs it runs on, and save a\n"
"self-contained profile.\n"
"\n",
	.stop = 1,
	.seen = record_option_seen,
};

int record_parse_args(int argc, char **argv, struct record_options *o,
		      int *help)
{
	int next = options_parse_only(argc, argv, record_opts, &record_usage, o);

	if (next == OPTIONS_HELP)
		*help = 1;
	if (next <= 0)
		return next;
	return record_check_kernel(o) || record_check_record(o) ||
	       record_check_options(o, argc, argv, next) ||
	       record_default_windows(o) ? -1 : 0;
}

void record_apply_verbosity(const struct record_options *o)
{
	if (o->quiet || o->verbose)
		parse_verbosity(o->quiet ? 'q' : 'v');
}

/* Append a copy of "<prefix><s>" to o's guest arguments. */
static int guest_push(struct lab_request *k, size_t *cap, const char *prefix,
		      const char *s)
{
	char *w;

	if (ARRAY_GROW(k->guest_args, k->nguest_args + 2, *cap))
		return error("out of memory");
	w = malloc(strlen(prefix) + strlen(s) + 1);
	if (!w)
		return error("out of memory");
	strcat(strcpy(w, prefix), s);
	k->guest_args[k->nguest_args++] = w;
	k->guest_args[k->nguest_args] = NULL;
	return 0;
}

struct guest_walk {
	struct record_options *o;
	size_t cap;
	int oom;   /* guest_push failed, and said so */
};

/* Whether entry e, its value arg, is the host's alone under --kernel:
 * left out of the guest's record. */
static int host_only(const struct opt *e, const char *arg,
		     const struct record_options *o)
{
	const char *net = o->builtin.network;

	return (e->flags & OPTF_HOST) ||
	       ((e->flags & OPTF_HOST_EXACT) && o->kernel.exact) ||
	       ((e->flags & OPTF_HOST_NIC) && net && !strncmp(net, "nic", 3)) ||
	       ((e->flags & OPTF_HOST_NIC_ARG) && !strncmp(arg, "nic", 3));
}

static int guest_option(void *ctx, const struct opt *e, const char *arg,
			int long_form)
{
	struct guest_walk *g = ctx;
	struct lab_request *k = &g->o->kernel;
	char letter[2] = { (char)e->short_name, '\0' };

	if (host_only(e, arg, g->o))
		return 0;
	/* in full: an abbreviation of stat's might be another option's
	 * in record's table */
	g->oom = (long_form ? guest_push(k, &g->cap, "--", e->long_name) :
			      guest_push(k, &g->cap, "-", letter)) ||
		 (arg && guest_push(k, &g->cap, "", arg));
	return g->oom ? -1 : 0;
}

int record_guest_args(struct record_options *o, int argc, char **argv,
		      const struct opt *opts)
{
	struct guest_walk g = { o, 0, 0 };
	struct lab_request *k = &o->kernel;
	int next, ret = 0;

	record_guest_args_free(o);
	next = options_walk(argc, argv, opts, 1, guest_option, &g);
	if (next < 0)
		ret = g.oom ? -1 :
		      error("cannot read the command line again for the guest");
	/* one window a boot with --exact, and no default windows of the
	 * guest's own: the host resolved them */
	if (!ret && (o->kernel.exact || !o->window.repeat_set))
		ret = guest_push(k, &g.cap, "", "-r") ||
		      guest_push(k, &g.cap, "", "1");
	if (!ret && next < argc)
		ret = guest_push(k, &g.cap, "", "--");
	for (; !ret && next < argc; next++)
		ret = guest_push(k, &g.cap, "", argv[next]);
	if (ret)
		record_guest_args_free(o);
	return ret;
}

int record_guest_argv(struct record_options *o, int argc, char **argv)
{
	return record_guest_args(o, argc, argv, record_opts);
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
