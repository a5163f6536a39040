# SPDX-License-Identifier: GPL-2.0-only
# --flows N: N ping-pong pairs at once on loopback, in a network
# namespace of this test's own so /proc/net/snmp counts only them. The
# round trips of all flows add up to the kernel's count: udp's
# InDatagrams over the window, read while every flow is stopped at its
# edge, is exactly two per round trip; each flow is named with its round
# trips and the spread of their p50s; tcp and pipe flows run too;
# stat takes --flows.
# Under load a reply can be given up on (about 1 s late) and the
# request re-sent: the namespace then reads datagrams that are no round
# trip's (the given-up request, a late or duplicate reply). The count is
# exact when the profile says none were (replies.lost, replies.late,
# replies.duplicate all 0), and between twice the round trips and that
# plus one datagram for each of those when some were (at load 13 beside
# the suite it once counted 11663 for 5831 round trips; 25 of 25 runs
# beside six CPU hogs were exact, 2026-12-05). So it runs beside the
# other tests, in a namespace of its own.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
NS=
trap '[ -z "$NS" ] || ip netns del $NS 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace f

# the number at the start of a condition's value
cond_num() { jq -r --arg k "$2" '.conditions[$k] // "" | split(" ")[0]' "$1"; }
# "a,b,c" after "round trips by flow " in the spread condition
by_flow() { jq -r '.conditions["workload.flows_spread"] // ""' "$1" | sed -n 's/.*round trips by flow //p'; }
# datagrams FILE WHAT: the namespace's Udp InDatagrams over the window
# are twice the round trips, exactly unless replies were lost, late or
# duplicated (then at most one more datagram for each)
datagrams() {
	local d rts extra
	d=$(cond_num "$1" workload.udp_datagrams_in)
	rts=$(jq .workload.round_trips "$1")
	extra=$(jq '[.conditions["replies.lost", "replies.late", "replies.duplicate"] // "0" |
		tonumber] | add' "$1")
	[ -n "$d" ] && [ "$d" -ge $((2 * rts)) ] && [ "$d" -le $((2 * rts + extra)) ] ||
		fail "$2: $d datagrams in for $rts round trips ($extra replies lost, late or duplicate)"
	[ "$extra" = 0 ] || echo "note: $2: $extra replies lost, late or duplicate: $d datagrams for $rts round trips" >&2
}

for n in 2 4; do
	expect_exit 0 in_ns "$PERPKT" record -q --flows $n --client-cpu 0-1 --server-cpu 1,0 \
		-w 0.2 -d 0.5 -o "$TMP/u$n.json"
	f="$TMP/u$n.json"
	rts=$(jq .workload.round_trips "$f")
	echo "udp --flows $n: $rts round trips, $(cond_num "$f" workload.udp_datagrams_in) datagrams in ($(by_flow "$f"))"
	[ "$rts" -gt 1000 ] || fail "--flows $n: only $rts round trips"
	datagrams "$f" "--flows $n"
	flows=$(by_flow "$f")
	[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = $n ] ||
		fail "--flows $n: round trips by flow '$flows'"
	[ "$(echo "$flows" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = "$rts" ] ||
		fail "--flows $n: the flows' round trips '$flows' do not add up to $rts"
	jq -r '.conditions["workload.flows_spread"]' "$f" |
		grep -qE '^p50 slowest [0-9.]+ us flow [0-9] \(port [0-9]+, client CPU [01], responder CPU [01]\), fastest [0-9.]+ us flow [0-9] ' ||
		fail "spread: $(jq -r '.conditions["workload.flows_spread"]' "$f")"
	jq -r '.conditions["workload.flows_spread"]' "$f" |
		awk '{ exit !($3 >= $11) }' || fail "slowest below fastest"
	# round robin: flow i's client on CPU i % 2, its responder on the other
	want=$(seq 0 $((n - 1)) | awk '{ printf "%s%d/%d", (NR > 1 ? "," : " "), $1 % 2, 1 - $1 % 2 }')
	[ -n "$want" ] || fail "no CPUs to expect"
	jq -r '.conditions["workload.flows"]' "$f" | grep -qF "CPUs$want" ||
		fail "flows' CPUs: $(jq -r '.conditions["workload.flows"]' "$f"), want$want"
	# the report's flows line, in its short form too
	expect_exit 0 "$PERPKT" report -i "$f"
	grep -q "^flows: $n ping-pong pairs" "$TMP/out" || fail "no flows line: $(head -12 "$TMP/out")"
	# and every flow's CPUs on its CPUs line, in the profile, in JSON
	clients=$(seq 0 $((n - 1)) | awk '{ printf "%s%d", (NR > 1 ? "," : ""), $1 % 2 }')
	servers=$(seq 0 $((n - 1)) | awk '{ printf "%s%d", (NR > 1 ? "," : ""), 1 - $1 % 2 }')
	grep -q "^CPUs: $n flows: client $clients responder $servers; sampled" "$TMP/out" ||
		fail "CPUs line: $(grep -A1 '^CPUs' "$TMP/out"), want client $clients responder $servers"
	pairs=$(jq -c '.workload.flow_cpus' "$f")
	[ "$pairs" = "$(seq 0 $((n - 1)) | jq -sc 'map([. % 2, 1 - . % 2])')" ] ||
		fail "workload.flow_cpus: $pairs"
	expect_exit 0 "$PERPKT" report -i "$f" --format json
	[ "$(jq -c .workload.flow_cpus "$TMP/out")" = "$pairs" ] ||
		fail "report JSON flow_cpus: $(jq -c .workload.flow_cpus "$TMP/out")"
done
# samples of every flow's processes keep their roles
jq -e '[.samples[] | .role] | (index("client") != null) and (index("responder") != null)' \
	"$TMP/u4.json" >/dev/null || fail "no client or responder samples with 4 flows"
# two windows: the gate opens and closes twice, the counts still add up
expect_exit 0 in_ns "$PERPKT" record -q -r 2 --flows 2 --client-cpu 0-1 -w 0.1 -d 0.2 -o "$TMP/r2.json"
rts=$(jq .workload.round_trips "$TMP/r2.json") flows=$(by_flow "$TMP/r2.json")
datagrams "$TMP/r2.json" "-r 2"
[ "$(echo "$flows" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = "$rts" ] ||
	fail "-r 2: the flows' round trips '$flows' do not add up to $rts"
# --placement with flows: each flow's responder in that relation to its
# client, the clients going down the online CPUs (same: 1/1,0/0 here)
online=$(cat /sys/devices/system/cpu/online)
if [ "$online" = "0-$(( $(nproc) - 1 ))" ]; then
	last=$(( $(nproc) - 1 ))
	expect_exit 0 in_ns "$PERPKT" record -q --flows 2 --placement same -w 0.1 -d 0.2 -o "$TMP/pl.json"
	jq -r '.conditions["workload.flows"]' "$TMP/pl.json" |
		grep -qF "CPUs $last/$last,$((last - 1))/$((last - 1))" ||
		fail "--placement same: $(jq -r '.conditions["workload.flows"]' "$TMP/pl.json")"
fi
# one flow: no flows conditions, the datagram count still exact
expect_exit 0 in_ns "$PERPKT" record -q -w 0.2 -d 0.3 -o "$TMP/u1.json"
jq -e '.conditions | has("workload.flows") or has("workload.flows_spread") | not' \
	"$TMP/u1.json" >/dev/null || fail "one flow has flows conditions"
jq -e '.workload | has("flow_cpus") | not' "$TMP/u1.json" >/dev/null || fail "one flow has flow_cpus"
datagrams "$TMP/u1.json" "one flow"

for t in tcp pipe; do
	expect_exit 0 in_ns "$PERPKT" record -q --transport $t --flows 3 --client-cpu 0-1 \
		-w 0.2 -d 0.3 -o "$TMP/$t.json"
	flows=$(by_flow "$TMP/$t.json")
	rts=$(jq .workload.round_trips "$TMP/$t.json")
	echo "$t --flows 3: $rts round trips ($flows)"
	[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = 3 ] ||
		fail "$t: round trips by flow '$flows'"
	[ "$(echo "$flows" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = "$rts" ] ||
		fail "$t: the flows' round trips '$flows' do not add up to $rts"
done
# tcp: three distinct responder ports
jq -r '.conditions["workload.flows_spread"]' "$TMP/tcp.json" | grep -q 'port [0-9]' ||
	fail "tcp flows without ports"

expect_exit 0 in_ns "$PERPKT" stat --flows 2 --client-cpu 0-1 -w 0.2 -d 0.3
grep -q "^flows: 2 ping-pong pairs" "$TMP/out" && grep -q "^  spread: p50 slowest" "$TMP/out" ||
	fail "stat --flows 2 does not say so: $(head -20 "$TMP/out")"
grep -q "^CPUs: 2 flows: client 0,1 responder 0,1; counted on" "$TMP/out" ||
	fail "stat's CPUs line: $(grep '^CPUs' "$TMP/out")"
echo ok
