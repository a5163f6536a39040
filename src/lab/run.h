/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_RUN_H
#define PERPKT_LAB_RUN_H

#include "lab/accel.h"
#include "lab/lab.h"
#include "lab/qemu.h"
#include "profile/profile.h"
#include "profile/rundir.h"

/* One guest of a record --kernel run (run.c), as lab-record.c and lab-nic.c
 * boot it. */
struct lab_run {
	char dir[4096];
	struct rundir_note dir_note;  /* dir, noted (lab/leftovers.h) */
	char initrd[4200], console[4200], data[4200], log[4200], out[4200];
	const struct lab_arch *arch;
	const char *module;
	struct lab_accel accel; /* KVM or TCG, and why (lab/accel.h) */
	char qemu_version[256];
	char *qemu_command;
	double wall_s;
	double boot_s, end_s;   /* guest uptime at /init and at the end */
	double up_s;            /* host seconds from QEMU's start to /init */
	char *plugin;           /* exact: the QEMU plugin */
	char append[4096];      /* perpkt's additions, then --append */
	char config[4096];      /* the configuration checked, "" if none */
	char counts[4200];      /* exact: the plugin's counts file */
	int boot;               /* which boot, from 0 */
	int cpus;               /* vCPUs (lab_guest_cpus) */
	char guest_perpkt[160]; /* lab.guest_perpkt: "build-id ID" */
	char kernel_hash[72];   /* lab.kernel_blake2b: the image's */
	int icount_shift;       /* deterministic: on QEMU's instruction
				 * clock with this shift (lab.h); -1 not */
	char clock[256];        /* lab.deterministic: "yes: ..." or "no: why" */
	/* exact: the kallsyms kept from an earlier boot of this image
	 * (lab/kallsyms-cache.h); key "" when not kept */
	char kallsyms_key[40];
	char known_gz[4200], known_modules[4200];
	int known;
	double walls_s;         /* QEMU's runs together */
	char plugin_arg[8500];  /* exact: -plugin's argument */
	/* --net nic: which of the two guests this is (lab/guest.h) */
	const char *nic, *addr, *serve_bind, *key;
	int client;             /* record --peer the responder */
	const char *rps_cpus, *irq_cpu;  /* the responder's NIC steering */
	const char *busy;       /* the responder's busy CPUs, or NULL */
};

/* vCPUs of each guest: --guest-cpus, else 1 for --exact on CPU 0 only
 * (deterministic), else LAB_GUEST_CPUS. */
int lab_guest_cpus(const struct lab_request *rq);

/* The guest's folder, initramfs and files; 0 or -1 after saying why. */
int lab_run_prepare(struct lab_run *r, const struct lab_request *rq,
		    const struct lab_job *job);
/* q set up to boot r (timeouts, -append, the plugin), and r's command
 * line for the conditions; extra/nextra: QEMU's extra arguments. */
void lab_run_qemu(struct lab_run *r, const struct lab_request *rq,
		  const struct lab_job *job, struct lab_qemu *q,
		  char **extra, size_t nextra);
/* Why the guest ended before its files came out; -1 or
 * LAB_BOOT_STALLED; LAB_BOOT_KVM_FAILED (nothing said but the
 * fallback's line) when r->accel falls back to TCG. */
int lab_run_failed(struct lab_run *r, const struct lab_request *rq,
		   const struct lab_qemu *q, enum lab_qemu_end end, int status);
/* The guest's profile into p, checked: an enum result. */
int lab_run_collect(struct lab_run *r, const struct lab_request *rq,
		    const struct lab_job *job, struct profile *p);
/* r's exact counts of this boot (r->counts) into p, a profile of one
 * window counted only, with the kallsyms and modules r's guest brought
 * out: lab_exact_fold. lab_run_collect does it for r's own profile;
 * --net nic for the responder's side (p->remote). */
int lab_run_fold_exact(const struct lab_run *r, struct profile *p);
/* Conditions, the host's command line, p written. */
int lab_run_finish(struct lab_run *r, const struct lab_request *rq,
		   const struct lab_job *job, struct profile *p);
/* The guest's file `name` as it brought it out; malloc'd, or NULL. */
char *lab_run_read(const struct lab_run *r, const char *name);
/* 1 when the console file has `mark`. */
int lab_console_has(const char *path, const char *mark);
/* Empty the folder the guest's files come out to, for another boot. */
int lab_run_clear_out(const struct lab_run *r);
/* Remove r's folder (unless PERPKT_LAB_KEEP) and free what r holds. */
void lab_run_free(struct lab_run *r);

/* With --exact -r N: boot (or pair) `one`, recorded with result brc,
 * into total; the first is total itself. *got counts them, *rc is the
 * worst result. -1 (one freed) when the merge fails. */
int lab_merge_boot(struct profile *total, struct profile *one, int brc,
		   const char *what, int *got, int *rc);
/* rc, or RESULT_PARTIAL (said) when fewer than boots `what` came. */
int lab_merged(int got, int boots, const char *what, int rc);

/* The guest stalled: before /init, or past perpkt's own timeout after
 * it (not --qemu-timeout's); boot it again, once. */
#define LAB_BOOT_STALLED -2
/* A KVM guest that never reached /init: r->accel is TCG now, boot it
 * again (lab_accel_boot_ended said why). */
#define LAB_BOOT_KVM_FAILED -3

#endif
