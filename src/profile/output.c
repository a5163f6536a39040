// SPDX-License-Identifier: GPL-2.0-only
/* Where `record -o` writes: checked before the run, written at the end. */
#include "profile/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "error.h"

/* Below this a profile may not fit: refuse before the run, not after. */
#define OUTPUT_MIN_FREE (64 * 1024)
#define TMP_SUFFIX ".tmp.XXXXXX"

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Follow a chain of symlinks whose last target does not exist yet, so
 * the profile is created where the link points, and the link stays. */
static char *follow_dangling(const char *path)
{
	char *cur = strdup(path);
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		char buf[PATH_MAX], *next, *dir;
		ssize_t n = readlink(cur, buf, sizeof(buf) - 1);

		if (n < 0)
			return cur;  /* not a link (EINVAL) or gone: use it */
		buf[n] = 0;
		if (buf[0] == '/') {
			next = strdup(buf);
		} else {
			dir = dir_of(cur);
			if (!dir || asprintf(&next, "%s/%s", dir, buf) < 0)
				next = NULL;
			free(dir);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* Temporary files of ours beside `path` whose writer is gone: each is
 * held under flock while its run lives, so a lockable one is stale. */
static void remove_stale(const char *dir, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t blen = strlen(base);
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *full;
		struct stat st;
		int fd;

		if (strlen(de->d_name) != blen + strlen(TMP_SUFFIX) ||
		    strncmp(de->d_name, base, blen) ||
		    strncmp(de->d_name + blen, ".tmp.", 5))
			continue;
		if (asprintf(&full, "%s/%s", dir, de->d_name) < 0)
			break;
		fd = open(full, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
		    st.st_uid == geteuid() && !flock(fd, LOCK_EX | LOCK_NB) &&
		    !unlink(full))
			info("removed '%s', left by a run that was killed", full);
		if (fd >= 0)
			close(fd);
		free(full);
	}
	closedir(d);
}

static int open_through(struct profile_output *out, const char *path,
			const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return error("cannot write the profile to '%s': it is a directory; "
			     "give a file name", path);
	if (S_ISSOCK(st->st_mode) || S_ISBLK(st->st_mode))
		return error("cannot write the profile to '%s': it is a %s; "
			     "give a regular file, a FIFO or a character device",
			     path, S_ISSOCK(st->st_mode) ? "socket" : "block device");
	if (access(path, W_OK))
		return error("cannot write to '%s': %s", path, strerror(errno));
	out->path = strdup(path);
	out->through = 1;
	return out->path ? 0 : error("out of memory");
}

static int open_atomic(struct profile_output *out, const char *target,
		       const struct stat *old)
{
	char *dir = dir_of(target);
	struct statvfs vfs;
	mode_t mask;
	int ret = -1;

	if (!dir)
		return error("out of memory");
	if (statvfs(dir, &vfs)) {
		error("cannot write '%s': directory '%s': %s", target, dir,
		      strerror(errno));
		goto out;
	}
	if (vfs.f_flag & ST_RDONLY) {
		error("cannot write '%s': '%s' is on a read-only filesystem",
		      target, dir);
		goto out;
	}
	if ((unsigned long long)vfs.f_bavail * vfs.f_frsize < OUTPUT_MIN_FREE) {
		error("cannot write '%s': only %llu bytes free in '%s'; free some "
		      "space or choose another -o", target,
		      (unsigned long long)vfs.f_bavail * vfs.f_frsize, dir);
		goto out;
	}
	remove_stale(dir, target);
	out->path = strdup(target);
	if (!out->path || asprintf(&out->tmp, "%s" TMP_SUFFIX, target) < 0) {
		out->tmp = NULL;
		error("out of memory");
		goto out;
	}
	out->fd = mkstemp(out->tmp);
	if (out->fd < 0) {
		error("cannot create '%s': %s", out->tmp, strerror(errno));
		goto out;
	}
	flock(out->fd, LOCK_EX | LOCK_NB);
	mask = umask(0);
	umask(mask);
	out->mode = old ? old->st_mode & 07777 : 0666 & ~mask;
	ret = 0;
out:
	free(dir);
	return ret;
}

int profile_output_open(struct profile_output *out, const char *path)
{
	struct stat st;
	char *target;
	int ret;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!*path)
		return error("empty output file name: give -o FILE");
	/* "-o -" as in perf: written through to whatever stdout is */
	if (!strcmp(path, "-")) {
		if (fstat(STDOUT_FILENO, &st))
			return error("cannot write to standard output: %s",
				     strerror(errno));
		ret = S_ISDIR(st.st_mode) ? error("standard output is a directory") :
		      open_through(out, "/dev/stdout", &st);
	} else if (!stat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			ret = open_through(out, path, &st);
		else if (!(target = realpath(path, NULL)))
			ret = error("cannot resolve '%s': %s", path, strerror(errno));
		else {
			ret = open_atomic(out, target, &st);
			free(target);
		}
	} else if (errno == ENOENT) {
		target = follow_dangling(path);
		if (!target)
			return error("cannot resolve '%s': %s", path, strerror(errno));
		ret = open_atomic(out, target, NULL);
		free(target);
	} else {
		ret = error("cannot write '%s': %s", path, strerror(errno));
	}
	if (ret)
		profile_output_abort(out);
	return ret;
}

/* The write failed: put the data where it can go, and say where. */
static void rescue(json_t *doc, const char *path)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ?
			  getenv("TMPDIR") : "/tmp";
	char *name;
	int fd;

	if (asprintf(&name, "%s/perpkt-rescued-XXXXXX.json", dir) < 0)
		return;
	fd = mkstemps(name, 5);
	if (fd >= 0 && !profile_json_write(doc, fd) && !fsync(fd) && !close(fd)) {
		error("the profile for '%s' is kept in '%s': move it where it "
		      "belongs", path, name);
	} else {
		error("cannot keep the profile in '%s' either: %s", name,
		      strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(name);
		}
	}
	free(name);
}

static void output_free(struct profile_output *out)
{
	if (out->fd >= 0)
		close(out->fd);
	free(out->path);
	free(out->tmp);
	memset(out, 0, sizeof(*out));
	out->fd = -1;
}

void profile_output_abort(struct profile_output *out)
{
	if (out->tmp && out->fd >= 0)
		unlink(out->tmp);
	output_free(out);
}

static int commit_through(struct profile_output *out, json_t *doc)
{
	/* a FIFO whose reader left must give EPIPE here, not kill the run */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int fd, err = 0;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	fd = open(out->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || profile_json_write(doc, fd))
		err = errno ? errno : EIO;
	if (fd >= 0 && close(fd) && !err)
		err = errno;
	sigaction(SIGPIPE, &old, NULL);
	if (!err)
		return 0;
	error("cannot write '%s': %s", out->path, strerror(err));
	return -1;
}

static int commit_atomic(struct profile_output *out, json_t *doc)
{
	if (profile_json_write(doc, out->fd) || fsync(out->fd) ||
	    fchmod(out->fd, out->mode)) {
		error("cannot write '%s': %s", out->tmp, strerror(errno));
		return -1;
	}
	if (rename(out->tmp, out->path)) {
		error("cannot rename '%s' to '%s': %s; the profile is kept in '%s'",
		      out->tmp, out->path, strerror(errno), out->tmp);
		/* the data is there: only the name is wrong */
		free(out->tmp);
		out->tmp = NULL;
		return 1;
	}
	free(out->tmp);
	out->tmp = NULL;
	return 0;
}

int profile_output_commit(struct profile_output *out, const struct profile *p)
{
	json_t *doc = profile_to_json(p);
	int ret;

	if (!doc) {
		profile_output_abort(out);
		return error("cannot encode profile (out of memory)");
	}
	ret = out->through ? commit_through(out, doc) : commit_atomic(out, doc);
	if (ret < 0)
		rescue(doc, out->path);
	profile_output_abort(out);
	json_decref(doc);
	return ret ? -1 : 0;
}
