/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_ACCEL_H
#define PERPKT_LAB_ACCEL_H

#include <stddef.h>

#include "lab/arch.h"
#include "lab/lab.h"
#include "lab/qemu.h"

/*
 * KVM or TCG for the guests of record --kernel: one decision per host,
 * shared by every path that boots a guest (one guest, the --net nic
 * pair, stat --kernel, sweep's cells and the lab scripts, which all
 * come through here).
 *
 * /dev/kvm can open and create a VM on a host whose nested KVM cannot
 * run a guest: QEMU aborts, dumps the registers or the guest hangs in
 * early boot. So the first KVM boot on a host is the probe: a guest
 * whose QEMU ends, dumps its registers or whose console stays silent
 * for LAB_KVM_STALL_S before /init means no; it is said in one line,
 * the boot goes again under TCG, and the answer is remembered in
 * perpkt's cache folder ("accel", lab_arch_path) under the host kernel
 * release and build, QEMU's version and /dev/kvm's device and inode
 * (new at each host boot), so later runs go straight to TCG. A guest
 * that reaches /init under KVM remembers yes. --accel kvm|tcg or an
 * -accel in --qemu-arg forces either, with no fallback.
 */

/* A KVM guest prints its boot messages within a second; this long a
 * silence before /init is a guest that KVM cannot run. */
#define LAB_KVM_STALL_S 5.0

struct lab_accel {
	int kvm;              /* boot with -accel kvm */
	int forced;           /* --accel or --qemu-arg chose: no fallback */
	int known;            /* the host's answer was in the cache */
	char text[768];       /* the lab.accel condition: "kvm", "tcg (why)" */
	char key[640];        /* the host's key in the cache */
};

/* --accel's "auto", "kvm" or "tcg" into *want (lab.h); -1 after
 * saying why. */
int lab_accel_parse(const char *arg, enum lab_accel_want *want);

/* The accelerator for guests of `arch` booted as rq asks; qemu_version
 * is QEMU's version line (part of the cache's key). Says nothing: the
 * boot line shows a->text. */
void lab_accel_choose(struct lab_accel *a, const struct lab_arch *arch,
		      const struct lab_request *rq, const char *qemu_version);

/* q's settings for a boot with a: the accelerator, and under KVM that
 * is not forced, the stall watch that makes it the probe. */
void lab_accel_apply(const struct lab_accel *a, struct lab_qemu *q);

/* "KVM", "TCG" or "the accelerator --qemu-arg chose", for messages. */
const char *lab_accel_name(const struct lab_accel *a);

/* 1 when q, booted with a, is a KVM guest (not forced) that has not
 * reached /init: should it end now, the boot goes again under TCG. */
int lab_accel_falls_back(const struct lab_accel *a, const struct lab_qemu *q);

/* A boot with a has ended (end, status as lab_qemu_poll gave them).
 * 1 when it was a KVM guest that never reached /init, not forced: said
 * in one line with how and when, remembered for the host, and a is
 * TCG now, for the caller to boot again. 0 otherwise; a KVM guest that
 * reached /init is remembered as working. */
int lab_accel_boot_ended(struct lab_accel *a, const struct lab_qemu *q,
			 enum lab_qemu_end end, int status);

#endif
