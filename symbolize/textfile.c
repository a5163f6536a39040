// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text inputs (kallsyms, bucket rules) read whole, within bounds:
 * `--kallsyms /dev/zero` must be refused at its first byte, not read
 * until memory runs out.
 */
#include "symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize-internal.h"

static int check_lines(const char *buf, size_t len, const char *path,
		       const struct text_limits *lim, struct sym_error *err)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t lineno = 1;

	for (; p < end; p = nl + 1, lineno++) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > lim->max_line)
			return sym_fail(err, "line %zu of %s '%s' is over %zu bytes: is it the right file?",
					lineno, lim->what, path, lim->max_line);
	}
	return 0;
}

int read_text_file(char **out, size_t *len, const char *path,
		   const struct text_limits *lim, struct sym_error *err)
{
	size_t cap = 1 << 16, used = 0;
	char *buf, *p, *nul;
	ssize_t r;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sym_fail(err, "cannot open %s '%s': %s", lim->what, path,
				strerror(errno));
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return sym_fail(err, "out of memory reading '%s'", path);
	}
	for (;;) {
		if (cap - used < 8192) {
			p = realloc(buf, cap * 2);
			if (!p) {
				sym_fail(err, "out of memory reading '%s'", path);
				goto fail;
			}
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + used, cap - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			sym_fail(err, "cannot read %s '%s': %s", lim->what, path,
				 strerror(errno));
			goto fail;
		}
		if (!r)
			break;
		nul = memchr(buf + used, '\0', r);
		if (nul) {
			sym_fail(err, "%s '%s' is not text (a NUL byte at offset %zu): is it the right file?",
				 lim->what, path, (size_t)(nul - buf));
			goto fail;
		}
		used += r;
		if (used > lim->max_size) {
			sym_fail(err, "%s '%s' is over %zu MiB: is it the right file?",
				 lim->what, path, lim->max_size >> 20);
			goto fail;
		}
	}
	close(fd);
	buf[used] = '\0';
	if (check_lines(buf, used, path, lim, err)) {
		free(buf);
		return -1;
	}
	*out = buf;
	if (len)
		*len = used;
	return 0;
fail:
	free(buf);
	close(fd);
	return -1;
}
