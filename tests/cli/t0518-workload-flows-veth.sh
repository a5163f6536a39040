# SPDX-License-Identifier: GPL-2.0-only
# --flows over --net veth: each flow's responder on its own port in the
# responder's namespace; the udp replies the client namespace read over
# the window are exactly one per round trip (the requests are read in
# the other namespace); tcp flows too; nothing is left behind.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v ip >/dev/null || skip "needs ip (iproute2)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"

by_flow() { jq -r '.conditions["workload.flows_spread"] // ""' "$1" | sed -n 's/.*round trips by flow //p'; }
expect_exit 0 "$PERPKT" record -q --net veth --flows 3 --client-cpu 0-1 --server-cpu 1,0 \
	-w 0.2 -d 0.5 -o "$TMP/u.json"
rts=$(jq .workload.round_trips "$TMP/u.json")
in=$(jq -r '.conditions["workload.udp_datagrams_in"] | split(" ")[0]' "$TMP/u.json")
echo "udp veth --flows 3: $rts round trips, $in datagrams in the client namespace ($(by_flow "$TMP/u.json"))"
# (that they ran: 410 in one window of an ASan build beside
# check-lab's guests, 2026-12-05; the count below is the check)
[ "$rts" -gt 100 ] || fail "only $rts round trips"
# exactly one a round trip, unless a reply was given up on and the
# request re-sent (then one more datagram at most for each: t0516)
extra=$(jq '[.conditions["replies.lost", "replies.late", "replies.duplicate"] // "0" | tonumber] | add' "$TMP/u.json")
[ "$in" -ge "$rts" ] && [ "$in" -le $((rts + extra)) ] ||
	fail "$in replies read in the client namespace for $rts round trips ($extra lost, late or duplicate)"
jq -r '.conditions["net.path"]' "$TMP/u.json" | grep -q "^veth pair" || fail "not over veth"
ports=$(jq -r '.conditions["workload.flows_spread"]' "$TMP/u.json" | grep -o 'port [0-9]*' | sort -u | wc -l)
[ "$ports" -ge 1 ] || fail "no flow named by port"

expect_exit 0 "$PERPKT" record -q --net veth --transport tcp --flows 2 --client-cpu 0-1 \
	-w 0.2 -d 0.3 -o "$TMP/t.json"
flows=$(by_flow "$TMP/t.json")
[ "$(echo "$flows" | tr ',' '\n' | grep -c '^[1-9][0-9]*$')" = 2 ] || fail "tcp veth: by flow '$flows'"
[ "$(echo "$flows" | tr ',' '\n' | awk '{ s += $1 } END { print s }')" = \
  "$(jq .workload.round_trips "$TMP/t.json")" ] || fail "tcp veth: '$flows' do not add up"
# the namespaces of these runs are gone (their pids are)
! ls /run/netns 2>/dev/null | grep -E "^perpkt-[0-9]+-[rc]$" | while read -r n; do
	p=${n#perpkt-}; p=${p%-*}; alive "$p" || echo "$n"; done | grep -q . ||
	fail "namespaces left behind"
echo ok
