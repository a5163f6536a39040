// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports/render/markup.c: the one escaping of HTML and SVG. A string reaches
 * markup only through markup_escape or a %s of markup_printf, and is
 * inert there: no tag, no attribute, nothing XML refuses, no override.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "escape.h"
#include "reports/render/markup.h"

/* What f wrote, as one string (static, overwritten by the next call). */
static char *written(FILE *f, char **buf)
{
	assert_int_equal(fclose(f), 0);
	return *buf;
}

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	markup_escape(f, "<img src=x onerror=\"a\">&'x\r\x01\x7f"
		      "\xe2\x80\xae" "\xef\xbf\xbe" "\xef\xbf\xbf" "\xe2\x81\xa6");
	markup_escape(f, NULL);
	assert_string_equal(written(f, &buf),
			    "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;'x???"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(buf);
}

/* Every %s is escaped, whatever its width or precision; the rest is
 * printf's. */
static void test_printf(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(markup_printf(f, "<a x=\"%s\">%-6s|%.*s|%c %d %zu %llu %.2f %5.1f%% %x</a>",
				       "\"><script>", "<b>", 2, "&&&", '<', -3,
				       (size_t)7, 1ULL << 40, 1.005, 99.44, 255u), 0);
	assert_string_equal(written(f, &buf),
			    "<a x=\"&quot;&gt;&lt;script&gt;\">&lt;b&gt;   |&amp;&amp;|&lt; -3 7 "
			    "1099511627776 1.00  99.4% ff</a>");
	free(buf);
}

/* The rule src/escape.h states: the length kept, overrides and
 * noncharacters U+FFFD, and a name's newline no line of its own. */
static void test_names(void **state)
{
	char s[] = "a\nb\tc\xe2\x80\xae" "d\xef\xbf\xbf" "e\xef\xb7\x90" "f\xe2\x80\x8e";
	size_t before = strlen(s);

	(void)state;
	escape_name(s);
	assert_int_equal(strlen(s), before);
	/* U+200E (a mark, not an override) stays */
	assert_string_equal(s, "a?b?c\xef\xbf\xbd" "d\xef\xbf\xbd" "e\xef\xbf\xbd"
			    "f\xe2\x80\x8e");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_printf),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
