// SPDX-License-Identifier: GPL-2.0-only
#include "reports/render/markup.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"

static void escape_bytes(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		/* XML 1.0 has no CR of its own in text: it reads as a newline */
		case '\r': fputc('?', f); break;
		default: fputc(*s, f);
		}
	}
}

void markup_escape(FILE *f, const char *s)
{
	char small[256], *copy = small;
	size_t len;

	if (!s)
		return;
	len = strlen(s);
	if (len >= sizeof(small) && !(copy = malloc(len + 1))) {
		/* out of memory: nothing of s rather than s raw */
		fputc('?', f);
		return;
	}
	memcpy(copy, s, len + 1);
	escape_controls(copy, len);
	escape_bytes(f, copy);
	if (copy != small)
		free(copy);
}

/* One conversion spec, '*' replaced by its number: "%-*.*s" -> "%-12.4s". */
struct spec {
	char text[64];
	size_t len;
	char conv;
	int lng;       /* l's: 0, 1 (l), 2 (ll); 'z', 'j', 't' as themselves */
	int half;      /* h's */
};

static int spec_add(struct spec *sp, const char *s, size_t n)
{
	if (sp->len + n >= sizeof(sp->text))
		return -1;
	memcpy(sp->text + sp->len, s, n);
	sp->len += n;
	sp->text[sp->len] = '\0';
	return 0;
}

/* Reads the spec at *fmt (just past '%') into sp, taking '*' from ap;
 * *fmt moves past it. */
static int spec_read(const char **fmt, va_list *ap, struct spec *sp)
{
	const char *p = *fmt;
	char num[16];

	memset(sp, 0, sizeof(*sp));
	spec_add(sp, "%", 1);
	while (*p && strchr("-+ #0", *p))
		spec_add(sp, p++, 1);
	for (int dot = 0; dot < 2; dot++) {
		if (dot) {
			if (*p != '.')
				break;
			spec_add(sp, p++, 1);
		}
		if (*p == '*') {
			snprintf(num, sizeof(num), "%d", va_arg(*ap, int));
			if (spec_add(sp, num, strlen(num)))
				return -1;
			p++;
		}
		while (*p >= '0' && *p <= '9')
			if (spec_add(sp, p++, 1))
				return -1;
	}
	for (; *p == 'h' || *p == 'l' || *p == 'z' || *p == 'j' || *p == 't'; p++) {
		spec_add(sp, p, 1);
		if (*p == 'h')
			sp->half++;
		else if (*p == 'l')
			sp->lng++;
		else
			sp->lng = *p;
	}
	if (!*p || !strchr("diuxXocsfeEgG", *p))
		return -1;
	sp->conv = *p;
	spec_add(sp, p, 1);
	*fmt = p + 1;
	return 0;
}

static intmax_t int_arg(const struct spec *sp, va_list *ap)
{
	switch (sp->lng) {
	case 0: return va_arg(*ap, int);
	case 1: return va_arg(*ap, long);
	case 2: return va_arg(*ap, long long);
	case 'z': return va_arg(*ap, ssize_t);
	case 'j': return va_arg(*ap, intmax_t);
	default: return va_arg(*ap, ptrdiff_t);
	}
}

static uintmax_t uint_arg(const struct spec *sp, va_list *ap)
{
	switch (sp->lng) {
	case 0: return va_arg(*ap, unsigned int);
	case 1: return va_arg(*ap, unsigned long);
	case 2: return va_arg(*ap, unsigned long long);
	case 'z': return va_arg(*ap, size_t);
	case 'j': return va_arg(*ap, uintmax_t);
	default: return va_arg(*ap, ptrdiff_t);
	}
}

/* The spec with its length letters replaced by "j" (intmax_t). */
static void spec_intmax(const struct spec *sp, char *out, size_t len)
{
	size_t i, at = 0;

	for (i = 0; i + 1 < sp->len && at + 2 < len; i++)
		if (!strchr("hlzjt", sp->text[i]))
			out[at++] = sp->text[i];
	out[at++] = 'j';
	out[at++] = sp->conv;
	out[at] = '\0';
}

static int put_one(FILE *f, const struct spec *sp, va_list *ap)
{
	char fmt[72], *s = NULL;
	int n = -1;

	switch (sp->conv) {
	case 's':
		n = asprintf(&s, sp->text, va_arg(*ap, const char *));
		break;
	case 'c':
		n = asprintf(&s, sp->text, va_arg(*ap, int));
		break;
	case 'd': case 'i':
		spec_intmax(sp, fmt, sizeof(fmt));
		/* hh and h: printf converts the promoted int back itself */
		return fprintf(f, fmt, int_arg(sp, ap)) < 0 ? -1 : 0;
	case 'u': case 'x': case 'X': case 'o':
		spec_intmax(sp, fmt, sizeof(fmt));
		return fprintf(f, fmt, uint_arg(sp, ap)) < 0 ? -1 : 0;
	default:
		return fprintf(f, sp->text, va_arg(*ap, double)) < 0 ? -1 : 0;
	}
	if (n < 0)
		return -1;
	markup_escape(f, s);
	free(s);
	return 0;
}

int markup_printf(FILE *f, const char *fmt, ...)
{
	struct spec sp;
	va_list ap;
	int ret = 0;

	va_start(ap, fmt);
	while (*fmt && !ret) {
		const char *pct = strchr(fmt, '%');

		if (!pct) {
			fputs(fmt, f);
			break;
		}
		fwrite(fmt, 1, (size_t)(pct - fmt), f);
		fmt = pct + 1;
		if (*fmt == '%') {
			fputc('%', f);
			fmt++;
			continue;
		}
		if (spec_read(&fmt, &ap, &sp)) {
			ret = error("markup_printf: a conversion it does not know in '%s'",
				    pct);
			break;
		}
		if (put_one(f, &sp, &ap))
			ret = -1;
	}
	va_end(ap);
	return ret;
}
