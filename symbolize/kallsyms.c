// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms parser. The file has ~120k lines: it is read whole and
 * parsed in place (names stay in the buffer), without sscanf, so opening
 * costs about as much as the kernel takes to produce the text.
 */
#include "symbolize.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize-internal.h"

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int is_text_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* One line "addr type name[\tmodule]" at p (NUL-terminated by the caller).
 * Returns 1 for a text symbol filled into y, 0 to skip, -1 if malformed. */
static int parse_line(char *p, struct sym *y)
{
	uint64_t addr = 0;
	int digits = 0, v;
	char *name, *tab, *end;

	while ((v = hexval(*p)) >= 0) {
		addr = addr << 4 | v;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || p[0] != ' ' || !p[1] || p[2] != ' ' ||
	    !p[3])
		return -1;
	if (!is_text_type(p[1]))
		return 0;
	y->addr = addr;
	y->size = 0;
	y->type = p[1];
	y->module = NULL;
	name = p + 3;
	tab = strchr(name, '\t');
	if (tab) {
		*tab = '\0';
		if (tab[1] != '[' || !(end = strchr(tab + 2, ']')))
			return -1;
		*end = '\0';
		y->module = tab + 2;
	}
	y->name = name;
	return 1;
}

int symbolizer_open_kallsyms(struct symbolizer **out, const char *path,
			     struct sym_error *err)
{
	static const struct text_limits lim = {
		"kallsyms file", KALLSYMS_MAX_SIZE, KALLSYMS_MAX_LINE
	};
	size_t len, lines = 0, n = 0, lineno = 0, text = 0;
	struct sym *syms;
	char *buf, *p, *nl;

	*out = NULL;
	if (read_text_file(&buf, &len, path, &lim, err))
		return -1;
	for (p = buf; (p = memchr(p, '\n', buf + len - p)); p++)
		lines++;
	syms = malloc((lines + 1) * sizeof(*syms));
	if (!syms) {
		free(buf);
		return sym_fail(err, "out of memory for %zu symbols of '%s'", lines,
			     path);
	}
	for (p = buf; p < buf + len; p = nl + 1) {
		int r;

		lineno++;
		nl = memchr(p, '\n', buf + len - p);
		if (!nl)
			nl = buf + len;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		if (!*p)
			continue;
		r = parse_line(p, &syms[n]);
		if (r < 0) {
			sym_fail(err, "malformed kallsyms line at '%s:%zu': want 'address type name [module]'",
			      path, lineno);
			goto fail;
		}
		if (!r)
			continue;
		text++;
		/* Undefined weak symbols sit at 0; so does everything
		 * when kptr_restrict hides addresses (checked below). */
		if (!syms[n].addr)
			continue;
		n++;
	}
	if (!n) {
		if (text)
			sym_fail(err, "kernel addresses hidden in '%s': set kernel.kptr_restrict=0 or run as root",
			      path);
		else
			sym_fail(err, "no text symbols in '%s'", path);
		goto fail;
	}
	return symbolizer_build(out, syms, n, buf, path, 0, err);
fail:
	free(syms);
	free(buf);
	return -1;
}
