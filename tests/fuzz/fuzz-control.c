// SPDX-License-Identifier: GPL-2.0-only
/* serve's control protocol: lines read off a pipe as serve reads them,
 * each parsed as a setup request and searched for the answer's keys. */
#include <string.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "workload/control.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[CONTROL_LINE_MAX + 1], err[160];
	struct control_setup setup;
	int64_t v;
	int p[2];

	/* a pipe holds 64 KiB: more would block the write below */
	if (size > 60000 || pipe(p))
		return 0;
	if (size && write(p[1], data, size) != (ssize_t)size) {
		close(p[0]);
		close(p[1]);
		return 0;
	}
	close(p[1]);
	while (!control_read_line(p[0], line, sizeof(line), 1000, err, sizeof(err))) {
		control_parse_setup(line, &setup, err, sizeof(err));
		control_get(line, "port", &v);
		control_get(line, "cpu_ns", &v);
	}
	close(p[0]);
	return 0;
}
