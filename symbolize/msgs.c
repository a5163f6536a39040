// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library never prints: a failure's reason goes into the caller's
 * struct sym_error, and degradations (no DWARF, a build-id accepted
 * with force) into a list the caller drains with symbolizer_warning().
 */
#include "symbolize.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "symbolize-internal.h"

int sym_fail(struct sym_error *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void msgs_add(struct sym_msgs *m, const char *fmt, ...)
{
	va_list ap;
	char **v, *s;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	/* Out of memory loses a warning, never the result. */
	if (len < 0)
		return;
	v = realloc(m->v, (m->n + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return;
	}
	m->v = v;
	m->v[m->n++] = s;
}

void msgs_move(struct sym_msgs *to, struct sym_msgs *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		msgs_add(to, "%s", from->v[i]);
	msgs_free(from);
}

void msgs_free(struct sym_msgs *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = m->taken = 0;
}

const char *symbolizer_warning(struct symbolizer *s)
{
	return s && s->warnings.taken < s->warnings.n ?
	       s->warnings.v[s->warnings.taken++] : NULL;
}
