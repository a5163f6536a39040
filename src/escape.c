// SPDX-License-Identifier: GPL-2.0-only
#include "escape.h"

#include <stdlib.h>
#include <string.h>

/*
 * A byte-at-a-time UTF-8 checker, so a stream split in the middle of a
 * character is judged as a whole: up to 3 bytes wait in `held`.
 */
struct escape_state {
	unsigned char held[4];
	int nheld, need;   /* bytes held, bytes the character has in all */
};

/* The bytes a character starting with b has, 0 when b starts none. */
static int utf8_length(unsigned char b)
{
	if (b >= 0xc2 && b <= 0xdf)
		return 2;
	if (b >= 0xe0 && b <= 0xef)
		return 3;
	if (b >= 0xf0 && b <= 0xf4)
		return 4;
	return 0;
}

/* Whether b may follow what is held (no overlong form, no surrogate,
 * nothing past U+10FFFF). */
static int utf8_continues(const struct escape_state *s, unsigned char b)
{
	unsigned char lead = s->held[0];

	if (b < 0x80 || b > 0xbf)
		return 0;
	if (s->nheld > 1)
		return 1;
	return !((lead == 0xe0 && b < 0xa0) || (lead == 0xed && b > 0x9f) ||
		 (lead == 0xf0 && b < 0x90) || (lead == 0xf4 && b > 0x8f));
}

static int is_c0(unsigned char b)
{
	return (b < 0x20 && b != '\n' && b != '\t') || b == 0x7f;
}

/*
 * Three-byte characters that become U+FFFD (as many bytes): U+FFFE and
 * U+FFFF, which no XML document may hold (an SVG with one shows no
 * graph), the other noncharacters U+FDD0..U+FDEF, and the bidirectional
 * embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069),
 * which make a line read in an order other than its bytes'.
 */
static int replaced(const unsigned char *c)
{
	return (c[0] == 0xef && c[1] == 0xbf && c[2] >= 0xbe) ||
	       (c[0] == 0xef && c[1] == 0xb7 && c[2] >= 0x90 && c[2] <= 0xaf) ||
	       (c[0] == 0xe2 && c[1] == 0x80 && c[2] >= 0xaa && c[2] <= 0xae) ||
	       (c[0] == 0xe2 && c[1] == 0x81 && c[2] >= 0xa6 && c[2] <= 0xa9);
}

/* Feeds b; what may be written now goes to out, its count returned
 * (at most 4, never more bytes than were fed in all). */
static int escape_feed(struct escape_state *s, unsigned char b,
		       unsigned char *out)
{
	int n = 0, i;

	if (s->nheld) {
		if (utf8_continues(s, b)) {
			s->held[s->nheld++] = b;
			if (s->nheld < s->need)
				return 0;
			n = s->nheld;
			if (replaced(s->held)) {
				memcpy(out, "\xef\xbf\xbd", 3);
				s->nheld = 0;
				return 3;
			}
			/* C1 controls are U+0080..U+009F: 0xc2 0x80..0x9f */
			for (i = 0; i < s->nheld; i++)
				out[i] = s->held[0] == 0xc2 && s->held[1] <= 0x9f ?
					 '?' : s->held[i];
			s->nheld = 0;
			return n;
		}
		/* a character cut short: what was held is not text */
		for (i = 0; i < s->nheld; i++)
			out[n++] = '?';
		s->nheld = 0;
	}
	if (b < 0x80) {
		out[n++] = is_c0(b) ? '?' : b;
	} else if ((s->need = utf8_length(b))) {
		s->held[0] = b;
		s->nheld = 1;
	} else {
		out[n++] = '?';
	}
	return n;
}

/* What is still held at the end: a character cut short. */
static int escape_end(struct escape_state *s, unsigned char *out)
{
	int n = s->nheld;

	memset(out, '?', (size_t)n);
	s->nheld = 0;
	return n;
}

void escape_controls(char *str, size_t len)
{
	struct escape_state s = { .nheld = 0 };
	unsigned char *p = (unsigned char *)str, out[4];
	size_t in, at = 0;
	int n;

	for (in = 0; in < len; in++) {
		n = escape_feed(&s, p[in], out);
		memcpy(p + at, out, (size_t)n);
		at += (size_t)n;
	}
	n = escape_end(&s, out);
	memcpy(p + at, out, (size_t)n);
}

void escape_name(char *s)
{
	size_t len = strlen(s), i;

	escape_controls(s, len);
	for (i = 0; i < len; i++)
		if (s[i] == '\n' || s[i] == '\t')
			s[i] = '?';
}

struct escape_cookie {
	FILE *out;
	struct escape_state s;
};

static ssize_t escape_write(void *cookie, const char *buf, size_t len)
{
	struct escape_cookie *c = cookie;
	unsigned char out[4];
	size_t i;
	int n;

	for (i = 0; i < len; i++) {
		n = escape_feed(&c->s, (unsigned char)buf[i], out);
		if (n && fwrite(out, 1, (size_t)n, c->out) != (size_t)n)
			return -1;
	}
	return (ssize_t)len;
}

static int escape_close(void *cookie)
{
	struct escape_cookie *c = cookie;
	unsigned char out[4];
	int n = escape_end(&c->s, out), ret = 0;

	if (n && fwrite(out, 1, (size_t)n, c->out) != (size_t)n)
		ret = -1;
	free(c);
	return ret;
}

FILE *escape_stream(FILE *f)
{
	cookie_io_functions_t io = { .write = escape_write,
				     .close = escape_close };
	struct escape_cookie *c = calloc(1, sizeof(*c));
	FILE *s;

	if (!c)
		return NULL;
	c->out = f;
	s = fopencookie(c, "w", io);
	if (!s)
		free(c);
	return s;
}
