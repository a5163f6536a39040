#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --peer --flows N with the default placement (every flow's two
# ends on one CPU) against a serve that accepts N (issue 47, finding 9).
# The client pins a process per flow end before its warm-up, which took
# longer than serve's 10 s grace before the first start on a loaded host
# (serve dropped it: "no start after the setup within 11000 ms"). With
# flows, serve now waits as long for the client's pinning as it gives
# itself for its responders': a client that sets up 2 flows and starts
# 11 s later (warm-up 0) is answered ok, not dropped; then real runs of
# 32 and 64 flows against serve --max-flows 64, on loopback in a
# namespace of the test's own.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
command -v python3 >/dev/null || skip "needs python3"
SERVE= NS=
trap '[ -n "$SERVE" ] && kill $SERVE 2>/dev/null; [ -n "$NS" ] && ip netns del $NS 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace fs
PORT=12989 KEY=$TMP/serve.key
serve_bg "$TMP/serve.err" ip netns exec "$NS" "$PERPKT" serve -p $PORT --key "$KEY" --max-flows 64

# a client slow to start its 2 flows: 11 s after the setup, warm-up 0
in_ns env PYTHONPATH="$(dirname "$0")" python3 - "$KEY" $PORT >"$TMP/slow" 2>&1 <<'PY' ||
import sys, time
from perpkt_control import Control, load_key, setup
c = Control("127.0.0.1", int(sys.argv[2]), load_key(sys.argv[1]), timeout=60)
c.hello()
print("setup:", c.ask(setup(extra="flows=2 flow_cpus=-1,-1")), flush=True)
time.sleep(11)
print("start:", c.ask("start"))
PY
	fail "the slow client: $(cat "$TMP/slow")"
grep -q "^setup: ok port=.* flows=2 " "$TMP/slow" || fail "the setup of 2 flows: $(cat "$TMP/slow")"
grep -q "^start: ok$" "$TMP/slow" ||
	fail "a start 11 s after a setup of 2 flows: $(cat "$TMP/slow"); serve: $(tail -2 "$TMP/serve.err")"
echo "2 flows started 11 s after the setup: ok"

# real runs, both ends of every flow on one CPU (the default placement)
for n in 32 64; do
	expect_exit 0 in_ns "$PERPKT" record -q --flows $n -w 0.2 -d 0.3 \
		--peer 127.0.0.1:$PORT --peer-key "$KEY" -o "$TMP/f$n.json"
	jq -r '.conditions["workload.flows"]' "$TMP/f$n.json" | grep -q "^$n ping-pong pairs" ||
		fail "--flows $n: $(jq -r '.conditions["workload.flows"]' "$TMP/f$n.json" | cut -c1-100)"
	by=$(jq -r '.conditions["workload.flows_spread"] // ""' "$TMP/f$n.json" | sed -n 's/.*round trips by flow //p')
	[ "$(echo "$by" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = $n ] ||
		fail "--flows $n: not every flow made round trips: '$by'"
	echo "--peer --flows $n: every flow ran"
done
echo ok
