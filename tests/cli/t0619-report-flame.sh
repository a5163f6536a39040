# SPDX-License-Identifier: GPL-2.0-only
# The report's flame graph in a real headless Chromium: the page runs
# with no console error, the widest frame above the root is the call
# path the folded stacks say holds most time and is drawn that wide, a
# click zooms into a frame (the rest hidden) and "Reset zoom" (and
# Escape) bring everything back, a search highlights the matching
# frames and states their share, computed here from the folded output.
# --format svg is well-formed XML (xmllint) and its own script runs
# standalone; without callchains the graph is one level, bucket then
# function, and says how to get stacks.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
need_chromium
command -v xmllint >/dev/null || skip "xmllint not installed (apt-get install libxml2-utils)"

expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format folded
cp "$TMP/out" "$TMP/folded"
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format html
cp "$TMP/out" "$TMP/report.html"

# check JSON FOLDED ZOOM TERM: the self-test's findings against the
# folded stacks
check() {
	python3 - "$@" <<'PY'
import json, re, sys
res = json.load(open(sys.argv[1]))
stacks = [(l.rsplit(" ", 1)[0].split(";"), int(l.rsplit(" ", 1)[1]))
          for l in open(sys.argv[2]) if l.strip()]
zoom, term = sys.argv[3], sys.argv[4]
bad = []
if res["errors"]:
    bad.append("errors on the page: %s" % res["errors"])
fl = res["flames"][0]
total = sum(w for _, w in stacks)
top = {}
for fr, w in stacks:
    top[fr[0]] = top.get(fr[0], 0) + w
want = max(top, key=top.get)
if fl["widest"]["name"] != want:
    bad.append("widest frame %s, the stacks say %s" % (fl["widest"]["name"], want))
ratio = fl["widest"]["px"] / fl["root_px"]
if abs(ratio - top[want] / total) > 0.01:
    bad.append("%s drawn %.3f of the root, holds %.3f" % (want, ratio, top[want] / total))
z = fl.get("zoom")
if not z:
    bad.append("no frame %s to zoom into" % zoom)
else:
    if z["px"] / fl["root_px"] < 0.99:
        bad.append("zoomed %s is %.0f px of %.0f" % (zoom, z["px"], fl["root_px"]))
    # what a zoom shows: the widest frame of that name, what it calls,
    # and its callers (across, dimmed); root included
    pw = {}
    for fr, w in stacks:
        for i in range(len(fr)):
            if fr[i] == zoom:
                pw[tuple(fr[:i + 1])] = pw.get(tuple(fr[:i + 1]), 0) + w
    p = max(pw, key=pw.get)
    under = {tuple(fr[:i + 1]) for fr, _ in stacks for i in range(len(p), len(fr))
             if tuple(fr[:len(p)]) == p}
    shown = 1 + len(p) + len(under)
    if z["frames"] != shown or z["widest_shown"] != (want in p) or not z["reset_shown"]:
        bad.append("zoom into %s shows %d frames (widest shown: %s), expected %d (%s)" %
                   (zoom, z["frames"], z["widest_shown"], shown, want in p))
    r = fl["after_reset"]
    if r["frames"] != fl["frames"] or abs(r["widest_px"] - fl["widest"]["px"]) > 0.5:
        bad.append("reset did not bring the graph back: %s" % r)
    if fl["after_escape"]["frames"] != fl["frames"]:
        bad.append("Escape did not bring the graph back: %s" % fl["after_escape"])
# a search covers the stacks with a matching frame, each once
hit = sum(w for fr, w in stacks if any(re.search(term, f) for f in fr))
paths = {tuple(fr[:i + 1]) for fr, _ in stacks for i in range(len(fr))
         if re.search(term, fr[i])}
s = fl["search"]
want_text = "Matched: %.1f%% (%d frames)" % (100 * hit / total, len(paths))
if s["text"] != want_text or s["highlighted"] != len(paths):
    bad.append("search %r: page says %r, %d highlighted; stacks say %r" %
               (term, s["text"], s["highlighted"], want_text))
print("; ".join(bad) or "ok: widest %s %.3f, zoom %s, %s" % (want, ratio, zoom, s["text"]))
sys.exit(1 if bad else 0)
PY
}

flame_selftest "$TMP/report.html" "__do_softirq;udp"
! console_errors || fail "the report's page logs console errors"
check "$TMP/selftest.json" "$TMP/folded" __do_softirq udp || fail "HTML flame graph"

# the checks can fail: a page whose script throws is caught, by the
# console and by the self-test
sed 's|</body>|<script>no_such_function();</script></body>|' "$TMP/report.html" >"$TMP/broken.html"
flame_selftest "$TMP/broken.html" "__do_softirq;udp"
console_errors >/dev/null || fail "a throwing script logged no console error"
check "$TMP/selftest.json" "$TMP/folded" __do_softirq udp >/dev/null &&
	fail "the check passes a page whose script throws"

# --format svg: XML, and its own script zooms and searches
expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format svg
cp "$TMP/out" "$TMP/flame.svg"
xmllint --noout "$TMP/flame.svg" || fail "report --format svg is no well-formed XML"
head -c 200 "$TMP/flame.svg" | grep -q '<svg id="flame" class="flame" version="1.1"' ||
	fail "the SVG is not a standalone svg document"
flame_selftest "$TMP/flame.svg" "__x64_sys_sendto;recv"
! console_errors || fail "the SVG logs console errors"
check "$TMP/selftest.json" "$TMP/folded" __x64_sys_sendto recv || fail "SVG flame graph"

# no callchains: bucket, then function, as the folded output has them
expect_exit 0 "$PERPKT" report -i "$P/hw-mux.json" --format folded
cp "$TMP/out" "$TMP/folded"
expect_exit 0 "$PERPKT" report -i "$P/hw-mux.json" --format svg
xmllint --noout "$TMP/out" || fail "one-level SVG is no well-formed XML"
grep -q 'No call paths in this profile.*Record .*-g' "$TMP/out" ||
	fail "the one-level graph does not say how to get stacks"
frames() { grep -o "data-n=\"[^\"]*\" data-f=\"[^\"]*\" data-x=\"[^\"]*\" data-w=\"[^\"]*\" data-d=\"$1\"" "$TMP/out" |
	sed 's/data-n="\([^"]*\)".*/\1/' | sort; }
want=$(grep -v '^default_idle\|^idle;' "$TMP/folded" | cut -d';' -f1 | sort -u)
[ -n "$want" ] && [ "$(frames 1)" = "$want" ] ||
	fail "one level: buckets $(frames 1 | tr '\n' ' '), folded says $(echo $want)"
[ -z "$(frames 3)" ] || fail "one level graph has a third level"
echo "ok: HTML and SVG flame graphs"
