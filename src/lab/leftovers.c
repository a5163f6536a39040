// SPDX-License-Identifier: GPL-2.0-only
/* The guest's folder, noted before it is made, removed after a kill. */
#include "lab/leftovers.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

#define LAB_DIR_TAG "perpkt-lab."
#define LAB_DIR_RANDOM 6

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

int lab_rm_tree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int lab_dir_make(char *dir, size_t len, const char *parent,
		 struct rundir_note *note)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[LAB_DIR_RANDOM];
	char tag[LAB_DIR_RANDOM + 1], kind[16 + LAB_DIR_RANDOM];
	int tries, i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return error("cannot get random bytes: %s", strerror(errno));
		for (i = 0; i < LAB_DIR_RANDOM; i++)
			tag[i] = set[rnd[i] % (sizeof(set) - 1)];
		tag[LAB_DIR_RANDOM] = '\0';
		if ((size_t)snprintf(dir, len, "%s/" LAB_DIR_TAG "%s", parent, tag) >= len)
			return error("cannot create a folder in '%s': %s", parent,
				     strerror(ENAMETOOLONG));
		snprintf(kind, sizeof(kind), "lab-%s", tag);
		/* the note first: a kill between the two leaves a note for
		 * nothing, never a folder no note names */
		if (rundir_note_open(note, kind, dir))
			return error("cannot note '%s' in '%s': %s", dir,
				     RUNDIR_ROOT, strerror(errno));
		if (!mkdir(dir, 0700))
			return 0;
		i = errno;
		rundir_note_close(note);
		if (i != EEXIST)
			return error("cannot create a folder in '%s': %s", parent,
				     strerror(i));
	}
	return error("cannot create a folder in '%s': %s", parent, strerror(EEXIST));
}

void lab_dir_remove(const char *dir, struct rundir_note *note, int keep)
{
	if (!keep)
		lab_rm_tree(dir);
	rundir_note_close(note);
}

/* One killed run's folder: only a perpkt-lab.* folder of this user's. */
static int remove_one(const char *dir, const char *who, void *arg)
{
	const char *base = strrchr(dir, '/');
	struct stat st;

	(void)arg;
	if (!base || strncmp(base + 1, LAB_DIR_TAG, strlen(LAB_DIR_TAG)) ||
	    lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return 0;
	if (lab_rm_tree(dir)) {
		warning("cannot remove '%s', the guest's files of %s, which was "
			"killed: %s", dir, who, strerror(errno));
		return -1;
	}
	warning("removed '%s', the guest's files of %s, which was killed", dir, who);
	return 1;
}

int lab_remove_stale(void)
{
	return rundir_notes_undo("lab", remove_one, NULL);
}
