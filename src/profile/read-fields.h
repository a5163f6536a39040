/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_PROFILE_READ_FIELDS_H
#define PERPKT_PROFILE_READ_FIELDS_H

#include <jansson.h>
#include <stdint.h>

/*
 * The checked field readers of src/profile/read.c: each takes a key of
 * a JSON object, checks its type and range, and on the first problem
 * says what is wrong with the file (once) and marks the reader failed,
 * so a reader goes on without a half-filled result being used.
 */
struct reader {
	const char *path;
	int failed;
	/* the first inconsistency between fields (read-check.c): an error
	 * unless the profile is read with force */
	char problem[300];
};

int reader_bad(struct reader *r, const char *what);
/* Note an inconsistency, naming the field: the first one is kept. */
void reader_inconsistent(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *reader_str(struct reader *r, json_t *obj, const char *key, int required);
uint64_t reader_u64(struct reader *r, json_t *obj, const char *key);
double reader_num(struct reader *r, json_t *obj, const char *key);
uint64_t reader_hex(struct reader *r, json_t *obj, const char *key);
/* the same for a value that is no object's field (an array's element) */
uint64_t reader_hex_value(struct reader *r, json_t *v, const char *what);
uint32_t reader_u32(struct reader *r, json_t *obj, const char *key);
json_t *reader_array_opt(struct reader *r, json_t *obj, const char *key);
uint64_t reader_u64_opt(struct reader *r, json_t *obj, const char *key);
int reader_int(struct reader *r, json_t *obj, const char *key);
json_t *reader_obj(struct reader *r, json_t *obj, const char *key);
json_t *reader_array(struct reader *r, json_t *obj, const char *key);

#endif
