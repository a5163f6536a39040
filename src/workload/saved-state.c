// SPDX-License-Identifier: GPL-2.0-only
/* Settings perpkt changed, on disk until they are put back. */
#include "workload/saved-state.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "system/procfile.h"

#define LINE_MAX_LEN 512

static void own_file(char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/state.%ld", SAVED_STATE_DIR, pid);
}

/* Lines "PATH VALUE" of one state file, rewritten without `drop`
 * (NULL: keep all) and with "path old" added (NULL: add nothing). */
static int rewrite(const char *file, const char *drop, const char *path,
		   const char *old)
{
	char tmp[300], line[LINE_MAX_LEN];
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
	char file[300];

	if (mkdir(SAVED_STATE_DIR, 0700) && errno != EEXIST)
		return error("cannot make '%s' to note what perpkt changes: %s",
			     SAVED_STATE_DIR, strerror(errno));
	own_file(file, sizeof(file), (long)getpid());
	if (rewrite(file, path, path, old))
		return error("cannot write '%s': %s", file, strerror(errno));
	return 0;
}

void saved_state_forget(const char *path)
{
	char file[300];

	own_file(file, sizeof(file), (long)getpid());
	if (rewrite(file, path, NULL, NULL))
		warning("cannot update '%s': %s", file, strerror(errno));
}

/* A perpkt process with that pid is running (pid reuse: by its name). */
static int perpkt_alive(long pid)
{
	char path[64], comm[32];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	return procfile_line(path, comm, sizeof(comm)) >= 0 &&
	       !strcmp(comm, "perpkt");
}

static void restore_file(const char *file, long pid)
{
	char line[LINE_MAX_LEN], *sp, *nl;
	FILE *f = fopen(file, "r");
	int failed = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		FILE *w;

		nl = strchr(line, '\n');
		sp = strchr(line, ' ');
		if (!nl || !sp || strncmp(line, "/sys/", 5) || strstr(line, ".."))
			continue;  /* only settings under /sys are ever noted */
		*nl = *sp = '\0';
		w = fopen(line, "w");
		if (!w || fputs(sp + 1, w) < 0 || fclose(w)) {
			if (w)
				fclose(w);
			warning("cannot restore '%s' to '%s' (changed by perpkt "
				"pid %ld, which was killed): %s: set it by hand",
				line, sp + 1, pid, strerror(errno));
			failed = 1;
			continue;
		}
		warning("restored '%s' to '%s': perpkt pid %ld was killed "
			"before it could", line, sp + 1, pid);
	}
	fclose(f);
	if (!failed)
		unlink(file);
}

void saved_state_restore_stale(char *note, size_t len)
{
	DIR *d = opendir(SAVED_STATE_DIR);
	struct dirent *de;
	size_t at = 0;

	note[0] = '\0';
	if (!d)
		return;
	while ((de = readdir(d))) {
		char file[300], *end;
		long pid;

		if (strncmp(de->d_name, "state.", 6))
			continue;
		pid = strtol(de->d_name + 6, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(file, sizeof(file), "%s/%s", SAVED_STATE_DIR, de->d_name);
		if (!perpkt_alive(pid))
			restore_file(file, pid);
		else if (at < len)
			at += (size_t)snprintf(note + at, len - at,
					       "%sperpkt pid %ld is running with "
					       "settings of its own (%s)",
					       at ? "; " : "", pid, file);
	}
	closedir(d);
}
