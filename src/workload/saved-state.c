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
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "system/netns-id.h"
#include "workload/netns.h"

#define LINE_MAX_LEN 2048
/* record --turn-off CMD: the command that puts a setting back, in hex */
#define TURN_KEY "turn-off"
#define NETNS_KEY "netns/"

struct saved_lock {
	int fd;
	struct netns_id net;
};

/*
 * A note is one line, "PATH OLD net=DEV:INO netns=NAME device=DEV":
 * the setting, its value before the run, and the network namespace the
 * run was in (nsfs device and inode, its /run/netns name or "-") and
 * the network device PATH is of ("-" for none). /sys/class/net/lo is
 * the lo of the reader's namespace, so a note is put back only by a run
 * in the same one (issue 49: a dead run's note was written to the lo of
 * another). Lines of older perpkt versions have PATH and OLD only.
 */
struct note {
	char *path, *old;
	int keyed;              /* net= was there */
	struct netns_id net;
	char name[128], device[64];
};

/* Split a line (changed in place); -1 when it is not a note. */
static int note_parse(char *line, struct note *n)
{
	char *tok, *save = NULL;

	memset(n, 0, sizeof(*n));
	line[strcspn(line, "\n")] = '\0';
	n->path = strtok_r(line, " ", &save);
	n->old = strtok_r(NULL, " ", &save);
	if (!n->path || !n->old || strstr(n->path, ".."))
		return -1;
	while ((tok = strtok_r(NULL, " ", &save))) {
		if (sscanf(tok, "net=%llu:%llu", &n->net.dev, &n->net.ino) == 2)
			n->keyed = 1;
		else if (!strncmp(tok, "netns=", 6) && strcmp(tok + 6, "-"))
			snprintf(n->name, sizeof(n->name), "%s", tok + 6);
		else if (!strncmp(tok, "device=", 7) && strcmp(tok + 7, "-"))
			snprintf(n->device, sizeof(n->device), "%s", tok + 7);
	}
	return 0;
}

/* The network device of a /sys/class/net/DEV/... path, or "-". */
static void device_of(const char *path, char *buf, size_t len)
{
	const char *d = "/sys/class/net/";

	if (strncmp(path, d, strlen(d)))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*s", (int)strcspn(path + strlen(d), "/"),
			 path + strlen(d));
}

/* "net=DEV:INO netns=NAME device=DEV" of this process for path. */
static int note_tail(const char *path, char *buf, size_t len)
{
	struct netns_id net;
	char name[128], device[64];

	if (netns_id_self(&net))
		return -1;
	netns_id_name(&net, name, sizeof(name));
	device_of(path, device, sizeof(device));
	snprintf(buf, len, "net=%llu:%llu netns=%s device=%s", net.dev, net.ino,
		 name[0] && !strchr(name, ' ') ? name : "-", device);
	return 0;
}

/* RUNDIR/state.ID: what this run changed. */
static int own_file(char *buf, size_t len)
{
	char dir[256], id[RUNDIR_ID_LEN];

	if (rundir_path(dir, sizeof(dir)) || rundir_own_id(id, sizeof(id)))
		return -1;
	snprintf(buf, len, "%s/state.%s", dir, id);
	return 0;
}

/* Lines "PATH VALUE ..." of one state file, rewritten without `drop`
 * (NULL: keep all) and with "path old tail" added (NULL: add nothing). */
static int rewrite(const char *file, const char *drop, const char *path,
		   const char *old, const char *tail)
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
		fprintf(out, "%s %s %s\n", path, old, tail);
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
	char file[RUNDIR_FILE_LEN], tail[256];

	if (note_tail(path, tail, sizeof(tail)))
		return error("cannot read this process's network namespace "
			     "(/proc/self/ns/net): %s", strerror(errno));
	if (own_file(file, sizeof(file)))
		return error("cannot make '%s' to note what perpkt changes: %s",
			     RUNDIR_ROOT, strerror(errno));
	if (rewrite(file, path, path, old, tail))
		return error("cannot write '%s': %s", file, strerror(errno));
	return 0;
}

void saved_state_forget(const char *path)
{
	char file[RUNDIR_FILE_LEN];

	if (own_file(file, sizeof(file)))
		return;
	if (rewrite(file, path, NULL, NULL, NULL))
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

int saved_state_record_turn_off(const char *cmd)
{
	char hex[2 * SAVED_TURN_MAX + 1];
	size_t i, n = strlen(cmd);

	if (n > SAVED_TURN_MAX)
		return error("--turn-off '%.40s...' is longer than %d bytes: put "
			     "it in a script", cmd, SAVED_TURN_MAX);
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)cmd[i]);
	hex[2 * n] = '\0';
	return saved_state_record(TURN_KEY, n ? hex : "-");
}

void saved_state_forget_turn_off(void)
{
	saved_state_forget(TURN_KEY);
}

/* A dead run's --turn-off, run in its namespace: 1 done, -1 not. */
static int restore_turn(const struct note *n, const char *who)
{
	char cmd[SAVED_TURN_MAX + 1];
	size_t i, len = strlen(n->old) / 2;
	unsigned v;
	int status;
	pid_t pid;

	for (i = 0; i < len && i < SAVED_TURN_MAX && sscanf(n->old + 2 * i, "%2x", &v) == 1; i++)
		cmd[i] = (char)v;
	cmd[i] = '\0';
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		warning("cannot switch a setting back off: '%s' (the --turn-off "
			"of %s, which was killed) failed: run it by hand", cmd, who);
		return -1;
	}
	warning("ran '%s' to switch a setting back off: %s was killed before "
		"it could", cmd, who);
	return 1;
}

/* One note put back; 1 done, 0 nothing to do, -1 not (said). who: the
 * run that changed it. */
static int restore_note(const struct note *n, const char *who)
{
	char where[320] = "";
	FILE *w;

	if (!strcmp(n->path, TURN_KEY))
		return n->keyed ? restore_turn(n, who) : 0;

	if (!strncmp(n->path, NETNS_KEY, strlen(NETNS_KEY))) {
		const char *name = n->path + strlen(NETNS_KEY);

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
	if (strncmp(n->path, "/sys/", 5))
		return 0;  /* only settings under /sys are ever noted */
	if (n->keyed) {
		char ns[200];

		netns_id_describe(&n->net, n->name, ns, sizeof(ns));
		snprintf(where, sizeof(where), " in network namespace %s%s%s%s", ns,
			 n->device[0] ? " (device " : "", n->device,
			 n->device[0] ? ")" : "");
	}
	w = fopen(n->path, "w");
	if (!w || fputs(n->old, w) < 0 || fclose(w)) {
		if (w)
			fclose(w);
		warning("cannot restore '%s' to '%s'%s (changed by %s, "
			"which was killed): %s: set it by hand", n->path, n->old,
			where, who, strerror(errno));
		return -1;
	}
	warning("restored '%s' to '%s'%s: %s was killed before it could",
		n->path, n->old, where, who);
	return 1;
}

/* The network namespace a state file's notes were made in: 1 and *net
 * set, 0 when none says (older lines, or none), -1 unreadable. */
static int file_netns(const char *file, struct note *first, char *line,
		      size_t len)
{
	FILE *f = fopen(file, "r");
	int keyed = 0;

	if (!f)
		return -1;
	while (!keyed && fgets(line, (int)len, f))
		keyed = !note_parse(line, first) && first->keyed;
	fclose(f);
	return keyed;
}

/* Put back what one dead run noted: the count, or -1 if one failed. */
static int restore_file(const char *file, const char *who)
{
	char line[LINE_MAX_LEN];
	FILE *f = fopen(file, "r");
	int failed = 0, done = 0, r;
	struct note n;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (note_parse(line, &n))
			continue;  /* not one of ours */
		r = restore_note(&n, who);
		failed |= r < 0;
		done += r > 0;
	}
	fclose(f);
	if (!failed)
		unlink(file);
	return failed ? -1 : done;
}

static int saved_state_held(const struct netns_id *net);

/*
 * Every state file of a dead run of this network namespace put back
 * (restore: the caller holds the namespace's lock, so every other run's
 * there is a dead one's, whatever PID namespace it ran in) or, with
 * note, what live runs have changed described there. Files of other
 * namespaces are left to runs there: dropped when the namespace is
 * gone, said by `perpkt restore` (tell) while their run is dead.
 */
static int restore_dead(int restore, char *note, size_t len, int tell)
{
	char dir[256], own[RUNDIR_ID_LEN] = "", who[128], line[LINE_MAX_LEN];
	struct netns_id self;
	struct dirent *de;
	size_t at = 0;
	int total = 0, failed = 0;
	DIR *d;

	if (note && len)
		note[0] = '\0';
	if (netns_id_self(&self) || rundir_path(dir, sizeof(dir)) ||
	    !(d = opendir(dir)))
		return 0;
	rundir_own_id(own, sizeof(own));
	while ((de = readdir(d))) {
		char file[sizeof(dir) + 300], ns[200];
		const char *id = de->d_name + 6;
		struct note first;
		int r;

		if (strncmp(de->d_name, "state.", 6) || !strcmp(id, own) ||
		    strchr(id, '.'))  /* a ".new" being written */
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		rundir_id_describe(id, who, sizeof(who));
		r = file_netns(file, &first, line, sizeof(line));
		if (r > 0 && !netns_id_same(&first.net, &self)) {
			netns_id_describe(&first.net, first.name, ns, sizeof(ns));
			if (restore && netns_id_gone(&first.net)) {
				info("dropped what %s noted for network namespace "
				     "%s: the namespace is gone, and its devices "
				     "with it", who, ns);
				unlink(file);
			} else if (tell && !saved_state_held(&first.net)) {
				info("left what %s changed in network namespace %s: "
				     "put it back there ('ip netns exec %s perpkt "
				     "restore')", who, ns,
				     first.name[0] ? first.name : "NAME");
			}
			continue;
		}
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

/* The lock of a network namespace: one byte of RUNDIR/lock, at its
 * inode, so that runs in two namespaces change their own at once and
 * a run in one never waits for, nor settles for, another's. */
static struct flock lock_range(const struct netns_id *net, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_len = 1 };

	fl.l_start = (off_t)(net->ino & 0x3fffffffffffULL);
	return fl;
}

/* Whether a live run holds the lock of namespace net. */
static int saved_state_held(const struct netns_id *net)
{
	struct flock fl = lock_range(net, F_WRLCK);
	int fd = open_lock(), held;

	if (fd < 0)
		return 0;
	held = !fcntl(fd, F_GETLK, &fl) && fl.l_type != F_UNLCK;
	close(fd);
	return held;
}

/* Who holds the lock of net: "perpkt pid N (CMD)". */
static void holder(int fd, const struct netns_id *net, char *buf, size_t len)
{
	struct flock fl = lock_range(net, F_WRLCK);
	char cmd[200] = "", path[64];
	FILE *f;
	size_t n = 0, i;

	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK) {
		snprintf(buf, len, "another perpkt");
		return;
	}
	/* 0: a process of a PID namespace this one cannot see */
	if (fl.l_pid <= 0) {
		snprintf(buf, len, "a perpkt of another PID namespace");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)fl.l_pid);
	f = fopen(path, "r");
	if (f) {
		n = fread(cmd, 1, sizeof(cmd) - 1, f);
		fclose(f);
	}
	for (i = 0; i + 1 < n; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	cmd[n] = '\0';
	if (cmd[0])
		snprintf(buf, len, "perpkt pid %d (%s)", (int)fl.l_pid, cmd);
	else
		snprintf(buf, len, "perpkt pid %d", (int)fl.l_pid);
}

static int take_lock(struct saved_lock **out, int no_wait)
{
	struct netns_id net;
	struct flock fl;
	char who[320];
	int fd;

	*out = NULL;
	if (netns_id_self(&net))
		return error("cannot read this process's network namespace "
			     "(/proc/self/ns/net): %s", strerror(errno));
	fl = lock_range(&net, F_WRLCK);
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
		holder(fd, &net, who, sizeof(who));
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
	*out = malloc(sizeof(**out));
	if (!*out) {
		close(fd);
		return error("out of memory");
	}
	(*out)->fd = fd;
	(*out)->net = net;
	return 0;
}

int saved_state_lock(struct saved_lock **out, int no_wait)
{
	if (take_lock(out, no_wait))
		return -1;
	/* the lock is ours: every other run's notes here are a dead run's */
	restore_dead(1, NULL, 0, 0);
	return 0;
}

void saved_state_unlock(struct saved_lock *l)
{
	if (!l)
		return;
	close(l->fd);  /* drops the lock */
	free(l);
}

void saved_state_settle(char *note, size_t len)
{
	struct netns_id net;
	struct flock fl;
	int fd;

	note[0] = '\0';
	if (netns_id_self(&net) || (fd = open_lock()) < 0)
		return;
	fl = lock_range(&net, F_WRLCK);
	if (!fcntl(fd, F_SETLK, &fl)) {
		/* no run is changing this namespace: what is noted here is
		 * a dead run's */
		restore_dead(1, NULL, 0, 0);
		close(fd);
		return;
	}
	close(fd);
	restore_dead(0, note, len, 0);
}

int saved_state_restore_all(int no_wait)
{
	struct saved_lock *l;
	int n;

	if (take_lock(&l, no_wait))
		return -1;
	n = restore_dead(1, NULL, 0, 1);
	saved_state_unlock(l);
	return n;
}
