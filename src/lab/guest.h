/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_GUEST_H
#define PERPKT_LAB_GUEST_H

#include <stddef.h>

#include "lab/arch.h"

/*
 * What runs inside the guest: busybox, a perpkt binary with its
 * dynamic loader and the libraries its DT_NEEDED chain names, iproute2's
 * ip (for --net veth), the veth module when the kernel tree has one, and
 * a small /init that runs `perpkt record ARGS` and sends its files out
 * on the arch's data port, framed as base64 between marker lines.
 */
struct lab_guest {
	const struct lab_arch *arch;
	const char *perpkt;        /* host path of the guest's perpkt binary */
	const char *kernel;        /* the kernel image: its modules are found
				    * beside it, as a .deb unpacks them */
	const char *modules;       /* --modules: lib/modules/R or an
				    * INSTALL_MOD_PATH; NULL: beside kernel */
	char **args;               /* `perpkt record` arguments in the guest */
	size_t nargs;
	int exact;                 /* send the guest's kallsyms and modules
				    * out too (--exact: the host symbolizes) */
	int late_cpus;             /* the kernel boots with maxcpus=1 and
				    * the guest brings the other CPUs online
				    * before the run (the instruction clock) */
	const char *known_modules; /* exact: the host has the kallsyms of a
				    * boot whose /proc/modules was this file;
				    * the guest sends its own only when its
				    * modules differ (lab/kallsyms-cache.h) */
	/* --net nic: one of the two guests joined by an emulated NIC */
	const char *nic;           /* "virtio" or "vmxnet3": its driver
				    * modules go in; NULL: no NIC */
	const char *addr;          /* ADDR/24 the guest takes on the NIC */
	const char *serve_bind;    /* the responder: `perpkt serve --once
				    * --bind` this instead of record */
	const char *key;           /* the serve key both guests hold (64
				    * hex digits), at LAB_GUEST_KEY */
	const char *rps_cpus;      /* the responder: its NIC's RPS mask and */
	const char *irq_cpu;       /* the CPU of its interrupts, or NULL */
	const char *busy;          /* the responder: CPUs ("0,1") each kept
				    * busy by a shell loop while serve
				    * runs, or NULL */
};

/* Where the guest finds the serve key (--net nic). */
#define LAB_GUEST_KEY "/perpkt/serve.key"
/* The responder's console line once serve listens (--net nic). */
#define LAB_GUEST_SERVE_MARK "perpkt-guest: serve listening"

/* Write the initramfs to `path`; *module names the veth module put in
 * (a static string, or NULL when none was found). With g->nic, its
 * driver and the modules it needs go in, in the order they load: a
 * missing one is taken to be built in (the guest says when the NIC does
 * not show up). */
int lab_guest_initramfs(const struct lab_guest *g, const char *path,
			const char **module);

/* The guest's files as the data port brought them out. */
#define LAB_GUEST_PROFILE "profile.json"
#define LAB_GUEST_STDERR "stderr"
#define LAB_GUEST_RC "rc"
#define LAB_GUEST_ERROR "guest-error"   /* why perpkt did not run */
#define LAB_GUEST_NOTES "notes"         /* /sys/kernel/notes */
#define LAB_GUEST_UPTIME "uptime"       /* /proc/uptime at /init, at the end */
#define LAB_GUEST_KALLSYMS "kallsyms.gz" /* --exact: /proc/kallsyms, gzip'd */
#define LAB_GUEST_MODULES "modules"     /* --exact: /proc/modules */
#define LAB_GUEST_TUNING "tuning"       /* the responder's NIC steering:
					 * "KEY VALUE" lines, conditions */
/* Printed on the console once /init runs. */
#define LAB_GUEST_UP_MARK "perpkt-guest: up"

#endif
