/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_CONDITIONS_H
#define PERPKT_CONDITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/*
 * Test conditions, captured into every profile so that two runs can be
 * compared knowing what differed (the netdev threads kept asking "HZ?
 * NO_HZ? iptables? conntrack? which CPU takes the interrupt?"). Each is
 * a short string under a stable key listed in docs/workload.md. What
 * cannot be read is recorded as "unknown (<why>)", never left out
 * silently.
 */

/* System conditions, plus the placement of client and server CPUs and
 * the message size. in_guest: a record --kernel guest's, whose host
 * fills kernel.text_size and kernel.config from the kallsyms and the
 * configuration it has (conditions_kernel_files): reading the guest's
 * /proc/kallsyms to its _etext costs as much as a window there. */
void conditions_capture(struct profile *p, int client_cpu, int server_cpu,
			uint32_t message_size, int in_guest);
/* kernel.text_size from a kallsyms file and kernel.config from a
 * configuration file (either NULL: left as it is). */
void conditions_kernel_files(struct profile *p, const char *kallsyms,
			     const char *config);

/* net.netfilter, net.tc and net.taps read inside each of n network
 * namespaces (open fds, CLONE_NEWNET) by a child that enters it, as
 * "label: value | label: value": the workload's own namespaces, read
 * before they are removed. conditions_capture leaves them as they are. */
void conditions_netns(struct profile *p, const int *fds,
		      const char *const *labels, size_t n);
/* "conntrack active (N entries); ip tables: ...; nft rules: N" of the
 * calling process's network namespace. */
void conditions_netfilter(char *out, size_t len);

/* cpu.steal: the steal time of the workload's CPUs over the window
 * (profile_steal, /proc/stat), as a share of their time in bands
 * ("1% to 5% of the workload's CPUs' time"), so that diff names a
 * change of level, not of a tick. */
void conditions_steal(struct profile *p, int client_cpu, int server_cpu);

/* Exposed for tests. */
/* "HZ=250, NO_HZ_IDLE, PREEMPT_DYNAMIC" from kernel config text. */
void conditions_kconfig_summary(const char *config, char *out, size_t len);
/* arm64 only (machine "aarch64"): PROFILE_COND_PSEUDO_NMI, whether
 * the PMU's overflow interrupt is a pseudo-NMI, from the boot command line and the kernel config
 * (NULL: not read); out "" elsewhere. Without it the interrupt is
 * masked with the others, like cpu-clock's timer. */
void conditions_pseudo_nmi(const char *machine, const char *cmdline,
			   const char *config, char *out, size_t len);
/* 1 on this machine when a PMU's overflow interrupt is masked with the
 * others (arm64 without pseudo-NMI, by uname and /proc/cmdline), so a
 * sample at an irq-enable point needs a callchain to find its caller. */
int conditions_pmu_irq_maskable(void);
/* "2 CPUs; cpu0 pkg 0 core 0, cpu1 pkg 0 core 1" from /proc/cpuinfo. */
void conditions_cpuinfo_topology(const char *cpuinfo, char *out, size_t len);
/* _etext - _stext from kallsyms text; 0 if either is missing. */
uint64_t conditions_text_size(const char *kallsyms_path);

#endif
