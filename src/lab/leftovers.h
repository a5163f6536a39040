/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_LEFTOVERS_H
#define PERPKT_LAB_LEFTOVERS_H

#include <stddef.h>

#include "profile/rundir.h"

/*
 * What a killed record --kernel leaves: its QEMU dies with it (a
 * parent-death signal, lab/qemu.c), but its folder of guest files
 * (PARENT/perpkt-lab.XXXXXX, 13 MB or more) would stay. The folder is
 * noted in the run directory before it is made (RUNDIR/lab-XXXXXX.ID,
 * rundir.h), so the next run or `perpkt restore` removes it.
 */

/* Remove a folder and all in it (symlinks not followed); -1 errno. */
int lab_rm_tree(const char *path);
/* Make the folder under parent into dir, noted first; -1 printed. */
int lab_dir_make(char *dir, size_t len, const char *parent,
		 struct rundir_note *note);
/* Remove it (unless keep) and its note. */
void lab_dir_remove(const char *dir, struct rundir_note *note, int keep);
/* The folders of killed runs removed: how many (each said). */
int lab_remove_stale(void);

#endif
