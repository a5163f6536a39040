// SPDX-License-Identifier: GPL-2.0-only
/* The run directory: what a killed run leaves for the next to undo. */
#include "profile/rundir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rundir_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, len, "%s", RUNDIR_ROOT);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/perpkt", xdg);
	else {
		errno = ENOENT;
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -1;
	/* never one that another user could have made for us */
	if (lstat(buf, &st))
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 0077)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* Field 22 of /proc/PID/stat: the start time; 0 when it cannot be read. */
static unsigned long long start_time(const char *pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after the command's name: state is field 3, start time 22 */
	for (i = 3; p && i <= 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static unsigned long long pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (unsigned long long)st.st_ino;
}

int rundir_own_id(char *buf, size_t len)
{
	unsigned long long t = start_time("self"), ns = pid_namespace();
	int n;

	if (!t || !ns)
		return -1;
	n = snprintf(buf, len, "%ld-%llu-%llu", (long)getpid(), t, ns);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int parse_id(const char *id, long *pid, unsigned long long *t,
		    unsigned long long *ns)
{
	int end = 0;

	return sscanf(id, "%ld-%llu-%llu%n", pid, t, ns, &end) == 3 &&
	       !id[end] && *pid > 0 ? 0 : -1;
}

long rundir_id_pid(const char *id)
{
	unsigned long long t, ns;
	long pid;

	return parse_id(id, &pid, &t, &ns) ? 0 : pid;
}

const char *rundir_id_describe(const char *id, char *buf, size_t len)
{
	unsigned long long t, ns;
	long pid;

	if (parse_id(id, &pid, &t, &ns))
		snprintf(buf, len, "an older perpkt (%s)", id);
	else
		snprintf(buf, len, "perpkt pid %ld%s", pid, ns == pid_namespace() ?
			 "" : " of another PID namespace");
	return buf;
}

int rundir_id_alive(const char *id)
{
	unsigned long long t, ns;
	char pidstr[32];
	long pid;

	if (parse_id(id, &pid, &t, &ns))
		return 0;
	if (ns != pid_namespace())
		return -1;
	snprintf(pidstr, sizeof(pidstr), "%ld", pid);
	/* a pid reused since starts later */
	return start_time(pidstr) == t;
}
