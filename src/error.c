// SPDX-License-Identifier: GPL-2.0-only
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"

static int verbosity = DIAG_NORMAL;

void diag_set_verbosity(int level)
{
	verbosity = level;
}

int diag_verbosity(void)
{
	return verbosity;
}

/* A message names what others supplied (a profile's field, a peer's
 * error line): it reaches the terminal through the escaping rule. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024], *msg = buf;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && (msg = malloc((size_t)n + 1)))
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	if (!msg) {
		msg = buf;	/* out of memory: the message cut short */
		n = (int)sizeof(buf) - 1;
	}
	if (n < 0)
		n = 0;
	escape_controls(msg, (size_t)n);
	fprintf(stderr, "perpkt: %s%.*s\n", prefix, n, msg);
	if (msg != buf)
		free(msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < DIAG_NORMAL)
		return;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void partial(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < DIAG_NORMAL)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}
