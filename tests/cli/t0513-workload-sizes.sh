# SPDX-License-Identifier: GPL-2.0-only
# --size REQ,RESP (netperf's -r): requests and replies of different
# sizes. Over udp in a namespace of this test's own, whose loopback
# carries only this run, the kernel's byte counters must say REQ+RESP
# bytes per round trip, as condition workload.bytes_per_rt does; tcp
# and pipe carry the same sizes; bad sizes are refused before a run.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
command -v ip >/dev/null || skip "needs ip (iproute2)"
NS=perpkt-test-$$-sizes
trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$TMP"' EXIT
ip netns add "$NS" && ip -n "$NS" link set lo up || fail "cannot make namespace $NS"

lo_stat() { ip netns exec "$NS" cat "/sys/class/net/lo/statistics/$1"; }

# bad input: refused with the reason, before anything runs
expect_exit 64 "$PERPKT" record --size 65508 -o "$TMP/bad.json"
grep -q "invalid --size '65508': must be between 1 and 65507" "$TMP/err" || fail "65508: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --size 100,65508 -o "$TMP/bad.json"
grep -q "invalid --size reply '65508'" "$TMP/err" || fail "100,65508: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --size 0,100 -o "$TMP/bad.json"
grep -q "invalid --size request '0'" "$TMP/err" || fail "0,100: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" stat --size 100,x
grep -q "invalid --size reply 'x': expected a number" "$TMP/err" || fail "100,x: $(cat "$TMP/err")"
expect_exit 2 "$PERPKT" record --transport icmp --size 100,200 -o "$TMP/bad.json"
grep -q "needs a responder of perpkt's own: the kernel echoes" "$TMP/err" || fail "icmp: $(cat "$TMP/err")"
[ ! -e "$TMP/bad.json" ] || fail "a refused run wrote a profile"

# one size: both ways, no reply condition (profiles stay as before);
# its datagrams give the bytes lo counts per datagram beyond the
# payload (headers: 28 or 42, as the kernel counts them)
rx0=$(lo_stat rx_bytes) pk0=$(lo_stat rx_packets)
expect_exit 0 ip netns exec "$NS" "$PERPKT" record -q --size 64 -w 0.2 -n 1000 -o "$TMP/one.json"
bytes=$(( $(lo_stat rx_bytes) - rx0 )) packets=$(( $(lo_stat rx_packets) - pk0 ))
jq -e '.conditions["workload.message_size"] == "64 bytes" and
	(.conditions | has("workload.reply_size") | not)' "$TMP/one.json" >/dev/null ||
	fail "one size: $(jq -c '.conditions["workload.message_size","workload.reply_size"]' "$TMP/one.json")"
[ "$packets" -ge 2000 ] && [ $((bytes % packets)) = 0 ] ||
	fail "lo saw $packets datagrams of $bytes bytes for 1000 64-byte round trips"
header=$((bytes / packets - 64))

# udp, 100-byte requests, 2000-byte replies
rx0=$(lo_stat rx_bytes) pk0=$(lo_stat rx_packets)
expect_exit 0 ip netns exec "$NS" "$PERPKT" record -q --size 100,2000 -w 0.2 -n 3000 -o "$TMP/udp.json"
bytes=$(( $(lo_stat rx_bytes) - rx0 )) packets=$(( $(lo_stat rx_packets) - pk0 ))
jq -e '.conditions["workload.message_size"] == "100 bytes" and
	.conditions["workload.reply_size"] == "2000 bytes" and
	.conditions["workload.bytes_per_rt"] == "2100 (100 request + 2000 reply)" and
	.workload.round_trips == 3000' "$TMP/udp.json" >/dev/null ||
	fail "udp conditions: $(jq -c '[.conditions["workload.message_size","workload.reply_size","workload.bytes_per_rt"], .workload.round_trips]' "$TMP/udp.json")"
[ "$packets" -ge 6000 ] || fail "lo saw $packets datagrams for 3000 round trips"
# payload bytes per round trip from the kernel's counters (warm-up and
# window alike); a request left unanswered at the end moves it by < 1
per_rt=$(awk -v b="$bytes" -v p="$packets" -v h="$header" 'BEGIN { printf "%.1f", 2 * (b - h * p) / p }')
echo "lo: $packets datagrams, $bytes bytes, $header header bytes each: $per_rt payload bytes per round trip"
awk -v x="$per_rt" 'BEGIN { exit !(x > 2098 && x < 2102) }' ||
	fail "the kernel carried $per_rt payload bytes per round trip, not 2100"

# the streams read and write the sizes they were given
for t in tcp pipe; do
	expect_exit 0 ip netns exec "$NS" "$PERPKT" record -q --transport $t --size 3000,7 -w 0.2 -n 500 -o "$TMP/$t.json"
	jq -e '.conditions["workload.bytes_per_rt"] == "3007 (3000 request + 7 reply)" and
		.workload.round_trips == 500' "$TMP/$t.json" >/dev/null ||
		fail "$t: $(jq -c '[.conditions["workload.bytes_per_rt"], .workload.round_trips]' "$TMP/$t.json")"
done

echo ok
