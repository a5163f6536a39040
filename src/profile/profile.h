/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_H
#define PERPKT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The profile file: everything one `perpkt record` measured, in memory.
 * It is self-contained: raw kernel addresses plus the kallsyms entries
 * they fall in, so a report can be made on another machine.
 * On disk it is versioned JSON; docs/profile-format.md describes it.
 */

#define PROFILE_FORMAT "perpkt-profile"
/* 2: warmup_ns instead of warmup_s, and "units"; 3: call chains as
 * "stack_nodes" (profile/stack-nodes.h); 1 and 2 are still read */
#define PROFILE_VERSION 3
/* The largest count a profile holds: JSON integers are int64_t
 * (jansson's json_int_t). The reader refuses more (reader_u64), and the
 * writer refuses to write more (profile_json_check), so what one writes
 * the other reads. */
#define PROFILE_INT_MAX INT64_MAX

/* Who a sample ran for, from its pid/tid. */
enum role {
	ROLE_CLIENT,
	ROLE_RESPONDER,
	ROLE_SELF,     /* perpkt's own process (ring reading, control) */
	ROLE_IDLE,     /* pid 0: idle task, and softirqs run in its context */
	ROLE_OTHER,
	ROLE_WORKLOAD, /* the process tree of record -- CMD or -p PID */
	ROLE_BUSY,     /* --busy's spinners: load, never the workload */
	ROLE_MAX,
};
const char *role_name(enum role r);
int role_parse(const char *s, enum role *out);

/* Measured value of one sample: cycles, instructions or nanoseconds. */
struct profile_event {
	char *name;        /* what was measured, e.g. "cycles" or "cpu-clock" */
	char *requested;   /* what the user asked for */
	char *pmu;         /* PMU libpfm4 resolved it to, e.g. "perf", "skl" */
	char *encoding;    /* libpfm4's full name, e.g. "skl::INST_RETIRED:ANY_P:k=1" */
	char *unit;        /* "cycles", "instructions", "ns", "events" */
	uint32_t type;     /* perf_event_attr.type */
	uint64_t config;   /* perf_event_attr.config */
	uint64_t period;   /* sample period in `unit`; 0 with freq */
	uint64_t freq;     /* samples per second asked for (-F), else 0 */
	uint64_t samples;  /* samples received */
	uint64_t lost;     /* records reported lost by PERF_RECORD_LOST */
	uint64_t throttled;/* PERF_RECORD_THROTTLE seen */
	uint64_t count;    /* counted total over the window, all CPUs */
	uint64_t enabled_ns, running_ns;  /* running < enabled: multiplexed */
	/* 1: user space was sampled too (--user, :u=1); 0: kernel only;
	 * -1: not in the file (older profiles), see profile_event_user() */
	int user;
};

/* Samples taken in user space (with --user) are summed at this ip. */
#define PROFILE_USER_IP 1ULL

/* Aggregated samples for one (event, cpu, ip, role). */
struct profile_sample {
	uint32_t event;    /* index into profile.events */
	uint32_t cpu;
	uint64_t ip;
	enum role role;
	uint64_t count;    /* number of samples */
	uint64_t weight;   /* sum of their periods, in the event's unit */
	uint32_t repeat;   /* measurement window, 0..nrepeats-1 */
	/* not in the file: what the report model read from the sample's
	 * context (PROFILE_CTX_*); 0 as read */
	uint8_t context;
	/* not in the file either: for a helper (bucket rule kind "caller"),
	 * the callchain frame whose bucket it takes; 0 for its own */
	uint64_t bucket_ip;
	/* in the file ("calls"), exact profiles only: of the executions at
	 * ip, those that entered it by a call (lab/plugin/callpath.h) */
	uint64_t calls;
};
/* The model has charged the sample to its place (model-irq-enable.c) */
#define PROFILE_CTX_WORK 1
/* ... and found it idle: the idle task, no interrupt work on its stack */
#define PROFILE_CTX_IDLE 2

/* Kernel callchains (-g), aggregated: one entry per distinct stack. */
struct profile_stack {
	uint32_t event;
	enum role role;
	uint64_t count;    /* samples with this stack */
	uint64_t weight;   /* sum of their periods */
	uint32_t depth;
	uint64_t *ips;     /* leaf first: ips[0] is the sampled ip */
	/* record --turn-on: the side whose windows it was sampled in, 1
	 * off, 2 on ("turn": 0 or 1 in the file); 0 not by turns */
	int turn;
};

/* A kallsyms entry referenced by samples. */
struct profile_ksym {
	uint64_t addr;
	uint64_t size;     /* up to the next symbol in the full table */
	char type;         /* 't', 'T', 'W', ... */
	char *name;
	char *module;      /* NULL for the core kernel */
};

/* A loaded module's text sections at record time, runtime addresses
 * from /sys/module/NAME/sections/: where its own DWARF is placed. */
struct profile_section {
	char *name;        /* ".text", ".text.unlikely", ".init.text" ... */
	uint64_t addr;
};
struct profile_module {
	char *name;        /* as kallsyms names it */
	struct profile_section *sections;
	size_t nsections;
};

/* A process of the workload, over the window. */
struct profile_task {
	enum role role;
	int pid;
	int cpu;             /* CPU it was pinned to, -1 if not pinned */
	uint64_t cpu_ns;     /* on-CPU time, from /proc/<pid>/schedstat */
	uint64_t wait_ns;    /* runnable, waiting for a CPU (schedstat) */
	uint64_t user_ns;    /* from /proc/<pid>/stat: tick resolution */
	uint64_t system_ns;
	uint64_t switches;   /* timeslices, from schedstat */
	/* ns between the two reads of its schedstat, which lie outside the
	 * window(s): what cpu_ns spans (0: unknown, older profiles) */
	uint64_t span_ns;
};

/* Where one CPU's time went over the window, from /proc/stat. */
struct profile_cpu {
	int cpu;
	/* /proc/stat over the window; other_ns is its steal column: time
	 * the hypervisor ran something else on this vCPU */
	uint64_t user_ns, system_ns, irq_ns, softirq_ns, idle_ns, other_ns;
	uint64_t lost;       /* sample records lost on this CPU, all events */
	uint64_t throttled;  /* PERF_RECORD_THROTTLE on this CPU */
};

/* An exact count of one event on one CPU over the window. */
struct profile_count {
	char *name;          /* "cycles", "context-switches", ... */
	int cpu;
	uint64_t value;      /* scaled by enabled/running if multiplexed */
	uint64_t raw;        /* as read */
	uint64_t enabled_ns, running_ns;
};

/* Interrupts or softirqs of one source on one CPU over the window,
 * from /proc/interrupts and /proc/softirqs; in exact mode also the NAPI
 * polls, the calls of the function named, counted by the QEMU plugin
 * (every vCPU, zeros included: absent means not counted). */
#define PROFILE_IRQ_NAPI "napi"
struct profile_irq {
	char *kind;          /* "irq", "softirq" or "napi" */
	char *name;          /* "NET_RX", "LOC", "24", "__napi_poll" */
	char *desc;          /* "virtio0-input.0", or NULL */
	int cpu;
	uint64_t count;
};

/* An event that was asked for but cannot be measured here: reports show
 * it as "not available", never as zero. */
struct profile_missing {
	char *name;
	char *reason;
};

/* A test condition (the netdev threads asked for these): ordered
 * key/value text, e.g. "cpu.topology" -> "2 CPUs, 1 socket, ...". */
struct profile_condition {
	char *key;
	char *value;
};

struct latency_summary {
	uint64_t count;
	uint64_t min, p50, p90, p99, p999, p9999, max;  /* ns; p9999 0: unknown */
	double mean, stddev;                     /* ns */
	/* round trips over stall_cut ns set apart as stalls
	 * (profile/latency-stalls.h): how many, their sum, and the mean
	 * of the others; stalls_known 0 when the profile cannot say */
	int stalls_known;
	uint64_t stalls, stall_cut;
	double stall_ns, mean_kept, sd_kept;
};

/* One bucket of the round-trip latency histogram: [lo, hi) ns. */
struct profile_hist_bucket {
	uint64_t lo, hi;
	uint64_t count;
};

/* One measurement window of a record --repeat N run. The profile's own
 * round_trips, window_ns and latency cover all windows together. */
struct profile_repeat {
	uint64_t round_trips;
	uint64_t window_ns;
	struct latency_summary latency;
	/* the round trips before this window, counters off: the gap since
	 * the last one (record --between), the warm-up for the first;
	 * count 0 when not recorded */
	struct latency_summary before;
	uint64_t *counts;        /* per event (profile.events), all CPUs */
	uint64_t client_cpu_ns;  /* schedstat, 0 when unknown */
	uint64_t responder_cpu_ns;
	uint64_t snapshot_ns;    /* what those two span (0: unknown) */
	/* those two read by the workload at the window's own edges, so
	 * snapshot_ns is window_ns (not in the file) */
	int cpu_at_edges;
	/* the host's speed on the client's CPU just before the window
	 * (system/host-speed.h): ns of one getppid(), of 1000 dependent
	 * integer steps; 0: not measured */
	double host_syscall_ns, host_loop_ns;
	/* cut short (SIGINT, a responder that died): "complete": false in
	 * the file, with the share of the asked-for window it reached */
	int partial;
	double fraction;
};

/*
 * What the values are per (--per): round trips of the built-in
 * workload, or a count the kernel keeps, read at the window's edges.
 * profile.round_trips holds the number of units in the window.
 */
struct profile_unit {
	char *spec;          /* "rt", "udp-datagrams:in", "packets:veth0" */
	char *name;          /* singular noun: "round trip", "udp-datagram" */
	char *source;        /* where it was counted, for the reader */
	/* Counter units: the same counter outside the window, to tell the
	 * workload's traffic from the rest (outside_ns 0: not measured) */
	uint64_t outside;
	uint64_t outside_ns;
	int outside_busy;    /* 1: the workload ran outside the window too
			      * (-p, -d), so "outside" includes it */
};

struct profile {
	int version;
	char *tool_version;
	char *created;        /* ISO 8601 UTC */
	char *command;        /* the command line that recorded it */

	/* system */
	char *kernel_release;
	char *kernel_version;
	char *build_id;       /* hex, from /sys/kernel/notes; NULL if unknown */
	char *machine;        /* uname -m ("x86_64"); NULL in older profiles */
	char *hostname;
	char *cpu_model;
	int ncpus;
	uint64_t text_addr;   /* runtime address of _text (KASLR) */

	/* workload */
	struct profile_unit unit;  /* spec NULL: read as "rt" */
	char *workload_command;    /* -- CMD ARGS, or "-p PID,..."; NULL for
				    * the built-in workload */
	char *transport;      /* "udp"; "command" for a workload of one's own */
	char *network;        /* "loopback" */
	uint32_t message_size;
	int client_cpu, server_cpu;
	/* --flows: flow i's client and responder CPU (with --peer the
	 * responder's there; -1: not pinned), flow 0's as above; NULL and
	 * 0 with one flow */
	struct profile_flow_cpus { int client, server; } *flow_cpus;
	size_t nflow_cpus;
	double warmup_s;
	uint64_t round_trips; /* inside the window the counters were enabled */
	uint64_t window_ns;   /* length of that window */
	/* what was asked: -d x --repeat in ns (0 with -n, or unknown), and
	 * warm-up plus that; wall_ns: how long the run took from the
	 * workload's start to the last window's close (0: unknown). Reports
	 * flag windows cut short or overrun from them. */
	uint64_t asked_window_ns, asked_ns, wall_ns;
	struct latency_summary latency;
	/* round trips of the warm-up, counters off, timed the same way: what
	 * the round trip is without the observer (count 0: unknown) */
	struct latency_summary latency_unsampled;
	struct profile_hist_bucket *histogram;  /* non-empty buckets, by lo */
	size_t nhistogram;
	/* linear buckets per power of two: no bucket is wider than
	 * 1/hist_sub_buckets of its lower bound, and values below
	 * hist_sub_buckets ns are exact (32 in profiles before it was stated) */
	uint32_t hist_sub_buckets;

	/* counters */
	char *mode;           /* "hardware", "software-clock" or "exact" (emulated
			       * instructions counted by record --kernel --exact) */
	char *fallback_reason;/* why software-clock was used, else NULL */
	/* The CPU clock that turned the sample rate into a cycle period,
	 * and where its value came from; 0 and NULL when none was used */
	double clock_mhz;
	char *clock_source;   /* "cpufreq cpuinfo_max_freq", "calibrated", ... */
	int *cpus;            /* CPUs sampled */
	size_t ncpus_sampled;
	struct profile_event *events;
	size_t nevents;
	struct profile_sample *samples;
	size_t nsamples;
	struct profile_ksym *ksyms;
	size_t nksyms;
	/* the modules of ksyms, with their section addresses (none in
	 * older profiles, nor when /sys/module was not readable) */
	struct profile_module *modules;
	size_t nmodules;
	/* every text function of the kernel by folded name, compact
	 * (profile/nameset.h); NULL in older profiles or when unreadable */
	char *kernel_functions;

	struct profile_repeat *repeats; /* one per window; may be empty */
	size_t nrepeats;

	struct profile_stack *stacks; /* empty unless recorded with -g */
	size_t nstacks;

	struct profile_task *tasks;   /* client, responder: may be empty */
	size_t ntasks;
	struct profile_cpu *cpu_times;/* per sampled CPU: may be empty */
	size_t ncpu_times;
	struct profile_condition *conditions;
	size_t nconditions;
	struct profile_count *counts; /* per (event, CPU), sampled or not */
	size_t ncounts;
	struct profile_irq *irqs;     /* nonzero deltas only */
	size_t nirqs;
	struct profile_missing *missing;
	size_t nmissing;

	/* Two-host mode (record --peer): the responder's side, a profile
	 * of its own that `perpkt serve` recorded on the peer over the
	 * same run (no remote of its own); NULL when there is none, and
	 * then remote_missing says why, if it was asked for. */
	struct profile *remote;
	char *remote_missing;

	/* not in the file: table and diff --include-partial set it */
	int include_partial;
};

/* Whether repeat k enters means and spreads: it has round trips, and
 * is complete unless include_partial. */
int profile_repeat_used(const struct profile *p, size_t k);
/* Repeats cut short, 0 when every window is complete. */
size_t profile_npartial(const struct profile *p);

/* Say on stderr (info) which windows of the profile at `path` were cut
 * short, and whether they are left out (table, diff). */
void profile_note_partial(const struct profile *p, const char *path);

/* "perpkt ARGS...": the command line that made a profile (malloc'd;
 * NULL when out of memory). */
char *profile_command_line(int argc, char **argv);

/* Samples in a stable order, by (event, repeat, ip, cpu, role), so
 * profiles diff with plain tools. */
void profile_sort_samples(struct profile *p);

/* Append a condition (copies both strings); -1 when out of memory. */
int profile_add_condition(struct profile *p, const char *key, const char *value);
/* The value of a condition, NULL if absent. */
const char *profile_condition(const struct profile *p, const char *key);
/* Steal time over the window (cpu_times' other_ns) and all the time of
 * the same CPUs: the client's and the responder's CPUs where the
 * profile has times for them, else every sampled CPU. 0 when the
 * profile has no CPU times. */
int profile_steal(const struct profile *p, int client_cpu, int server_cpu,
		  double *steal_ns, double *all_ns);

/* report/diff --role, --cpu, --pid: what was kept (src/profile/sample-filter.c);
 * never written to a profile file. */
#define PROFILE_COND_FILTER "report.filter"
/* report/diff/table --force: what is inconsistent in a profile read
 * anyway; reports show it at the top. Never written to a profile. */
#define PROFILE_COND_FORCED "report.inconsistent"
/* The remote side of a two-host profile (record --peer) says so:
 * "remote: the responder's host, recorded by perpkt serve". */
#define PROFILE_COND_PEER_SIDE "peer.side"
/* Serve's side says who asked for it: "user U on host H from ADDR,
 * authenticated (key ID)". */
#define PROFILE_COND_PEER_CLIENT "peer.client"
/* arm64: whether the PMU's overflow interrupt is a pseudo-NMI, "on
 * (...)" or "off (...)" (src/system/conditions.c); absent elsewhere and
 * in older profiles, which kernel.cmdline then tells. */
#define PROFILE_COND_PSEUDO_NMI "kernel.pseudo_nmi"
/* How record --kernel ran the guest: "kvm", or "tcg (why)". */
#define PROFILE_COND_ACCEL "lab.accel"
/* The vmlinux record --kernel --vmlinux checked: report and diff use
 * its DWARF when no other symbols are given and the file is there. */
#define PROFILE_COND_VMLINUX "lab.vmlinux"
/* The QEMU command line record --kernel ran (-icount changes what the
 * emulated PMU counts). */
#define PROFILE_COND_QEMU_COMMAND "lab.qemu_command"
/* record --kernel --exact --cache-model: the cache model's figures and
 * what it is, "skylake: L1I 32 KiB 8-way, ...; per vCPU, LRU, ...";
 * its misses are the events PROFILE_MISS_L1I, _L1D and _L2 (unit
 * "events"), after "instructions". */
#define PROFILE_COND_MISS_MODEL "lab.miss_model"
#define PROFILE_MISS_L1I "l1i-misses"
#define PROFILE_MISS_L1D "l1d-misses"
#define PROFILE_MISS_L2 "l2-misses"
/* record --kernel: whether the guest ran on QEMU's instruction clock,
 * "yes: -icount shift=1 (2 ns an instruction), 1 vCPU, ...", or "no:
 * WHY". A deterministic guest's times are virtual: instructions times
 * 2^shift ns. */
#define PROFILE_COND_DETERMINISTIC "lab.deterministic"
/* The icount shift of a deterministic guest's profile, else -1. */
int profile_icount_shift(const struct profile *p);
/* 1 when recorded in a guest under QEMU's TCG: its clock runs at the
 * emulator's pace, so only samples per round trip compare. */
int profile_emulated(const struct profile *p);
#define PROFILE_EMULATED_NOTE \
	"recorded under QEMU TCG emulation: times are emulated, not the hardware's; samples per round trip are the figure to compare between kernels (they follow the instructions emulated, and the host's load), not times"
/* record --kernel --exact: the one event is the emulated CPUs'
 * instructions, counted by a QEMU TCG plugin between the window's
 * marks; its samples are instruction addresses with their executions. */
#define PROFILE_EXACT_MODE "exact"
#define PROFILE_EXACT_PMU "qemu-tcg-plugin"
int profile_exact(const struct profile *p);
#define PROFILE_EXACT_NOTE \
	"exact mode: instructions the emulated CPUs executed inside the window, counted one by one by a QEMU TCG plugin; exact and repeatable, not time, with no sampling error (a spread, where shown, is across boots); times in this report are emulated and follow the host's load"
/* The same on the instruction clock (profile_icount_shift >= 0). */
#define PROFILE_EXACT_DETERMINISTIC_NOTE \
	"exact mode: instructions the emulated CPU executed inside the window, counted one by one by a QEMU TCG plugin; not time, and no sampling error"
/* What the profile's values are per: "round trip" (also for profiles
 * from before --per), "udp-datagram", ...; and the --per spec, "rt". */
const char *profile_unit_name(const struct profile *p);
const char *profile_unit_spec(const struct profile *p);
/* For column heads: "RT", "pkt", "dgram", "seg", "irq", "txn". */
const char *profile_unit_abbrev(const struct profile *p);
/* 1 for the built-in workload's round trips. */
int profile_unit_is_rt(const struct profile *p);

/* Whether event e sampled user space too: its "user", else (older
 * profiles) the encoding's ":u=1" or the command's --user. */
int profile_event_user(const struct profile *p, size_t e);

/*
 * Why hardware event e measured nothing although its group ran (the
 * kernel accepted it, but the PMU does not count it: QEMU's
 * INST_RETIRED without -icount), or counted plenty but delivered no
 * sample; NULL when it counts or is not a hardware event. Reports show
 * it as not counting, never as a zero, and derive no IPC from it.
 */
const char *profile_event_not_counting(const struct profile *p, size_t e);

/*
 * Whether the reader would take doc's integers back (a sum in merge
 * past PROFILE_INT_MAX would not): 0, or -1 after "cannot write
 * <what>: field '<path>' is N, more than a profile holds".
 */
struct json_t;
int profile_json_check(struct json_t *doc, const char *what);
/* Atomic: written to a temporary file beside `path`, then renamed.
 * "-" writes it to stdout. flags: profile/output.h's
 * PROFILE_OUTPUT_FORCE or 0. */
int profile_write(const struct profile *p, const char *path, unsigned flags);
/* On failure prints "cannot read profile '<path>': ..." and returns -1.
 * "-" reads stdin. A profile whose fields disagree (profile/read-check.h)
 * is an error naming the field; with force it is read, with a warning
 * and condition PROFILE_COND_FORCED saying what is wrong. */
int profile_read(struct profile *p, const char *path);
int profile_read_force(struct profile *p, const char *path, int force);
/* The same from a document in memory (a peer's profile from the
 * control channel); `what` names it in messages. */
int profile_read_json(struct profile *p, const char *text, size_t len,
		      const char *what);
/* record --peer: the side a report, diff or table reads (--side).
 * "local" (or NULL) leaves p as it is; "remote" replaces p by the
 * responder's side. -1 after printing why when there is none. */
int profile_take_side(struct profile *p, const char *side, const char *path);
/* --side's value: "local" or "remote"; -1 after printing why not. */
int profile_side_check(const char *side);
/* p's events and their strings freed, none left. */
void profile_events_free(struct profile *p);
void profile_free(struct profile *p);

#endif
