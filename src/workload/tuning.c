// SPDX-License-Identifier: GPL-2.0-only
#include "workload/tuning.h"

#include <errno.h>
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
};

/* The kernel refuses a mask naming CPUs it cannot have with EOVERFLOW
 * ("Value too large for defined data type"): say which CPU instead. */
static int check_mask_cpus(const char *s)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int bit = 0, top = -1, v;
	const char *p;

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
		return error("invalid RPS mask '%s': it names CPU %d, but this "
			     "machine has CPUs 0-%ld", s, top, ncpus - 1);
	return 0;
}

int tuning_check_mask(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= MASK_MAX || strspn(s, "0123456789abcdefABCDEF,") != n)
		return error("invalid RPS mask '%s': use a hex CPU mask such as 2 "
			     "or 0003", s);
	return check_mask_cpus(s);
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
	if (rps_cpus && tuning_check_mask(rps_cpus))
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
	/* what a killed run left changed is put back before it is read */
	if (geteuid() == 0)
		saved_state_restore_stale(t->note, sizeof(t->note));
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
	free(t);
}
