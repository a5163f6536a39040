// SPDX-License-Identifier: GPL-2.0-only
/* Typed, checked reads of one JSON field (profile/read-fields.h). */
#include "profile/read-fields.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"
#include "profile/profile.h"

int reader_bad(struct reader *r, const char *what)
{
	if (!r->failed)
		error("cannot read profile '%s': %s", r->path, what);
	r->failed = 1;
	return -1;
}

void reader_inconsistent(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->problem[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->problem, sizeof(r->problem), fmt, ap);
	va_end(ap);
}

char *reader_str(struct reader *r, json_t *obj, const char *key, int required)
{
	json_t *v = json_object_get(obj, key);
	char msg[160], *s;

	/* every string of a profile is someone else's: cleaned once here,
	 * so no renderer gets a newline, a noncharacter or an override */
	if (v && json_is_string(v)) {
		if ((s = strdup(json_string_value(v))))
			escape_name(s);
		return s;
	}
	if ((!v || json_is_null(v)) && !required)
		return NULL;
	snprintf(msg, sizeof(msg), "field '%s' must be a string", key);
	reader_bad(r, msg);
	return NULL;
}

uint64_t reader_u64(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	/* 0 to PROFILE_INT_MAX, all json_int_t holds of them */
	if (v && json_is_integer(v) && json_integer_value(v) >= 0 &&
	    (uint64_t)json_integer_value(v) <= PROFILE_INT_MAX)
		return (uint64_t)json_integer_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be a non-negative integer", key);
	reader_bad(r, msg);
	return 0;
}

double reader_num(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_number(v))
		return json_number_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be a number", key);
	reader_bad(r, msg);
	return 0;
}

uint64_t reader_hex_value(struct reader *r, json_t *v, const char *what)
{
	const char *s;
	char *end;
	uint64_t x;
	char msg[160];

	if (v && json_is_string(v)) {
		s = json_string_value(v);
		errno = 0;
		x = strtoull(s, &end, 16);
		if (!strncmp(s, "0x", 2) && end != s + 2 && !*end && !errno)
			return x;
	}
	snprintf(msg, sizeof(msg), "field '%s' must be a hex string like \"0x1f\"", what);
	reader_bad(r, msg);
	return 0;
}

uint64_t reader_hex(struct reader *r, json_t *obj, const char *key)
{
	return reader_hex_value(r, json_object_get(obj, key), key);
}

/* Counts and indexes stored in 32 bits: 2^32 must not wrap to 0. */
uint32_t reader_u32(struct reader *r, json_t *obj, const char *key)
{
	uint64_t v = reader_u64(r, obj, key);
	char msg[160];

	if (v <= UINT32_MAX)
		return (uint32_t)v;
	snprintf(msg, sizeof(msg), "field '%s' is %llu, above 4294967295", key,
		 (unsigned long long)v);
	reader_bad(r, msg);
	return 0;
}

/* Arrays that older profiles may lack: absent is empty, anything but an
 * array is an error (json_array_size of a string is 0: silent). */
json_t *reader_array_opt(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (!v || json_is_array(v))
		return v;
	snprintf(msg, sizeof(msg), "field '%s' must be an array", key);
	reader_bad(r, msg);
	return NULL;
}

/* Fields added within version 1 read as 0 when absent. */
uint64_t reader_u64_opt(struct reader *r, json_t *obj, const char *key)
{
	return json_object_get(obj, key) ? reader_u64(r, obj, key) : 0;
}

int reader_int(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_integer(v) && json_integer_value(v) >= -1 &&
	    json_integer_value(v) <= 1 << 30)
		return (int)json_integer_value(v);
	snprintf(msg, sizeof(msg), "field '%s' must be an integer", key);
	reader_bad(r, msg);
	return 0;
}

json_t *reader_obj(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_object(v))
		return v;
	snprintf(msg, sizeof(msg), "missing object '%s'", key);
	reader_bad(r, msg);
	return NULL;
}

json_t *reader_array(struct reader *r, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char msg[160];

	if (v && json_is_array(v))
		return v;
	snprintf(msg, sizeof(msg), "missing array '%s'", key);
	reader_bad(r, msg);
	return NULL;
}

