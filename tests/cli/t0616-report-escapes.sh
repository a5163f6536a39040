# SPDX-License-Identifier: GPL-2.0-only
# One escaping rule for what a profile supplies, in every format: a
# kernel release, a command line, a CPU model and a function name full
# of terminal escapes, HTML and table pipes reach neither the terminal
# (report, diff, table; text, markdown, csv) as control characters,
# nor markdown as a tag or a cell of their own, nor CSV as a formula.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles

python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
evil = "\x1b]0;owned\x07\x1b[2J\x9b31m\x7f<script>alert(1)</script>|x|"
p["system"]["kernel_release"] = "=HYPERLINK(\"x\")" + evil
p["system"]["cpu_model"] = "cpu " + evil
p["command"] = "perpkt record " + evil
p["kallsyms"][0]["name"] = "fn" + evil
json.dump(p, open(sys.argv[2], "w"))' "$P/sw-clock.json" "$TMP/evil.json"
cp "$P/sw-clock.json" "$TMP/plain.json"

# check WHAT: no control character but tab and newline (C0, DEL, C1 as
# UTF-8) in $TMP/out
check() {
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/out" ||
		LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$TMP/out"; then
		fail "$1: control characters reach the terminal: $(LC_ALL=C grep -a owned "$TMP/out" | head -2 | od -c | head -4)"
	fi
	grep -q owned "$TMP/out" || fail "$1: the hostile text is not shown at all"
}

for fmt in text markdown csv; do
	expect_exit 0 "$PERPKT" report -i "$TMP/evil.json" --full --format $fmt
	check "report --format $fmt"
	[ $fmt = markdown ] && cp "$TMP/out" "$TMP/report.md"
	expect_exit 0 "$PERPKT" diff --format $fmt "$TMP/plain.json" "$TMP/evil.json"
	check "diff --format $fmt"
	[ $fmt = markdown ] && cp "$TMP/out" "$TMP/diff.md"
	[ $fmt = csv ] && cp "$TMP/out" "$TMP/diff.csv"
	expect_exit 0 "$PERPKT" table --format $fmt "$TMP/plain.json" "$TMP/evil.json"
	check "table --format $fmt"
	[ $fmt = markdown ] && cp "$TMP/out" "$TMP/table.md"
	[ $fmt = csv ] && cp "$TMP/out" "$TMP/table.csv"
done
expect_exit 0 "$PERPKT" report -i "$TMP/evil.json" --full --format html
check "report --format html"
# the flame graph names functions in attributes, titles and labels
expect_exit 0 "$PERPKT" report -i "$TMP/evil.json" --format svg
check "report --format svg"
! grep -q '<script>alert' "$TMP/out" || fail "report --format svg: a tag from the profile"
if command -v xmllint >/dev/null; then
	xmllint --noout "$TMP/out" || fail "report --format svg of hostile names is no XML"
fi
# an error message naming what others supplied goes through the rule too
expect_exit 2 "$PERPKT" report -i "$TMP/$(printf 'owned\033]0;x\007\033[2J')"
cp "$TMP/err" "$TMP/out"
check "an error naming a file"

# markdown: no tag, no pipe of the profile's own (a row keeps its cells)
for md in report diff table; do
	! grep -qE '(^|[^\\])<script' "$TMP/$md.md" ||
		fail "$md markdown: a tag from the profile: $(grep -E '(^|[^\\])<script' "$TMP/$md.md" | head -2)"
	grep -q '&lt;script\|\\<script' "$TMP/$md.md" || fail "$md markdown: the tag is not shown escaped"
	! grep -qE '[^\\]\|x[^\\]\|' "$TMP/$md.md" || fail "$md markdown: a pipe of the profile's splits a cell"
done
# table markdown: 3 + tests cells in every row
awk -F'[^\\\\]\\|' '/^\| / && NF != n { if (n) bad = 1; n = NF } END { exit bad }' "$TMP/table.md" ||
	fail "table markdown rows differ in cells: $(cat "$TMP/table.md")"
# CSV: a formula stays text (quoted, and a "'" first); fields stay fields
! grep -qE '(^|,)"?=' "$TMP/table.csv" "$TMP/diff.csv" ||
	fail "a formula in CSV: $(grep -hE '(^|,)"?=' "$TMP/table.csv" "$TMP/diff.csv" | head -2)"
grep -q "^\"'=HYPERLINK(\"\"x\"\")" "$TMP/table.csv" ||
	fail "table csv: the release not quoted as text: $(sed -n 3p "$TMP/table.csv")"
echo ok
