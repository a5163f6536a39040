// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kallsyms parser. The file has ~120k lines: it is read whole and
 * parsed in place (names stay in the buffer), without sscanf, so opening
 * costs about as much as the kernel takes to produce the text.
 */
#include "symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "symbolize-internal.h"

int read_whole_file(char **out, size_t *len, const char *path)
{
	size_t cap = 1 << 20, used = 0;
	char *buf, *p;
	ssize_t r;
	int fd;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return error("out of memory reading '%s'", path);
	}
	for (;;) {
		if (cap - used < 65536) {
			p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				close(fd);
				return error("out of memory reading '%s'", path);
			}
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + used, cap - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			error("cannot read '%s': %s", path, strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (!r)
			break;
		used += r;
	}
	close(fd);
	buf[used] = '\0';
	*out = buf;
	if (len)
		*len = used;
	return 0;
}

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

int symbolizer_open_kallsyms(struct symbolizer **out, const char *path)
{
	size_t len, lines = 0, n = 0, lineno = 0, text = 0;
	struct sym *syms;
	char *buf, *p, *nl;

	*out = NULL;
	if (read_whole_file(&buf, &len, path))
		return -1;
	for (p = buf; (p = memchr(p, '\n', buf + len - p)); p++)
		lines++;
	syms = malloc((lines + 1) * sizeof(*syms));
	if (!syms) {
		free(buf);
		return error("out of memory for %zu symbols of '%s'", lines,
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
			error("malformed kallsyms line at '%s:%zu': want 'address type name [module]'",
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
			error("kernel addresses hidden in '%s': set kernel.kptr_restrict=0 or run as root",
			      path);
		else
			error("no text symbols in '%s'", path);
		goto fail;
	}
	return symbolizer_build(out, syms, n, buf, path, 0);
fail:
	free(syms);
	free(buf);
	return -1;
}
