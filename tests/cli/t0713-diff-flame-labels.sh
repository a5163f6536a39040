# SPDX-License-Identifier: GPL-2.0-only
# A differential flame graph's labels (issue 49): a frame whose
# function the text diff marks carries its delta in its label, even
# when name and figure do not both fit (the name is cut, not the
# figure: the reddest frame used to show its name alone); a frame whose
# own time did not change beyond the noise prints no delta.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v python3 >/dev/null || skip "python3 not installed"
A=$P/flame-a.json
# B's planted u32_classify under a name too long for its frame
LONG=u32_classify_with_a_name_much_too_long_for_its_frame_in_the_graph
sed "s/\"u32_classify\"/\"$LONG\"/" "$P/flame-b.json" >"$TMP/b.json"
grep -q "$LONG" "$TMP/b.json" || fail "the fixture has no u32_classify to rename"

for b in "$P/flame-b.json" "$TMP/b.json"; do
	expect_exit 0 "$PERPKT" diff "$A" "$b"
	cp "$TMP/out" "$TMP/diff.txt"
	expect_exit 0 "$PERPKT" diff "$A" "$b" --format svg
	cp "$TMP/out" "$TMP/diff.svg"
	python3 - "$TMP/diff.txt" "$TMP/diff.svg" "$LONG" <<'PY' || fail "labels of $b"
import html, re, sys
text, svg, long = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
marked = set()
for line in text.split("\n"):
    m = re.match(r"\s+[0-9.]+\s+[0-9.]+\s+[-+][0-9.]+\s+\S+\s+(\*\*?)\s+(\S+)", line)
    if m:
        marked.add(m.group(2))
bad = []
frames = re.findall(r'<g class="f" data-n="([^"]*)" data-f="([^"]*)"[^>]*>'
                    r'<title>[^<]*</title><rect [^>]*width="([0-9.]+)"[^>]*/>'
                    r'<text [^>]*>([^<]*)</text>', svg)
if not frames:
    bad.append("no frames")
own = 0
def is_marked(name):
    # the table cuts a long name to "start~"
    return name in marked or any(m.endswith("~") and name.startswith(m[:-1])
                                 for m in marked)
for name, fig, width, label in frames:
    name, fig, label = html.unescape(name), html.unescape(fig), html.unescape(label)
    if fig.startswith("calls ") or name == "all":
        continue
    own += 1
    room = int((float(width) - 6) / 6.5)
    if is_marked(name) and room >= len(fig) and fig not in label:
        bad.append("%s is marked in the table, its label %r lacks %r" % (name, label, fig))
    if not is_marked(name) and "(" in label:
        bad.append("%s is unchanged in the table, its label %r has a figure" % (name, label))
if long in svg and not any(n == long and "+9000 ns **" in l for n, _, _, l in frames):
    bad.append("the long-named planted frame's label lacks +9000 ns **: %s" %
               [l for n, _, _, l in frames if n == long])
print("; ".join(bad) or "ok: %d frames with own time, %d marked rows" % (own, len(marked)))
sys.exit(1 if bad else 0)
PY
done
echo ok
