# SPDX-License-Identifier: GPL-2.0-only
# The diff's differential flame graph on a planted regression
# (tests/fixtures/profiles/make-flame-fixtures.py: B adds tc_run ->
# tcf_classify -> u32_classify under __dev_queue_xmit): in headless
# Chromium the page runs with no console error and the reddest frame
# drawn is u32_classify, the new frame with the most time of its own;
# the frames outlined as new are exactly the planted ones; functions
# meet as the diff's table matches them (--alias, compiler suffixes)
# and the frames only in A are listed under the graph; a frame's mark
# is its function's in the table. --format svg is well-formed XML with
# the same reddest frame, for two profiles only.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
need_chromium
command -v xmllint >/dev/null || skip "xmllint not installed (apt-get install libxml2-utils)"
echo "ip_local_out_sk ip_local_out" >"$TMP/aliases"
A=$P/flame-a.json B=$P/flame-b.json

expect_exit 0 "$PERPKT" diff --alias "$TMP/aliases" --format html "$A" "$B"
cp "$TMP/out" "$TMP/diff.html"
flame_selftest "$TMP/diff.html" "ip_local_out;classify"
! console_errors || fail "the diff's page logs console errors"
python3 - "$TMP/selftest.json" <<'PY' || fail "HTML differential flame graph"
import json, sys
res = json.load(open(sys.argv[1]))
fl = res["flames"][0]
bad = []
if res["errors"]:
    bad.append("errors on the page: %s" % res["errors"])
if fl["reddest"]["name"] != "u32_classify":
    bad.append("reddest frame %s (%s), the planted one is u32_classify" %
               (fl["reddest"]["name"], fl["reddest"]["fill"]))
if not fl.get("zoom") or fl["zoom"]["frames"] >= fl["frames"]:
    bad.append("zoom into ip_local_out changed nothing: %s" % fl.get("zoom"))
if fl["search"]["highlighted"] != 2:
    bad.append("search 'classify': %s" % fl["search"])
print("; ".join(bad) or "ok: reddest %s %s" % (fl["reddest"]["name"], fl["reddest"]["fill"]))
sys.exit(1 if bad else 0)
PY

# frames: "name|class|label" of each <g class="f"> in $1
frames() {
	python3 - "$1" <<'PY'
import html, re, sys
for g in re.findall(r'<g class="f" (.*?)</g>', open(sys.argv[1]).read()):
    name = html.unescape(re.search(r'data-n="([^"]*)"', g).group(1))
    fig = html.unescape(re.search(r'data-f="([^"]*)"', g).group(1))
    new = ' class="new"' in g
    fill = re.search(r'fill="#([0-9a-f]{6})"', g).group(1)
    r, gr, b = (int(fill[i:i + 2], 16) for i in (0, 2, 4))
    print("%s|%s|%s|%d" % (name, "new" if new else "", fig, r - max(gr, b)))
PY
}
frames "$TMP/diff.html" >"$TMP/frames"
new=$(awk -F'|' '$2 == "new" { print $1 }' "$TMP/frames" | sort | tr '\n' ' ')
[ "$new" = "tc_run tcf_classify u32_classify " ] ||
	fail "frames outlined as new: '$new', planted: tc_run tcf_classify u32_classify"
# and the planted frames are the reddest, each redder than any other
awk -F'|' '$2 == "new" && (lo == "" || $4 < lo) { lo = $4 }
	$2 != "new" && $4 > hi { hi = $4; who = $1 }
	END { if (lo <= hi) { print "an older frame, " who ", is as red as a planted one" > "/dev/stderr"; exit 1 } }' \
	"$TMP/frames" || fail "the planted frames are not the reddest"

# matched as the table matches: one udp_recvmsg whatever its suffix, the
# alias joins ip_local_out_sk to ip_local_out, nf_hook_slow only in A
[ "$(grep -c '^udp_recvmsg|' "$TMP/frames")" = 1 ] || fail "udp_recvmsg not matched across suffixes"
! grep -q '^ip_local_out_sk|' "$TMP/frames" || fail "the alias did not join ip_local_out_sk"
grep -q 'class="gone".*ip_local_out;nf_hook_slow' "$TMP/diff.html" ||
	fail "nf_hook_slow is not listed as only in A"
# without the alias the renamed function is B's new and A's gone
expect_exit 0 "$PERPKT" diff --format html "$A" "$B"
grep -q 'class="gone".*udp_sendmsg;ip_local_out_sk' "$TMP/out" ||
	fail "without --alias, ip_local_out_sk is not listed as only in A"
# a frame's mark is its function's in the table (those of one path)
expect_exit 0 "$PERPKT" diff --alias "$TMP/aliases" --format csv "$A" "$B"
for fn in u32_classify tcf_classify udp_sendmsg; do
	mark=$(grep "^function,$fn," "$TMP/out" | awk -F, '{ print $NF }')
	fig=$(grep "^$fn|" "$TMP/frames" | cut -d'|' -f3)
	case "$fig" in
	*" $mark") [ -n "$mark" ] ;;
	*"*") false ;;
	*) [ -z "$mark" ] ;;
	esac || fail "$fn: frame says '$fig', the table marks '$mark'"
done

# --format svg: XML, the same reddest frame by its fill
expect_exit 0 "$PERPKT" diff --alias "$TMP/aliases" --format svg "$A" "$B"
cp "$TMP/out" "$TMP/diff.svg"
xmllint --noout "$TMP/diff.svg" || fail "diff --format svg is no well-formed XML"
red=$(frames "$TMP/diff.svg" | sort -t'|' -k4,4nr | head -1 | cut -d'|' -f1)
[ "$red" = u32_classify ] || fail "reddest frame in the SVG: $red"
flame_selftest "$TMP/diff.svg" "udp_sendmsg;udp"
! console_errors || fail "the SVG logs console errors"
grep -q '"reddest":{"name":"u32_classify"' "$TMP/selftest.json" ||
	fail "the SVG's script finds another reddest frame: $(cat "$TMP/selftest.json")"
expect_exit 2 "$PERPKT" diff --format svg "$A" "$B" "$B"
grep -q 'exactly two profiles' "$TMP/err" || fail "three profiles: $(cat "$TMP/err")"
echo "ok: reddest u32_classify, new frames tc_run tcf_classify u32_classify"
