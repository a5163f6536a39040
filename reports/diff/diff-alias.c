// SPDX-License-Identifier: GPL-2.0-only
/* diff --alias FILE: functions renamed between kernels, matched as one. */
#include "reports/diff/diff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "symbolize/symbolize.h"

const char *diff_alias(const struct diff *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->naliases; i++)
		if (!strcmp(d->aliases[i].from, name))
			return d->aliases[i].to;
	return name;
}

const char *diff_match_name(const struct diff *d, const char *name,
			    char *buf, size_t len)
{
	return diff_alias(d, symbol_fold(name, buf, len));
}

/* An alias file is short and hand-written: bound it, so a device or a
 * huge file is an error rather than a hang. */
#define DIFF_MAX_ALIASES 100000
#define DIFF_MAX_ALIASES_S "100000"

int diff_load_aliases(struct diff *d, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024], from[512], to[512], extra[2];
	int lineno = 0;

	if (!f)
		return error("cannot open alias file '%s': %s", path,
			     strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct diff_alias *a;
		char *hash = strchr(line, '#');
		int n;

		lineno++;
		/* /dev/zero or a binary file: NULs looked like blank lines */
		if (!*line || (!strchr(line, '\n') && !feof(f)) ||
		    lineno > DIFF_MAX_ALIASES) {
			fclose(f);
			return error("bad line %d in alias file '%s': %s", lineno, path,
				     !*line ? "a NUL byte; is it a text file?" :
				     lineno > DIFF_MAX_ALIASES ?
				     "more than " DIFF_MAX_ALIASES_S " lines" :
				     "longer than 1022 bytes");
		}
		if (hash)
			*hash = '\0';
		n = sscanf(line, "%511s %511s %1s", from, to, extra);
		if (n <= 0)
			continue;
		if (n != 2) {
			fclose(f);
			return error("bad line %d in alias file '%s': expected \"old-name new-name\"",
				     lineno, path);
		}
		a = realloc(d->aliases, (d->naliases + 1) * sizeof(*a));
		if (!a)
			goto oom;
		d->aliases = a;
		a = &d->aliases[d->naliases];
		a->from = strdup(from);
		a->to = strdup(to);
		d->naliases++;
		if (!a->from || !a->to)
			goto oom;
	}
	fclose(f);
	return 0;
oom:
	fclose(f);
	return error("out of memory reading alias file '%s'", path);
}
