// SPDX-License-Identifier: GPL-2.0-only
#include "system/sysinfo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "system/procfile.h"

static char *cpu_model(void)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *model = NULL;

	if (!f)
		return NULL;
	while (!model && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = 0;
		model = strdup(colon);
	}
	fclose(f);
	return model;
}

int sysinfo_online_cpus(int *cpus, int max)
{
	char buf[4096], *p;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int n = 0;

	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		int lo, hi, c;

		if (sscanf(p, "%d-%d", &lo, &hi) != 2)
			hi = lo = atoi(p);
		for (c = lo; c <= hi && n < max; c++)
			cpus[n++] = c;
	}
	return n;
}

void sysinfo_fill(struct profile *p)
{
	struct utsname u;
	char host[256];
	char when[32];
	time_t now = time(NULL);
	int cpus[4096];

	if (!uname(&u)) {
		p->kernel_release = strdup(u.release);
		p->kernel_version = strdup(u.version);
		p->machine = strdup(u.machine);
	}
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = 0;
		p->hostname = strdup(host);
	}
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	p->created = strdup(when);
	p->build_id = symbolizer_notes_build_id("/sys/kernel/notes");
	p->cpu_model = cpu_model();
	p->ncpus = sysinfo_online_cpus(cpus, 4096);
}

const char *sysinfo_online_text(char *buf, size_t len)
{
	char *text = procfile_read("/sys/devices/system/cpu/online");

	snprintf(buf, len, "%s", text ? text : "unknown");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
	return buf;
}
