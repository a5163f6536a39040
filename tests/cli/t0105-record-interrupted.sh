# SPDX-License-Identifier: GPL-2.0-only
# SIGINT in the middle of a record: the window closes at once, the
# counters are disabled and closed, the partial profile is written and
# readable, the exit code says "partial", and no process is left behind.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

# -v says when the 30 s window opens; a second in it makes round trips
spawn "$TMP/err" "$PERPKT" record -v -r 1 -d 30 -w 0.2 -o "$TMP/int.json"
pid=$SPAWNED
wait_line "$TMP/err" '^perpkt: window 1 of 1 open' $pid
sleep 1
kids=$(pgrep -P $pid | tr '\n' ' ')
[ -n "$kids" ] || fail "no workload processes under perpkt"
kill -INT $pid
start=$SECONDS
code=0
wait $pid || code=$?
# at once, not at the window's end: the write may take a busy machine
# some seconds, the rest of the window would be 28
[ $((SECONDS - start)) -le 15 ] || fail "took $((SECONDS - start)) s to stop after SIGINT"
[ "$code" = 1 ] || { cat "$TMP/err" >&2; fail "exit $code after SIGINT, expected 1 (partial)"; }
grep -q "interrupted" "$TMP/err" || fail "no word about the interruption: $(cat "$TMP/err")"
for k in $kids; do
	! kill -0 "$k" 2>/dev/null || fail "workload process $k survived"
done
"$PERPKT" report -i "$TMP/int.json" --format json >"$TMP/r.json" || fail "partial profile unreadable"
w=$(jq '.workload.window_s' "$TMP/r.json")
jq -e '.round_trips > 100 and .workload.window_s < 10' "$TMP/r.json" >/dev/null ||
	fail "partial profile: $(jq -c '{round_trips, w: .workload.window_s}' "$TMP/r.json")"
# perf fds are gone with the process; none of ours may linger elsewhere
! ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q "perf_event.*$pid" || fail "perf fds left open"
echo "ok: window cut at $w s"
