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

int rundir_pid_alive(long pid)
{
	char path[64], comm[32] = "", exe[4096];
	const char *base;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	if (!strcmp(comm, "perpkt"))
		return 1;
	/* sweep runs its cells as /proc/PID/exe: named "exe" */
	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	return !strncmp(base, "perpkt", 6);
}
