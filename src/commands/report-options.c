// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the commands that read profiles share: one parser for
 * each option's value, whichever command takes it.
 */
#include "commands/report-options.h"

#include <stdint.h>

#include "parse.h"
#include "profile/profile.h"

int option_format(const char *arg, const struct renderer_table *t,
		  const char **format)
{
	if (!renderer_find(t, arg))
		return -1;
	*format = arg;
	return 0;
}

int option_width(const char *arg, int *width)
{
	uint64_t v;

	if (parse_u64(arg, "--width", 60, 1000, &v))
		return -1;
	*width = (int)v;
	return 0;
}

int option_limit(const char *arg, int *limit)
{
	uint64_t v;

	if (parse_u64(arg, "--limit", 0, 1000000, &v))
		return -1;
	*limit = (int)v;
	return 0;
}

int option_side(const char *arg, const char **side)
{
	if (profile_side_check(arg))
		return -1;
	*side = arg;
	return 0;
}

int symsource_option(struct symsource *src, int c, const char *arg)
{
	switch (c) {
	case OPT_VMLINUX:
		src->vmlinux = arg;
		return 1;
	case OPT_KALLSYMS:
		src->kallsyms = arg;
		return 1;
	case OPT_MODULES:
		src->modules = arg;
		return 1;
	case OPT_FORCE:
		src->force = 1;
		return 1;
	case OPT_BUCKETS:
		src->buckets = arg;
		return 1;
	default:
		return 0;
	}
}

int sample_filter_option(struct sample_filter *f, int c, const char *arg)
{
	switch (c) {
	case OPT_ROLE:
		return sample_filter_add(f, SAMPLE_FILTER_ROLE, arg) ? -1 : 1;
	case OPT_CPU:
		return sample_filter_add(f, SAMPLE_FILTER_CPU, arg) ? -1 : 1;
	case OPT_PID:
		return sample_filter_add(f, SAMPLE_FILTER_PID, arg) ? -1 : 1;
	default:
		return 0;
	}
}
