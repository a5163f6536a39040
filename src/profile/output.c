// SPDX-License-Identifier: GPL-2.0-only
/* Where `record -o` writes: checked before the run, written at the end. */
#include "profile/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "error.h"
#include "profile/rundir.h"

/* Below this a profile may not fit: refuse before the run, not after. */
#define OUTPUT_MIN_FREE (64 * 1024)
/* NAME.perpkt-tmp.XXXXXX beside the output; older runs left
 * NAME.tmp.XXXXXX, removed when the same -o comes again */
#define TMP_TAG ".perpkt-tmp."
#define TMP_RANDOM 6
#define OLD_TAG ".tmp."
#define MAX_HOPS 40
/* Directories are held as paths, not opened to read: one this user may
 * only search (mode 0711) is walked as the kernel walks it. */
#define WALK_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)
/* How long a FIFO's reader is waited for at the end of the run. */
#define FIFO_READER_WAIT_S 30

/* One step of the walk: the directory held open and the path so far. */
struct walk {
	int dirfd;
	char name[NAME_MAX + 1];   /* the last component, in dirfd */
	char shown[PATH_MAX];      /* the path walked, for messages */
	size_t dirlen;             /* shown[0..dirlen) is dirfd's path */
	int via_link;              /* the last component came from a link */
	char link[PATH_MAX];       /* that link, for messages */
	int exists;
	struct stat st;
};

static void shown_push(struct walk *w, const char *comp)
{
	size_t n = strlen(w->shown);

	snprintf(w->shown + n, sizeof(w->shown) - n, "%s%s",
		 n && w->shown[n - 1] != '/' ? "/" : "", comp);
}

static void shown_pop(struct walk *w)
{
	char *slash = strrchr(w->shown, '/');

	if (slash && slash != w->shown)
		*slash = '\0';
	else if (slash)
		slash[1] = '\0';
	else
		snprintf(w->shown, sizeof(w->shown), "..");
}

static int reopen(struct walk *w, int fd)
{
	if (fd < 0)
		return -1;
	close(w->dirfd);
	w->dirfd = fd;
	return 0;
}

/* fs.protected_symlinks: a link in a sticky, world-writable directory
 * is followed only by its owner or when the directory's owner owns it. */
static int link_allowed(int dirfd, const struct stat *link)
{
	struct stat d;

	if (fstat(dirfd, &d))
		return 0;
	if (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
		return 1;
	return link->st_uid == geteuid() || link->st_uid == d.st_uid;
}

static const char *user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
	return buf;
}

/*
 * fs.protected_regular's and protected_fifos' rule, applied wherever the
 * file is and whatever the sysctls say: a profile (kernel addresses,
 * command lines, the host's name) goes into a file or FIFO only when
 * this user owns it, and into a FIFO only when no other user may open it
 * to read. A character device (/dev/null) is not a file anyone keeps.
 * 1 allowed; 0 with the reason in why.
 */
static int target_allowed(const struct stat *st, char *why, size_t len)
{
	char who[64];

	if (!S_ISREG(st->st_mode) && !S_ISFIFO(st->st_mode))
		return 1;
	if (st->st_uid != geteuid()) {
		snprintf(why, len, "it is a %s owned by %s, who would %s",
			 S_ISFIFO(st->st_mode) ? "FIFO" : "file",
			 user_name(st->st_uid, who, sizeof(who)),
			 S_ISFIFO(st->st_mode) ? "read it" : "own it");
		return 0;
	}
	if (S_ISFIFO(st->st_mode) && (st->st_mode & (S_IRGRP | S_IROTH))) {
		snprintf(why, len, "it is a FIFO that other users may open to "
			 "read (mode %03o; chmod 600 it)",
			 (unsigned)(st->st_mode & 0777));
		return 0;
	}
	return 1;
}

static int refuse_target(const char *where, const char *why)
{
	return error("refusing to write the profile into '%s': %s "
		     "(fs.protected_regular's and protected_fifos' rule, applied "
		     "whatever the sysctls say); remove it, choose another -o, or "
		     "give --force-output", where, why);
}

/* Follow the symlink `comp` in w->dirfd: its target goes before `rest`. */
static int follow(struct walk *w, const char *comp, const struct stat *st,
		  char *rest, size_t restlen, const char *after, int last)
{
	char target[PATH_MAX], joined[2 * PATH_MAX], who[64], here[PATH_MAX];
	ssize_t n;

	snprintf(here, sizeof(here), "%s", w->shown);
	shown_push(w, comp);
	if (!link_allowed(w->dirfd, st))
		return error("refusing to follow '%s': a symlink owned by %s in "
			     "the sticky, world-writable directory '%s' "
			     "(fs.protected_symlinks' rule, applied whatever "
			     "the sysctl says); remove it or choose another -o",
			     w->shown, user_name(st->st_uid, who, sizeof(who)),
			     here[0] ? here : ".");
	n = readlinkat(w->dirfd, comp, target, sizeof(target) - 1);
	if (n < 0)
		return error("cannot read the symlink '%s': %s", w->shown,
			     strerror(errno));
	target[n] = '\0';
	if (last) {
		w->via_link = 1;
		snprintf(w->link, sizeof(w->link), "%s", w->shown);
	}
	snprintf(w->shown, sizeof(w->shown), "%s", here);
	if (target[0] == '/') {
		if (reopen(w, open("/", WALK_FLAGS)))
			return error("cannot open '/': %s", strerror(errno));
		snprintf(w->shown, sizeof(w->shown), "/");
	}
	if ((size_t)snprintf(joined, sizeof(joined), "%s%s%s", target,
			     *after ? "/" : "", after) >= restlen)
		return error("cannot write '%s': %s", w->shown, strerror(ENAMETOOLONG));
	snprintf(rest, restlen, "%s", joined);
	return 0;
}

/*
 * Walk `path` as the kernel would, one component at a time from a
 * directory held open, following symlinks under link_allowed(). Fills
 * w: the directory of the last component (open), its name, whether it
 * exists and its lstat. -1 printed.
 */
static int walk(const char *path, struct walk *w)
{
	char rest[2 * PATH_MAX], comp[NAME_MAX + 1], after[2 * PATH_MAX];
	int hops = 0;

	memset(w, 0, sizeof(*w));
	w->dirfd = open(path[0] == '/' ? "/" : ".", WALK_FLAGS);
	if (w->dirfd < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	if (path[0] == '/')
		snprintf(w->shown, sizeof(w->shown), "/");
	if (strlen(path) >= PATH_MAX)
		return error("cannot write '%s': %s", path, strerror(ENAMETOOLONG));
	snprintf(rest, sizeof(rest), "%s", path);
	for (;;) {
		const char *p = rest + strspn(rest, "/");
		size_t n = strcspn(p, "/");
		int last;

		if (!n)
			return error("cannot write the profile to '%s': it is a "
				     "directory; give a file name", path);
		if (n > NAME_MAX)
			return error("cannot write '%s': %s", path,
				     strerror(ENAMETOOLONG));
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		p += strspn(p, "/");
		last = !*p;
		snprintf(after, sizeof(after), "%s", p);
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			if (last)
				return error("cannot write the profile to '%s': it "
					     "is a directory; give a file name", path);
			if (comp[1] && reopen(w, openat(w->dirfd, "..", WALK_FLAGS)))
				return error("cannot write '%s': %s", path,
					     strerror(errno));
			if (comp[1])
				shown_pop(w);
			snprintf(rest, sizeof(rest), "%s", after);
			continue;
		}
		if (fstatat(w->dirfd, comp, &w->st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT && last)
				break;
			shown_push(w, comp);
			return error("cannot write '%s': '%s': %s", path, w->shown,
				     strerror(errno));
		}
		if (S_ISLNK(w->st.st_mode)) {
			if (++hops > MAX_HOPS)
				return error("cannot write '%s': %s", path,
					     strerror(ELOOP));
			if (follow(w, comp, &w->st, rest, sizeof(rest), after, last))
				return -1;
			continue;
		}
		if (last) {
			w->exists = 1;
			break;
		}
		shown_push(w, comp);
		if (!S_ISDIR(w->st.st_mode))
			return error("cannot write '%s': '%s' is not a directory",
				     path, w->shown);
		if (reopen(w, openat(w->dirfd, comp, WALK_FLAGS | O_NOFOLLOW)))
			return error("cannot write '%s': '%s': %s", path, w->shown,
				     strerror(errno));
		snprintf(rest, sizeof(rest), "%s", after);
	}
	w->dirlen = strlen(w->shown);
	snprintf(w->name, sizeof(w->name), "%s", comp);
	shown_push(w, comp);
	return 0;
}

/* NAME.perpkt-tmp.XXXXXX (or NAME.tmp.XXXXXX, when old is set and NAME
 * is `base`): a temporary file of ours. */
static int tmp_name_of(const char *entry, const char *base, int old)
{
	size_t len = strlen(entry), tag = strlen(TMP_TAG), blen;

	if (len > tag + TMP_RANDOM &&
	    !strncmp(entry + len - TMP_RANDOM - tag, TMP_TAG, tag))
		return 1;
	blen = strlen(base);
	return old && len == blen + strlen(OLD_TAG) + TMP_RANDOM &&
	       !strncmp(entry, base, blen) &&
	       !strncmp(entry + blen, OLD_TAG, strlen(OLD_TAG));
}

/* Remove `name` in dirfd if it is a temporary file of ours whose run is
 * gone: each is held under flock while its run lives. 1 removed, -1 its
 * run lives (the lock is held), else 0. */
static int remove_if_stale(int dirfd, const char *name, const char *shown)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK),
	    removed = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		removed = 0;
	else if (flock(fd, LOCK_EX | LOCK_NB))
		removed = -1;
	else if (!unlinkat(dirfd, name, 0)) {
		info("removed '%s', left by a run that was killed", shown);
		removed = 1;
	}
	close(fd);
	return removed;
}

static void remove_stale_beside(struct walk *w)
{
	int fd = openat(w->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char shown[PATH_MAX + NAME_MAX + 2];

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		if (!tmp_name_of(de->d_name, w->name, 1))
			continue;
		snprintf(shown, sizeof(shown), "%.*s%s%s", (int)w->dirlen, w->shown,
			 w->dirlen && w->shown[w->dirlen - 1] != '/' ? "/" : "",
			 de->d_name);
		remove_if_stale(w->dirfd, de->d_name, shown);
	}
	closedir(d);
}

/* Temporary files that killed runs named in the run directory, in
 * whatever directory their -o was. */
static int remove_stale_named(void)
{
	char dir[PATH_MAX], entry[PATH_MAX + 300], path[PATH_MAX],
	     own[RUNDIR_ID_LEN] = "";
	struct dirent *de;
	int removed = 0;
	DIR *d;

	if (rundir_path(dir, sizeof(dir)) || !(d = opendir(dir)))
		return 0;
	rundir_own_id(own, sizeof(own));
	while ((de = readdir(d))) {
		const char *id = de->d_name + 7;
		int r = 0;
		char *slash;
		FILE *f;

		/* a run of another PID namespace (alive -1): its file's
		 * lock tells */
		if (strncmp(de->d_name, "output.", 7) || !strcmp(id, own) ||
		    rundir_id_alive(id) == 1)
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", dir, de->d_name);
		f = fopen(entry, "r");
		if (f && fgets(path, sizeof(path), f) && path[0] == '/' &&
		    (path[strcspn(path, "\n")] = '\0', slash = strrchr(path, '/')) &&
		    tmp_name_of(slash + 1, "", 0)) {
			int dfd;

			*slash = '\0';
			dfd = open(path[0] ? path : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			*slash = '/';
			if (dfd >= 0) {
				r = remove_if_stale(dfd, slash + 1, path);
				close(dfd);
			}
		}
		if (f)
			fclose(f);
		removed += r > 0;
		if (r >= 0)
			unlink(entry);
	}
	closedir(d);
	return removed;
}

int profile_output_remove_stale(void)
{
	return remove_stale_named();
}

/* Name this run's temporary file `tmp` (about to be made) in the run
 * directory, so that a later run removes it if this one is killed,
 * whatever its -o. The note comes first: a run killed between the two
 * leaves a note for a file that is not there, never a file no note
 * names. */
static void register_tmp(struct profile_output *out, const char *tmp)
{
	char dir[256], abs[PATH_MAX + NAME_MAX + 2], cwd[PATH_MAX],
	     id[RUNDIR_ID_LEN];
	size_t dl = strlen(out->where) - strlen(out->name);  /* its directory */
	FILE *f;
	int bad;

	if (rundir_path(dir, sizeof(dir)) || rundir_own_id(id, sizeof(id)))
		return;
	if (out->where[0] == '/')
		snprintf(abs, sizeof(abs), "%.*s%s", (int)dl, out->where, tmp);
	else if (getcwd(cwd, sizeof(cwd)))
		snprintf(abs, sizeof(abs), "%s/%.*s%s", cwd, (int)dl, out->where, tmp);
	else
		return;
	snprintf(out->reg, sizeof(out->reg), "%s/output.%s", dir, id);
	f = fopen(out->reg, "w");
	if (!f) {
		out->reg[0] = '\0';
		return;
	}
	bad = fprintf(f, "%s\n", abs) < 0;
	if (fclose(f) || bad) {
		unlink(out->reg);
		out->reg[0] = '\0';
	}
}

static int open_through(struct profile_output *out, const struct walk *w)
{
	const struct stat *st = &w->st;

	if (S_ISDIR(st->st_mode))
		return error("cannot write the profile to '%s': it is a directory; "
			     "give a file name", out->path);
	if (S_ISSOCK(st->st_mode) || S_ISBLK(st->st_mode))
		return error("cannot write the profile to '%s': it is a %s; "
			     "give a regular file, a FIFO or a character device",
			     out->path, S_ISSOCK(st->st_mode) ? "socket" : "block device");
	if (faccessat(w->dirfd, w->name, W_OK, 0))
		return error("cannot write to '%s': %s", out->path, strerror(errno));
	out->through = 1;
	out->dev = st->st_dev;
	out->ino = st->st_ino;
	return 0;
}

/* The temporary file beside the target: NAME.perpkt-tmp.XXXXXX. */
static int create_tmp(struct profile_output *out)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[TMP_RANDOM];
	int tries, i;

	for (tries = 0; tries < 100; tries++) {
		char *name;

		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -1;
		/* NAME_MAX: a long name is cut in the temporary one */
		if (asprintf(&name, "%.*s" TMP_TAG "XXXXXX",
			     NAME_MAX - (int)strlen(TMP_TAG) - TMP_RANDOM,
			     out->name) < 0)
			return -1;
		for (i = 0; i < TMP_RANDOM; i++)
			name[strlen(name) - TMP_RANDOM + i] = set[rnd[i] % (sizeof(set) - 1)];
		register_tmp(out, name);
		out->fd = openat(out->dirfd, name, O_RDWR | O_CREAT | O_EXCL |
				 O_NOFOLLOW | O_CLOEXEC, 0600);
		if (out->fd >= 0) {
			out->tmp = name;
			return 0;
		}
		free(name);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/* A replaced file keeps its owner and group: chown the temporary file
 * now, so a change this user may not make fails before the run. */
static int keep_owner(struct profile_output *out, const struct stat *old)
{
	char who[64];

	if (old->st_uid == geteuid() && old->st_gid == getegid())
		return 0;
	if (!fchown(out->fd, old->st_uid, old->st_gid))
		return 0;
	return error("cannot replace '%s' and keep its owner %s (group %u): %s; "
		     "remove it first or choose another -o", out->where,
		     user_name(old->st_uid, who, sizeof(who)),
		     (unsigned)old->st_gid, strerror(errno));
}

static int open_atomic(struct profile_output *out, const struct walk *w)
{
	struct statvfs vfs;
	mode_t mask;

	if (fstatvfs(w->dirfd, &vfs))
		return error("cannot write '%s': %s", out->where, strerror(errno));
	if (vfs.f_flag & ST_RDONLY)
		return error("cannot write '%s': '%.*s' is on a read-only filesystem",
			     out->where, (int)(w->dirlen ? w->dirlen : 1),
			     w->dirlen ? w->shown : ".");
	if ((unsigned long long)vfs.f_bavail * vfs.f_frsize < OUTPUT_MIN_FREE)
		return error("cannot write '%s': only %llu bytes free there; free "
			     "some space or choose another -o", out->where,
			     (unsigned long long)vfs.f_bavail * vfs.f_frsize);
	remove_stale_beside((struct walk *)w);
	remove_stale_named();
	if (create_tmp(out))
		return error("cannot create a temporary file beside '%s': %s",
			     out->where, strerror(errno));
	flock(out->fd, LOCK_EX | LOCK_NB);
	if (w->exists && keep_owner(out, &w->st))
		return -1;
	mask = umask(0);
	umask(mask);
	out->mode = w->exists ? w->st.st_mode & 0777 : 0666 & ~mask;
	return 0;
}

int profile_output_open(struct profile_output *out, const char *path,
			unsigned flags)
{
	struct walk w;
	struct stat st;
	char why[160];
	int ret;

	memset(out, 0, sizeof(*out));
	out->fd = out->dirfd = -1;
	out->force = !!(flags & PROFILE_OUTPUT_FORCE);
	if (!*path)
		return error("empty output file name: give -o FILE");
	out->path = strdup(path);
	if (!out->path)
		return error("out of memory");
	/* "-o -" as in perf: written to the descriptor stdout is */
	if (!strcmp(path, "-")) {
		if (fstat(STDOUT_FILENO, &st))
			ret = error("cannot write to standard output: %s",
				    strerror(errno));
		else if (S_ISDIR(st.st_mode))
			ret = error("standard output is a directory");
		else if (!(out->where = strdup("standard output")))
			ret = error("out of memory");
		else
			ret = 0;
		out->std = out->through = 1;
		if (ret)
			profile_output_abort(out);
		return ret;
	}
	ret = walk(path, &w);
	out->dirfd = w.dirfd;
	if (!ret && !w.exists && w.via_link)
		ret = error("'%s' is a symlink to '%s', which does not exist: "
			    "perpkt does not create a file through a symlink; "
			    "give the target's path", w.link, w.shown);
	if (!ret && (!(out->where = strdup(w.shown)) || !(out->name = strdup(w.name))))
		ret = error("out of memory");
	if (!ret && w.exists && !out->force &&
	    !target_allowed(&w.st, why, sizeof(why)))
		ret = refuse_target(out->where, why);
	if (!ret)
		ret = w.exists && !S_ISREG(w.st.st_mode) ? open_through(out, &w) :
		      open_atomic(out, &w);
	if (ret)
		profile_output_abort(out);
	return ret;
}

/* The write failed: put the data where it can go, and say where. */
static void rescue(const struct profile_doc *doc, const char *path)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ?
			  getenv("TMPDIR") : "/tmp";
	char *name;
	int fd;

	if (asprintf(&name, "%s/perpkt-rescued-XXXXXX.json", dir) < 0)
		return;
	fd = mkstemps(name, 5);
	if (fd >= 0 && !profile_doc_write(doc, fd) && !fsync(fd) && !close(fd)) {
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
	if (out->path && out->dirfd >= 0)
		close(out->dirfd);
	if (out->path && out->reg[0])
		unlink(out->reg);
	free(out->path);
	free(out->where);
	free(out->name);
	free(out->tmp);
	memset(out, 0, sizeof(*out));
	out->fd = out->dirfd = -1;
}

void profile_output_abort(struct profile_output *out)
{
	if (out->path && out->tmp && out->fd >= 0)
		unlinkat(out->dirfd, out->tmp, 0);
	output_free(out);
}

/* A FIFO whose reader left must give EPIPE here, not kill the run. */
static int write_ignoring_sigpipe(const struct profile_doc *doc, int fd)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int ret;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	errno = 0;
	ret = profile_doc_write(doc, fd);
	sigaction(SIGPIPE, &old, NULL);
	return ret;
}

/*
 * Open the device or FIFO to write. A FIFO with no reader would block
 * the open for ever: it is polled, and given up after
 * FIFO_READER_WAIT_S with errno ENXIO.
 */
static int open_reader_waiting(const struct profile_output *out)
{
	int flags = O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK,
	    said = 0, fd, tick;

	for (tick = 0; tick <= FIFO_READER_WAIT_S * 20; tick++) {
		fd = openat(out->dirfd, out->name, flags);
		if (fd >= 0) {
			/* a reader is there: the writes may block again */
			if (!fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
				return fd;
			close(fd);
			return -1;
		}
		if (errno != ENXIO)
			return -1;
		if (!said++)
			info("waiting up to %d s for a reader of the FIFO '%s'",
			     FIFO_READER_WAIT_S, out->where);
		usleep(50000);
	}
	errno = ENXIO;
	return -1;
}

static int commit_through(struct profile_output *out,
			  const struct profile_doc *doc)
{
	struct stat st;
	char why[160];
	int fd, err = 0;

	if (out->std) {
		if (write_ignoring_sigpipe(doc, STDOUT_FILENO))
			return error("cannot write the profile to standard output: %s",
				     strerror(errno ? errno : EIO));
		return 0;
	}
	/* the device or FIFO checked at open, not what was put there since */
	fd = open_reader_waiting(out);
	if (fd < 0)
		err = errno;
	else if (fstat(fd, &st) || st.st_dev != out->dev || st.st_ino != out->ino)
		err = ESTALE;
	else if (!out->force && !target_allowed(&st, why, sizeof(why))) {
		close(fd);
		return refuse_target(out->where, why);
	}
	else if (write_ignoring_sigpipe(doc, fd))
		err = errno ? errno : EIO;
	if (fd >= 0 && close(fd) && !err)
		err = errno;
	if (!err)
		return 0;
	if (err == ENXIO)
		error("cannot write '%s': no reader opened the FIFO within %d s",
		      out->where, FIFO_READER_WAIT_S);
	else
		error("cannot write '%s': %s", out->where, err == ESTALE ?
		      "it was replaced since the run began" : strerror(err));
	return -1;
}

/* A profile with kernel addresses in it: samples, kallsyms or _text. */
static int has_kernel_addresses(const struct profile *p)
{
	return p->text_addr || p->nsamples || p->nksyms || p->nstacks ||
	       (p->remote && has_kernel_addresses(p->remote));
}

/* The directory's entries on disk (it is held as a path: opened here). */
static void sync_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int commit_atomic(struct profile_output *out, const struct profile_doc *doc,
			 const struct profile *p)
{
	struct stat old;
	char why[160];

	/* a new file only its owner reads when it holds kernel addresses */
	if (has_kernel_addresses(p))
		out->mode &= 0600;
	/* the file as it is now: its owner, group and mode carry over, but
	 * not another user's, made since the run began */
	if (!fstatat(out->dirfd, out->name, &old, AT_SYMLINK_NOFOLLOW) &&
	    !out->force && !target_allowed(&old, why, sizeof(why)))
		return refuse_target(out->where, why);
	if (!fstatat(out->dirfd, out->name, &old, AT_SYMLINK_NOFOLLOW) &&
	    S_ISREG(old.st_mode)) {
		out->mode = old.st_mode & 0777;
		if ((old.st_uid != geteuid() || old.st_gid != getegid()) &&
		    fchown(out->fd, old.st_uid, old.st_gid))
			warning("'%s' changed owner during the run; the new file "
				"is this user's: %s", out->where, strerror(errno));
	}
	if (profile_doc_write(doc, out->fd) || fsync(out->fd) ||
	    fchmod(out->fd, out->mode)) {
		error("cannot write '%s': %s", out->where, strerror(errno));
		return -1;
	}
	if (renameat(out->dirfd, out->tmp, out->dirfd, out->name)) {
		error("cannot rename '%s' to '%s': %s; the profile is kept in '%s'",
		      out->tmp, out->where, strerror(errno), out->tmp);
		/* the data is there: only the name is wrong */
		free(out->tmp);
		out->tmp = NULL;
		return 1;
	}
	sync_dir(out->dirfd);
	free(out->tmp);
	out->tmp = NULL;
	return 0;
}

int profile_output_commit(struct profile_output *out, const struct profile *p)
{
	char what[PATH_MAX + 16];
	struct profile_doc doc;
	int ret;

	if (profile_doc_init(&doc, p)) {
		profile_output_abort(out);
		return error("cannot encode profile (out of memory)");
	}
	snprintf(what, sizeof(what), "profile '%s'", out->where ? out->where : "-");
	if (profile_doc_check(&doc, what)) {
		profile_doc_free(&doc);
		profile_output_abort(out);
		return -1;
	}
	ret = out->through ? commit_through(out, &doc) : commit_atomic(out, &doc, p);
	if (ret < 0)
		rescue(&doc, out->where);
	profile_output_abort(out);
	profile_doc_free(&doc);
	return ret ? -1 : 0;
}
