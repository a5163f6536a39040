// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compiler suffixes on local symbols (foo.isra.0, foo.constprop.0.cold,
 * foo.llvm.1234) differ between builds of one kernel source: fold them
 * so names, bucket rules and diffs match across kernels.
 */
#include "symbolize.h"

#include <string.h>

static const char *const fold_words[] = {
	"isra", "constprop", "part", "cold", "llvm", "lto_priv", "localalias",
};

static int is_fold_word(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(fold_words) / sizeof(fold_words[0]); i++)
		if (strlen(fold_words[i]) == len && !memcmp(fold_words[i], s, len))
			return 1;
	return 0;
}

static int is_number(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/*
 * Walk the dot-separated tail backwards while its parts are fold words or
 * numbers; cut before the leftmost fold word reached. A bare number
 * ("foo.5") is not folded: nothing says it is a compiler suffix.
 */
char *symbol_fold(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), cut = n, end = n;

	if (!len)
		return buf;
	while (end > 0) {
		const char *dot = memrchr(name, '.', end);
		size_t start, plen;

		if (!dot || dot == name)
			break;
		start = dot - name + 1;
		plen = end - start;
		if (is_fold_word(name + start, plen))
			cut = start - 1;
		else if (!is_number(name + start, plen))
			break;
		end = start - 1;
	}
	if (cut >= len)
		cut = len - 1;
	memmove(buf, name, cut);
	buf[cut] = '\0';
	return buf;
}
