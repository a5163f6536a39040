# SPDX-License-Identifier: GPL-2.0-only
# A window cut short is marked in the profile (complete: false, with the
# share reached), shown by report, and left out of table's and diff's
# means unless --include-partial; SIGINT after the last window (during
# the write) leaves a complete profile complete, exit 0.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

# SIGINT in the second of three 6 s windows: -v says when it opens, and
# 2 s on is a third of it, with seconds of margin either side (0.05, 0.95)
spawn "$TMP/err" "$PERPKT" record -v -r 3 -d 6 -w 0.1 -o "$TMP/cut.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: window 2 of 3 open' $pid
sleep 2
kill -INT $pid
code=0
wait $pid || code=$?
[ "$code" = 1 ] || fail "exit $code after SIGINT, expected 1: $(cat "$TMP/err")"
jq -e '.workload.repeats | length == 2 and .[0].complete and .[0].fraction == 1
	and (.[1].complete | not) and .[1].fraction > 0.05 and .[1].fraction < 0.95' \
	"$TMP/cut.json" >/dev/null ||
	fail "repeats: $(jq -c '[.workload.repeats[] | {complete, fraction, window_ns}]' "$TMP/cut.json")"
expect_exit 0 "$PERPKT" report -i "$TMP/cut.json"
grep -q "^PARTIAL: 1 of 2 windows cut short" "$TMP/out" || fail "report does not say partial: $(head -12 "$TMP/out")"

# table: the cut window is left out of the mean, and it says so
expect_exit 0 "$PERPKT" table --format json "$TMP/cut.json"
jq -e '.rows[0].per_repeat[1] == null and .rows[0].mean == .rows[0].per_repeat[0]' "$TMP/out" >/dev/null ||
	fail "table used the cut window: $(jq -c '.rows[0]' "$TMP/out")"
grep -q "1 of 2 windows cut short.*left out" "$TMP/err" || fail "table did not say: $(cat "$TMP/err")"
expect_exit 0 "$PERPKT" table --format json --include-partial "$TMP/cut.json"
jq -e '.rows[0].per_repeat[1] != null' "$TMP/out" >/dev/null ||
	fail "--include-partial left it out: $(jq -c '.rows[0]' "$TMP/out")"
expect_exit 0 "$PERPKT" diff "$TMP/cut.json" "$TMP/cut.json"
grep -q "left out of means" "$TMP/err" || fail "diff did not say: $(cat "$TMP/err")"

# SIGINT once the windows are over (the workload is gone, the write is
# under way): the profile is complete and so is the exit code
# (the workload's processes run from before the window opens until it
# is over)
spawn "$TMP/err" "$PERPKT" record -v -r 1 -d 0.5 -w 0.1 -g -o "$TMP/late.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: window 1 of 1 open' $pid
while [ -n "$(pgrep -P $pid)" ]; do
	sleep 0.005
done
kill -INT $pid 2>/dev/null
code=0
wait $pid || code=$?
[ "$code" = 0 ] || fail "SIGINT during the write gave exit $code: $(cat "$TMP/err")"
grep -q "cut short" "$TMP/err" && fail "a complete window was called cut short"
jq -e '[.workload.repeats[].complete] == [true]' "$TMP/late.json" >/dev/null ||
	fail "late SIGINT: $(jq -c '.workload.repeats' "$TMP/late.json")"
echo ok
