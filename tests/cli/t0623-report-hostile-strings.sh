# SPDX-License-Identifier: GPL-2.0-only
# Every string a profile holds, on its local and its remote side, made
# hostile at once: tags and attribute breakers that set a mark on the
# document when they run, a newline that would forge a folded line,
# control characters, U+202E and U+2066 (bidirectional overrides),
# U+FFFE, U+FFFF and U+FDD0 (noncharacters XML refuses). Each format of
# report (both sides) and diff must keep them inert: HTML and SVG run
# nothing in Chromium, SVG is XML, folded has no forged line, JSON
# parses, and nothing reaches the terminal as a control or an override.
# Fields of a known vocabulary (the unit) refuse the profile by name.
# Long by nature (every format of report and diff in headless
# Chromium, 27 s quiet, 187-212 s beside the suite): label slow, out of
# make check (t0606 and t0616 keep hostile strings and escapes there),
# run by CI's check part (.ci/run: CHECK_SLOW=1).
# ctest-label: slow
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v jq >/dev/null || skip "jq not installed"
command -v xmllint >/dev/null || skip "xmllint not installed"

# hostile.py IN OUT: every string of IN (but a few of a fixed syntax,
# read as addresses or vocabulary, checked below) with the payload
# appended, and IN as its remote side too, as serve would send it
cat >"$TMP/hostile.py" <<'EOF'
import copy, json, sys
# a vocabulary or a syntax of its own: refused when hostile (below)
FIXED = {"format", "role", "mode", "kind", "time", "ratio"}
mark = "document.documentElement.setAttribute('data-'+'pwned',"
evil = ("\"'><script>" + mark + "'1')</script>"
        "<img src=x onerror=\"" + mark + "'2')\">"
        "\" onload=\"" + mark + "'3')\" x='"
        "\n;fake;stack 999999999\n\x01\x1b[2J\x7f\u202e\u2066\ufffe\uffff\ufdd0|x|")
def walk(v, key=None):
    if isinstance(v, dict):
        return {k: walk(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, key) for x in v]
    if isinstance(v, str) and key not in FIXED and not v.startswith("0x"):
        walk.n += 1
        return v + evil
    return v
walk.n = 0
p = json.load(open(sys.argv[1]))
remote = copy.deepcopy(p)
remote.pop("remote", None)
p["remote"] = remote
p = walk(p)
json.dump(p, open(sys.argv[2], "w"))
print(walk.n)
EOF
# By construction: the HTML and SVG writers (every file that includes
# reports/render/markup.h) print only through markup_printf and markup_escape,
# or literals; anything else says why on its line or the one above.
# raw_writes ROOT: the lines that break the rule
raw_writes() {
	for f in $(grep -l '#include "reports/render/markup.h"' "$1"/reports/*/*.c); do
		case $f in */markup.c) continue;; esac
		awk -v f="${f#$1/}" '
			/(^|[^a-z_])(fprintf|vfprintf|printf|putc|fwrite|fputs|fputc)\(/ &&
			!/fputs\("|fputc\(\047/ &&
			!/fputs\([^;]*\? "[^"]*" : "[^"]*", [a-z]+\)/ &&
			!/\/\* markup: / && prev !~ /\/\* markup: / { print f ":" NR ": " $0 }
			{ prev = $0 }' "$f"
	done
}
raw_writes "$SRCDIR" >"$TMP/raw"
[ ! -s "$TMP/raw" ] || fail "markup written raw, not through reports/render/markup.h: $(cat "$TMP/raw")"
# the check can fail: a name printed with fprintf
mkdir -p "$TMP/copy"
cp -r "$SRCDIR"/reports "$TMP/copy/"
echo 'static void bad(FILE *out, const char *name) { fprintf(out, "<b>%s</b>", name); }' \
	>>"$TMP/copy/reports/flame/flame-svg.c"
raw_writes "$TMP/copy" | grep -q 'flame-svg.c:.*fprintf' ||
	fail "the check misses an fprintf in a markup writer"

# the fixtures with a --per unit, so that field is there to be hostile;
# B is the one reported, A and B are compared
for f in a b; do
	jq '.workload.unit = {spec: "rt", name: "round trip",
		source: "the built-in workload'"'"'s client"}' "$P/flame-$f.json" >"$TMP/base-$f.json" ||
		fail "cannot add a unit to the fixture"
	n=$(python3 "$TMP/hostile.py" "$TMP/base-$f.json" "$TMP/evil-$f.json") ||
		fail "cannot make the hostile profile"
done
cp "$TMP/evil-b.json" "$TMP/evil.json"
cp "$TMP/base-b.json" "$TMP/base.json"
[ "$n" -gt 50 ] || fail "only $n strings made hostile"

# the unit is of a known vocabulary: refused by name, read with --force
expect_exit 2 "$PERPKT" report -i "$TMP/evil.json" --format html
grep -q "\(workload.unit.name\|counters.events\[0\].unit\) .* is not a unit this perpkt knows" "$TMP/err" ||
	fail "a hostile unit is not refused by name: $(cat "$TMP/err")"
! grep -q "<script" "$TMP/out" || fail "a refused profile still made a page"

# no_controls WHAT FILE: no control character but tab and newline, no
# override, no noncharacter in FILE
no_controls() {
	python3 - "$2" <<'EOF' || fail "$1: $(cat "$2.why")"
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
bad = [c for c in t if (ord(c) < 32 and c not in "\t\n") or 0x7f <= ord(c) <= 0x9f
       or 0x202a <= ord(c) <= 0x202e or 0x2066 <= ord(c) <= 0x2069
       or ord(c) in (0xfffe, 0xffff) or 0xfdd0 <= ord(c) <= 0xfdef]
open(sys.argv[1] + ".why", "w").write("%d bad characters: %r" % (len(bad), bad[:8]))
sys.exit(1 if bad else 0)
EOF
}

# render ARGS...: one output into $TMP/out, checked for what every
# format shares; the hostile text must be there, escaped, not dropped
render() {
	expect_exit 0 "$PERPKT" "$@"
	no_controls "$*" "$TMP/out"
	grep -q "pwned" "$TMP/out" || fail "$*: the hostile text is not shown at all"
}

pages=
for side in local remote; do
	for fmt in text markdown json csv folded html svg; do
		render report -i "$TMP/evil.json" --force --side $side --full \
			--format $fmt
		cp "$TMP/out" "$TMP/report-$side.$fmt"
	done
	pages="$pages report-$side.html report-$side.svg"
done
for fmt in text markdown json csv folded html svg; do
	render diff --force --format $fmt "$TMP/evil-a.json" "$TMP/evil-b.json"
	cp "$TMP/out" "$TMP/diff.$fmt"
done
pages="$pages diff.html diff.svg"
# callers of a hostile name, named on the command line as it reads
leaf=$(head -1 "$TMP/report-local.folded" | sed 's/ [0-9]*$//; s/.*;//')
render report -i "$TMP/evil.json" --force --format html --callers "$leaf"
cp "$TMP/out" "$TMP/callers.html"
pages="$pages callers.html"

# JSON parses; the strings are in it, whole
for f in report-local report-remote diff; do
	jq -e . "$TMP/$f.json" >/dev/null || fail "$f --format json is no JSON"
done
jq -e '[.. | strings | select(test("pwned"))] | length > 5' "$TMP/report-local.json" >/dev/null ||
	fail "report --format json lost the hostile strings"

# CSV: every row as many fields as the header (a raw '"' or ',' of the
# profile's would add some)
for f in report-local report-remote diff; do
	python3 - "$TMP/$f.csv" <<'EOF' || fail "$f --format csv: rows of other widths"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
widths = {len(r) for r in rows if r}
print(sys.argv[1], len(rows), "rows of", widths, file=sys.stderr)
sys.exit(0 if len(rows) > 1 and len(widths) == 1 else 1)
EOF
done

# folded: every line "frames weight(s)", none forged from a name
for f in report-local report-remote; do
	bad=$(grep -cvE '^[^ ].* [0-9]+$' "$TMP/$f.folded")
	[ "$bad" -eq 0 ] || fail "$f folded: $bad lines not 'frames weight': $(grep -vE '^[^ ].* [0-9]+$' "$TMP/$f.folded" | head -2)"
done
bad=$(grep -cvE '^[^ ].* [0-9]+ [0-9]+$' "$TMP/diff.folded")
[ "$bad" -eq 0 ] || fail "diff folded: $bad lines not 'frames weightA weightB'"
! grep -h 'fake;stack' "$TMP"/*.folded || fail "a name forged frames in folded output"
[ "$(grep -c pwned "$TMP/report-local.folded")" -gt 0 ] ||
	fail "folded output has no hostile frame at all"

# SVG is XML (U+FFFE or a raw '<' would make it none)
for f in report-local.svg report-remote.svg diff.svg; do
	xmllint --noout "$TMP/$f" 2>"$TMP/xml.err" ||
		fail "$f is no XML: $(head -3 "$TMP/xml.err")"
done

# the markup: no tag and no attribute of the profile's own
for f in $pages; do
	! grep -qE "<script>document|<img[ >]" "$TMP/$f" ||
		fail "$f: a tag of the profile's: $(grep -oE '.{20}(<script>document|<img[ >]).{20}' "$TMP/$f" | head -2)"
	! grep -qE "[^=]\" onload=" "$TMP/$f" || fail "$f: an attribute of the profile's"
done

# pwned FILE: whether FILE, opened in Chromium, ran any of the payload
pwned() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$TMP/chromium" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" >"$TMP/dom" 2>"$TMP/chromium.log" ||
		{ tail -5 "$TMP/chromium.log" >&2; fail "chromium failed on $1"; }
	[ -s "$TMP/dom" ] || fail "chromium gave no document for $1"
	grep -q 'data-pwned=' "$TMP/dom"
}
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
	need_chromium
	for f in $pages; do
		! pwned "$TMP/$f" || fail "$f: the profile's script ran in Chromium"
		# an SVG Chromium cannot parse shows nothing, and runs nothing
		case $f in *.svg)
			! grep -qi 'parsererror\|This page contains the following errors' "$TMP/dom" ||
				fail "$f: Chromium cannot parse it: $(grep -o 'error on line[^<]*' "$TMP/dom" | head -1)";;
		esac
	done
	# the check can fail: the same page with the tag let through runs it
	sed 's/&lt;script&gt;\(document[^&]*\)&lt;\/script&gt;/<script>\1<\/script>/' \
		"$TMP/report-local.html" | sed "s/&#39;/'/g" >"$TMP/raw.html"
	pwned "$TMP/raw.html" || fail "the check misses a script that runs"
else
	echo "chromium not installed: pages checked without running them"
fi

# the vocabulary fields: each refused when it is not one of its words
cat >"$TMP/one.py" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
path = sys.argv[2].split(".")
o = p
for k in path[:-1]:
    o = o[int(k)] if k.isdigit() else o[k]
o[path[-1]] = o[path[-1]] + "<b>\u202e"
json.dump(p, open(sys.argv[3], "w"))
EOF
for field in format counters.mode samples.0.role stacks.0.role \
	counters.events.0.unit counters.events.0.name workload.unit.name; do
	python3 "$TMP/one.py" "$TMP/base.json" $field "$TMP/one.json" ||
		fail "no field $field in the fixture"
	expect_exit 2 "$PERPKT" report -i "$TMP/one.json"
	[ -s "$TMP/err" ] || fail "$field: refused without a word"
done
echo "ok: $n strings, $(echo $pages | wc -w) pages"
