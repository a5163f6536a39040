# SPDX-License-Identifier: GPL-2.0-only
# The flame graph says what the tables say (issue 49): its legend's
# first bucket and share are the text report's "top bucket X (N% of
# busy)", on every fixture and on a profile recorded here; irq-enable
# points are charged to their callers in the graph as in the tables
# (pvm-demo: its legend said "other 55%, irq-enable 30%" while the text
# said scheduler 48%); and a bucket has one colour in every graph,
# report or HTML, whatever its rank there. The text's top bucket is the
# heaviest whatever --sort did to the rows.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
command -v python3 >/dev/null || skip "python3 not installed"

gzip -dc "$P/pvm-demo.json.gz" >"$TMP/pvm-demo.json" || fail "cannot unpack pvm-demo"
profiles="$P/sw-clock.json $P/rep-a.json $P/flame-a.json $P/flame-b.json
	  $P/diff-a.json $P/hw-mux.json $TMP/pvm-demo.json"
# a real profile: its own buckets and irq-enable points, when this
# machine lets us record (record's tests say why it cannot)
if "$PERPKT" record -q -d 0.5 -w 0.2 -g -o "$TMP/real.json" >/dev/null 2>"$TMP/rec.err"; then
	profiles="$profiles $TMP/real.json"
else
	echo "note: no recorded profile: $(tail -1 "$TMP/rec.err")" >&2
fi

n=0
for p in $profiles; do
	n=$((n + 1))
	expect_exit 0 "$PERPKT" report -i "$p"
	cp "$TMP/out" "$TMP/$n.txt"
	# the headline's top bucket does not follow --sort's row order
	expect_exit 0 "$PERPKT" report -i "$p" --sort name
	cp "$TMP/out" "$TMP/$n.byname.txt"
	expect_exit 0 "$PERPKT" report -i "$p" --format svg
	cp "$TMP/out" "$TMP/$n.svg"
	expect_exit 0 "$PERPKT" report -i "$p" --format html
	cp "$TMP/out" "$TMP/$n.html"
	echo "$p" >"$TMP/$n.name"
done

python3 - "$TMP" "$n" <<'PY' || fail "the graphs and the tables disagree"
import html, re, sys
tmp, n = sys.argv[1], int(sys.argv[2])
bad = []
colour = {}   # bucket -> (colour, where first seen)
def legend(doc):
    # the report graph's legend: a swatch, then "bucket N%"
    return re.findall(r'<rect x="[0-9.]+" y="46" width="12" height="12" '
                      r'fill="(#[0-9a-f]{6})"/><text x="[0-9.]+" y="56">'
                      r'([^<]+) ([0-9]+)%</text>', doc)
for i in range(1, n + 1):
    name = open("%s/%d.name" % (tmp, i)).read().strip().rsplit("/", 1)[-1]
    text = open("%s/%d.txt" % (tmp, i)).read()
    m = re.search(r"top bucket (\S+) \(([0-9]+)% of busy\)", text)
    if not m:
        bad.append("%s: no top bucket in the text report" % name)
        continue
    m2 = re.search(r"top bucket \S+ \([0-9]+% of busy\)",
                   open("%s/%d.byname.txt" % (tmp, i)).read())
    if not m2 or m2.group(0) != m.group(0):
        bad.append("%s: --sort name says %s, the default %s" %
                   (name, m2 and m2.group(0), m.group(0)))
    for kind in ("svg", "html"):
        doc = open("%s/%d.%s" % (tmp, i, kind)).read()
        lg = legend(doc)
        if not lg:
            bad.append("%s %s: no legend" % (name, kind))
            continue
        if (lg[0][1], lg[0][2]) != (m.group(1), m.group(2)):
            bad.append("%s %s: legend starts %s %s%%, the text says top "
                       "bucket %s (%s%% of busy)" % (name, kind, lg[0][1],
                       lg[0][2], m.group(1), m.group(2)))
        for fill, b, _ in lg:
            seen = colour.setdefault(b, (fill, name + " " + kind))
            if seen[0] != fill:
                bad.append("bucket %s is %s in %s %s, %s in %s" %
                           (b, fill, name, kind, seen[0], seen[1]))
        # each frame in its bucket's colour (the root is neutral)
        for title, fill in re.findall(r'<title>([^<]*)</title><rect [^>]*'
                                      r'fill="(#[0-9a-f]{6})"', doc):
            fb = re.search(r", bucket ([^ ,(]+)", html.unescape(title))
            if not fb:
                continue
            seen = colour.setdefault(fb.group(1), (fill, name + " " + kind))
            if seen[0] != fill:
                bad.append("%s %s: a frame of bucket %s is %s, %s in %s" %
                           (name, kind, fb.group(1), fill, seen[0], seen[1]))
                break
# pvm-demo charges its irq-enable points: such a frame says so and is
# coloured as its caller's bucket, not irq-enable's
pvm = [i for i in range(1, n + 1)
       if open("%s/%d.name" % (tmp, i)).read().strip().endswith("pvm-demo.json")][0]
doc = html.unescape(open("%s/%d.svg" % (tmp, pvm)).read())
ch = re.findall(r"<title>(pvm_irq_enable|_raw_spin_unlock_irqrestore): [^<]*"
                r"bucket ([^ ,(]+) \(its time charged to its caller", doc)
if not ch or any(b == "irq-enable" for _, b in ch):
    bad.append("pvm-demo: no irq-enable frame charged to its caller's bucket (%s)" % ch)
print("; ".join(bad) or "ok: %d profiles, %d buckets with one colour each" % (n, len(colour)))
sys.exit(1 if bad else 0)
PY
echo ok
