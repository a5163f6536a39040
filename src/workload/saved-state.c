// SPDX-License-Identifier: GPL-2.0-only
/* Settings perpkt changed, on disk until they are put back, and the
 * lock that lets one run at a time change them. */
#include "workload/saved-state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "workload/netns.h"

#define LINE_MAX_LEN 512
#define NETNS_KEY "netns/"

struct saved_lock {
	int fd;
};

/* RUNDIR/state.ID: what this run changed. */
static int own_file(char *buf, size_t len)
{
	char dir[256], id[RUNDIR_ID_LEN];

	if (rundir_path(dir, sizeof(dir)) || rundir_own_id(id, sizeof(id)))
		return -1;
	snprintf(buf, len, "%s/state.%s", dir, id);
	return 0;
}

/* Lines "PATH VALUE" of one state file, rewritten without `drop`
 * (NULL: keep all) and with "path old" added (NULL: add nothing). */
static int rewrite(const char *file, const char *drop, const char *path,
		   const char *old)
{
	char tmp[RUNDIR_FILE_LEN + 8], line[LINE_MAX_LEN];
	FILE *in = fopen(file, "r"), *out;
	size_t dlen = drop ? strlen(drop) : 0;
	long size;

	snprintf(tmp, sizeof(tmp), "%s.new", file);
	out = fopen(tmp, "w");
	if (!out) {
		if (in)
			fclose(in);
		return -1;
	}
	while (in && fgets(line, sizeof(line), in))
		if (!drop || strncmp(line, drop, dlen) || line[dlen] != ' ')
			fputs(line, out);
	if (in)
		fclose(in);
	if (path)
		fprintf(out, "%s %s\n", path, old);
	size = ftell(out);
	if (fflush(out) || fsync(fileno(out))) {
		fclose(out);
		unlink(tmp);
		return -1;
	}
	if (fclose(out) || (size && rename(tmp, file))) {
		unlink(tmp);
		return -1;
	}
	if (!size) {  /* nothing left changed: no file */
		unlink(tmp);
		unlink(file);
	}
	return 0;
}

int saved_state_record(const char *path, const char *old)
{
	char file[RUNDIR_FILE_LEN];

	if (own_file(file, sizeof(file)))
		return error("cannot make '%s' to note what perpkt changes: %s",
			     RUNDIR_ROOT, strerror(errno));
	if (rewrite(file, path, path, old))
		return error("cannot write '%s': %s", file, strerror(errno));
	return 0;
}

void saved_state_forget(const char *path)
{
	char file[RUNDIR_FILE_LEN];

	if (own_file(file, sizeof(file)))
		return;
	if (rewrite(file, path, NULL, NULL))
		warning("cannot update '%s': %s", file, strerror(errno));
}

int saved_state_record_netns(const char *name)
{
	char key[128];

	snprintf(key, sizeof(key), NETNS_KEY "%s", name);
	return saved_state_record(key, "-");
}

void saved_state_forget_netns(const char *name)
{
	char key[128];

	snprintf(key, sizeof(key), NETNS_KEY "%s", name);
	saved_state_forget(key);
}

/* One line "PATH VALUE" put back; 0 done, -1 not (said). who: the run
 * that changed it. */
static int restore_line(char *line, const char *who)
{
	char *sp = strchr(line, ' '), *nl = strchr(line, '\n');
	FILE *w;

	if (!nl || !sp || strstr(line, ".."))
		return 0;  /* not one of ours */
	*nl = *sp = '\0';
	if (!strncmp(line, NETNS_KEY, strlen(NETNS_KEY))) {
		const char *name = line + strlen(NETNS_KEY);

		if (strncmp(name, NETNS_PREFIX, strlen(NETNS_PREFIX)) ||
		    !netns_exists(name))
			return 0;
		if (netns_delete(name)) {
			warning("cannot remove network namespace '%s' (made by "
				"%s, which was killed): remove it with "
				"'ip netns delete %s'", name, who, name);
			return -1;
		}
		warning("removed network namespace '%s' left by an earlier run: "
			"%s was killed before it could", name, who);
		return 1;
	}
	if (strncmp(line, "/sys/", 5))
		return 0;  /* only settings under /sys are ever noted */
	w = fopen(line, "w");
	if (!w || fputs(sp + 1, w) < 0 || fclose(w)) {
		if (w)
			fclose(w);
		warning("cannot restore '%s' to '%s' (changed by %s, "
			"which was killed): %s: set it by hand", line, sp + 1, who,
			strerror(errno));
		return -1;
	}
	warning("restored '%s' to '%s': %s was killed before it "
		"could", line, sp + 1, who);
	return 1;
}

/* Put back what one dead run noted: the count, or -1 if one failed. */
static int restore_file(const char *file, const char *who)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(file, "r");
	int failed = 0, done = 0, r;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		r = restore_line(line, who);
		failed |= r < 0;
		done += r > 0;
	}
	fclose(f);
	if (!failed)
		unlink(file);
	return failed ? -1 : done;
}

/* Every state file of a dead run put back (restore: the caller holds
 * the lock, so every other run's is a dead one's, whatever PID
 * namespace it ran in) or, with note, what live runs have changed
 * described there. */
static int restore_dead(int restore, char *note, size_t len)
{
	char dir[256], own[RUNDIR_ID_LEN] = "", who[128];
	struct dirent *de;
	size_t at = 0;
	int total = 0, failed = 0;
	DIR *d;

	if (note && len)
		note[0] = '\0';
	if (rundir_path(dir, sizeof(dir)) || !(d = opendir(dir)))
		return 0;
	rundir_own_id(own, sizeof(own));
	while ((de = readdir(d))) {
		char file[sizeof(dir) + 300];
		const char *id = de->d_name + 6;
		int r;

		if (strncmp(de->d_name, "state.", 6) || !strcmp(id, own) ||
		    strchr(id, '.'))  /* a ".new" being written */
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		rundir_id_describe(id, who, sizeof(who));
		if (restore) {
			r = restore_file(file, who);
			failed |= r < 0;
			total += r > 0 ? r : 0;
		} else if (note && at < len && rundir_id_alive(id)) {
			at += (size_t)snprintf(note + at, len - at,
					       "%s%s is running with "
					       "settings of its own (%s)",
					       at ? "; " : "", who, file);
		}
	}
	closedir(d);
	return failed ? -1 : total;
}

static int open_lock(void)
{
	char path[300];

	if (rundir_path(path, sizeof(path) - 8))
		return -1;
	strcat(path, "/lock");
	return open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* Who holds the lock: "perpkt pid N (CMD)". */
static void holder(int fd, char *buf, size_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char text[256] = "";
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	text[n > 0 ? n : 0] = '\0';
	text[strcspn(text, "\n")] = '\0';
	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK)
		snprintf(buf, len, "another perpkt");
	else if (text[0])
		snprintf(buf, len, "perpkt pid %d (%s)", (int)fl.l_pid, text);
	else
		snprintf(buf, len, "perpkt pid %d", (int)fl.l_pid);
}

/* This process's command line, for the lock file. */
static void say_holder(int fd)
{
	char cmd[200] = "";
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0, i;

	if (f)
		fclose(f);
	for (i = 0; i + 1 < n; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	cmd[n] = '\0';
	if (ftruncate(fd, 0) == 0 && pwrite(fd, cmd, strlen(cmd), 0) < 0)
		return;
}

static int take_lock(struct saved_lock **out, int no_wait)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char who[320];
	int fd;

	*out = NULL;
	fd = open_lock();
	if (fd < 0) {
		if (geteuid() != 0)
			return 0;  /* nothing to share: a user changes nothing */
		return error("cannot open the lock in '%s': %s", RUNDIR_ROOT,
			     strerror(errno));
	}
	if (fcntl(fd, F_SETLK, &fl)) {
		if (errno != EACCES && errno != EAGAIN) {
			close(fd);
			return error("cannot lock '%s/lock': %s", RUNDIR_ROOT,
				     strerror(errno));
		}
		holder(fd, who, sizeof(who));
		if (no_wait) {
			close(fd);
			return error("%s is changing the system's settings: not "
				     "waiting for it (--no-wait); try again when "
				     "it is done", who);
		}
		info("waiting for %s, which is changing the system's settings "
		     "(--no-wait fails instead)", who);
		while (fcntl(fd, F_SETLKW, &fl)) {
			if (errno != EINTR) {
				close(fd);
				return error("cannot lock '%s/lock': %s",
					     RUNDIR_ROOT, strerror(errno));
			}
			/* a signal: the caller's handler says whether to stop */
			close(fd);
			return error("interrupted while waiting for %s", who);
		}
	}
	say_holder(fd);
	*out = malloc(sizeof(**out));
	if (!*out) {
		close(fd);
		return error("out of memory");
	}
	(*out)->fd = fd;
	return 0;
}

int saved_state_lock(struct saved_lock **out, int no_wait)
{
	if (take_lock(out, no_wait))
		return -1;
	/* the lock is ours: every other run's notes are a dead run's */
	restore_dead(1, NULL, 0);
	return 0;
}

void saved_state_unlock(struct saved_lock *l)
{
	if (!l)
		return;
	/* closing the file drops the lock; the holder's line goes first */
	if (ftruncate(l->fd, 0) < 0)
		warning("cannot empty the lock file: %s", strerror(errno));
	close(l->fd);
	free(l);
}

void saved_state_settle(char *note, size_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open_lock();

	note[0] = '\0';
	if (fd < 0)
		return;
	if (!fcntl(fd, F_SETLK, &fl)) {
		/* no run is changing anything: what is noted is a dead run's */
		restore_dead(1, NULL, 0);
		close(fd);
		return;
	}
	close(fd);
	restore_dead(0, note, len);
}

int saved_state_restore_all(int no_wait)
{
	struct saved_lock *l;
	int n;

	if (take_lock(&l, no_wait))
		return -1;
	n = restore_dead(1, NULL, 0);
	saved_state_unlock(l);
	return n;
}
