# SPDX-License-Identifier: GPL-2.0-only
# --flows N over icmp: each flow a ping socket of its own (the kernel
# hands each its own echo replies), in a network namespace of this
# test's own with ping sockets allowed, so /proc/net/snmp counts only
# them: Icmp InEchoReps over the window, read while every flow is
# stopped at its edge, is one per round trip of all flows together.
# Where only a raw socket could be had (ping_group_range '1 0', as in a
# new namespace) the run is refused before anything starts.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
NS=
trap '[ -z "$NS" ] || ip netns del $NS 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace i
by_flow() { jq -r '.conditions["workload.flows_spread"] // ""' "$1" | sed -n 's/.*round trips by flow //p'; }

# a new namespace allows no ping sockets: refused, in words, no profile
[ "$(in_ns cat /proc/sys/net/ipv4/ping_group_range | tr -s '\t ' ' ')" = "1 0" ] ||
	fail "a new namespace allows ping sockets: $(in_ns cat /proc/sys/net/ipv4/ping_group_range)"
expect_exit 2 in_ns "$PERPKT" record -q --transport icmp --flows 2 -o "$TMP/bad.json"
grep -qF "flows over icmp needs ping sockets, each flow's replies its own: this user may not open one (sysctl net.ipv4.ping_group_range)" \
	"$TMP/err" || fail "no ping sockets: $(cat "$TMP/err")"
[ ! -e "$TMP/bad.json" ] || fail "a refused run wrote a profile"
expect_exit 2 "$PERPKT" record -q --transport icmp --flows 2 --net veth -o "$TMP/bad.json"
grep -qF "a new namespace has none" "$TMP/err" || fail "veth: $(cat "$TMP/err")"

in_ns sysctl -qw net.ipv4.ping_group_range="0 0" || fail "cannot allow ping sockets in $NS"
for n in 2 3; do
	f=$TMP/i$n.json
	expect_exit 0 in_ns "$PERPKT" record -q --transport icmp --flows $n --client-cpu 0-1 \
		-w 0.2 -d 0.5 -o "$f"
	rts=$(jq .workload.round_trips "$f")
	replies=$(jq -r '.conditions["workload.icmp_echo_replies_in"] // "" | split(" ")[0]' "$f")
	flows=$(by_flow "$f")
	echo "icmp --flows $n: $rts round trips, $replies echo replies in ($flows)"
	[ "$rts" -gt 1000 ] || fail "--flows $n: only $rts round trips"
	[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = $n ] ||
		fail "--flows $n: round trips by flow '$flows'"
	[ "$(echo "$flows" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = "$rts" ] ||
		fail "--flows $n: the flows' round trips '$flows' do not add up to $rts"
	[ "$replies" = "$rts" ] || fail "--flows $n: $replies echo replies in, not the $rts round trips"
	jq -e '[.workload.tasks[]? | select(.role == "responder")] | length == 0' "$f" >/dev/null ||
		fail "icmp flows have a responder task"
done
echo ok
