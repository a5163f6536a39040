// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text inputs (kallsyms, bucket rules) read whole, within bounds, by
 * the one reader (base/readfile.c): `--kallsyms /dev/zero` must be
 * refused at its first byte, not read until memory runs out.
 */
#include "symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/readfile.h"
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
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;
	struct readfile f;

	*out = NULL;
	if (fd < 0)
		return sym_fail(err, "cannot open %s '%s': %s", lim->what, path,
				strerror(errno));
	r = readfile_fd(fd, lim->max_size, READFILE_TEXT, &f);
	if (r && errno == EILSEQ)
		sym_fail(err, "%s '%s' is not text (a NUL byte at offset %zu): is it the right file?",
			 lim->what, path, f.len);
	else if (r && errno == EFBIG)
		sym_fail(err, "%s '%s' is over %zu MiB: is it the right file?",
			 lim->what, path, lim->max_size >> 20);
	else if (r && errno == ENOMEM)
		sym_fail(err, "out of memory reading '%s'", path);
	else if (r)
		sym_fail(err, "cannot read %s '%s': %s", lim->what, path,
			 strerror(errno));
	close(fd);
	if (r || check_lines(f.data, f.len, path, lim, err)) {
		free(f.data);
		return -1;
	}
	*out = f.data;
	if (len)
		*len = f.len;
	return 0;
}
