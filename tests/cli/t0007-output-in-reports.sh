# SPDX-License-Identifier: GPL-2.0-only
# Only reports/ writes standard output (render_stdout, help_show): no
# printf, puts or putchar elsewhere, and no stdout handed to a write.
# main() alone may flush and check it at the end. And reports/ only
# renders: reading, anonymizing and symbolizing profiles is src/'s, and
# a renderer reads its model, never the profile the model was built from.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
cd "$SRCDIR" || fail "no source tree at '$SRCDIR'"
files=$(find src symbolize -name '*.[ch]' | sort)
[ -n "$files" ] || fail "no sources found under src/ and symbolize/"
grep -nE '(^|[^a-z_])(printf|puts|putchar|vprintf)[[:space:]]*\(' $files >"$TMP/calls"
grep -nE '[(,][[:space:]]*stdout[[:space:]]*[,)]' $files |
	grep -vE '^src/main\.c:[0-9]+:.*(fflush|ferror)\(stdout\)' >"$TMP/stdout"
if [ -s "$TMP/calls" ] || [ -s "$TMP/stdout" ]; then
	cat "$TMP/calls" "$TMP/stdout" >&2
	fail "output outside reports/: render it through reports/render/render.h"
fi
# and the check can fail: a printf in a copy of a command is caught
mkdir -p "$TMP/src" && sed 's/^}$/\tprintf("x");\n}/' src/commands/table.c >"$TMP/src/c.c"
grep -qE '(^|[^a-z_])printf[[:space:]]*\(' "$TMP/src/c.c" || fail "the check misses printf"
# the other side of the line: reports/ renders models, it reads no
# profile file, opens no symbolizer and rewrites no profile
grep -nE '(profile_read|symsource_open|anonymize_profile)[[:space:]]*\(|#include "([a-z]+/)?(anonymize|symsource)\.h"' \
	reports/*/*.[ch] >"$TMP/collect" && { cat "$TMP/collect" >&2; fail "collecting inside reports/: do it in src/ and hand reports/ the model"; }

# Renderers (reports/<model>-<format>.c) and the wording they share
# (summary, glance, sides) and their writers (html-common, json-common)
# read their model only: the facts they show are the model's (struct
# run_facts, reports/model/facts.h). The builders (model*.c, facts.c, diff.c,
# stat*.c without a format, table.c) may read the profile.
helpers="reports/model/summary.c reports/model/glance.c reports/model/sides.c
	reports/render/html-common.c reports/render/json-common.c
	reports/flame/flame-svg.c reports/flame/flame-script.c"
for h in $helpers; do
	[ -f "$h" ] || fail "renderer helper '$h' is gone: name its successor here"
done
renderers=$(ls reports/*/*-text.c reports/*/*-json.c reports/*/*-html.c \
	reports/*/*-markdown.c reports/*/*-csv.c reports/*/*-folded.c \
	reports/*/*-svg.c 2>/dev/null | grep -v '/render/')
[ "$(echo $renderers | wc -w)" -ge 20 ] ||
	fail "renderers not found under reports/: $renderers"
renderers="$renderers $helpers"
reads_profile() {
	grep -nE -- '->profile\b|struct profile|(^|[^A-Za-z0-9_])profile_[a-z_]+[[:space:]]*\(' "$@"
}
reads_profile $renderers >"$TMP/profile" && { cat "$TMP/profile" >&2;
	fail "a renderer reads the profile: give its model the fact (reports/model/facts.h)"; }
# and the check can fail: a unit read back from the profile, and a
# profile pointer declared, are each caught in a copy of a renderer
r=reports/report/report-text.c
sed 's/m->run\.unit\.name/profile_unit_name(m->profile)/' $r >"$TMP/r1.c"
sed 's/const struct run_facts \*run = &m->run;/const struct profile *p;/' $r >"$TMP/r2.c"
! cmp -s $r "$TMP/r1.c" && reads_profile "$TMP/r1.c" >/dev/null ||
	fail "the check misses a renderer calling profile_unit_name(m->profile)"
! cmp -s $r "$TMP/r2.c" && reads_profile "$TMP/r2.c" >/dev/null ||
	fail "the check misses a renderer declaring a struct profile"
echo "ok: $(echo $files | wc -w) files write no standard output; reports/ collects nothing; $(echo $renderers | wc -w) renderers read only their model"
