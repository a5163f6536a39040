// SPDX-License-Identifier: GPL-2.0-only
#include "base/array.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int array_grow_(void *pv, size_t *cap, size_t need, size_t size)
{
	size_t room = *cap > SIZE_MAX / 2 ? need : *cap * 2;
	void *v;

	if (room < need)
		room = need;
	if (room < 16)
		room = 16;
	if (size && room > SIZE_MAX / size) {
		errno = ENOMEM;
		return -1;
	}
	/* the pointer is a T *: copied as bytes, not read as a void * */
	memcpy(&v, pv, sizeof(v));
	v = realloc(v, room * size);
	if (!v)
		return -1;
	memcpy(pv, &v, sizeof(v));
	*cap = room;
	return 0;
}
