/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_WORKLOAD_MARKS_H
#define PERPKT_WORKLOAD_MARKS_H

/*
 * The window's edges as instructions, for record --kernel --exact: the
 * client executes one when the window opens and one when it closes, and
 * the QEMU plugin (src/lab/plugin/perpkt-exact.c) counts guest instructions
 * between them. They are instructions no compiler emits and every CPU
 * runs as a NOP: on x86_64 `nopl 0x504b5401(%rax,%rax,1)` (open) and
 * `... 0x504b5400` (close), the displacement spelling "PKT"; on arm64
 * the unallocated hints #0x71 (open) and #0x70 (close). This header is
 * read by the plugin too: no perpkt header may be included here.
 */

#define PERPKT_MARK_X86_OPEN "\x0f\x1f\x84\x00\x01\x54\x4b\x50"
#define PERPKT_MARK_X86_CLOSE "\x0f\x1f\x84\x00\x00\x54\x4b\x50"
#define PERPKT_MARK_A64_OPEN 0xd5032e3fu   /* hint #0x71 */
#define PERPKT_MARK_A64_CLOSE 0xd5032e1fu  /* hint #0x70 */

#if defined(__x86_64__)
#define workload_mark(open) do { \
	if (open) \
		__asm__ volatile(".byte 0x0f,0x1f,0x84,0x00,0x01,0x54,0x4b,0x50" ::: "memory"); \
	else \
		__asm__ volatile(".byte 0x0f,0x1f,0x84,0x00,0x00,0x54,0x4b,0x50" ::: "memory"); \
} while (0)
#elif defined(__aarch64__)
#define workload_mark(open) do { \
	if (open) \
		__asm__ volatile("hint #0x71" ::: "memory"); \
	else \
		__asm__ volatile("hint #0x70" ::: "memory"); \
} while (0)
#else
#define workload_mark(open) do { } while (0)
#endif

#endif
