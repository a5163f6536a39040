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
 *   cpu V KERNEL USER          instructions on vCPU V in the window
 *   i ADDR V N                 kernel instruction ADDR (hex) ran N times
 *                              on vCPU V in the window
 *   end
 *
 * Read by the plugin too: no perpkt header may be included here.
 */
#define PERPKT_EXACT_FILE_VERSION 1
#define PERPKT_EXACT_MAX_VCPUS 64

#endif
