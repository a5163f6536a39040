// SPDX-License-Identifier: GPL-2.0-only
#include "workload/tuning.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "workload/netns.h"
#include "workload/saved-state.h"
#include "system/procfile.h"

#define LO_RPS "/sys/class/net/lo/queues/rx-0/rps_cpus"
#define VETH_RPS "/sys/class/net/" NETNS_IFNAME "/queues/rx-0/rps_cpus"
#define MASK_MAX 80

struct tuning {
	char network[16];
	const struct netns *ns;
	int remote;
	int changed;             /* lo's mask was written: restore it */
	char old[MASK_MAX];      /* lo's mask before the run */
	char now[MASK_MAX];      /* the mask in effect */
	char note[256];          /* another perpkt's changes in effect */
	char *snap;              /* settings_snapshot() once set up */
};

/* What anyone may change under a run: every receive queue's RPS mask
 * and every IRQ's affinity, as "PATH VALUE" lines (malloc'd). */
static char *settings_snapshot(void)
{
	static const char *const where[] = {
		"/sys/class/net/*/queues/rx-*/rps_cpus",
		"/proc/irq/*/smp_affinity_list",
	};
	char *text = NULL, value[MASK_MAX];
	size_t len = 0, i, k;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		glob_t g;

		if (glob(where[i], 0, NULL, &g))
			continue;
		for (k = 0; k < g.gl_pathc; k++)
			if (procfile_line(g.gl_pathv[k], value, sizeof(value)) >= 0)
				fprintf(f, "%s %s\n", g.gl_pathv[k], value);
		globfree(&g);
	}
	fclose(f);
	return text;
}

/* "lo rx-0 rps_cpus" for /sys/class/net/lo/queues/rx-0/rps_cpus,
 * "irq 24 affinity" for /proc/irq/24/smp_affinity_list. */
static void setting_name(char *buf, size_t len, const char *path, size_t plen)
{
	char p[120];
	const char *a, *b;

	snprintf(p, sizeof(p), "%.*s", (int)plen, path);
	if (!strncmp(p, "/sys/class/net/", 15) && (a = strstr(p, "/queues/")) &&
	    (b = strchr(a + 8, '/')))
		snprintf(buf, len, "%.*s %.*s rps_cpus", (int)(a - p - 15), p + 15,
			 (int)(b - a - 8), a + 8);
	else if (!strncmp(p, "/proc/irq/", 10) && (a = strchr(p + 10, '/')))
		snprintf(buf, len, "irq %.*s affinity", (int)(a - p - 10), p + 10);
	else
		snprintf(buf, len, "%s", p);
}

/* What differs between two snapshots, "lo rx-0 rps_cpus 2 -> 1; ...",
 * into buf; 0 when nothing does. */
static int settings_changed(const char *before, const char *after, char *buf,
			    size_t len)
{
	const char *line;
	size_t at = 0;

	buf[0] = '\0';
	for (line = before; line && *line; line = strchr(line, '\n') ?
	     strchr(line, '\n') + 1 : NULL) {
		size_t plen = strcspn(line, " \n"), vlen;
		const char *v = line + plen + (line[plen] == ' '), *now = after;
		char name[160];

		vlen = strcspn(v, "\n");
		while (now && *now && (strncmp(now, line, plen) || now[plen] != ' '))
			now = strchr(now, '\n') ? strchr(now, '\n') + 1 : NULL;
		if (now && *now && !strncmp(now + plen + 1, v, vlen) &&
		    now[plen + 1 + vlen] == '\n')
			continue;
		setting_name(name, sizeof(name), line, plen);
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s %.*s -> %.*s",
					       at ? "; " : "", name, (int)vlen, v,
					       now && *now ? (int)strcspn(now + plen + 1, "\n") : 4,
					       now && *now ? now + plen + 1 : "gone");
	}
	return at > 0;
}

/* The kernel refuses a mask naming CPUs it cannot have with EOVERFLOW
 * ("Value too large for defined data type"): say which CPU instead. */
static int check_mask_cpus(const char *s, long ncpus, const char *machine)
{
	int bit = 0, top = -1, v;
	const char *p;

	if (!ncpus) {
		ncpus = sysconf(_SC_NPROCESSORS_CONF);
		machine = "this machine";
	}
	for (p = s + strlen(s); p-- > s;) {
		if (*p == ',')
			continue;
		v = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
		for (int b = 0; b < 4; b++, bit++)
			if (v & (1 << b))
				top = bit;
	}
	/* 0 is valid: it turns RPS off */
	if (ncpus > 0 && top >= ncpus)
		return error("invalid RPS mask '%s': it names CPU %d, but %s has "
			     "CPUs 0-%ld", s, top, machine, ncpus - 1);
	return 0;
}

int tuning_check_mask(const char *s, long ncpus, const char *machine)
{
	size_t n = strlen(s);

	if (n == 0 || n >= MASK_MAX || strspn(s, "0123456789abcdefABCDEF,") != n)
		return error("invalid RPS mask '%s': use a hex CPU mask such as 2 "
			     "or 0003", s);
	return ncpus < 0 ? 0 : check_mask_cpus(s, ncpus, machine);
}

static int write_mask(const char *path, const char *mask)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (fputs(mask, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static int veth_mask(const struct tuning *t, enum netns_side side,
		     const char *mask, char *out, size_t outlen)
{
	/* `ip netns exec` remounts /sys, so veth0 is visible there */
	char *set[] = { "sh", "-c", "printf %s \"$1\" > \"$2\"", "sh",
			(char *)mask, VETH_RPS, NULL };
	char *get[] = { "cat", VETH_RPS, NULL };

	return netns_run(t->ns, side, mask ? set : get, out, outlen);
}

int tuning_apply(struct tuning **out, const char *network,
		 const struct netns *ns, int remote, const char *rps_cpus,
		 int irq_cpu)
{
	struct tuning *t;
	char msg[256];

	*out = NULL;
	if (rps_cpus && tuning_check_mask(rps_cpus, 0, NULL))
		return -1;
	if (irq_cpu >= 0) {
		if (remote)
			return error("--irq-cpu is not implemented for --peer or "
				     "--echo: set /proc/irq/N/smp_affinity_list "
				     "on each host yourself");
		return error("--irq-cpu has nothing to move: %s has no "
			     "interrupts (use --rps-cpus to steer its receive "
			     "work)", network);
	}
	if (rps_cpus && remote)
		return error("--rps-cpus is not implemented for --peer or --echo");
	t = calloc(1, sizeof(*t));
	if (!t)
		return error("out of memory");
	snprintf(t->network, sizeof(t->network), "%s", network);
	t->ns = ns;
	t->remote = remote;
	if (remote) {
		*out = t;
		return 0;
	}
	/* what a killed run left changed is put back before it is read
	 * (a run that changes something did so when it took the lock) */
	if (geteuid() == 0 && !ns && !rps_cpus)
		saved_state_settle(t->note, sizeof(t->note));
	if (ns) {
		int side;

		for (side = 0; rps_cpus && side < 2; side++)
			if (veth_mask(t, side, rps_cpus, msg, sizeof(msg))) {
				free(t);
				return error("cannot set rps_cpus of '%s' in '%s': %s",
					     NETNS_IFNAME,
					     netns_name(ns, side), msg);
			}
		veth_mask(t, NETNS_CLIENT, NULL, t->now, sizeof(t->now));
		t->snap = settings_snapshot();
		*out = t;
		return 0;
	}
	if (procfile_line(LO_RPS, t->old, sizeof(t->old)) < 0) {
		if (rps_cpus) {
			error("cannot read '%s': %s: is the kernel built with "
			      "CONFIG_RPS?", LO_RPS, strerror(errno));
			free(t);
			return -1;
		}
	}
	if (rps_cpus) {
		if (saved_state_record(LO_RPS, t->old)) {
			free(t);
			return -1;
		}
		if (write_mask(LO_RPS, rps_cpus) < 0) {
			error("cannot set '%s' to '%s': %s", LO_RPS, rps_cpus,
			      strerror(errno));
			write_mask(LO_RPS, t->old);
			saved_state_forget(LO_RPS);
			free(t);
			return -1;
		}
		t->changed = 1;
	}
	procfile_line(LO_RPS, t->now, sizeof(t->now));
	t->snap = settings_snapshot();
	*out = t;
	return 0;
}

void tuning_describe(const struct tuning *t, struct profile *p)
{
	char buf[256];

	if (!t || t->remote)
		return;
	if (t->ns)
		snprintf(buf, sizeof(buf), "%s rx-0: %s", NETNS_IFNAME,
			 t->now[0] ? t->now : "?");
	else if (t->changed)
		snprintf(buf, sizeof(buf), "lo rx-0: %s (set for the run, was %s)",
			 t->now, t->old);
	else
		snprintf(buf, sizeof(buf), "lo rx-0: %s", t->now[0] ? t->now : "?");
	profile_add_condition(p, "net.rps_cpus", buf);
	if (t->note[0])
		profile_add_condition(p, "net.changed_by_other", t->note);
	if (t->snap) {
		char *now = settings_snapshot(), what[400];

		if (now && settings_changed(t->snap, now, what, sizeof(what))) {
			warning("changed during the run by something other than "
				"this perpkt: %s; the profile says so", what);
			profile_add_condition(p, TUNING_CHANGED_DURING_RUN, what);
		}
		free(now);
	}
}

void tuning_restore(struct tuning *t)
{
	if (!t)
		return;
	if (t->changed && write_mask(LO_RPS, t->old) < 0)
		warning("cannot restore '%s' to '%s': %s: set it back by hand",
			LO_RPS, t->old, strerror(errno));
	else if (t->changed)
		saved_state_forget(LO_RPS);
	free(t->snap);
	free(t);
}
