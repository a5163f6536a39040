// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options the commands that read profiles share: one parser for
 * each option's value, whichever command takes it.
 */
#include "commands/report-options.h"

#include "profile/profile.h"

int opt_side(const struct opt *o, const char *arg, void *at)
{
	(void)o;
	if (profile_side_check(arg))
		return -1;
	*(const char **)at = arg;
	return 0;
}

int opt_sample_filter(const struct opt *o, const char *arg, void *at)
{
	return sample_filter_add(at, (enum sample_filter_key)o->num,
				 arg) ? -1 : 0;
}
