/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_QEMU_H
#define PERPKT_LAB_QEMU_H

#include <signal.h>
#include <stddef.h>

#include "lab/arch.h"

/*
 * One guest boot: `qemu-system-ARCH -kernel IMAGE -initrd INITRD` with
 * the console and the data port written to files, no network device
 * (-nodefaults -nic none: nothing leaves the guest) and no display.
 */
struct lab_qemu {
	const struct lab_arch *arch;
	const char *kernel, *initrd;
	const char *console;        /* file the console is written to */
	const char *data;           /* file the data port is written to */
	const char *log;            /* QEMU's own stdout and stderr */
	char **extra;               /* --qemu-arg, in order */
	size_t nextra;
	int kvm;                    /* -accel kvm, else tcg (unless extra
				     * chooses: then neither is added) */
	double stall_s;             /* > 0: stop a guest whose console has
				     * not grown for stall_s before up_mark,
				     * or whose QEMU dumped its registers
				     * (KVM that cannot run it: lab/accel.h) */
	int icount_shift;           /* >= 0: on QEMU's instruction clock
				     * (lab.h, LAB_ICOUNT_SHIFT); -1 not */
	int cpus, mem_mb;
	const char *append;         /* more kernel command line, or NULL */
	const char *plugin;         /* -plugin ARG (file=...,out=...), or NULL */
	double timeout_s;
	double up_timeout_s;        /* > 0: stop when up_mark has not shown
				     * by then (a guest stalled in early boot) */
	volatile sig_atomic_t *interrupted;
	const char *up_mark;        /* console text that says the guest is up */
	double up_s;                /* set by lab_qemu_run: when it appeared,
				     * host seconds after the start; < 0 never */
	char stalled[320];          /* LAB_QEMU_STALLED: how, in words */
	int pid;                    /* lab_qemu_start's child */
	double t0;                  /* when it started */
	long log_len;               /* QEMU's messages' size, last read */
	long console_len;           /* the console's size, and when it */
	double console_t;           /* last grew (host seconds) */
};

/* The full command line; free with lab_qemu_argv_free. */
char **lab_qemu_argv(const struct lab_qemu *q);
void lab_qemu_argv_free(char **argv);
/* 1 when QEMU arguments `args` choose the accelerator themselves
 * (-accel, -enable-kvm, -machine ...accel=): then perpkt adds none. */
int lab_qemu_args_accel(char *const *args, size_t n);
/* 1 when they set the instruction clock (-icount) themselves. */
int lab_qemu_args_icount(char *const *args, size_t n);

enum lab_qemu_end {
	LAB_QEMU_EXITED,     /* status in *status */
	LAB_QEMU_TIMEOUT,    /* killed after timeout_s */
	LAB_QEMU_INTERRUPTED,
	LAB_QEMU_STALLED,    /* killed: stall_s passed without console
			      * output, or a register dump (q->stalled) */
};
/* Run it to the end; *wall_s is how long it ran. -1 if it cannot start
 * (after printing why, naming the package for a missing binary). */
int lab_qemu_run(struct lab_qemu *q, enum lab_qemu_end *end,
		 int *status, double *wall_s);

/* lab_qemu_run in two steps, for guests that run side by side: start
 * it, then poll until it returns 1 (ended, *end and *status set, *wall_s
 * how long it ran); 0 while it runs, -1 on an error. */
int lab_qemu_start(struct lab_qemu *q);
int lab_qemu_poll(struct lab_qemu *q, enum lab_qemu_end *end,
		  int *status, double *wall_s);
/* Stop a started guest now (SIGKILL); lab_qemu_poll then reaps it. */
void lab_qemu_kill(struct lab_qemu *q);

/* "QEMU emulator version 7.2.22 (...)", or "unknown (why)". */
void lab_qemu_version(const struct lab_arch *a, char *out, size_t len);
/* Print the last `lines` lines of a file to stderr, indented, after
 * the heading "perpkt: WHAT:"; a missing or empty file prints the line
 * "perpkt: NONE" instead of an empty block. */
void lab_print_tail(const char *what, const char *none, const char *path,
		    int lines);
/* The first line of QEMU's messages in `log` that says something (its
 * "qemu-system-x86_64: " and "error: " prefixes and warnings dropped),
 * into out; "" when there is none. */
void lab_qemu_first_message(const char *log, char *out, size_t len);

#endif
