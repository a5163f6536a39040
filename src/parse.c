// SPDX-License-Identifier: GPL-2.0-only
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

int parse_verbosity(int c)
{
	if (c == 'q')
		diag_set_verbosity(DIAG_QUIET);
	else if (c == 'v')
		diag_set_verbosity(DIAG_VERBOSE);
	else
		return 0;
	return 1;
}

int parse_u64(const char *s, const char *what, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return error("invalid %s '%s': expected a number", what, s);
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return error("invalid %s '%s': expected a number", what, s);
	if (v < min || v > max)
		return error("invalid %s '%s': must be between %llu and %llu",
			     what, s, (unsigned long long)min,
			     (unsigned long long)max);
	*out = v;
	return 0;
}

int parse_seconds(const char *s, const char *what, double min, double max,
		  double *out)
{
	double v, scale = 1;
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return error("invalid %s '%s': expected seconds, e.g. 5 or 500ms",
			     what, s);
	if (!strcmp(end, "ms"))
		scale = 1e-3;
	else if (!strcmp(end, "us"))
		scale = 1e-6;
	else if (!strcmp(end, "m"))
		scale = 60;
	else if (*end && strcmp(end, "s"))
		return error("invalid %s '%s': unknown unit '%s' (use s, ms, us or m)",
			     what, s, end);
	v *= scale;
	if (v < min || v > max)
		return error("invalid %s '%s': must be between %g and %g seconds",
			     what, s, min, max);
	*out = v;
	return 0;
}

int parse_cpu_list(const char *s, int *cpus, int max)
{
	const char *p = s;
	int n = 0;

	while (*p) {
		char *end;
		long lo, hi;

		errno = 0;
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || errno)
			goto bad;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo || errno)
				goto bad;
		}
		if (hi >= max)
			return error("invalid CPU list '%s': CPU %ld is out of range "
				     "(0-%d)", s, hi, max - 1);
		for (; lo <= hi; lo++)
			if (!cpu_list_has(cpus, n, (int)lo))
				cpus[n++] = (int)lo;
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	if (n)
		return n;
bad:
	return error("invalid CPU list '%s': expected e.g. 0,2-3", s);
}

int cpu_list_has(const int *cpus, int n, int cpu)
{
	int i;

	for (i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}
