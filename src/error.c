// SPDX-License-Identifier: GPL-2.0-only
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static int verbosity = DIAG_NORMAL;

void diag_set_verbosity(int level)
{
	verbosity = level;
}

int diag_verbosity(void)
{
	return verbosity;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "perpkt: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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

void info(const char *fmt, ...)
{
	va_list ap;

	if (verbosity < DIAG_NORMAL)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}
