/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_INITRAMFS_H
#define PERPKT_LAB_INITRAMFS_H

#include <stddef.h>

/*
 * An initramfs written as an uncompressed "newc" cpio archive, the
 * format every kernel unpacks without a decompressor. Parent folders
 * of each path are added on first use. Guest paths have no leading /.
 */
struct initramfs;

int initramfs_create(struct initramfs **out, const char *path);
/* The content of host file `host` (symlinks followed) at `guest`. */
int initramfs_add_file(struct initramfs *ir, const char *guest,
		       const char *host, unsigned mode);
int initramfs_add_data(struct initramfs *ir, const char *guest,
		       const void *data, size_t len, unsigned mode);
int initramfs_add_symlink(struct initramfs *ir, const char *guest,
			  const char *target);
/* 1 when `guest` is already in the archive. */
int initramfs_has(const struct initramfs *ir, const char *guest);
/* Writes the trailer and closes; frees ir either way. */
int initramfs_finish(struct initramfs *ir);
/* Frees without finishing (on an error path) and removes the file. */
void initramfs_abort(struct initramfs *ir);

#endif
