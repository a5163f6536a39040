// SPDX-License-Identifier: GPL-2.0-only
#include "system/procfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "base/readfile.h"

char *procfile_read_stream(FILE *f, size_t limit)
{
	struct readfile r;

	/* nothing read through f yet: its descriptor is at the start */
	return readfile_fd(fileno(f), limit, 0, &r) ? NULL : r.data;
}

char *procfile_read(const char *path)
{
	struct readfile r;

	return readfile_path(path, 4 << 20, 0, &r) ? NULL : r.data;
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

char *procfile_command(char *const argv[], size_t limit)
{
	int fds[2], status, null;
	char *out = NULL;
	size_t n;
	FILE *f;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (!pid) {
		null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 2) < 0 ||
		    dup2(fds[1], 1) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f) {
		out = procfile_read_stream(f, limit);
		fclose(f);
	} else {
		close(fds[0]);
	}
	status = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!out || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(out);
		return NULL;
	}
	n = strlen(out);
	if (n && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return out;
}

char *procfile_read_gz(const char *path, size_t limit)
{
	gzFile in = gzopen(path, "rb");
	size_t len = 0, cap = 0;
	char *buf = NULL, *grown;
	int n;

	if (!in)
		return NULL;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				n = -1;
				break;
			}
			buf = grown;
		}
		n = gzread(in, buf + len, (unsigned)(cap - len));
		if (n > 0)
			len += (size_t)n;
	} while (n > 0 && len <= limit);
	gzclose(in);
	if (n < 0 || len > limit) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}
