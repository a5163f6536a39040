// SPDX-License-Identifier: GPL-2.0-only
#include "lab/kconfig.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"

/* An option and whether a module does (y or m), or only built in. */
struct need {
	const char *name;
	int module_ok;
	const char *why;
};

static const struct need common[] = {
	{ "BLK_DEV_INITRD", 0, "the initramfs" },
	{ "PROC_FS", 0, "/proc" },
	{ "SYSFS", 0, "/sys" },
	{ "DEVTMPFS", 0, "/dev" },
	{ "TMPFS", 0, "/tmp" },
	{ "PERF_EVENTS", 0, "perf events" },
	{ "KALLSYMS", 0, "/proc/kallsyms" },
	{ "NET", 0, "sockets" },
	{ "INET", 0, "IPv4" },
};
static const struct need serial_x86[] = {
	{ "SERIAL_8250", 0, "the serial ports" },
	{ "SERIAL_8250_CONSOLE", 0, "the console" },
};
static const struct need serial_arm64[] = {
	{ "SERIAL_AMBA_PL011", 0, "the serial port" },
	{ "SERIAL_AMBA_PL011_CONSOLE", 0, "the console" },
};
/* Not needed to run, but figures are missing without them. */
static const struct need recommended[] = {
	{ "SCHED_INFO", 0, "/proc/PID/schedstat, the CPU time of the latency decomposition; CONFIG_SCHEDSTATS selects it" },
};
static const struct need veth[] = {
	{ "NET_NS", 0, "--net veth's namespaces" },
	{ "VETH", 1, "--net veth" },
};

static int is_file(const char *path)
{
	return !access(path, R_OK);
}

int lab_kconfig_find(const char *kernel, const char *given, char *out,
		     size_t len)
{
	char *copy = strdup(kernel), *dir;
	const char *base = strrchr(kernel, '/') ? strrchr(kernel, '/') + 1 : kernel;
	int found = 0;

	if (given) {
		snprintf(out, len, "%s", given);
		free(copy);
		return 0;
	}
	if (!copy)
		return -1;
	dir = dirname(copy);
	if (!strncmp(base, "vmlinuz-", 8)) {
		snprintf(out, len, "%s/config-%s", dir, base + 8);
		found = is_file(out);
	}
	if (!found) {
		/* <tree>/arch/x86/boot/bzImage, <tree>/arch/arm64/boot/Image */
		snprintf(out, len, "%s/../../../.config", dir);
		found = is_file(out);
	}
	free(copy);
	return found ? 0 : -1;
}

/* "y", "m" or NULL (unset or absent) for CONFIG_<name> in text. */
static const char *value_of(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text;

	while ((p = strstr(p, "CONFIG_"))) {
		int bol = p == text || p[-1] == '\n';

		p += 7;
		if (!bol || strncmp(p, name, n) || p[n] != '=')
			continue;
		return p[n + 1] == 'y' ? "y" : p[n + 1] == 'm' ? "m" : NULL;
	}
	return NULL;
}

static void check_set(const char *text, const struct need *set, size_t n,
		      char *missing, size_t len)
{
	size_t i, used;

	for (i = 0; i < n; i++) {
		const char *v = value_of(text, set[i].name);

		if (v && (!strcmp(v, "y") || set[i].module_ok))
			continue;
		used = strlen(missing);
		snprintf(missing + used, len - used, "%sCONFIG_%s=%s (%s%s)",
			 used ? ", " : "", set[i].name, set[i].module_ok ? "y or m" : "y",
			 set[i].why, v ? ", it is m" : "");
	}
}

static const struct need *serial_of(const struct lab_arch *a, size_t *n)
{
	int arm = !strcmp(a->name, "aarch64");

	*n = arm ? sizeof(serial_arm64) / sizeof(serial_arm64[0]) :
		sizeof(serial_x86) / sizeof(serial_x86[0]);
	return arm ? serial_arm64 : serial_x86;
}

int lab_kconfig_check(const char *path, const struct lab_arch *a, int want_veth)
{
	char missing[2048] = "";
	char *text = procfile_read(path);
	const struct need *serial;
	size_t nserial;

	if (!text)
		return error("cannot read kernel configuration '%s': %s", path,
			     strerror(errno ? errno : EIO));
	if (!strstr(text, "CONFIG_")) {
		free(text);
		return error("'%s' is not a kernel configuration (no CONFIG_ line)",
			     path);
	}
	serial = serial_of(a, &nserial);
	check_set(text, common, sizeof(common) / sizeof(common[0]), missing,
		  sizeof(missing));
	check_set(text, serial, nserial, missing, sizeof(missing));
	if (want_veth)
		check_set(text, veth, sizeof(veth) / sizeof(veth[0]), missing,
			  sizeof(missing));
	if (!missing[0]) {
		char lacks[1024] = "";

		check_set(text, recommended, sizeof(recommended) / sizeof(recommended[0]),
			  lacks, sizeof(lacks));
		if (lacks[0])
			info("kernel configuration '%s' lacks %s: the run goes on without it",
			     path, lacks);
	}
	free(text);
	if (missing[0])
		return error("kernel configuration '%s' lacks what the guest needs: %s",
			     path, missing);
	return 0;
}

const char *lab_kconfig_needs(const struct lab_arch *a, int want_veth)
{
	static char buf[1024];
	const struct need *serial;
	size_t i, nserial, used = 0;

	buf[0] = '\0';
	serial = serial_of(a, &nserial);
	for (i = 0; i < sizeof(common) / sizeof(common[0]) + nserial; i++) {
		const struct need *n = i < sizeof(common) / sizeof(common[0]) ?
			&common[i] : &serial[i - sizeof(common) / sizeof(common[0])];

		used += snprintf(buf + used, sizeof(buf) - used, "%sCONFIG_%s=y",
				 used ? ", " : "", n->name);
	}
	if (want_veth)
		snprintf(buf + used, sizeof(buf) - used,
			 ", CONFIG_NET_NS=y, CONFIG_VETH=y or m");
	return buf;
}
