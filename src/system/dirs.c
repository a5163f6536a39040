// SPDX-License-Identifier: GPL-2.0-only
#include "system/dirs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int dirs_make_parent(const char *path, mode_t mode)
{
	char dir[4096], *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(dir, mode) && errno != EEXIST ? -1 : 0;
}
