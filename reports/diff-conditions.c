// SPDX-License-Identifier: GPL-2.0-only
/* What differs between the profiles of a diff, before any number. */
#include "reports/diff-conditions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/profile.h"

#define NOT_RECORDED "(not recorded)"

static const char *field_release(const struct profile *p) { return p->kernel_release; }
static const char *field_build_id(const struct profile *p) { return p->build_id; }
static const char *field_mode(const struct profile *p) { return p->mode; }
static const char *field_cpu(const struct profile *p) { return p->cpu_model; }
static const char *field_tool(const struct profile *p) { return p->tool_version; }

/* In the order a reader asks: which kernel, how it booted, how it was
 * measured, what sat in the path, where it ran, with what. Routing comes
 * first of all: rules and routes change the cost of every lookup and
 * nothing else in a diff names them (issue 49). */
static const struct {
	const char *what, *key;
	const char *(*field)(const struct profile *p);  /* NULL: a condition */
	int list;  /* "k=v, k=v": only the entries that differ */
} known[] = {
	{ "routing", "net.routing", NULL, 1 },
	{ "kernel release", "kernel.release", field_release, 0 },
	{ "build-id", "build_id", field_build_id, 0 },
	{ "kernel commit", "lab.commit", NULL, 0 },
	{ "command line", "kernel.cmdline", NULL, 0 },
	{ "--append", "lab.append", NULL, 0 },
	{ "kernel preemption", "kernel.preempt", NULL, 0 },
	{ "pseudo-NMI", PROFILE_COND_PSEUDO_NMI, NULL, 0 },
	{ "mode", "counters.mode", field_mode, 0 },
	{ "accelerator", PROFILE_COND_ACCEL, NULL, 0 },
	{ "netfilter", "net.netfilter", NULL, 0 },
	{ "tc", "net.tc", NULL, 0 },
	{ "packet taps", "net.taps", NULL, 0 },
	{ "BPF programs", "net.bpf", NULL, 0 },
	{ "other perf_event users", "host.perf_users", NULL, 0 },
	{ "sysctls", "net.sysctls", NULL, 1 },
	{ "CPU model", "cpu.model", field_cpu, 0 },
	{ "steal", "cpu.steal", NULL, 0 },
	{ "placement", "placement", NULL, 0 },
	{ "perpkt version", "tool", field_tool, 0 },
	{ "guest perpkt", "lab.guest_perpkt", NULL, 0 },
};

static const struct profile *prof(const struct diff *d, size_t i)
{
	return d->prof[i].m->profile;
}

static const char *value_of(const struct profile *p, size_t k)
{
	return known[k].field ? known[k].field(p) :
		profile_condition(p, known[k].key);
}

/* The world a profile was measured in: where (the host, a QEMU guest
 * under TCG or KVM) and how (sampled, or exact counts). Profiles of
 * different worlds differ by the emulation, not by what changed. */
static void world(const struct profile *p, char *out, size_t len)
{
	const char *accel = profile_condition(p, PROFILE_COND_ACCEL);
	const char *qemu = profile_condition(p, PROFILE_COND_QEMU_COMMAND);
	const char *where = "the host";

	if (accel && !strncmp(accel, "kvm", 3))
		where = "a QEMU guest under KVM";
	else if (accel && !strncmp(accel, "tcg", 3))
		where = "a QEMU guest under TCG";
	else if (accel && qemu && strstr(qemu, "kvm"))
		where = "a QEMU guest under KVM";
	else if (accel)
		where = "a QEMU guest under TCG";
	int shift = profile_icount_shift(p);

	if (shift >= 0)
		snprintf(out, len, "%s, exact counts on the instruction clock (icount shift %d)",
			 where, shift);
	else
		snprintf(out, len, "%s, %s", where,
			 p->mode && !strcmp(p->mode, "exact") ? "exact counts" : "sampled");
}

static int check_worlds(struct diff *d, int force)
{
	char w0[128], wi[128], *msg = NULL;
	size_t i;

	world(prof(d, 0), w0, sizeof(w0));
	for (i = 1; i < d->n; i++) {
		world(prof(d, i), wi, sizeof(wi));
		if (!strcmp(w0, wi))
			continue;
		if (asprintf(&msg, "A was measured on %s but %c on %s: the difference is mostly the emulation or the counting, not the kernel; compare profiles of one kind (record both under --kernel, with the same accelerator and mode)",
			     w0, diff_letter(i), wi) < 0)
			return error("out of memory");
		break;
	}
	if (!msg)
		return 0;
	if (!force) {
		error("%s, or give --force", msg);
		free(msg);
		return -1;
	}
	/* first, before the warnings of the numbers */
	if (d->nwarnings == sizeof(d->warnings) / sizeof(d->warnings[0]))
		free(d->warnings[--d->nwarnings]);
	memmove(d->warnings + 1, d->warnings, d->nwarnings * sizeof(d->warnings[0]));
	d->warnings[0] = NULL;
	if (asprintf(&d->warnings[0], "compared with --force: %s", msg) < 0)
		d->warnings[0] = strdup("compared with --force: profiles of different worlds");
	d->nwarnings++;
	free(msg);
	return 0;
}

/* "k=v" entries of a list value; 1 when `entry` is in `list`. */
static int in_list(const char *list, const char *entry, size_t n)
{
	const char *p = list;

	while (p && *p) {
		size_t m = strcspn(p, ",");

		while (*p == ' ' && m)
			p++, m--;
		if (m == n && !strncmp(p, entry, n))
			return 1;
		p += m;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The entries of v not in every other value, joined by ", ". */
static char *list_diff(const char *const *v, size_t n, size_t self)
{
	const char *p = v[self];
	char *out = calloc(1, strlen(p) + 1);
	
	while (out && *p) {
		size_t m = strcspn(p, ","), k;
		int everywhere = 1;

		while (*p == ' ' && m)
			p++, m--;
		for (k = 0; k < n; k++)
			if (k != self && !in_list(v[k], p, m))
				everywhere = 0;
		if (!everywhere && m) {
			if (*out)
				strcat(out, ", ");
			strncat(out, p, m);
		}
		p += m;
		if (*p == ',')
			p++;
	}
	if (out && !*out) {
		free(out);
		out = strdup("(the same entries)");
	}
	return out;
}

static int add_row(struct diff_conditions *c, size_t k, const char *const *v,
		   size_t n)
{
	struct diff_condition *rows = realloc(c->rows, (c->n + 1) * sizeof(*rows));
	struct diff_condition *r;
	size_t i;

	if (!rows)
		return error("out of memory");
	c->rows = rows;
	r = &rows[c->n++];
	memset(r, 0, sizeof(*r));
	r->what = known[k].what;
	r->key = known[k].key;
	for (i = 0; i < n; i++) {
		int recorded = strcmp(v[i], NOT_RECORDED);

		r->value[i] = known[k].list && recorded ? list_diff(v, n, i) :
			strdup(v[i]);
		if (!r->value[i])
			return error("out of memory");
	}
	return 0;
}

int diff_conditions_fill(struct diff *d, int force)
{
	const char *v[DIFF_MAX_PROFILES];
	size_t k, i;
	int differ;

	size_t before = d->nwarnings;

	if (check_worlds(d, force))
		return -1;
	d->conds = calloc(1, sizeof(*d->conds));
	if (!d->conds)
		return error("out of memory");
	d->conds->first_warnings = d->nwarnings - before;
	for (k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		differ = 0;
		for (i = 0; i < d->n; i++) {
			v[i] = value_of(prof(d, i), k);
			/* a lab profile without --append had none */
			if (!v[i] && !strcmp(known[k].key, "lab.append") &&
			    profile_condition(prof(d, i), PROFILE_COND_ACCEL))
				v[i] = "(none)";
			if (!v[i])
				v[i] = NOT_RECORDED;
			differ |= i && strcmp(v[i], v[0]);
		}
		if (differ && add_row(d->conds, k, v, d->n))
			return -1;
	}
	return 0;
}

void diff_conditions_free(struct diff_conditions *c)
{
	size_t i, k;

	for (i = 0; c && i < c->n; i++)
		for (k = 0; k < DIFF_MAX_PROFILES; k++)
			free(c->rows[i].value[k]);
	if (c)
		free(c->rows);
	free(c);
}
