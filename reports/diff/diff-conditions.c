// SPDX-License-Identifier: GPL-2.0-only
/* What differs between the profiles of a diff, before any number. */
#include "reports/diff/diff-conditions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "profile/profile.h"

#define NOT_RECORDED "(not recorded)"

#define FIELD_MAX 512

static const char *field_release(const struct profile *p, char *b, size_t n)
{ (void)b, (void)n; return p->kernel_release; }
static const char *field_build_id(const struct profile *p, char *b, size_t n)
{ (void)b, (void)n; return p->build_id; }
static const char *field_mode(const struct profile *p, char *b, size_t n)
{ (void)b, (void)n; return p->mode; }
static const char *field_cpu(const struct profile *p, char *b, size_t n)
{ (void)b, (void)n; return p->cpu_model; }
static const char *field_tool(const struct profile *p, char *b, size_t n)
{ (void)b, (void)n; return p->tool_version; }

/* "cpu-clock every 1000000 ns (1000 Hz)", "cycles at 4000 Hz": what was
 * sampled and how often, from the events (every profile has them). */
static const char *field_sampling(const struct profile *p, char *b, size_t n)
{
	size_t e, used = 0;

	b[0] = '\0';
	for (e = 0; e < p->nevents && used < n; e++) {
		const struct profile_event *ev = &p->events[e];

		if (ev->freq)
			used += (size_t)snprintf(b + used, n - used, "%s%s at %llu Hz",
						 e ? "; " : "", ev->name,
						 (unsigned long long)ev->freq);
		else if (ev->unit && !strcmp(ev->unit, "ns") && ev->period)
			used += (size_t)snprintf(b + used, n - used,
						 "%s%s every %llu ns (%g Hz)", e ? "; " : "",
						 ev->name, (unsigned long long)ev->period,
						 1e9 / (double)ev->period);
		else
			used += (size_t)snprintf(b + used, n - used, "%s%s every %llu %s",
						 e ? "; " : "", ev->name,
						 (unsigned long long)ev->period,
						 ev->unit ? ev->unit : "events");
	}
	return p->nevents ? b : NULL;
}

/* Whether user space was sampled: "kernel only", "kernel and user
 * (--user)"; NULL when the events disagree or the profile cannot say. */
static const char *field_user(const struct profile *p, char *b, size_t n)
{
	int user = -1;
	size_t e;

	for (e = 0; e < p->nevents; e++) {
		int u = profile_event_user(p, e);

		if (user >= 0 && u != user)
			return NULL;
		user = u;
	}
	if (user < 0)
		return NULL;
	snprintf(b, n, "%s", user ? "kernel and user (--user)" : "kernel only");
	return b;
}

/* "3 windows of 0.5 s after 0.1 s of warm-up, 0.2 s before each
 * other one (--between)": from the profile's fields, so that merged
 * runs count as the windows they hold. */
static const char *field_windows(const struct profile *p, char *b, size_t n)
{
	size_t windows = p->nrepeats ? p->nrepeats : 1;
	const char *count = profile_condition(p, "workload.count");
	const char *between = profile_condition(p, "record.between");
	int gaps = between && strcmp(between, "none");
	char length[96];

	if (p->asked_window_ns)
		snprintf(length, sizeof(length), "%g s", (double)p->asked_window_ns /
			 (double)windows / 1e9);
	else if (count)
		snprintf(length, sizeof(length), "%s", count);
	else
		return NULL;  /* older profiles: the windows' lengths as taken vary */
	snprintf(b, n, "%zu window%s of %s after %g s of warm-up%s%s", windows,
		 windows == 1 ? "" : "s", length, p->warmup_s, gaps ? ", " : "",
		 gaps ? between : "");
	return b;
}

/* What a difference in how the profiles were recorded does to the
 * figures, said on a line under its differs: line. */
#define EFFECT_SAMPLING "the rate sets the observer's cost and the " \
	"sampling error"
#define EFFECT_USER "user-space samples make a [user] row and add to " \
	"the totals"
#define EFFECT_CALLCHAIN "the depth decides what is charged to callers"
#define EFFECT_WINDOWS "more windows: marks from their spread; longer: " \
	"less sampling error"

/* In the order a reader asks: which kernel, how it booted, how it was
 * measured, what sat in the path, where it ran, with what. Routing comes
 * first of all: rules and routes change the cost of every lookup and
 * nothing else in a diff names them (issue 49). */
static const struct {
	const char *what, *key;
	/* NULL: a condition; else the value, made in buf when need be */
	const char *(*field)(const struct profile *p, char *buf, size_t len);
	int list;  /* "k=v, k=v": only the entries that differ */
	const char *effect;  /* what the difference does to the figures */
} known[] = {
	{ "setting (by turns)", "workload.turns_side", NULL, 0,
	  "one ping-pong's windows, taken by turns: only the setting differs" },
	{ "routing", "net.routing", NULL, 1, NULL },
	{ "kernel release", "kernel.release", field_release, 0, NULL },
	{ "build-id", "build_id", field_build_id, 0, NULL },
	{ "kernel commit", "lab.commit", NULL, 0, NULL },
	{ "command line", "kernel.cmdline", NULL, 0, NULL },
	{ "--append", "lab.append", NULL, 0, NULL },
	{ "kernel preemption", "kernel.preempt", NULL, 0, NULL },
	{ "pseudo-NMI", PROFILE_COND_PSEUDO_NMI, NULL, 0, NULL },
	{ "mode", "counters.mode", field_mode, 0, NULL },
	{ "accelerator", PROFILE_COND_ACCEL, NULL, 0, NULL },
	{ "sampling", "counters.events", field_sampling, 0, EFFECT_SAMPLING },
	{ "user space", "counters.user", field_user, 0, EFFECT_USER },
	{ "callchains", "record.callchain", NULL, 0, EFFECT_CALLCHAIN },
	{ "windows", "workload.windows", field_windows, 0, EFFECT_WINDOWS },
	{ "restarts", "workload.restart", NULL, 0,
	  "a restarted window draws its own sockets and processes: the spread covers start-up" },
	{ "netfilter", "net.netfilter", NULL, 0, NULL },
	{ "tc", "net.tc", NULL, 0, NULL },
	{ "packet taps", "net.taps", NULL, 0, NULL },
	{ "BPF programs", "net.bpf", NULL, 0, NULL },
	{ "other perf_event users", "host.perf_users", NULL, 0, NULL },
	{ "sysctls", "net.sysctls", NULL, 1, NULL },
	{ "CPU model", "cpu.model", field_cpu, 0, NULL },
	{ "steal", "cpu.steal", NULL, 0, NULL },
	{ "placement", "placement", NULL, 0, NULL },
	{ "perpkt version", "tool", field_tool, 0, NULL },
	{ "guest perpkt", "lab.guest_perpkt", NULL, 0, NULL },
};

static const struct profile *prof(const struct diff *d, size_t i)
{
	return d->prof[i].m->profile;
}

static const char *value_of(const struct profile *p, size_t k, char *buf,
			    size_t len)
{
	return known[k].field ? known[k].field(p, buf, len) :
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
	r->effect = known[k].effect;
	for (i = 0; i < n; i++) {
		int recorded = strcmp(v[i], NOT_RECORDED);

		r->value[i] = known[k].list && recorded ? list_diff(v, n, i) :
			strdup(v[i]);
		if (!r->value[i])
			return error("out of memory");
	}
	return 0;
}

static int networks_differ(const struct diff *d)
{
	const char *a = prof(d, 0)->network, *b;
	size_t i;

	for (i = 1; i < d->n; i++) {
		b = prof(d, i)->network;
		if ((a || b) && (!a || !b || strcmp(a, b)))
			return 1;
	}
	return 0;
}

int diff_conditions_fill(struct diff *d, int force)
{
	const char *v[DIFF_MAX_PROFILES];
	char buf[DIFF_MAX_PROFILES][FIELD_MAX];
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
			v[i] = value_of(prof(d, i), k, buf[i], sizeof(buf[i]));
			/* a lab profile without --append had none */
			if (!v[i] && !strcmp(known[k].key, "lab.append") &&
			    profile_condition(prof(d, i), PROFILE_COND_ACCEL))
				v[i] = "(none)";
			if (!v[i])
				v[i] = NOT_RECORDED;
			differ |= i && strcmp(v[i], v[0]);
		}
		/* loopback against veth: other namespaces, whose routing
		 * differs by the labels alone; the warning "networks
		 * differ" says what changed */
		if (differ && !strcmp(known[k].key, "net.routing") &&
		    networks_differ(d))
			continue;
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
