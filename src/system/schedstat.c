// SPDX-License-Identifier: GPL-2.0-only
#include "system/schedstat.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "system/procfile.h"

int schedstat_read_path(const char *path, struct schedstat *s)
{
	unsigned long long run, wait, slices;
	char *text = procfile_read(path);
	int n;

	if (!text)
		return -1;
	n = sscanf(text, "%llu %llu %llu", &run, &wait, &slices);
	free(text);
	if (n != 3) {
		errno = 0;
		return -1;
	}
	s->cpu_ns = run;
	s->wait_ns = wait;
	s->switches = slices;
	return 0;
}

int schedstat_read(pid_t pid, struct schedstat *s)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	return schedstat_read_path(path, s);
}

void schedstat_add_threads(pid_t pid, struct schedstat *sum)
{
	char path[64];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		struct schedstat t;
		char file[300];

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(file, sizeof(file), "/proc/%d/task/%s/schedstat",
			 (int)pid, d->d_name);
		if (schedstat_read_path(file, &t) < 0)
			continue;
		sum->cpu_ns += t.cpu_ns;
		sum->wait_ns += t.wait_ns;
		sum->switches += t.switches;
	}
	if (dir)
		closedir(dir);
}
