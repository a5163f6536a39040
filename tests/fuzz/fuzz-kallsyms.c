// SPDX-License-Identifier: GPL-2.0-only
/* The kallsyms parser on arbitrary bytes, then a few lookups. */
#include <unistd.h>

#include "fuzz-input.h"
#include "symbolize/symbolize.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t addrs[] = { 0, 1, 0xffffffff81000000ull,
					  0xffffffff81000010ull, ~0ull };
	struct symbolizer *s;
	struct sym_result r;
	size_t i;
	int fd;
	const char *path = fuzz_file(data, size, &fd);

	if (!path)
		return 0;
	if (!symbolizer_open_kallsyms(&s, path, NULL)) {
		for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++)
			symbolizer_resolve(s, addrs[i], &r);
		symbolizer_close(s);
	}
	close(fd);
	return 0;
}
