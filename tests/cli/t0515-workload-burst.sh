# SPDX-License-Identifier: GPL-2.0-only
# --burst N: N requests in flight (netperf's first burst). On the same
# CPUs, burst 4 must answer more requests per second than burst 1 (a
# ping-pong leaves both ends waiting for each other); -n counts answers
# exactly; what cannot pipeline, or what a burst cannot carry, is
# refused before a run.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

expect_exit 2 "$PERPKT" record --burst 4 --transport pipe -o "$TMP/bad.json"
grep -q "needs a transport that pipelines requests (udp or tcp), not 'pipe'" "$TMP/err" ||
	fail "pipe: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --burst 33 -o "$TMP/bad.json"
grep -q "invalid --burst '33': must be between 1 and 32" "$TMP/err" || fail "33: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --burst 0 -o "$TMP/bad.json"
expect_exit 2 "$PERPKT" record --burst 2 --size 4 -o "$TMP/bad.json"
grep -q "at least 8 bytes" "$TMP/err" || fail "size 4: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record --burst 2 --gap 1ms -o "$TMP/bad.json"
grep -q "exclude each other" "$TMP/err" || fail "gap: $(cat "$TMP/err")"
[ ! -e "$TMP/bad.json" ] || fail "a refused run wrote a profile"

# rates on the same CPUs, alternating so the machine's other load
# falls on both alike
rate() { jq '.workload.round_trips / .workload.window_ns * 1e9' "$1"; }
for i in 1 2; do
	for b in 1 4; do
		expect_exit 0 "$PERPKT" record -q --burst $b --client-cpu 1 --server-cpu 0 \
			-w 0.2 -d 0.5 -o "$TMP/b$b-$i.json"
	done
done
r1=$(( $(rate "$TMP/b1-1.json" | cut -d. -f1) + $(rate "$TMP/b1-2.json" | cut -d. -f1) ))
r4=$(( $(rate "$TMP/b4-1.json" | cut -d. -f1) + $(rate "$TMP/b4-2.json" | cut -d. -f1) ))
echo "round trips per second over two windows: burst 1 $((r1 / 2)), burst 4 $((r4 / 2))"
[ "$r4" -gt $((r1 * 12 / 10)) ] || fail "burst 4 ($r4) is not 1.2 x burst 1 ($r1)"
jq -e '.conditions["workload.burst"] == "4 requests in flight; latency per request" and
	.conditions["replies.lost"] == "0"' "$TMP/b4-1.json" >/dev/null ||
	fail "conditions: $(jq -c '.conditions["workload.burst","replies.lost"]' "$TMP/b4-1.json")"
jq -e '.conditions | has("workload.burst") | not' "$TMP/b1-1.json" >/dev/null || fail "burst 1 has a burst condition"

# -n: exactly that many answers, over tcp too
for t in udp tcp; do
	expect_exit 0 "$PERPKT" record -q --transport $t --burst 8 -w 0.1 -n 2000 -o "$TMP/n-$t.json"
	jq -e '.workload.round_trips == 2000' "$TMP/n-$t.json" >/dev/null ||
		fail "$t -n 2000: $(jq .workload.round_trips "$TMP/n-$t.json")"
done
echo ok
