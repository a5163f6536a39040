# SPDX-License-Identifier: GPL-2.0-only
# Record 2 s of UDP ping-pong on loopback, then check the JSON report:
# enough round trips, UDP-path kernel functions present, and per-RT
# values of all functions adding up to the total.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf

expect_exit 0 "$PERPKT" record -q -d 2 -w 0.5 -o "$TMP/p.json"
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --format json
R="$TMP/out"
jq -e . "$R" >/dev/null || fail "report is not JSON"

rt=$(jq '.round_trips' "$R")
[ "$rt" -gt 1000 ] || fail "only $rt round trips in 2 s"

mode=$(jq -r '.mode' "$R")
case "$mode" in hardware|software-clock) ;; *) fail "mode is '$mode'";; esac

# a UDP-path function, folded names or their compiler-suffixed variants
jq -e '[.functions[].name] | map(select(test("^(udp_sendmsg|udp_recvmsg|__udp4_lib_rcv|udp_rcv|udp_send_skb|__udp_enqueue_schedule_skb|udp_queue_rcv_one_skb)"))) | length > 0' "$R" >/dev/null ||
	fail "no UDP-path kernel function in: $(jq -c '[.functions[:15][].name]' "$R")"
jq -e '[.buckets[].name] | index("udp") != null' "$R" >/dev/null ||
	fail "no udp bucket: $(jq -c '[.buckets[].name]' "$R")"

ev=$(jq -r '.events[0].name' "$R")
# per-RT values add up, across functions and across buckets
jq -e --arg ev "$ev" '
	def close(a; b): ((a - b) | fabs) <= (1e-6 * (b | fabs) + 1e-6);
	(.total.per_rt[$ev]) as $t
	| ([.functions[].per_rt[$ev]] | add) as $f
	| ([.buckets[].per_rt[$ev]] | add) as $b
	| $t > 0 and close($f; $t) and close($b; $t)' "$R" >/dev/null ||
	fail "per-RT values do not add up: total $(jq --arg ev "$ev" '.total.per_rt[$ev]' "$R"), functions $(jq --arg ev "$ev" '[.functions[].per_rt[$ev]] | add' "$R")"

# software-clock: per-RT values are ns of CPU time, so the busy kernel
# time per round trip cannot exceed the round trip's wall time times the
# number of CPUs sampled (a units or normalisation bug would)
if [ "$mode" = software-clock ]; then
	jq -e --arg ev "$ev" '.busy.per_rt[$ev] > 0 and
		.busy.per_rt[$ev] < (.workload.window_ns / .round_trips) * 2.2' "$R" >/dev/null ||
		fail "busy ns per round trip implausible: $(jq -c --arg ev "$ev" '[.busy.per_rt[$ev], .workload.window_ns, .round_trips]' "$R")"
fi

# the text report fits 72 columns and names the mode
expect_exit 0 "$PERPKT" report -i "$TMP/p.json"
awk 'length($0) > 72 { print "line " NR " has " length($0) " columns: " $0; bad = 1 } END { exit bad }' "$TMP/out" ||
	fail "text report wider than 72 columns"
grep -q udp "$TMP/out" || fail "text report has no udp row"
echo "ok: $rt round trips, mode $mode"
