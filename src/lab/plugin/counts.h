/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_PLUGIN_COUNTS_H
#define PERPKT_LAB_PLUGIN_COUNTS_H

/*
 * The counts file perpkt-exact.so writes at QEMU's exit and lab/exact-counts.c
 * reads (docs/profile-format.md, "Exact counts"), line by line:
 *
 *   perpkt-exact VERSION
 *   target x86_64              QEMU's target
 *   vcpus N
 *   marks OPENS CLOSES         window marks seen (1 1 for one window)
 *   blocks N                   translations counted
 *   whole 1                    0: the plugin ran out of memory
 *   paths 1                    1: the s and n lines follow (paths=1)
 *   cache SPEC                 cache=SPEC: the model's figures
 *                              (lab/plugin/cachemodel.h); the m and um
 *                              lines follow
 *   um V L1I L1D L2            misses of user space on vCPU V in the
 *                              window (the kernel's: the m lines)
 *   cpu V KERNEL USER          instructions on vCPU V in the window
 *   follow V CALLS IRQS UNMATCHED DEEP RESETS SWITCHES RESUMED RETAKEN
 *                              how vCPU V's calls were followed
 *                              (lab/plugin/callpath.h): calls seen,
 *                              interrupts entered, returns to no frame,
 *                              calls past the stack's depth, returns to
 *                              user space with frames left, task
 *                              switches, of them to a task whose
 *                              frames were parked, and those where a
 *                              later return took up another task's
 *   i ADDR V N                 kernel instruction ADDR (hex) ran N times
 *                              on vCPU V in the window
 *   c ADDR V N                 ... and N of its executions were a call's
 *                              entry (ADDR begins a block)
 *   j ADDR V N TARGET          the jump or branch at ADDR went to TARGET
 *                              N times on vCPU V (a tail call when
 *                              TARGET begins another function)
 *   m ADDR V L1I L1D L2        kernel instruction ADDR missed in L1I
 *                              (its fetch), in L1D (its data) and in L2
 *                              (either) so often on vCPU V in the window
 *   n V ID PARENT SITE         path ID of vCPU V: path PARENT (0 is the
 *                              empty path) and a call or interrupt at
 *                              SITE (hex), the instruction before it
 *   s V ID ADDR N              ADDR ran N times on vCPU V on path ID
 *   end
 *
 * Read by the plugin too: no perpkt header may be included here.
 */
#define PERPKT_EXACT_FILE_VERSION 3
#define PERPKT_EXACT_MAX_VCPUS 64

#endif
