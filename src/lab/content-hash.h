/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_LAB_CONTENT_HASH_H
#define PERPKT_LAB_CONTENT_HASH_H

#include <stddef.h>

/* A kernel image named by its contents (lab.kernel_blake2b, sweep's
 * plan): BLAKE2b-256, what `b2sum -l 256 FILE` prints. */
#define LAB_IMAGE_HASH_BYTES 32

/* BLAKE2b of the file's contents, bytes long (libsodium's generichash;
 * `b2sum -l 8*bytes` prints the same), as hex into hex (at least
 * 2*bytes+1); -1 after saying why. */
int lab_content_hash(const char *path, size_t bytes, char *hex, size_t len);

#endif
