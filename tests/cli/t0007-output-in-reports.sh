# SPDX-License-Identifier: GPL-2.0-only
# Only reports/ writes standard output (render_stdout, help_show): no
# printf, puts or putchar elsewhere, and no stdout handed to a write.
# main() alone may flush and check it at the end. And reports/ only
# renders: reading, anonymizing and symbolizing profiles is src/'s.
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || fail "no source tree at '$SRCDIR'"
files=$(find src symbolize -name '*.[ch]' | sort)
[ -n "$files" ] || fail "no sources found under src/ and symbolize/"
grep -nE '(^|[^a-z_])(printf|puts|putchar|vprintf)[[:space:]]*\(' $files >"$TMP/calls"
grep -nE '[(,][[:space:]]*stdout[[:space:]]*[,)]' $files |
	grep -vE '^src/main\.c:[0-9]+:.*(fflush|ferror)\(stdout\)' >"$TMP/stdout"
if [ -s "$TMP/calls" ] || [ -s "$TMP/stdout" ]; then
	cat "$TMP/calls" "$TMP/stdout" >&2
	fail "output outside reports/: render it through reports/render.h"
fi
# and the check can fail: a printf in a copy of a command is caught
mkdir -p "$TMP/src" && sed 's/^}$/\tprintf("x");\n}/' src/commands/table.c >"$TMP/src/c.c"
grep -qE '(^|[^a-z_])printf[[:space:]]*\(' "$TMP/src/c.c" || fail "the check misses printf"
# the other side of the line: reports/ renders models, it reads no
# profile file, opens no symbolizer and rewrites no profile
grep -nE '(profile_read|symsource_open|anonymize_profile)[[:space:]]*\(|#include "([a-z]+/)?(anonymize|symsource)\.h"' \
	reports/*.[ch] >"$TMP/collect" && { cat "$TMP/collect" >&2; fail "collecting inside reports/: do it in src/ and hand reports/ the model"; }
echo "ok: $(echo $files | wc -w) files write no standard output; reports/ collects nothing"
