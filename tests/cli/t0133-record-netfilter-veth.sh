#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Netfilter is counted where the workload's packets went: with --net
# veth, nft rules loaded into the responder's namespace (while the
# record warms up) show in net.netfilter's responder part, not in the
# client's nor the host's, and diff names netfilter as differing
# against a run without them.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for --net veth"
for c in ip jq; do
	command -v $c >/dev/null || skip "needs $c"
done
[ -x /usr/sbin/nft ] || skip "needs nft (/usr/sbin/nft: apt-get install nftables)"
cond() { jq -r --arg k "$2" '.conditions[$k]' "$TMP/$1.json"; }

expect_exit 0 "$PERPKT" record -q -n 2000 -w 0.1 --net veth -o "$TMP/a.json"
cond a net.netfilter | grep -qE '^client: .*nft rules: 0.* \| responder: .*nft rules: 0' ||
	fail "no rules: net.netfilter '$(cond a net.netfilter)'"

# five rules that never match, in the responder's namespace, loaded
# once the record says it warms up (-v); the condition is read at the end
cat >"$TMP/rules.nft" <<'RULES'
table inet t0133 {
	chain in {
		type filter hook input priority 0; policy accept;
		ip saddr 10.255.255.1 drop
		ip saddr 10.255.255.2 drop
		ip saddr 10.255.255.3 drop
		ip saddr 10.255.255.4 drop
		ip saddr 10.255.255.5 drop
	}
}
RULES
: >"$TMP/err"
"$PERPKT" record -v -n 2000 -w 2 --net veth -o "$TMP/b.json" 2>"$TMP/err" &
PID=$!
wait_line "$TMP/err" 'warm-up:' $PID
ip netns exec perpkt-$PID-r /usr/sbin/nft -f "$TMP/rules.nft" 2>"$TMP/nft" || {
	wait $PID
	skip "cannot load nft rules in the responder's namespace: $(tail -1 "$TMP/nft")"
}
wait $PID || fail "record with rules exited $?: $(tail -3 "$TMP/err")"
V=$(cond b net.netfilter)
echo "$V" | grep -qE '^client: .*nft rules: 0[;, ].* \| responder: .*nft rules: 5.*inet t0133' ||
	fail "rules in the responder's namespace: net.netfilter '$V'"

expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
# its value wraps: the netfilter "differs:" entry, lines joined (other
# entries, such as how the two were recorded, may come before it)
awk '/^(differs: |[A-Z]: )/ { on = /^differs: netfilter: / } on { printf "%s ", $0 }' "$TMP/out" |
	grep -qE '^differs: netfilter: .*-> .*responder: .*nft rules: 5; nft: table inet t0133' ||
	fail "diff does not name netfilter: $(head -8 "$TMP/out")"
exit 0
