// SPDX-License-Identifier: GPL-2.0-only
/* The run directory: what a killed run leaves for the next to undo. */
#include "profile/rundir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int rundir_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, len, "%s", RUNDIR_ROOT);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/perpkt", xdg);
	else {
		errno = ENOENT;
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -1;
	/* never one that another user could have made for us */
	if (lstat(buf, &st))
		return -1;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 0077)) {
		errno = EPERM;
		return -1;
	}
	return 0;
}

/* Field 22 of /proc/PID/stat: the start time; 0 when it cannot be read. */
static unsigned long long start_time(const char *pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	/* after the command's name: state is field 3, start time 22 */
	for (i = 3; p && i <= 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static unsigned long long pid_namespace(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (unsigned long long)st.st_ino;
}

int rundir_own_id(char *buf, size_t len)
{
	unsigned long long t = start_time("self"), ns = pid_namespace();
	int n;

	if (!t || !ns)
		return -1;
	n = snprintf(buf, len, "%ld-%llu-%llu", (long)getpid(), t, ns);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int parse_id(const char *id, long *pid, unsigned long long *t,
		    unsigned long long *ns)
{
	int end = 0;

	return sscanf(id, "%ld-%llu-%llu%n", pid, t, ns, &end) == 3 &&
	       !id[end] && *pid > 0 ? 0 : -1;
}

long rundir_id_pid(const char *id)
{
	unsigned long long t, ns;
	long pid;

	return parse_id(id, &pid, &t, &ns) ? 0 : pid;
}

const char *rundir_id_describe(const char *id, char *buf, size_t len)
{
	unsigned long long t, ns;
	long pid;

	if (parse_id(id, &pid, &t, &ns))
		snprintf(buf, len, "an older perpkt (%s)", id);
	else
		/* a dead run: with our pid in "our" namespace, that was
		 * another one whose number the kernel has given out again */
		snprintf(buf, len, "perpkt pid %ld%s", pid,
			 ns == pid_namespace() && pid != (long)getpid() ?
			 "" : " of another PID namespace");
	return buf;
}

int rundir_id_alive(const char *id)
{
	unsigned long long t, ns;
	char pidstr[32];
	long pid;

	if (parse_id(id, &pid, &t, &ns))
		return 0;
	if (ns != pid_namespace())
		return -1;
	snprintf(pidstr, sizeof(pidstr), "%ld", pid);
	/* a pid reused since starts later */
	return start_time(pidstr) == t;
}

int rundir_note_open(struct rundir_note *n, const char *kind, const char *text)
{
	char dir[256], id[RUNDIR_ID_LEN], tmp[RUNDIR_FILE_LEN + 8];
	size_t len = strlen(text);

	n->fd = -1;
	n->path[0] = '\0';
	if (rundir_path(dir, sizeof(dir)) || rundir_own_id(id, sizeof(id)))
		return 0;
	snprintf(n->path, sizeof(n->path), "%s/%s.%s", dir, kind, id);
	/* locked and whole before it has its name: a reader never finds
	 * it unlocked or empty while its run lives */
	snprintf(tmp, sizeof(tmp), "%s.new", n->path);
	n->fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (n->fd < 0 || flock(n->fd, LOCK_EX | LOCK_NB) ||
	    write(n->fd, text, len) != (ssize_t)len || write(n->fd, "\n", 1) != 1 ||
	    fsync(n->fd) || rename(tmp, n->path)) {
		int e = errno;

		if (n->fd >= 0)
			close(n->fd);
		unlink(tmp);
		n->fd = -1;
		errno = e;
		return -1;
	}
	return 0;
}

void rundir_note_close(struct rundir_note *n)
{
	if (n->fd >= 0) {
		unlink(n->path);
		close(n->fd);
	}
	n->fd = -1;
}

int rundir_notes_undo(const char *kind,
		      int (*undo)(const char *text, const char *who, void *arg),
		      void *arg)
{
	char dir[256], file[RUNDIR_FILE_LEN + 256], text[4096], who[128];
	size_t klen = strlen(kind);
	struct dirent *de;
	int total = 0;
	DIR *d;

	if (rundir_path(dir, sizeof(dir)) || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		const char *id = strchr(de->d_name, '.');
		ssize_t got;
		int fd, r;

		/* KIND.ID or KIND-TAG.ID; not a ".new" being written */
		if (!id || strncmp(de->d_name, kind, klen) ||
		    (de->d_name[klen] != '.' && de->d_name[klen] != '-') ||
		    strchr(++id, '.'))
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		/* held: its run lives (this one's own included) */
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		got = read(fd, text, sizeof(text) - 1);
		text[got > 0 ? got : 0] = '\0';
		text[strcspn(text, "\n")] = '\0';
		rundir_id_describe(id, who, sizeof(who));
		r = text[0] ? undo(text, who, arg) : 0;
		if (r >= 0)
			unlink(file);
		total += r > 0 ? r : 0;
		close(fd);
	}
	closedir(d);
	return total;
}
