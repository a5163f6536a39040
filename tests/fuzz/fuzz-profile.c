// SPDX-License-Identifier: GPL-2.0-only
/* The profile loader on arbitrary bytes: read, then free. */
#include <stdlib.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "profile/profile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profile p;
	int fd;
	const char *path = fuzz_file(data, size, &fd);

	if (!path)
		return 0;
	if (!profile_read(&p, path))
		profile_free(&p);
	close(fd);
	return 0;
}
