// SPDX-License-Identifier: GPL-2.0-only
/* A started command's cgroup: its tree, daemons included, ended with it. */
#include "workload/command-cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"

#define GROUP_TAG "perpkt-cmd."

/* Where cgroup2 is mounted (/proc/self/mountinfo), into buf; -1 none. */
static int cgroup2_mount(char *buf, size_t len)
{
	char line[4096], mnt[PATH_MAX], *dash;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = -1;

	while (f && found && fgets(line, sizeof(line), f)) {
		dash = strstr(line, " - cgroup2 ");
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - cgroup2 ... */
		if (dash && sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 &&
		    !strchr(mnt, '\\') && strlen(mnt) < len) {
			snprintf(buf, len, "%s", mnt);
			found = 0;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* This process's cgroup v2 path ("0::/path" of /proc/self/cgroup). */
static int own_cgroup(char *buf, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = -1;

	while (f && found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", strcmp(line + 3, "/") ? line + 3 : "");
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

void command_cgroup_make(struct command_cgroup *g)
{
	char mnt[PATH_MAX], own[PATH_MAX], id[RUNDIR_ID_LEN], procs[PATH_MAX + 16];

	g->path[0] = '\0';
	g->procs = -1;
	g->note.fd = -1;
	if (geteuid() != 0 || cgroup2_mount(mnt, sizeof(mnt)) ||
	    own_cgroup(own, sizeof(own)) || rundir_own_id(id, sizeof(id)) ||
	    (size_t)snprintf(g->path, sizeof(g->path), "%s%s/" GROUP_TAG "%s",
			     mnt, own, id) >= sizeof(g->path)) {
		g->path[0] = '\0';
		return;
	}
	/* the note first: a kill between the two leaves a note for nothing */
	if (rundir_note_open(&g->note, "cgroup", g->path) || g->note.fd < 0 ||
	    mkdir(g->path, 0755)) {
		if (diag_verbosity() >= DIAG_VERBOSE)
			info("no cgroup of its own for the command ('%s': %s): a "
			     "daemon it starts outlives the run", g->path,
			     strerror(errno));
		rundir_note_close(&g->note);
		g->path[0] = '\0';
		return;
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", g->path);
	g->procs = open(procs, O_WRONLY | O_CLOEXEC);
	if (g->procs < 0) {
		rmdir(g->path);
		rundir_note_close(&g->note);
		g->path[0] = '\0';
	}
}

void command_cgroup_enter(const struct command_cgroup *g)
{
	if (g->procs >= 0 && write(g->procs, "0\n", 2) < 0)
		return;  /* then it runs as without one */
}

/* Kill everything in the group at `path`, wait until it is empty and
 * remove it; the names of what was there into names. How many. */
static int kill_group(const char *path, char *names, size_t len)
{
	char file[PATH_MAX + 16], comm[64];
	size_t at = 0;
	int n = 0, pid, tries;
	FILE *f;

	names[0] = '\0';
	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	for (tries = 0; tries < 300; tries++) {
		int seen = 0;

		f = fopen(file, "r");
		while (f && fscanf(f, "%d", &pid) == 1) {
			char p[64];
			FILE *c;

			seen++;
			snprintf(p, sizeof(p), "/proc/%d/comm", pid);
			c = fopen(p, "r");
			if (!c || !fgets(comm, sizeof(comm), c))
				snprintf(comm, sizeof(comm), "?");
			if (c)
				fclose(c);
			comm[strcspn(comm, "\n")] = '\0';
			if (!kill(pid, SIGKILL) && tries == 0 && at < len) {
				n++;
				at += (size_t)snprintf(names + at, len - at, "%s'%s' (pid %d)",
						       at ? ", " : "", comm, pid);
			}
		}
		if (f)
			fclose(f);
		if (!seen && !rmdir(path))
			return n;
		{
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	warning("cannot remove the cgroup '%s': %s", path, strerror(errno));
	return n;
}

int command_cgroup_end(struct command_cgroup *g, char *names, size_t len)
{
	int n;

	names[0] = '\0';
	if (!g->path[0])
		return 0;
	if (g->procs >= 0)
		close(g->procs);
	g->procs = -1;
	n = kill_group(g->path, names, len);
	if (n)
		warning("the command left %d process%s outside its process group "
			"(setsid, a daemon): %s; killed with its cgroup", n,
			n == 1 ? "" : "es", names);
	rundir_note_close(&g->note);
	g->path[0] = '\0';
	return n;
}

/* One killed run's group: only a perpkt-cmd.* directory. */
static int end_stale(const char *path, const char *who, void *arg)
{
	const char *base = strrchr(path, '/');
	char names[1024];
	struct stat st;
	int n;

	(void)arg;
	if (!base || strncmp(base + 1, GROUP_TAG, strlen(GROUP_TAG)) ||
	    lstat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	n = kill_group(path, names, sizeof(names));
	if (n)
		warning("killed %d process%s of the command of %s, which was "
			"killed: %s", n, n == 1 ? "" : "es", who, names);
	return n;
}

int command_cgroup_remove_stale(void)
{
	return rundir_notes_undo("cgroup", end_stale, NULL);
}
