// SPDX-License-Identifier: GPL-2.0-only
#include "system/append.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void append(char *out, size_t len, const char *fmt, ...)
{
	size_t used = strlen(out);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(out + used, len - used, fmt, ap);
	va_end(ap);
}
