// SPDX-License-Identifier: GPL-2.0-only
#include "profile/fields.h"

#include <stdint.h>
#include <string.h>

#include "profile/profile.h"

#define T(m) offsetof(struct profile_task, m)
const struct profile_field profile_task_fields[] = {
	{ "pid", T(pid), PF_INT },
	{ "cpu", T(cpu), PF_INT },
	{ "cpu_ns", T(cpu_ns), PF_U64 },
	{ "wait_ns", T(wait_ns), PF_U64 },
	{ "user_ns", T(user_ns), PF_U64 },
	{ "system_ns", T(system_ns), PF_U64 },
	{ "switches", T(switches), PF_U64 },
	{ "span_ns", T(span_ns), PF_OPTIONAL | PF_SUM_KNOWN },
	{ NULL, 0, 0 }
};
#undef T

#define C(m) offsetof(struct profile_cpu, m)
const struct profile_field profile_cpu_fields[] = {
	{ "cpu", C(cpu), PF_INT },
	{ "user_ns", C(user_ns), PF_U64 },
	{ "system_ns", C(system_ns), PF_U64 },
	{ "irq_ns", C(irq_ns), PF_U64 },
	{ "softirq_ns", C(softirq_ns), PF_U64 },
	{ "idle_ns", C(idle_ns), PF_U64 },
	{ "other_ns", C(other_ns), PF_U64 },
	{ "lost", C(lost), PF_U64 },
	{ "throttled", C(throttled), PF_U64 },
	{ NULL, 0, 0 }
};
#undef C

#define N(m) offsetof(struct profile_count, m)
const struct profile_field profile_count_fields[] = {
	{ "name", N(name), PF_STRING },
	{ "cpu", N(cpu), PF_INT },
	{ "value", N(value), PF_U64 },
	{ "raw", N(raw), PF_U64 },
	{ "enabled_ns", N(enabled_ns), PF_U64 },
	{ "running_ns", N(running_ns), PF_U64 },
	{ NULL, 0, 0 }
};
#undef N

/* Signed integers of fields no table holds yet: the workload's CPUs
 * (-1: not pinned) and a stack node's parent (-1 at the root; an
 * array's items are checked under the array's key) */
static const char *const other_signed[] = {
	"client_cpu", "server_cpu", "flow_cpus", "stack_nodes",
};

static const struct profile_field *const tables[] = {
	profile_task_fields, profile_cpu_fields, profile_count_fields,
};

int profile_key_signed(const char *key)
{
	const struct profile_field *f;
	size_t i;

	if (!key)
		return 0;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		for (f = tables[i]; f->key; f++)
			if ((f->flags & PF_INT) && !strcmp(f->key, key))
				return 1;
	for (i = 0; i < sizeof(other_signed) / sizeof(other_signed[0]); i++)
		if (!strcmp(other_signed[i], key))
			return 1;
	return 0;
}

int profile_fields_write(json_t *o, const struct profile_field *f,
			 const void *entry)
{
	for (; o && f->key; f++) {
		json_t *v;

		if (f->flags & PF_STRING)
			v = json_string(*PROFILE_FIELD(entry, f, char *const));
		else if (f->flags & PF_INT)
			v = json_integer(*PROFILE_FIELD(entry, f, const int));
		else if ((f->flags & PF_OPTIONAL) &&
			 !*PROFILE_FIELD(entry, f, const uint64_t))
			continue;
		else
			v = json_integer((json_int_t)*PROFILE_FIELD(entry, f,
							       const uint64_t));
		if (!v || json_object_set_new(o, f->key, v))
			return -1;
	}
	return o ? 0 : -1;
}

void profile_fields_read(struct reader *r, json_t *o,
			 const struct profile_field *f, void *entry)
{
	for (; f->key; f++) {
		if (f->flags & PF_STRING)
			*PROFILE_FIELD(entry, f, char *) = reader_str(r, o, f->key, 1);
		else if (f->flags & PF_INT)
			*PROFILE_FIELD(entry, f, int) = reader_int(r, o, f->key);
		else if (f->flags & PF_OPTIONAL)
			*PROFILE_FIELD(entry, f, uint64_t) = reader_u64_opt(r, o, f->key);
		else
			*PROFILE_FIELD(entry, f, uint64_t) = reader_u64(r, o, f->key);
	}
}

void profile_fields_sum(void *into, const void *from,
			const struct profile_field *f)
{
	for (; f->key; f++) {
		uint64_t *a, b;

		if (f->flags & (PF_STRING | PF_INT))
			continue;
		a = PROFILE_FIELD(into, f, uint64_t);
		b = *PROFILE_FIELD(from, f, const uint64_t);
		if ((f->flags & PF_SUM_KNOWN) && (!*a || !b))
			*a = 0;
		else if (__builtin_add_overflow(*a, b, a))
			*a = UINT64_MAX;
	}
}
