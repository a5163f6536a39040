/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_LAB_H
#define PERPKT_LAB_LAB_H

#include <signal.h>
#include <stddef.h>

#include "lab/kernel-tree.h"
#include "profile/profile.h"

/* What --accel asks (lab/accel.h decides). */
enum lab_accel_want {
	LAB_ACCEL_AUTO,  /* KVM when this host can run a guest with it */
	LAB_ACCEL_KVM,
	LAB_ACCEL_TCG,
};

/* record's --kernel and the options that go with it. */
struct lab_request {
	const char *kernel;        /* --kernel IMAGE; NULL: not in a guest */
	/* --kernel DIR (--peer-kernel DIR): the built tree, kernel (and
	 * vmlinux, config, modules when not given) from it; NULL: an image */
	const struct lab_tree *tree, *peer_tree;
	const char *vmlinux;       /* --vmlinux: its DWARF, build-id checked */
	const char *guest_perpkt;  /* --guest-perpkt: binary for the guest */
	const char *qemu_args[32]; /* --qemu-arg, in order */
	size_t nqemu_args;
	double qemu_timeout;       /* --qemu-timeout; 0: from the run length */
	int exact;                 /* --exact: count instructions with the
				    * QEMU plugin, one boot per window */
	int no_paths;              /* --no-exact-paths: calls, no call paths */
	const char *cache_model;   /* --cache-model: its words, checked
				    * (lab/plugin/cachemodel.h); NULL: none */
	const char *append;        /* --append: after perpkt's own kernel
				    * command line */
	const char *modules;       /* --modules: lib/modules/R or an
				    * INSTALL_MOD_PATH */
	const char *config;        /* --config: the kernel's configuration */
	int cpus;                  /* --guest-cpus: vCPUs of each guest; 0:
				    * LAB_GUEST_CPUS */
	const char *peer_kernel;   /* --peer-kernel: the responder guest's
				    * image with --net nic; NULL: kernel */
	enum lab_accel_want accel; /* --accel */
	int accel_set;             /* --accel given, auto too */
	int one_cpu;               /* the run uses CPU 0 only (same-CPU
				    * placement, no --irq-cpu, --rps-cpus,
				    * -C beyond 0, --net nic): --exact's guest
				    * then has one vCPU and is deterministic */
	/* The arguments of the guest's `perpkt record`: the command line
	 * less the options only the host acts on, as the command's option
	 * table says (commands/record-options.c, record_guest_args). */
	char **guest_args;
	size_t nguest_args;
};

/* vCPUs of a guest without --guest-cpus, and the most it takes. */
#define LAB_GUEST_CPUS 2
#define LAB_GUEST_CPUS_MAX 8

/* --exact on one vCPU runs the guest on QEMU's instruction clock
 * (-icount shift=LAB_ICOUNT_SHIFT,sleep=off: 2^shift ns of guest time
 * an instruction, an idle guest jumping to its next timer), with no
 * host entropy (x86 -rdrand,-rdseed; -seed for QEMU's own) and a wall
 * clock from the virtual one: the same kernel booted twice executes the
 * same instructions. Checked 2026-12-03 (QEMU 7.2, Debian 6.1 and 6.12):
 * two boots bit-identical. With two vCPUs x86 SMP bring-up hangs under
 * -icount, so the kernel boots on one (maxcpus=1) and the guest brings
 * the others online after /init (lab/run.c, late_cpus). */
#define LAB_ICOUNT_SHIFT 1
#define LAB_RTC_BASE "2020-01-01T00:00:00"

/* The record run the guest is to do, as far as the host must know it. */
struct lab_job {
	const char *output;        /* where the profile goes, on the host */
	unsigned output_flags;     /* profile_write's */
	int argc;                  /* record's arguments (argv[0] "record"), */
	char **argv;               /* passed on without the host-only ones */
	double run_s;              /* warm-up and windows, guest seconds */
	int boots;                 /* guests to boot, one after the other:
				    * -r with --exact, else 1 */
	int counted;               /* -n: the run's length is not known */
	int veth;                  /* --net veth: the guest needs the module */
	const char *nic;           /* --net nic[:DRIVER]: "virtio" or
				    * "vmxnet3", two guests joined by it */
	const char *rps_cpus;      /* --net nic: --rps-cpus and --irq-cpu, */
	const char *irq_cpu;       /* for the responder guest's NIC */
	const char *busy;          /* --net nic: --busy's CPUs ("0,1"), a
				    * shell loop on each in the responder
				    * guest (the thread's target); NULL:
				    * none */
	int quiet;
	volatile sig_atomic_t *interrupted;
	/* stat: the guest counts only (record --window-marks) and the
	 * profile comes here instead of to output, no file written */
	struct profile *keep;
};

/*
 * perpkt record --kernel IMAGE: boot IMAGE under QEMU with an initramfs
 * perpkt builds, run the same `perpkt record` inside, bring the profile
 * out on a serial port, add how it was emulated to its conditions and
 * write it to job->output. With rq->vmlinux, that file's build-id must
 * be the guest's, and reports use its DWARF. Returns an enum result.
 */
int lab_record(const struct lab_request *rq, const struct lab_job *job);

/* The `perpkt record` arguments for inside the guest: args (the
 * request's guest_args, the host's options already left out) and what
 * the guest adds: with exact its own exact-mode options, with peer
 * `--peer LAB_NIC_RESPONDER --peer-key` the key (--net nic's client),
 * with counting (stat's) --window-marks: the guest counts only.
 * Returns a NULL-terminated array of args' own strings and static ones
 * (free only the array), NULL when out of memory. */
char **lab_guest_args(char *const *args, size_t nargs, int exact, int peer,
		      int counting, size_t *n);

/* Conditions a lab profile carries (docs/guide.md, "Other kernels"). */
#define LAB_COND_ACCEL PROFILE_COND_ACCEL
#define LAB_COND_QEMU "lab.qemu"          /* QEMU's version line */
#define LAB_COND_COMMAND PROFILE_COND_QEMU_COMMAND
#define LAB_COND_KERNEL "lab.kernel"      /* the image booted */
/* its contents' BLAKE2b-256 (lab/content-hash.h), as b2sum -l 256 says */
#define LAB_COND_KERNEL_HASH "lab.kernel_blake2b"
#define LAB_COND_TREE "lab.tree"          /* --kernel DIR: the tree */
#define LAB_COND_COMMIT "lab.commit"      /* its commit, and if dirty */
#define LAB_COND_VMLINUX PROFILE_COND_VMLINUX
#define LAB_COND_BOOT "lab.boot_s"        /* host seconds to /init */
#define LAB_COND_GUEST_BOOT "lab.guest_boot_s"  /* guest uptime then */
#define LAB_COND_WALL "lab.wall_s"        /* QEMU's runs, host seconds */
#define LAB_COND_BOOTS "lab.boots"        /* boots merged, when more than one */
#define LAB_COND_APPEND "lab.append"      /* --append */
#define LAB_COND_CONFIG "lab.config"      /* the configuration checked */
#define LAB_COND_NIC "lab.nic"            /* --net nic: the device, link */
#define LAB_COND_CPUS "lab.guest_cpus"    /* vCPUs of each guest */
#define LAB_COND_DETERMINISTIC PROFILE_COND_DETERMINISTIC
/* the guest's perpkt: its work shares the guest with the kernel's, so
 * on the instruction clock another build moves the kernel's counts */
#define LAB_COND_GUEST_PERPKT "lab.guest_perpkt"
#define LAB_COND_BOOTS_AGREE "lab.boots_agree"  /* -r N in deterministic
						 * mode: do the boots agree */
#define LAB_COND_PEER_KERNEL "lab.peer_kernel"  /* --net nic: the image
						 * the responder booted */

/* --net nic: the two guests' addresses, on a /24 of their own. */
#define LAB_NIC_RESPONDER "10.248.27.1"
#define LAB_NIC_CLIENT "10.248.27.2"

#endif
