/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_KERNEL_TREE_H
#define PERPKT_LAB_KERNEL_TREE_H

#include <limits.h>

/*
 * record --kernel DIR: a kernel tree the user built (or its O= build
 * folder), as a kernel developer has one: its boot image, its vmlinux
 * (DWARF and build-id), its .config, its modules, and which commit it
 * was built from.
 */
struct lab_tree {
	char dir[PATH_MAX];          /* the folder, absolute */
	char image[PATH_MAX + 32];   /* arch/x86/boot/bzImage, arch/arm64/boot/Image */
	char vmlinux[PATH_MAX + 16];
	char config[PATH_MAX + 16];
	char release[128];           /* include/config/kernel.release */
	int modules;                 /* CONFIG_MODULES=y: .ko files in the tree */
	/* `git describe --always --dirty --abbrev=12` and the commit's
	 * subject, "" when the tree is not in git */
	char commit[512];
	int dirty;                   /* tracked files changed since it */
};

/* A copy of a build's files (perpkt-bisect --jobs records one while the
 * tree goes on to the next commit) holds, in this file, the commit it
 * was built from as lab.commit says it ("DESCRIBE \"SUBJECT\"");
 * lab_tree_open takes it instead of asking git. */
#define LAB_TREE_COMMIT_FILE ".perpkt-commit"

/* Whether `path` is a folder (so --kernel means a tree, not an image). */
int lab_tree_is(const char *path);

/* Fill t from the built tree at dir; before anything boots, refuses a
 * tree that is not configured or not built, lacks its vmlinux, or
 * whose vmlinux is not the one its image was made from, saying what is
 * missing and the make target that makes it. `option` ("--kernel")
 * names it in messages. Returns 0, or -1 after printing why. */
int lab_tree_open(struct lab_tree *t, const char *dir, const char *option);

#endif
