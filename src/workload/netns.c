// SPDX-License-Identifier: GPL-2.0-only
#include "workload/netns.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "workload/saved-state.h"

#define NETNS_DIR "/run/netns"
#define NAME_LEN 48

struct netns {
	char name[2][NAME_LEN];
	int created[2];
	int fd[2];
};

int run_command(char *const argv[], char *out, size_t outlen)
{
	int pfd[2], status;
	size_t used = 0;
	ssize_t n;
	pid_t pid;
	char sink[256];

	if (out && outlen)
		out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run '%s': %s", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char *dst = sink;
		size_t room = sizeof(sink);

		if (out && used + 1 < outlen) {
			dst = out + used;
			room = outlen - 1 - used;
		}
		n = read(pfd[0], dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (dst != sink)
			used += (size_t)n;
	}
	if (out && outlen) {
		out[used] = '\0';
		/* one line for messages */
		while (used && (out[used - 1] == '\n' || out[used - 1] == ' '))
			out[--used] = '\0';
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int ip(char *out, size_t outlen, char *const argv[])
{
	return run_command(argv, out, outlen);
}

int netns_exists(const char *name)
{
	char path[sizeof(NETNS_DIR) + NAME_LEN + 1];

	snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
	return access(path, F_OK) == 0;
}

int netns_delete(const char *name)
{
	char *argv[] = { "ip", "netns", "delete", (char *)name, NULL };

	return ip(NULL, 0, argv) == 0 ? 0 : -1;
}

int netns_cleanup_stale(void)
{
	DIR *d = opendir(NETNS_DIR);
	struct dirent *e;
	int removed = 0, pid, len;
	char side;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		len = 0;
		/* only our exact pattern: tests' own namespaces differ */
		if (sscanf(e->d_name, NETNS_PREFIX "%d-%c%n", &pid, &side, &len) != 2 ||
		    len != (int)strlen(e->d_name) || (side != 'r' && side != 'c') ||
		    pid <= 0 || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		warning("removing network namespace '%s' left by an earlier "
			"run (pid %d is gone)", e->d_name, pid);
		netns_delete(e->d_name);
		removed++;
	}
	closedir(d);
	return removed;
}

static int step(char *const argv[])
{
	char out[512];
	int ret = ip(out, sizeof(out), argv);

	if (ret == 0)
		return 0;
	if (ret == 127 || ret < 0)
		return error("cannot run 'ip' (iproute2): %s: apt-get install iproute2",
			     out[0] ? out : "not found");
	return error("cannot set up --net veth: 'ip %s %s %s' failed: %s",
		     argv[1], argv[2], argv[3] ? argv[3] : "", out);
}

int netns_create(struct netns **out)
{
	struct netns *n;
	char path[sizeof(NETNS_DIR) + NAME_LEN + 1];
	int i;

	*out = NULL;
	netns_cleanup_stale();
	n = calloc(1, sizeof(*n));
	if (!n)
		return error("cannot set up --net veth: out of memory");
	n->fd[0] = n->fd[1] = -1;
	snprintf(n->name[NETNS_RESPONDER], NAME_LEN, NETNS_PREFIX "%d-r", (int)getpid());
	snprintf(n->name[NETNS_CLIENT], NAME_LEN, NETNS_PREFIX "%d-c", (int)getpid());
	for (i = 0; i < 2; i++) {
		char *argv[] = { "ip", "netns", "add", n->name[i], NULL };

		if (saved_state_record_netns(n->name[i]))
			goto fail;
		n->created[i] = 1;  /* noted: removed (or forgotten) below */
		if (step(argv))
			goto fail;
		snprintf(path, sizeof(path), NETNS_DIR "/%s", n->name[i]);
		n->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (n->fd[i] < 0) {
			error("cannot open network namespace '%s': %s", path,
			      strerror(errno));
			goto fail;
		}
	}
	{
		/* both ends created inside the namespaces: the pair never
		 * appears in the caller's namespace */
		char *link[] = { "ip", "link", "add", NETNS_IFNAME, "netns",
				 n->name[NETNS_RESPONDER], "type", "veth", "peer",
				 "name", NETNS_IFNAME, "netns", n->name[NETNS_CLIENT],
				 NULL };
		char *ra[] = { "ip", "-n", n->name[NETNS_RESPONDER], "addr", "add",
			       NETNS_RESPONDER_ADDR "/30", "dev", NETNS_IFNAME, NULL };
		char *ca[] = { "ip", "-n", n->name[NETNS_CLIENT], "addr", "add",
			       NETNS_CLIENT_ADDR "/30", "dev", NETNS_IFNAME, NULL };

		if (step(link) || step(ra) || step(ca))
			goto fail;
	}
	for (i = 0; i < 2; i++) {
		char *up[] = { "ip", "-n", n->name[i], "link", "set", NETNS_IFNAME,
			       "up", NULL };
		char *lo[] = { "ip", "-n", n->name[i], "link", "set", "lo", "up",
			       NULL };

		if (step(up) || step(lo))
			goto fail;
	}
	*out = n;
	return 0;
fail:
	netns_destroy(n);
	return -1;
}

int netns_fd(const struct netns *n, enum netns_side side)
{
	return n->fd[side];
}

const char *netns_name(const struct netns *n, enum netns_side side)
{
	return n->name[side];
}

int netns_enter_fd(int fd)
{
	if (setns(fd, CLONE_NEWNET) < 0)
		return -errno;
	return 0;
}

int netns_run(const struct netns *n, enum netns_side side,
	      char *const argv[], char *out, size_t outlen)
{
	char *full[16];
	int i, k = 0;

	full[k++] = "ip";
	full[k++] = "netns";
	full[k++] = "exec";
	full[k++] = (char *)n->name[side];
	for (i = 0; argv[i] && k < 15; i++)
		full[k++] = argv[i];
	full[k] = NULL;
	return run_command(full, out, outlen);
}

void netns_destroy(struct netns *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < 2; i++) {
		if (n->fd[i] >= 0)
			close(n->fd[i]);
		if (!n->created[i])
			continue;
		if (netns_exists(n->name[i]) && netns_delete(n->name[i]))
			warning("cannot remove network namespace '%s': remove "
				"it with 'ip netns delete %s'", n->name[i],
				n->name[i]);
		else
			saved_state_forget_netns(n->name[i]);
	}
	free(n);
}
