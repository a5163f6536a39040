# SPDX-License-Identifier: GPL-2.0-only
# perpkt sweep on loopback: a tiny matrix, interrupted with SIGINT after
# the first cell, then resumed: the finished cell is kept, the rest is
# recorded, and no interrupted cell ever looks complete.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
D=$TMP/sweep

expect_exit 64 "$PERPKT" sweep --size 40
expect_exit 64 "$PERPKT" sweep -o "$D" --cpu-pairs 1
# a bad value is found before anything runs: usage, not a failed cell
expect_exit 64 "$PERPKT" sweep -o "$D" --placements nowhere -d 0.1
[ ! -e "$D" ] || fail "a refused sweep made its directory"

"$PERPKT" sweep -o "$D" -d 0.3 --size 40,200,300 --repeat 2 >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
end=$((SECONDS + 240))	# a hang, not a busy machine, takes this long
while [ ! -e "$D/size40.json" ] && alive $pid && [ $SECONDS -lt $end ]; do
	sleep 0.05
done
[ -e "$D/size40.json" ] || { kill -9 $pid; fail "first cell never finished"; }
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 1 ] || { cat "$TMP/err1" >&2; fail "interrupted sweep exited $rc, expected 1"; }
grep -q "sweep interrupted" "$TMP/err1" || fail "interruption not said"
# each profile records --repeat windows of -d seconds: said so
grep -q "recording 2 windows of 0.3 s (0.6 s of windows" "$TMP/err1" ||
	fail "what a profile records not said: $(grep recording "$TMP/err1" | head -2)"
[ ! -e "$D/size300.json" ] || fail "last cell complete after an interrupt"
ls "$D" | grep -q partial && fail "a .partial profile was left: $(ls "$D")"
before=$(stat -c %Y "$D/size40.json")

expect_exit 0 "$PERPKT" sweep -o "$D" -d 0.3 --size 40,200,300 --repeat 2
grep -q "sweep 1/3 size40: kept" "$TMP/err" || fail "finished cell not kept: $(cat "$TMP/err")"
grep -q "sweep 3/3 size300: recording" "$TMP/err" || fail "rest not recorded"
[ "$(stat -c %Y "$D/size40.json")" = "$before" ] || fail "kept cell rewritten"
for c in size40 size200 size300; do
	grep -q "^$c " "$TMP/out" || fail "no row $c: $(cat "$TMP/out")"
done
# two windows per cell: two Test columns, an average and an sd
head -2 "$TMP/out" | tail -1 | grep -q "Test 1 *Test 2 *Average *sd" || fail "table head: $(cat "$TMP/out")"
echo ok
