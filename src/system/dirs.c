// SPDX-License-Identifier: GPL-2.0-only
#include "system/dirs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

int dirs_cache_path(const char *file, char *out, size_t len)
{
	const char *cache = getenv("PERPKT_CACHE"), *xdg, *home;

	if (file[0] == '/')
		return snprintf(out, len, "%s", file) >= (int)len ? -1 : 0;
	if (cache && *cache)
		return snprintf(out, len, "%s/%s", cache, file) >= (int)len ? -1 : 0;
	xdg = getenv("XDG_CACHE_HOME");
	if (xdg && *xdg)
		return snprintf(out, len, "%s/perpkt/%s", xdg, file) >= (int)len ? -1 : 0;
	home = getenv("HOME");
	return snprintf(out, len, "%s/.cache/perpkt/%s", home ? home : "",
			file) >= (int)len ? -1 : 0;
}
