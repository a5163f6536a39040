// SPDX-License-Identifier: GPL-2.0-only
#include "base/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array.h"

#define CHUNK 8192

int readfile_fd(int fd, size_t max, unsigned flags, struct readfile *out)
{
	size_t n = 0, cap = 0, want;
	char *buf = NULL;
	const char *nul;
	ssize_t r;
	int e;

	out->data = NULL;
	out->len = 0;
	for (;;) {
		if (ARRAY_GROW(buf, n + CHUNK + 1, cap)) {
			e = ENOMEM;
			goto fail;
		}
		/* the room there is, but one byte past max at most */
		want = cap - n - 1;
		if (max - n < want)
			want = max - n + 1;
		r = read(fd, buf + n, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			goto fail;
		}
		if (!r)
			break;
		if ((flags & READFILE_TEXT) && (nul = memchr(buf + n, '\0', (size_t)r))) {
			out->len = (size_t)(nul - buf);
			e = EILSEQ;
			goto fail;
		}
		n += (size_t)r;
		if (n > max) {
			e = EFBIG;
			goto fail;
		}
	}
	buf[n] = '\0';
	out->data = buf;
	out->len = n;
	return 0;
fail:
	free(buf);
	errno = e;
	return -1;
}

int readfile_path(const char *path, size_t max, unsigned flags,
		  struct readfile *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r, e;

	out->data = NULL;
	out->len = 0;
	if (fd < 0)
		return -1;
	r = readfile_fd(fd, max, flags, out);
	e = errno;
	close(fd);
	errno = e;
	return r;
}
