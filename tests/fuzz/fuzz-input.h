/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERPKT_FUZZ_INPUT_H
#define PERPKT_FUZZ_INPUT_H

/*
 * Shared by the libFuzzer targets in tests/fuzz: perpkt's readers take
 * file names, so each input becomes a memfd reached by /proc/self/fd/N.
 * Messages from error() go nowhere (the FILE stderr is pointed at
 * /dev/null); sanitizer reports still reach fd 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static inline void fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
}

/* A path holding exactly data[0..size); the fd in *fd, closed by the
 * caller. NULL when the memfd cannot be made. */
static inline const char *fuzz_file(const uint8_t *data, size_t size, int *fd)
{
	static char path[64];

	*fd = memfd_create("fuzz", MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (size && write(*fd, data, size) != (ssize_t)size) {
		close(*fd);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *fd);
	return path;
}

#endif
