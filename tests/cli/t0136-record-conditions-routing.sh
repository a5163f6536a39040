#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Policy routing is a condition (issue 49: 500 rules cost
# fib_rules_lookup microseconds per round trip and no differs: line
# named them): rules, routes per table and nexthop objects of the
# namespace the workload ran in, per address family, read by rtnetlink;
# diff names a change on its first line, and --net veth says both
# namespaces'.
. "$(dirname "$0")/lib.sh"
need_perf
for c in ip jq; do
	command -v $c >/dev/null || skip "needs $c"
done
NS=
trap '[ -z "$NS" ] || ip netns del "$NS" 2>/dev/null; rm -rf "$TMP"' EXIT
test_namespace routing

rec() {
	expect_exit 0 in_ns "$PERPKT" record -q -d 0.5 -w 0.1 -o "$TMP/$1.json"
}
cond() { jq -r '.conditions["net.routing"]' "$TMP/$1.json"; }

rec a
cond a | grep -qx "ipv4 rules=3, ipv4 nexthops=[0-9]*, ipv6 rules=2, ipv6 nexthops=[0-9]*" ||
	fail "fresh namespace: net.routing '$(cond a)'"

# 50 rules before the local table's, a table of its own with 2 routes,
# (on a veth pair of its own), a nexthop object (Linux 5.3; left out
# where ip cannot make one)
for i in $(seq 1 50); do
	ip -n "$NS" rule add pref $((1000 + i)) from 10.$i.0.0/16 lookup 100 ||
		fail "cannot add rule $i"
done
ip -n "$NS" link add rt0 type veth peer name rt1 && ip -n "$NS" link set rt0 up &&
	ip -n "$NS" link set rt1 up && ip -n "$NS" addr add 192.0.2.2/24 dev rt0 ||
	fail "cannot make a veth pair in $NS"
ip -n "$NS" route add 192.0.2.0/24 dev rt0 table 100 &&
	ip -n "$NS" route add 198.51.100.0/24 dev rt0 table 100 ||
	fail "cannot add routes to table 100"
NH=1
ip -n "$NS" nexthop list >/dev/null 2>&1 || NH="0|unknown" # before Linux 5.3
[ "$NH" != 1 ] || ip -n "$NS" nexthop add id 7 via 192.0.2.1 dev rt0 ||
	fail "cannot add a nexthop object"
rec b
cond b | grep -qE "^ipv4 rules=53, ipv4 nexthops[= ]($NH)[^,]*, ipv4 routes 100=2, ipv6 rules=2" ||
	fail "50 rules, table 100: net.routing '$(cond b)'"

expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
sed -n 2p "$TMP/out" | grep -q "^differs: routing: ipv4 rules=3.* -> ipv4 rules=53.*ipv4 routes 100=2" ||
	fail "diff does not open with the rules: $(head -4 "$TMP/out")"

# --net veth: the workload's two namespaces, each entry named
expect_exit 0 "$PERPKT" record -q -d 0.5 -w 0.1 --net veth -o "$TMP/v.json"
cond v | grep -q "^client ipv4 rules=3, .*, responder ipv4 rules=3, .*responder ipv6 rules=2" ||
	fail "--net veth: net.routing '$(cond v)'"
exit 0
