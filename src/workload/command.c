// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload of the user's own: a started command or attached processes.
 * A started command is a process group of its own, and perpkt is a
 * child subreaper: a background child that outlives its parent (sh -c
 * 'server & client') stays in the group, so it is still the workload,
 * its time is counted, and it is ended and reaped when the window
 * closes. A child that leaves the group (setsid, a daemon) stays in
 * the command's cgroup, where one can be made (command-cgroup.h), and
 * is ended and named with it.
 */
#include "workload/command.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"
#include "system/schedstat.h"
#include "workload/command-cgroup.h"

#define MAX_ROOTS 64
#define CACHE_SLOTS 4096   /* a power of two */

struct cache_slot {
	pid_t pid;             /* 0: empty */
	int owned;
};

struct command {
	pid_t roots[MAX_ROOTS];
	int nroots;
	int started;           /* 1: we forked it; 0: attached */
	int gate;              /* write end: closing it lets the child exec */
	int errpipe;           /* read end: errno of a failed exec */
	int pidfd;
	int reaped;
	int ended;             /* command_end done */
	int status;
	struct rusage ru;
	struct rusage orphans_ru;  /* of the group's orphans perpkt reaped */
	int orphans;               /* how many of them */
	char how[128];
	const char *argv0;
	struct command_cgroup cg;
	struct cache_slot cache[CACHE_SLOTS];
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static struct command *command_new(void)
{
	struct command *c = calloc(1, sizeof(*c));

	if (!c) {
		error("out of memory");
		return NULL;
	}
	c->gate = c->errpipe = c->pidfd = -1;
	c->cg.procs = c->cg.note.fd = -1;
	return c;
}

int command_start(struct command **out, char *const argv[])
{
	int gate[2], errp[2];
	struct command *c;
	pid_t pid;

	*out = NULL;
	if (!argv || !argv[0])
		return error("no command after '--'");
	c = command_new();
	if (!c)
		return -1;
	/* orphans of the command come to perpkt, not to init: reaped here */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	c->argv0 = argv[0];
	if (pipe2(gate, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		free(c);
		return error("cannot make a pipe: %s", strerror(errno));
	}
	command_cgroup_make(&c->cg);
	pid = fork();
	if (pid < 0) {
		char none[8];

		command_cgroup_end(&c->cg, none, sizeof(none));
		free(c);
		return error("cannot fork '%s': %s", argv[0], strerror(errno));
	}
	if (pid == 0) {
		char b;
		int e;

		setpgid(0, 0);
		command_cgroup_enter(&c->cg);
		close(gate[1]);
		close(errp[0]);
		/* the user's own Ctrl-C reaches it through the terminal's
		 * group no more: perpkt decides when it stops */
		signal(SIGINT, SIG_DFL);
		if (read(gate[0], &b, 1) != 0)
			_exit(127);  /* perpkt gave up before the run */
		execvp(argv[0], argv);
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);  /* both sides: whichever runs first */
	close(gate[0]);
	close(errp[1]);
	c->gate = gate[1];
	c->errpipe = errp[0];
	c->roots[0] = pid;
	c->nroots = 1;
	c->started = 1;
	c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	*out = c;
	return 0;
}

int command_release(struct command *c)
{
	ssize_t n;
	int e = 0;

	close_fd(&c->gate);
	/* EOF on the error pipe: the exec succeeded and closed it */
	do
		n = read(c->errpipe, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close_fd(&c->errpipe);
	if (n == (ssize_t)sizeof(e))
		return error("cannot run the command '%s': %s", c->argv0,
			     strerror(e));
	return 0;
}

int command_attach(struct command **out, const pid_t *pids, int npids)
{
	struct command *c;
	int i;

	*out = NULL;
	if (npids > MAX_ROOTS)
		return error("-p: at most %d processes", MAX_ROOTS);
	for (i = 0; i < npids; i++)
		if (pids[i] <= 0 || (kill(pids[i], 0) && errno == ESRCH))
			return error("no process %d to attach to", (int)pids[i]);
	c = command_new();
	if (!c)
		return -1;
	memcpy(c->roots, pids, sizeof(pid_t) * (size_t)npids);
	c->nroots = npids;
	*out = c;
	return 0;
}

pid_t command_pid(const struct command *c)
{
	return c->roots[0];
}

static void add_rusage(struct rusage *to, const struct rusage *ru)
{
	to->ru_utime.tv_sec += ru->ru_utime.tv_sec;
	to->ru_utime.tv_usec += ru->ru_utime.tv_usec;
	to->ru_stime.tv_sec += ru->ru_stime.tv_sec;
	to->ru_stime.tv_usec += ru->ru_stime.tv_usec;
	to->ru_nvcsw += ru->ru_nvcsw;
	to->ru_nivcsw += ru->ru_nivcsw;
}

/* The group's orphans that ended, reaped (they are perpkt's children as
 * its subreaper), their time kept. */
static void reap_orphans(struct command *c)
{
	struct rusage ru;
	int st;
	pid_t r;

	if (!c->started)
		return;
	while ((r = wait4(-c->roots[0], &st, WNOHANG, &ru)) > 0) {
		if (r == c->roots[0]) {
			/* the root itself: as reap() would */
			c->status = st;
			c->ru = ru;
			c->reaped = 1;
			continue;
		}
		add_rusage(&c->orphans_ru, &ru);
		c->orphans++;
	}
}

static void reap(struct command *c, int options)
{
	pid_t r;

	if (!c->started)
		return;
	reap_orphans(c);
	if (!c->reaped) {
		r = wait4(c->roots[0], &c->status, options, &c->ru);
		if (r != c->roots[0])
			return;
		c->reaped = 1;
	}
	if (WIFEXITED(c->status))
		snprintf(c->how, sizeof(c->how), "exited with status %d",
			 WEXITSTATUS(c->status));
	else if (WIFSIGNALED(c->status))
		snprintf(c->how, sizeof(c->how), "was killed by signal %d (%s)",
			 WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
}

int command_running(struct command *c)
{
	if (!c->started)
		return 1;
	reap(c, WNOHANG);
	return !c->reaped;
}

int command_exit_fd(const struct command *c)
{
	return c->started && !c->reaped ? c->pidfd : -1;
}

/* Parent pid, process group and, when asked, user and system ticks of
 * the process plus those of its reaped children (utime+cutime,
 * stime+cstime). */
static pid_t read_stat(pid_t pid, pid_t *pgrp, unsigned long long *user,
		       unsigned long long *sys)
{
	char path[64], *text, *p;
	unsigned long long ut = 0, st = 0, cut = 0, cst = 0;
	int ppid = -1, pg = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	text = procfile_read(path);
	/* the command name may hold spaces: fields resume after its ')' */
	p = text ? strrchr(text, ')') : NULL;
	if (!p || sscanf(p + 1, " %*c %d %d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu %llu %llu", &ppid, &pg, &ut, &st, &cut, &cst) < 1)
		ppid = -1;
	free(text);
	if (pgrp)
		*pgrp = pg;
	if (user)
		*user = ut + cut;
	if (sys)
		*sys = st + cst;
	return ppid;
}

static int is_root(const struct command *c, pid_t pid)
{
	int i;

	for (i = 0; i < c->nroots; i++)
		if (c->roots[i] == pid)
			return 1;
	return 0;
}

/* A descendant of a root, or (a started command) of its process group:
 * an orphan's parent is perpkt, but it stays in the group. */
static int owned_uncached(const struct command *c, pid_t pid)
{
	pid_t pgrp = -1;
	int depth;

	for (depth = 0; depth < 64 && pid > 1; depth++) {
		if (is_root(c, pid))
			return 1;
		pid = read_stat(pid, &pgrp, NULL, NULL);
		if (c->started && pgrp == c->roots[0])
			return 1;
	}
	return 0;
}

int command_owns(struct command *c, pid_t pid)
{
	unsigned h = ((unsigned)pid * 2654435761u) & (CACHE_SLOTS - 1);
	unsigned i;

	if (pid <= 0)
		return 0;
	for (i = 0; i < CACHE_SLOTS; i++) {
		struct cache_slot *s = &c->cache[(h + i) & (CACHE_SLOTS - 1)];

		if (s->pid == pid)
			return s->owned;
		if (!s->pid) {
			/* a pid that is gone reads as not ours, so is not kept:
			 * its later samples are looked up again, cheaply */
			s->owned = owned_uncached(c, pid);
			if (s->owned || !kill(pid, 0))
				s->pid = pid;
			return s->owned;
		}
	}
	return owned_uncached(c, pid);
}

int command_cpus(const struct command *c, int *cpus, int max)
{
	cpu_set_t all, one;
	int i, n = 0;

	CPU_ZERO(&all);
	for (i = 0; i < c->nroots; i++) {
		if (sched_getaffinity(c->roots[i], sizeof(one), &one))
			return error("cannot read the CPU affinity of pid %d: %s",
				     (int)c->roots[i], strerror(errno));
		CPU_OR(&all, &all, &one);
	}
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &all))
			cpus[n++] = i;
	return n;
}

static uint64_t ticks_to_ns(unsigned long long t)
{
	long hz = sysconf(_SC_CLK_TCK);

	return (uint64_t)t * (1000000000ULL / (uint64_t)(hz > 0 ? hz : 100));
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL +
	       (uint64_t)tv->tv_usec * 1000ULL;
}

/* A reaped tree's times, at microsecond resolution, added to t. */
static void add_reaped(struct profile_task *t, const struct rusage *ru)
{
	t->user_ns += tv_ns(&ru->ru_utime);
	t->system_ns += tv_ns(&ru->ru_stime);
	t->cpu_ns += tv_ns(&ru->ru_utime) + tv_ns(&ru->ru_stime);
	t->switches += (uint64_t)(ru->ru_nvcsw + ru->ru_nivcsw);
}

int command_times(struct command *c, struct profile_task *t)
{
	struct dirent *d;
	DIR *dir;

	memset(t, 0, sizeof(*t));
	t->role = ROLE_WORKLOAD;
	t->pid = c->roots[0];
	t->cpu = -1;
	reap_orphans(c);
	/* the orphans perpkt reaped are no one else's children */
	add_reaped(t, &c->orphans_ru);
	/* the whole tree the root waited for; then what still runs */
	if (c->reaped)
		add_reaped(t, &c->ru);
	dir = opendir("/proc");
	if (!dir)
		return error("cannot read '/proc': %s", strerror(errno));
	while ((d = readdir(dir))) {
		unsigned long long user, sys;
		struct schedstat live = { 0 };
		pid_t pid = (pid_t)atoi(d->d_name);

		if (pid <= 0 || !owned_uncached(c, pid))
			continue;
		if (read_stat(pid, NULL, &user, &sys) < 0)
			continue;  /* gone meanwhile */
		t->user_ns += ticks_to_ns(user);
		t->system_ns += ticks_to_ns(sys);
		/* on-CPU time of the live threads, at ns resolution */
		schedstat_add_threads(pid, &live);
		t->cpu_ns += live.cpu_ns;
		t->wait_ns += live.wait_ns;
		t->switches += live.switches;
	}
	closedir(dir);
	return 0;
}

const char *command_status(const struct command *c)
{
	return c->how;
}

int command_failed(const struct command *c)
{
	return c->reaped && !(WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0);
}

/* Live processes of the started command's group other than the root. */
static int group_left(const struct command *c)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int n = 0;

	while (dir && (d = readdir(dir))) {
		pid_t pid = (pid_t)atoi(d->d_name), pg = -1;

		if (pid > 0 && pid != c->roots[0] &&
		    read_stat(pid, &pg, NULL, NULL) >= 0 && pg == c->roots[0])
			n++;
	}
	if (dir)
		closedir(dir);
	return n;
}

/* Whether any of the group is left, zombies not reaped yet included. */
static int group_alive(struct command *c)
{
	reap(c, WNOHANG);
	return !kill(-c->roots[0], 0) || errno != ESRCH;
}

/* The whole group: SIGTERM, and SIGKILL what is left after 2 s; all
 * reaped. Says so when the command had left processes behind. */
static void end_group(struct command *c)
{
	int i, left = c->reaped ? group_left(c) : 0, killed = 0;

	close_fd(&c->gate);  /* a gated child exits at once */
	if (!group_alive(c))
		return;
	kill(-c->roots[0], SIGTERM);
	for (i = 0; i < 200 && group_alive(c); i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (group_alive(c)) {
		killed = 1;
		kill(-c->roots[0], SIGKILL);
		for (i = 0; i < 200 && group_alive(c); i++) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
		if (!c->reaped)
			reap(c, 0);
	}
	if (left)
		info("the command left %d process%s running: ended with SIGTERM%s and reaped",
		     left, left == 1 ? "" : "es", killed ? ", then SIGKILL" : "");
}

int command_end(struct command *c, char *escaped, size_t len)
{
	int n;

	escaped[0] = '\0';
	if (!c || !c->started || c->ended)
		return 0;
	end_group(c);
	n = command_cgroup_end(&c->cg, escaped, len);
	reap(c, WNOHANG);
	c->ended = 1;
	return n;
}

void command_stop(struct command *c)
{
	char escaped[1024];

	if (!c)
		return;
	command_end(c, escaped, sizeof(escaped));
	close_fd(&c->gate);
	close_fd(&c->errpipe);
	close_fd(&c->pidfd);
	free(c);
}
