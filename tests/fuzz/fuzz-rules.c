// SPDX-License-Identifier: GPL-2.0-only
/* The bucket rules parser and the diff alias parser on arbitrary bytes:
 * both are small hand-written text files a user passes in. */
#include <string.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "reports/diff/diff.h"
#include "symbolize/symbolize.h"

static struct symbolizer *base;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct sym_entry e[] = {
		{ .addr = 0xffffffff81000000ull, .size = 0x100, .type = 't',
		  .name = "udp_sendmsg" },
		{ .addr = 0xffffffff81000100ull, .size = 0x100, .type = 't',
		  .name = "__schedule" },
	};

	fuzz_quiet();
	return symbolizer_open_entries(&base, e, 2, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_result r;
	struct diff d;
	int fd;
	const char *path = fuzz_file(data, size, &fd);

	if (!path)
		return 0;
	if (!symbolizer_load_buckets(base, path, NULL)) {
		symbolizer_resolve(base, 0xffffffff81000010ull, &r);
		symbolizer_resolve(base, 0xffffffff81000110ull, &r);
	}
	memset(&d, 0, sizeof(d));
	diff_load_aliases(&d, path);
	diff_free(&d);
	close(fd);
	return 0;
}
