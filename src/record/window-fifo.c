// SPDX-License-Identifier: GPL-2.0-only
/* record --window-fifo, --gap-fifo: the windows' edges told to another tool */
#include "record/window-fifo.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

static int open_fifo(const struct window_fifo *f, const char *path, int flags,
		     const char *what)
{
	struct stat st;
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		if (errno == ENXIO)
			return error("%s: nobody reads %s: start the "
				     "tool that listens on it first, e.g. perf "
				     "record --control fifo:%s -- perpkt record ...",
				     f->opt, path, path);
		return error("%s: cannot open %s '%s': %s", f->opt, what,
			     path, strerror(errno));
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		close(fd);
		return error("%s: '%s' is not a FIFO (make one with "
			     "mkfifo)", f->opt, path);
	}
	return fd;
}

int window_fifo_open(struct window_fifo *f, const char *spec, const char *opt,
		     double timeout)
{
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);
	int fl;

	f->ctl = f->ack = -1;
	f->opt = opt;
	f->timeout_ms = (int)((timeout > 0 ? timeout : WINDOW_FIFO_TIMEOUT_S) * 1000 + 0.5);
	if (!n || n >= sizeof(f->ctl_path) || (comma && !comma[1]))
		return error("invalid %s '%s': give CTL or CTL,ACK, "
			     "two FIFOs made with mkfifo", opt, spec);
	memcpy(f->ctl_path, spec, n);
	f->ctl_path[n] = 0;
	/* open non-blocking to fail at once without a reader; the
	 * writes then block, as a command line is short */
	f->ctl = open_fifo(f, f->ctl_path, O_WRONLY, "control FIFO");
	if (f->ctl < 0)
		return -1;
	fl = fcntl(f->ctl, F_GETFL);
	if (fl < 0 || fcntl(f->ctl, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		window_fifo_close(f);
		return error("%s: %s: %s", opt, f->ctl_path, strerror(errno));
	}
	if (comma) {
		f->ack = open_fifo(f, comma + 1, O_RDONLY, "ack FIFO");
		if (f->ack < 0) {
			window_fifo_close(f);
			return -1;
		}
	}
	return 0;
}

/* Read up to a newline from the ack FIFO; "ack" expected. */
static int wait_ack(struct window_fifo *f, const char *cmd)
{
	char line[64];
	size_t len = 0;

	while (len < sizeof(line) - 1) {
		struct pollfd p = { .fd = f->ack, .events = POLLIN };
		ssize_t r;
		int n = poll(&p, 1, f->timeout_ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return error("%s: no ack to '%s' within %g s "
				     "(--fifo-timeout): is the other side still "
				     "running?", f->opt, cmd, f->timeout_ms / 1000.0);
		r = n < 0 ? -1 : read(f->ack, line + len, 1);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r <= 0)
			return error("%s: the ack FIFO closed before "
				     "'%s' was acknowledged", f->opt, cmd);
		if (line[len] == '\n')
			break;
		/* perf writes sizeof("ack\n"): its NUL comes before the
		 * next ack */
		len += line[len] != 0;
	}
	line[len] = 0;
	if (strcmp(line, "ack"))
		return error("%s: '%s' answered with '%.32s', not ack",
			     f->opt, cmd, line);
	return 0;
}

int window_fifo_edge(struct window_fifo *f, const char *cmd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	char line[32];
	int n = snprintf(line, sizeof(line), "%s\n", cmd), w;

	if (f->ctl < 0)
		return 0;
	/* a reader gone is an error here, not a death by SIGPIPE */
	sigaction(SIGPIPE, &ign, &old);
	w = (int)write(f->ctl, line, (size_t)n);
	sigaction(SIGPIPE, &old, NULL);
	if (w != n)
		return error("%s: cannot write '%s' to %s: %s", f->opt, cmd,
			     f->ctl_path, strerror(errno));
	return f->ack >= 0 ? wait_ack(f, cmd) : 0;
}

void window_fifo_close(struct window_fifo *f)
{
	if (f->ctl >= 0)
		close(f->ctl);
	if (f->ack >= 0)
		close(f->ack);
	f->ctl = f->ack = -1;
}
