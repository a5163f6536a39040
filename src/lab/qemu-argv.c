// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU's command line for one guest boot: the accelerator, the machine,
 * the serial ports into files, the kernel, initramfs and its command
 * line, the exact-mode plugin, then the user's --qemu-arg.
 */
#include "lab/qemu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "lab/lab.h"

struct strv {
	char **v;
	size_t n, cap;
};

static void push(struct strv *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void push(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *str = NULL;

	if (ARRAY_GROW(s->v, s->n + 2, s->cap))
		return;
	va_start(ap, fmt);
	if (vasprintf(&str, fmt, ap) < 0)
		str = NULL;
	va_end(ap);
	if (str)
		s->v[s->n++] = str;
	s->v[s->n] = NULL;
}

int lab_qemu_args_accel(char *const *args, size_t n)
{
	size_t i;

	/* -accel NAME, -enable-kvm, -machine accel=NAME or -M q35,accel=NAME */
	for (i = 0; i < n; i++)
		if (!strcmp(args[i], "-accel") || !strcmp(args[i], "--accel") ||
		    !strcmp(args[i], "-enable-kvm") || !strcmp(args[i], "--enable-kvm") ||
		    !strncmp(args[i], "accel=", 6) || strstr(args[i], ",accel="))
			return 1;
	return 0;
}

int lab_qemu_args_icount(char *const *args, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(args[i], "-icount") || !strcmp(args[i], "--icount") ||
		    !strncmp(args[i], "-icount=", 8) || !strncmp(args[i], "--icount=", 9))
			return 1;
	return 0;
}

char **lab_qemu_argv(const struct lab_qemu *q)
{
	struct strv s = { 0 };
	const char *const *machine;
	size_t i;

	push(&s, "%s", q->arch->qemu);
	if (!lab_qemu_args_accel(q->extra, q->nextra))
		push(&s, "-accel"), push(&s, "%s", q->kvm ? "kvm" : "tcg");
	machine = q->icount_shift >= 0 && q->arch->icount_machine ?
		  q->arch->icount_machine : q->arch->machine;
	for (i = 0; machine[i]; i++)
		push(&s, "%s", machine[i]);
	if (q->icount_shift >= 0) {
		/* the guest's clocks from its instructions, an idle guest
		 * jumping to its next timer; its wall clock and QEMU's own
		 * random numbers fixed (lab.h) */
		push(&s, "-icount"), push(&s, "shift=%d,sleep=off", q->icount_shift);
		push(&s, "-rtc"), push(&s, "base=%s,clock=vm", LAB_RTC_BASE);
		push(&s, "-seed"), push(&s, "1");
	}
	push(&s, "-smp"), push(&s, "%d", q->cpus);
	push(&s, "-m"), push(&s, "%d", q->mem_mb);
	push(&s, "-nodefaults"), push(&s, "-nic"), push(&s, "none");
	push(&s, "-display"), push(&s, "none");
	push(&s, "-monitor"), push(&s, "none");
	push(&s, "-no-reboot");
	/* first port: the console; second: the data port */
	push(&s, "-serial"), push(&s, "file:%s", q->console);
	if (strcmp(q->data, q->console))  /* one UART: both in one file */
		push(&s, "-serial"), push(&s, "file:%s", q->data);
	push(&s, "-kernel"), push(&s, "%s", q->kernel);
	push(&s, "-initrd"), push(&s, "%s", q->initrd);
	push(&s, "-append");
	push(&s, "console=%s panic=-1 rdinit=/init%s%s", q->arch->console,
	     q->append ? " " : "", q->append ? q->append : "");
	if (q->plugin)
		push(&s, "-plugin"), push(&s, "%s", q->plugin);
	for (i = 0; i < q->nextra; i++)
		push(&s, "%s", q->extra[i]);
	return s.v;
}

void lab_qemu_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}
