// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the commands that read profiles share: one parser for
 * each option's value, whichever command takes it.
 */
#include "commands/report-options.h"

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
