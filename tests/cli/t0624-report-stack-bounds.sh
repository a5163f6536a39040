# SPDX-License-Identifier: GPL-2.0-only
# Bounded work for any profile. A stack of format 3 names its leaf node:
# 60 bytes that can stand for 512 addresses. 270,000 such stacks (a
# 16 MB file) made `report` take 1.3 GB for text and run out of memory
# for a flame graph. Now every format of report (and diff) refuses it by
# name, or reports it, in bounded time and memory: stacks expand to at
# most 2^22 addresses (on reading), their names fold to at most 256 MB
# (the callchain formats).
# ctest-timeout: 600
# Long by nature (20 reports and diffs of 16 MB profiles near the
# bounds, 32 s of CPU quiet, 118-189 s beside the suite): label slow,
# out of make check, run by CI's check part (.ci/run: CHECK_SLOW=1).
# ctest-label: slow
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (apt-get install time)"
P=$SRCDIR/tests/fixtures/profiles
RSS_MAX_KB=800000
SECONDS_MAX=60
# under ASan every allocation carries shadow memory and a quarantine:
# the bounds are the plain build's, three times over here (a diff svg
# took 900 MB under ASan, 297 MB plain); what ASan adds is the check
# that nothing is read out of bounds on the way
if [ -n "${ASAN_OPTIONS:-}" ]; then
	RSS_MAX_KB=$((RSS_MAX_KB * 3))
	SECONDS_MAX=$((SECONDS_MAX * 3))
fi

# gen.py IN OUT N NAMELEN: IN (version 2, "ips") as version 3, its
# stacks as nodes, plus a chain of 512 nodes and N stacks of no samples
# naming the deepest (N -1: as many as 2^22 addresses in all allow);
# every kallsyms name NAMELEN bytes long when NAMELEN > 0
cat >"$TMP/gen.py" <<'PY'
import gzip, json, sys
src, out, n, namelen = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
p = json.load(gzip.open(src))
p["version"] = 3
nodes, index = [], {}
def node(parent, ip):
    if (parent, ip) not in index:
        nodes.append([parent, ip])
        index[(parent, ip)] = len(nodes) - 1
    return index[(parent, ip)]
for st in p["stacks"]:
    at = -1
    for ip in reversed(st.pop("ips")):
        at = node(at, ip)
    st["node"] = at
ks = [k["addr"] for k in p["kallsyms"]]
at = -1
for d in range(512):
    nodes.append([at, ks[d % len(ks)]])
    at = len(nodes) - 1
p["stack_nodes"] = nodes
if n < 0:
    depth = []
    for par, _ in nodes:
        depth.append(1 if par < 0 else depth[par] + 1)
    n = (4194304 - sum(depth[st["node"]] for st in p["stacks"])) // 512
p["stacks"] += [{"event": 0, "role": "client", "count": 0, "weight": 0,
                 "node": at}] * n
if namelen:
    for k in p["kallsyms"]:
        k["name"] = (k["name"] + "_" * namelen)[:namelen]
json.dump(p, open(out, "w"), separators=(",", ":"))
PY
gen() { python3 "$TMP/gen.py" "$P/pvm-demo.json.gz" "$TMP/$1.json" "$2" "$3" ||
	fail "cannot make $1.json"; }
gen big 270000 0
gen cap -1 0
gen long -1 4000
size=$(stat -c %s "$TMP/big.json")
[ "$size" -gt 14000000 ] || fail "the hostile profile is only $size bytes"

# measured EXIT ARGS...: perpkt ARGS exits EXIT within SECONDS_MAX and
# RSS_MAX_KB; its figures are added to $TMP/figures
measured() {
	local want=$1 rc
	shift
	timeout $((SECONDS_MAX * 2)) /usr/bin/time -f '%e %M' -o "$TMP/time" \
		"$PERPKT" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -ne 124 ] || fail "$*: still running after $((SECONDS_MAX * 2)) s"
	[ $rc -eq "$want" ] || fail "$*: exit $rc, not $want: $(tail -2 "$TMP/err")"
	# after "Command exited with non-zero status N" when it did
	read -r secs kb < <(tail -1 "$TMP/time") || fail "$*: no figures from /usr/bin/time"
	echo "$* -> exit $rc, $secs s, $kb KB" | sed "s|$TMP/||g" >>"$TMP/figures"
	awk -v s="$secs" -v m=$SECONDS_MAX 'BEGIN { exit !(s <= m) }' ||
		fail "$*: $secs s, more than $SECONDS_MAX"
	[ "$kb" -le $RSS_MAX_KB ] || fail "$*: $kb KB of memory, more than $RSS_MAX_KB"
}

formats="text markdown json csv folded html svg"
# 16 MB naming 138 million addresses: refused on reading, by name
for fmt in $formats; do
	measured 2 report -i "$TMP/big.json" --format $fmt
	grep -q "its stacks hold more than 4194304 addresses in all" "$TMP/err" ||
		fail "big.json --format $fmt: not refused by name: $(cat "$TMP/err")"
done
measured 2 diff --format svg "$TMP/cap.json" "$TMP/big.json"

# as many as are read: every format reports them
for fmt in $formats; do
	measured 0 report -i "$TMP/cap.json" --format $fmt
	cp "$TMP/out" "$TMP/report-cap.$fmt"
done
measured 0 diff --format svg "$TMP/cap.json" "$TMP/cap.json"
command -v xmllint >/dev/null && { xmllint --noout "$TMP/report-cap.svg" ||
	fail "the flame graph of cap.json is no XML"; }
grep -q udp_sendmsg "$TMP/report-cap.svg" || fail "the flame graph lost the profile's own stacks"

# and as many with names of 4000 bytes: the formats without callchains
# report them, those with refuse them by name
for fmt in text json; do
	measured 0 report -i "$TMP/long.json" --format $fmt
done
for fmt in folded svg; do
	measured 2 report -i "$TMP/long.json" --format $fmt
	grep -q "the callchains fold to more than 256 MB of names" "$TMP/err" ||
		fail "long.json --format $fmt: not refused by name: $(cat "$TMP/err")"
done
cat "$TMP/figures"
echo ok
