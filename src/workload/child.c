// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's forked children, client and responder: pinned, in their
 * network namespace, dying with perpkt, then handed to their loop
 * (client.c, responder.c). Nothing here allocates or writes to stdio.
 */
#include "workload/workload-priv.h"

#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload/cpu.h"
#include "workload/netns.h"

#define role_word workload_role_word

static void child_setup(struct workload *w, enum role r, pid_t parent)
{
	sigset_t none;
	int ret;

	/* die with the parent (strictly: the forking thread), even if it
	 * died before prctl took effect */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	/* Ctrl-C is for the parent, which then closes the window cleanly;
	 * SIGTERM must stop us whatever handler the parent installed */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	ret = cpu_pin_self(w->cpu[r]);
	if (ret < 0)
		workload_child_fail(w, r, "cannot pin workload %s to cpu %d: %s",
			   role_word[r], w->cpu[r], strerror(-ret));
	/* before any socket is made: a socket lives in its creator's
	 * namespace */
	if (w->ns_fd[r] >= 0) {
		ret = netns_enter_fd(w->ns_fd[r]);
		if (ret < 0)
			workload_child_fail(w, r, "cannot enter the %s's network namespace: %s",
				   role_word[r], strerror(-ret));
	}
}

/* Say this child is pinned, then wait for the parent to start all. */
static void wait_start(struct workload *w, enum role r)
{
	struct flow_gate *g = w->gate;

	w->sh->pid[r] = getpid();
	__atomic_add_fetch(&g->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&g->start, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &g->start, FUTEX_WAIT, 0, NULL, NULL, 0);
}

void workload_child_main(struct workload *w, enum role r, pid_t parent)
{
	child_setup(w, r, parent);
	wait_start(w, r);
	if (r == ROLE_RESPONDER)
		workload_responder_main(w);
	workload_client_main(w);
}
