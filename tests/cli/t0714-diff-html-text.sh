# SPDX-License-Identifier: GPL-2.0-only
# The HTML diff shows what the text diff shows (issue 49): the bucket
# rows with the same figures and marks, the latency lines (change, 95%
# interval, p50/p99, what busy kernel time explains or "no latency
# change beyond the noise"), the host-speed and "marks: none" lines
# when the text has them, and the sig legend; its by-function bars
# stand on a numbered axis, each bar as long as the axis says its
# delta is (they used to scale themselves with no numbers).
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v python3 >/dev/null || skip "python3 not installed"

pairs="$P/flame-a.json:$P/flame-b.json $P/diff-a.json:$P/diff-b.json
       $P/rep-a.json:$P/rep-shift.json"
# two real profiles: windows, host speed, a noise-level change
if "$PERPKT" record -q -d 0.5 -w 0.2 -o "$TMP/r1.json" >/dev/null 2>"$TMP/rec.err" &&
   "$PERPKT" record -q -d 0.5 -w 0.2 -o "$TMP/r2.json" >/dev/null 2>>"$TMP/rec.err"; then
	pairs="$pairs $TMP/r1.json:$TMP/r2.json"
else
	echo "note: no recorded pair: $(tail -1 "$TMP/rec.err")" >&2
fi

for pair in $pairs; do
	a=${pair%%:*} b=${pair#*:}
	expect_exit 0 "$PERPKT" diff "$a" "$b"
	cp "$TMP/out" "$TMP/diff.txt"
	expect_exit 0 "$PERPKT" diff "$a" "$b" --format html
	cp "$TMP/out" "$TMP/diff.html"
	python3 - "$TMP/diff.txt" "$TMP/diff.html" <<'PY' || fail "HTML diff of $pair"
import html, re, sys
text = open(sys.argv[1]).read()
page = open(sys.argv[2]).read()
bad = []
lines = text.split("\n")

def pre(cls):
    m = re.search(r"<pre class=%s>(.*?)</pre>" % cls, page, re.S)
    return html.unescape(m.group(1)).rstrip("\n").split("\n") if m else None

def block(start):
    # the text's lines from the first starting with `start` to a blank
    # line or one not indented (a block's continuation is)
    for i, l in enumerate(lines):
        if l.startswith(start):
            out = [l]
            for k in lines[i + 1:]:
                if not k.startswith("  ") or not k.strip():
                    break
                out.append(k)
            return out
    return None

# the prose: latency, marks: none, host speed
lat = []
for i, l in enumerate(lines):
    if l.startswith("latency "):
        lat = lines[i:lines.index("", i)]
        break
for what, want in (("latency", lat), ("marks", block("marks: none:")),
                   ("host", block("host speed "))):
    got = pre(what)
    if want and got != want:
        bad.append("%s lines: text %r, HTML %r" % (what, want, got))
    if not want and got:
        bad.append("%s lines in the HTML only: %r" % (what, got))
if not lat:
    bad.append("the text has no latency lines to compare")

# the bucket rows: A, B, delta, rel, sig, name with its presence note
rows = []
i = next(k for k, l in enumerate(lines) if l.rstrip().endswith(" bucket"))
for l in lines[i + 1:]:
    m = re.match(r"\s+([0-9.]+)\s+([0-9.]+)\s+([-+][0-9.]+)\s+(\S+)\s+(\*{0,2})\s+(.+)$", l)
    if not m:
        break
    rows.append(m.groups())
m = re.search(r'<table class="by-bucket">(.*?)</table>', page, re.S)
hrows = []
for tr in re.findall(r"<tr>(.*?)</tr>", m.group(1) if m else "", re.S)[1:]:
    c = [html.unescape(x) for x in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
    hrows.append((c[1], c[2], c[3], c[4], c[5], c[0]))
if not rows or hrows != rows:
    bad.append("bucket rows: text %s, HTML %s" % (rows, hrows))

# the sig legend: the text's, the HTML's its first sentence
sig = " ".join(" ".join(block("sig: ") or []).split())
m = re.search(r"<p>sig: (.*?)</p>", page, re.S)
hsig = "sig: " + " ".join(html.unescape(m.group(1)).split()) if m else ""
if not hsig or not sig.startswith(hsig):
    bad.append("sig legend: text %r, HTML %r" % (sig, hsig))

# the bars on a numbered axis
m = re.search(r'<svg id="delta-1".*?</svg>', page, re.S)
svg = m.group(0) if m else ""
ticks = {float(v): float(x) for v, x in
         re.findall(r'class=tick data-v="([-0-9.e+]+)" x1="([0-9.]+)"', svg)}
labels = re.findall(r'<text x="[0-9.]+" y="[0-9]+" text-anchor="middle">([-+0-9.e]+)</text>', svg)
bars = [(float(x), float(w), float(dl)) for x, w, dl in re.findall(
    r'<rect class=bar x="([0-9.]+)" y="[0-9]+" width="([0-9.]+)"[^>]*><title>([-+0-9.]+) ', svg)]
if len(ticks) < 3 or 0.0 not in ticks or len(labels) != len(ticks):
    bad.append("no numbered axis: ticks %s, labels %s" % (ticks, labels))
elif not bars:
    bad.append("no bars")
else:
    far = max(ticks, key=abs)
    scale = (ticks[far] - ticks[0.0]) / far
    if max(abs(dl) for _, _, dl in bars) > abs(far) + 1e-9:
        bad.append("a bar runs past the axis (%s)" % far)
    for x, w, dl in bars:
        if abs(w - abs(dl) * scale) > 0.5 + 0.01 * w:
            bad.append("bar of %+.1f is %.1f px, the axis says %.1f" %
                       (dl, w, abs(dl) * scale))
            break
print("; ".join(bad) or "ok: %d latency lines, %d bucket rows, %d ticks, %d bars" %
      (len(lat), len(rows), len(ticks), len(bars)))
sys.exit(1 if bad else 0)
PY
done
echo ok
