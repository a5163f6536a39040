// SPDX-License-Identifier: GPL-2.0-only
/* --busy: user-space spinners pinned to CPUs (workload/busy.h). */
#include "workload/busy.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "workload/cpu.h"

int busy_check(const int *cpus, int n)
{
	int i;

	if (n > BUSY_MAX)
		return error("--busy names %d CPUs: at most %d", n, BUSY_MAX);
	for (i = 0; i < n; i++)
		if (cpu_check_usable(cpus[i]) < 0)
			return -1;
	return 0;
}

static void spin(int cpu, pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* the parent may have died before the line above */
	if (getppid() != parent)
		_exit(0);
	prctl(PR_SET_NAME, BUSY_COMM);
	signal(SIGINT, SIG_IGN);	/* a terminal's ^C is perpkt's to handle */
	if (cpu_pin_self(cpu) < 0)
		_exit(1);
	for (;;)
		__asm__ volatile("" ::: "memory");
}

int busy_start(struct busy *b, const int *cpus, int n)
{
	pid_t parent = getpid();
	int i;

	/* no busy_check here: perpkt may be pinned off these CPUs by now */
	memset(b, 0, sizeof(*b));
	if (n > BUSY_MAX)
		n = BUSY_MAX;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			error("cannot start the spinner for CPU %d: %s", cpus[i],
			      strerror(errno));
			busy_stop(b);
			return -1;
		}
		if (pid == 0)
			spin(cpus[i], parent);
		b->cpu[b->n] = cpus[i];
		b->pid[b->n++] = pid;
	}
	return 0;
}

void busy_stop(struct busy *b)
{
	int i;

	for (i = 0; i < b->n; i++)
		if (b->pid[i] > 0)
			kill(b->pid[i], SIGKILL);
	for (i = 0; i < b->n; i++) {
		while (b->pid[i] > 0 && waitpid(b->pid[i], NULL, 0) < 0 &&
		       errno == EINTR)
			;
		b->pid[i] = 0;
	}
	b->n = 0;
}

int busy_owns(const struct busy *b, pid_t pid)
{
	int i;

	for (i = 0; i < b->n; i++)
		if (b->pid[i] == pid)
			return 1;
	return 0;
}
