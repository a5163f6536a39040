// SPDX-License-Identifier: GPL-2.0-only
#include "system/procfile.h"

#include <stdlib.h>
#include <string.h>

char *procfile_read_stream(FILE *f, size_t limit)
{
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap), *nb;

	if (!buf)
		return NULL;
	/* /proc files report size 0: read until EOF, growing as needed */
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			if (cap >= limit)
				break;
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	return buf;
}

char *procfile_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;

	if (!f)
		return NULL;
	s = procfile_read_stream(f, 4 << 20);
	fclose(f);
	return s;
}

int procfile_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		ret = -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

int procfile_long(const char *path, long *v)
{
	char buf[64], *end;
	long x;

	if (procfile_line(path, buf, sizeof(buf)))
		return -1;
	x = strtol(buf, &end, 10);
	if (end == buf)
		return -1;
	*v = x;
	return 0;
}
