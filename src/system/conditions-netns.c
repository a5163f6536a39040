// SPDX-License-Identifier: GPL-2.0-only
/*
 * The conditions of a network namespace perpkt made for the workload
 * (--net veth): read from inside it, since netfilter, tc, packet taps
 * and attached BPF programs are per namespace and the host's say nothing of the path the
 * packets took (issue 34: "nft rules: 0" while 300 were active there).
 */
#include "system/conditions.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "system/attached.h"
#include "system/routing.h"

#define NETNS_VALUE_MAX 1024

static const char *const keys[] = { "net.netfilter", "net.tc", "net.taps",
				    "net.bpf", "net.routing" };
/* net.routing is a list ("k=v, ..."): its entries carry the label
 * ("client ipv4 rules=3"), so that diff compares them one by one */
#define ROUTING 4
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* In the child: enter the namespace, write each key's value and a NUL. */
static void child(int ns, const char *label, int out)
{
	char prefix[64];

	char v[NKEYS][NETNS_VALUE_MAX];
	size_t k;

	if (setns(ns, CLONE_NEWNET) < 0) {
		for (k = 0; k < NKEYS; k++)
			snprintf(v[k], sizeof(v[k]), "unknown (cannot enter the namespace: %s)",
				 strerror(errno));
	} else {
		char *qdiscs = attached_qdiscs();

		conditions_netfilter(v[0], sizeof(v[0]));
		attached_tc(qdiscs, v[1], sizeof(v[1]));
		attached_taps(v[2], sizeof(v[2]));
		attached_bpf(qdiscs, v[3], sizeof(v[3]));
		free(qdiscs);
		snprintf(prefix, sizeof(prefix), "%s ", label);
		routing_describe(prefix, v[ROUTING], sizeof(v[ROUTING]));
	}
	for (k = 0; k < NKEYS; k++)
		if (write(out, v[k], strlen(v[k]) + 1) < 0)
			_exit(1);
	_exit(0);
}

/* The values read in namespace fd, each NUL-ended, into buf. */
static int read_in(int fd, const char *label, char *buf, size_t len)
{
	int pfd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (!pid) {
		close(pfd[0]);
		child(fd, label, pfd[1]);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -1;
	}
	while (got + 1 < len &&
	       ((n = read(pfd[0], buf + got, len - 1 - got)) > 0 ||
		(n < 0 && errno == EINTR)))
		got += n > 0 ? (size_t)n : 0;
	buf[got] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? (int)got : -1;
}

void conditions_netns(struct profile *p, const int *fds,
		      const char *const *labels, size_t n)
{
	char value[NKEYS][4 * NETNS_VALUE_MAX], got[NKEYS * NETNS_VALUE_MAX + 1];
	size_t i, k;

	for (k = 0; k < NKEYS; k++)
		value[k][0] = '\0';
	for (i = 0; i < n; i++) {
		int len = read_in(fds[i], labels[i], got, sizeof(got));
		const char *v = got, *end = got + (len > 0 ? len : 0);

		for (k = 0; k < NKEYS; k++) {
			size_t used = strlen(value[k]);
			int here = v < end;

			if (k == ROUTING)
				snprintf(value[k] + used, sizeof(value[k]) - used,
					 "%s%s%s", i ? ", " : "", here ? "" : labels[i],
					 here ? v : " unknown (the namespace could not be read)");
			else
				snprintf(value[k] + used, sizeof(value[k]) - used, "%s%s: %s",
					 i ? " | " : "", labels[i], here ? v :
					 "unknown (the namespace could not be read)");
			if (here)
				v += strlen(v) + 1;
		}
	}
	for (k = 0; k < NKEYS; k++)
		profile_add_condition(p, keys[k], value[k]);
}
