// SPDX-License-Identifier: GPL-2.0-only
/* --fail-if expressions: parse arbitrary text. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-input.h"
#include "reports/diff/failif.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct failif f;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (!failif_parse(s, &f))
		failif_free(&f);
	free(s);
	return 0;
}
