// SPDX-License-Identifier: GPL-2.0-only
#include "system/conditions.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "system/append.h"
#include "system/attached.h"
#include "system/placement.h"
#include "system/procfile.h"
#include "system/host-kallsyms.h"
#include "system/routing.h"

#define VALUE_MAX 1024

static void add(struct profile *p, const char *key, const char *value)
{
	profile_add_condition(p, key, value);
}

static void add_file(struct profile *p, const char *key, const char *path,
		     const char *absent)
{
	char buf[VALUE_MAX];

	if (procfile_line(path, buf, sizeof(buf)) < 0 || !buf[0])
		snprintf(buf, sizeof(buf), "%s", absent);
	add(p, key, buf);
}

void conditions_kconfig_summary(const char *config, char *out, size_t len)
{
	static const char *const keys[] = {
		"CONFIG_HZ=", "CONFIG_NO_HZ_FULL=y", "CONFIG_NO_HZ_IDLE=y",
		"CONFIG_HZ_PERIODIC=y", "CONFIG_PREEMPT_NONE=y",
		"CONFIG_PREEMPT_VOLUNTARY=y", "CONFIG_PREEMPT=y",
		"CONFIG_PREEMPT_RT=y", "CONFIG_PREEMPT_DYNAMIC=y",
	};
	const char *line = config;
	size_t i, n;

	out[0] = '\0';
	while (line && *line) {
		n = strcspn(line, "\n");
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t k = strlen(keys[i]);

			if (n < k || strncmp(line, keys[i], k))
				continue;
			/* CONFIG_HZ=250 but not CONFIG_HZ_1000=y */
			if (i == 0)
				append(out, len, "%sHZ=%.*s", out[0] ? ", " : "",
				    (int)(n - k), line + k);
			else
				append(out, len, "%s%.*s", out[0] ? ", " : "",
				    (int)(k - 9), keys[i] + 7);
		}
		line = line[n] ? line + n + 1 : NULL;
	}
}

void conditions_pseudo_nmi(const char *machine, const char *cmdline,
			   const char *config, char *out, size_t len)
{
	static const char param[] = "irqchip.gicv3_pseudo_nmi=1";
	const char *c = cmdline;
	int asked = 0;

	out[0] = '\0';
	if (!machine || (strcmp(machine, "aarch64") && strcmp(machine, "arm64")))
		return;
	for (; c && (c = strstr(c, param)); c++)
		if ((c == cmdline || c[-1] == ' ') &&
		    (!c[sizeof(param) - 1] || isspace((unsigned char)c[sizeof(param) - 1])))
			asked = 1;
	if (!asked)
		snprintf(out, len, "off (no %s on the kernel command line)", param);
	else if (!config)
		snprintf(out, len, "on (%s; kernel config not read)", param);
	else if (!strstr(config, "\nCONFIG_ARM64_PSEUDO_NMI=y"))
		snprintf(out, len, "off (%s, but CONFIG_ARM64_PSEUDO_NMI is not set)", param);
	else
		snprintf(out, len, "on (%s, CONFIG_ARM64_PSEUDO_NMI=y)", param);
}

int conditions_pmu_irq_maskable(void)
{
	char out[VALUE_MAX], cmdline[VALUE_MAX];
	struct utsname u;

	if (uname(&u))
		return 0;
	if (procfile_line("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		cmdline[0] = '\0';
	conditions_pseudo_nmi(u.machine, cmdline, NULL, out, sizeof(out));
	return !strncmp(out, "off", 3);
}

void conditions_cpuinfo_topology(const char *cpuinfo, char *out, size_t len)
{
	const char *line = cpuinfo;
	int cpu = -1, pkg = -1, core = -1, ncpus = 0, v;
	char body[VALUE_MAX] = "";
	size_t n;

	out[0] = '\0';
	for (;;) {
		int end = !line || !*line;

		n = end ? 0 : strcspn(line, "\n");
		/* a blank line (or the end) closes one processor's block */
		if ((end || n == 0) && cpu >= 0) {
			/* arm64 has neither field: say only what is known */
			append(body, sizeof(body), "%scpu%d", ncpus ? ", " : "", cpu);
			if (pkg >= 0)
				append(body, sizeof(body), " pkg %d", pkg);
			if (core >= 0)
				append(body, sizeof(body), " core %d", core);
			ncpus++;
			cpu = pkg = core = -1;
		}
		if (end)
			break;
		if (sscanf(line, "processor : %d", &v) == 1)
			cpu = v;
		else if (sscanf(line, "physical id : %d", &v) == 1)
			pkg = v;
		else if (sscanf(line, "core id : %d", &v) == 1)
			core = v;
		line = line[n] ? line + n + 1 : line + n;
	}
	snprintf(out, len, "%d CPU%s; %s", ncpus, ncpus == 1 ? "" : "s", body);
}

/* The address of a kallsyms line whose name is `name` exactly, else 0.
 * Lines are "ADDRESS TYPE NAME[\t[MODULE]]". */
static uint64_t ksym_line_addr(const char *line, size_t len, const char *name)
{
	const char *sp = memchr(line, ' ', len);
	size_t nlen = strlen(name);

	/* the name after "ADDRESS T " */
	if (!sp || (size_t)(sp - line) + 3 + nlen != len ||
	    memcmp(sp + 3, name, nlen))
		return 0;
	return strtoull(line, NULL, 16);
}

/*
 * _etext is most of the way down /proc/kallsyms's 120,000 lines, read
 * on every record: scanned in large reads, each line's name compared
 * in place (sscanf per line was 70 ms of a record's 300 here).
 */
uint64_t conditions_text_size(const char *kallsyms_path)
{
	enum { CHUNK = 1 << 16 };
	FILE *f = fopen(kallsyms_path, "r");
	uint64_t stext = 0, etext = 0, a;
	char *buf;
	size_t have = 0, n;

	if (!f)
		return 0;
	buf = malloc(CHUNK);
	while (buf && (!stext || !etext) &&
	       (n = fread(buf + have, 1, CHUNK - have, f)) > 0) {
		char *line = buf, *end = buf + have + n, *nl;

		while ((nl = memchr(line, '\n', (size_t)(end - line)))) {
			if ((a = ksym_line_addr(line, (size_t)(nl - line), "_stext")))
				stext = a;
			else if ((a = ksym_line_addr(line, (size_t)(nl - line), "_etext")))
				etext = a;
			line = nl + 1;
		}
		/* a line longer than the buffer is no symbol of these */
		have = (size_t)(end - line) < CHUNK / 2 ? (size_t)(end - line) : 0;
		memmove(buf, line, have);
	}
	free(buf);
	fclose(f);
	return stext && etext > stext ? etext - stext : 0;
}

static void text_size_condition(struct profile *p, const char *kallsyms)
{
	char buf[VALUE_MAX];
	uint64_t size = 0;

	/* this boot's: from perpkt's copy of it, without reading 5 MB */
	if (!strcmp(kallsyms, "/proc/kallsyms"))
		size = host_kallsyms_text_size();
	if (!size)
		size = conditions_text_size(kallsyms);

	if (size)
		snprintf(buf, sizeof(buf), "%llu bytes (_etext - _stext)",
			 (unsigned long long)size);
	else
		snprintf(buf, sizeof(buf), "unknown (_stext/_etext not in %s)", kallsyms);
	add(p, "kernel.text_size", buf);
}

static void config_condition(struct profile *p, const char *text)
{
	char buf[VALUE_MAX];

	if (text && text[0])
		conditions_kconfig_summary(text, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "unknown (no /boot/config-* or /proc/config.gz)");
	add(p, "kernel.config", buf);
}

void conditions_kernel_files(struct profile *p, const char *kallsyms,
			     const char *config)
{
	char *text;

	if (kallsyms)
		text_size_condition(p, kallsyms);
	if (config) {
		text = procfile_read(config);
		config_condition(p, text);
		free(text);
	}
}

static void kernel_conditions(struct profile *p, int in_guest)
{
	char buf[VALUE_MAX], path[300];
	struct utsname u;
	char *text = NULL;

	memset(&u, 0, sizeof(u));
	if (!uname(&u)) {
		add(p, "kernel.release", u.release);
		add(p, "kernel.version", u.version);
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		text = procfile_read(path);
	}
	add_file(p, "kernel.cmdline", "/proc/cmdline", "unknown (no /proc/cmdline)");
	if (!in_guest && !text)
		text = procfile_read_gz("/proc/config.gz", 1 << 22);
	conditions_pseudo_nmi(u.machine, profile_condition(p, "kernel.cmdline"),
			      in_guest ? NULL : text, buf, sizeof(buf));
	if (buf[0])
		add(p, PROFILE_COND_PSEUDO_NMI, buf);
	if (in_guest) {
		free(text);  /* the host has both (conditions_kernel_files) */
	} else {
		text_size_condition(p, "/proc/kallsyms");
		config_condition(p, text);
		free(text);
	}
	/* the preemption model chosen at boot with PREEMPT_DYNAMIC */
	if (procfile_line("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "unknown (debugfs not mounted: "
			 "/sys/kernel/debug/sched/preempt)");
	add(p, "kernel.preempt", buf);
}

static void cpu_conditions(struct profile *p, int client, int server)
{
	char buf[VALUE_MAX], model[256] = "unknown";
	char *info = procfile_read("/proc/cpuinfo");
	const char *m;

	if (info && (m = strstr(info, "model name"))) {
		m = strchr(m, ':');
		if (m)
			snprintf(model, sizeof(model), "%.*s",
				 (int)strcspn(m + 2, "\n"), m + 2);
	}
	add(p, "cpu.model", model);
	if (info) {
		conditions_cpuinfo_topology(info, buf, sizeof(buf));
		add(p, "cpu.topology", buf);
	}
	free(info);
	placement_describe(PLACEMENT_SYSFS, client, server, buf, sizeof(buf));
	add(p, "placement", buf);
	add_file(p, "cpu.governor",
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		 "none (no cpufreq)");
	add_file(p, "cpu.idle_driver", "/sys/devices/system/cpu/cpuidle/current_driver",
		 "none (no cpuidle)");
	add_file(p, "cpu.idle_governor",
		 "/sys/devices/system/cpu/cpuidle/current_governor", "none");
}

/* Rules in `nft -a list ruleset`: lines with a handle that do not open
 * a table, chain, set or other block. */
static size_t nft_rules(const char *text)
{
	const char *line = text, *h;
	size_t n = 0, len;

	while (line && *line) {
		len = strcspn(line, "\n");
		h = memmem(line, len, " # handle ", 10);
		if (h) {
			while (h > line && h[-1] == ' ')
				h--;
			n += !(h > line && h[-1] == '{');
		}
		line = line[len] ? line + len + 1 : NULL;
	}
	return n;
}

/* "inet filter,ip nat": the tables in `nft -a list ruleset`, as `nft
 * list tables` names them (its lines "table FAMILY NAME { # handle N"). */
static void nft_tables(const char *text, char *out, size_t len)
{
	const char *line = text;
	size_t n;

	out[0] = '\0';
	while (line && *line) {
		n = strcspn(line, "\n");
		if (n > 6 && !strncmp(line, "table ", 6)) {
			size_t name = strcspn(line, "{\n");

			while (name > 0 && line[name - 1] == ' ')
				name--;
			append(out, len, "%s%.*s", out[0] ? "," : "", (int)name, line);
		}
		line = line[n] ? line + n + 1 : NULL;
	}
}

/* Settings that change the path of a packet or the scheduling of the
 * two processes, "name=value, ..." (diff compares them entry by entry). */
static void sysctl_conditions(struct profile *p)
{
	static const char *const names[] = {
		"net.core.busy_poll", "net.core.busy_read",
		"net.core.rmem_default", "net.core.wmem_default",
		"net.core.netdev_budget", "net.core.dev_weight",
		"net.core.bpf_jit_enable", "net.ipv4.ip_forward",
		"net.ipv4.udp_early_demux", "net.ipv4.tcp_autocorking",
		"kernel.timer_migration", "kernel.sched_autogroup_enabled",
		"kernel.numa_balancing", "vm.stat_interval",
	};
	char buf[VALUE_MAX] = "", path[128], v[64];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *c;

		snprintf(path, sizeof(path), "/proc/sys/%s", names[i]);
		for (c = path + 10; *c; c++)
			if (*c == '.')
				*c = '/';
		if (procfile_line(path, v, sizeof(v)) < 0)
			continue;
		append(buf, sizeof(buf), "%s%s=%s", buf[0] ? ", " : "", names[i], v);
	}
	add(p, "net.sysctls", buf[0] ? buf : "none readable");
}

void conditions_netfilter(char *buf, size_t len)
{
	char *nft[] = { "/usr/sbin/nft", "-a", "list", "ruleset", NULL };
	char count[64], names_out[1024], *tables, *rules;
	static const char *const names[] = {
		"/proc/net/ip_tables_names", "/proc/net/ip6_tables_names",
	};
	size_t i;

	buf[0] = '\0';
	if (procfile_line("/proc/sys/net/netfilter/nf_conntrack_count", count,
		      sizeof(count)) == 0)
		append(buf, len, "conntrack active (%s entries)", count);
	else
		append(buf, len, "conntrack not loaded");
	for (i = 0; i < 2; i++) {
		tables = procfile_read(names[i]);
		if (!tables)
			continue;
		for (char *c = tables; *c; c++)
			if (*c == '\n')
				*c = c[1] ? ',' : '\0';
		append(buf, len, "; %s tables: %s", i ? "ip6" : "ip",
		    tables[0] ? tables : "none");
		free(tables);
	}
	if (access("/usr/sbin/nft", X_OK) == 0 &&
	    (rules = procfile_command(nft, 1 << 24))) {
		append(buf, len, "; nft rules: %zu", nft_rules(rules));
		nft_tables(rules, names_out, sizeof(names_out));
		append(buf, len, "; nft: %s", names_out[0] ? names_out : "no tables");
		free(rules);
	}
}

/* IRQ lines of /proc/interrupts whose name contains dev, with their
 * affinity and per-CPU counts. */
static void irqs_of(const char *interrupts, const char *dev, char *out, size_t len)
{
	const char *line = interrupts;
	char aff[128], path[64];
	size_t n;
	int irq;

	while (line && *line) {
		n = strcspn(line, "\n");
		if (sscanf(line, " %d:", &irq) == 1 && memmem(line, n, dev, strlen(dev))) {
			const char *name = line + n;

			while (name > line && name[-1] == ' ')
				name--;
			while (name > line && name[-1] != ' ')
				name--;
			snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
			if (procfile_line(path, aff, sizeof(aff)) < 0)
				snprintf(aff, sizeof(aff), "?");
			append(out, len, "%sirq %d %.*s -> cpus %s", out[0] ? ", " : "",
			    irq, (int)(line + n - name), name, aff);
		}
		line = line[n] ? line + n + 1 : NULL;
	}
}

static void interface_conditions(struct profile *p)
{
	char buf[VALUE_MAX] = "", rps[VALUE_MAX] = "", link[512], path[512];
	char irqs[VALUE_MAX], mask[128];
	char *interrupts = procfile_read("/proc/interrupts");
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	ssize_t n;

	while (d && (e = readdir(d))) {
		const char *drv = "virtual", *devname = NULL;
		char dev[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			drv = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", e->d_name);
		n = readlink(path, dev, sizeof(dev) - 1);
		if (n > 0) {
			dev[n] = '\0';
			devname = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
		}
		irqs[0] = '\0';
		if (interrupts && devname)
			irqs_of(interrupts, devname, irqs, sizeof(irqs));
		append(buf, sizeof(buf), "%s%s (%s%s%s)", buf[0] ? "; " : "", e->d_name,
		    !strcmp(e->d_name, "lo") ? "loopback" : drv,
		    irqs[0] ? ": " : ", no IRQs", irqs);
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus",
			 e->d_name);
		if (procfile_line(path, mask, sizeof(mask)) == 0)
			append(rps, sizeof(rps), "%s%s rx-0 %s", rps[0] ? ", " : "",
			    e->d_name, mask);
	}
	if (d)
		closedir(d);
	free(interrupts);
	add(p, "net.interfaces", buf[0] ? buf : "unknown");
	add(p, "net.rps_cpus.host", rps[0] ? rps : "unknown (no rps_cpus files)");
}

void conditions_capture(struct profile *p, int client_cpu, int server_cpu,
			uint32_t message_size, int in_guest)
{
	char buf[64], value[VALUE_MAX];

	kernel_conditions(p, in_guest);
	cpu_conditions(p, client_cpu, server_cpu);
	/* the workload's namespaces, when it had its own, were read before
	 * they went (conditions_netns) */
	if (!profile_condition(p, "net.netfilter")) {
		conditions_netfilter(value, sizeof(value));
		add(p, "net.netfilter", value);
	}
	if (!profile_condition(p, "net.tc") || !profile_condition(p, "net.bpf")) {
		char *qdiscs = attached_qdiscs();

		if (!profile_condition(p, "net.tc")) {
			attached_tc(qdiscs, value, sizeof(value));
			add(p, "net.tc", value);
		}
		if (!profile_condition(p, "net.bpf")) {
			attached_bpf(qdiscs, value, sizeof(value));
			add(p, "net.bpf", value);
		}
		free(qdiscs);
	}
	if (!profile_condition(p, "net.taps")) {
		attached_taps(value, sizeof(value));
		add(p, "net.taps", value);
	}
	if (!profile_condition(p, "net.routing")) {
		routing_describe("", value, sizeof(value));
		add(p, "net.routing", value);
	}
	attached_perf_users(value, sizeof(value), getpid());
	add(p, "host.perf_users", value);
	sysctl_conditions(p);
	interface_conditions(p);
	snprintf(buf, sizeof(buf), "%u bytes", message_size);
	add(p, "workload.message_size", buf);
}

void conditions_steal(struct profile *p, int client_cpu, int server_cpu)
{
	static const struct { double below; const char *text; } band[] = {
		{ 0.01, "under 1%" }, { 0.05, "1% to 5%" },
		{ 0.20, "5% to 20%" }, { 2, "20% or more" },
	};
	double steal, all;
	char buf[VALUE_MAX];
	size_t i;

	if (!profile_steal(p, client_cpu, server_cpu, &steal, &all) || all <= 0) {
		add(p, "cpu.steal", "unknown (no /proc/stat times of the sampled CPUs)");
		return;
	}
	for (i = 0; steal / all >= band[i].below; i++)
		;
	snprintf(buf, sizeof(buf), "%s of the workload's CPUs' time", band[i].text);
	add(p, "cpu.steal", buf);
}
