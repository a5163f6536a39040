# SPDX-License-Identifier: GPL-2.0-only
# Loss (and duplication) injected with tc netem inside perpkt's own
# veth namespaces, or with cls_bpf where the kernel has no netem: the profile counts lost and duplicate replies, and the run
# neither hangs nor fails.
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for network namespaces"
command -v tc >/dev/null || skip "needs tc (iproute2)"

spawn "$TMP/err" "$PERPKT" record -v -d 4 -w 0.3 --net veth -o "$TMP/loss.json"
pid=$SPAWNED
# its namespaces and first round trip are there once -v says the
# warm-up starts
wait_line "$TMP/err" '^perpkt: warm-up: ' $pid
ns=perpkt-$pid-r
[ -e /run/netns/$ns ] || { kill $pid; fail "no namespace $ns: $(ls /run/netns | tr "\n" " "); perpkt said: $(cat "$TMP/err")"; }
# netem when the kernel has it; otherwise a classic BPF filter that
# sends a random 10% of the responder's replies to lo, where they die
if tc -n "$ns" qdisc add dev veth0 root netem loss 10% duplicate 20% 2>/dev/null; then
	netem=1
elif tc -n "$ns" qdisc add dev veth0 clsact &&
	tc -n "$ns" filter add dev veth0 egress bpf bytecode \
		"4,32 0 0 4294963256,53 0 1 429496729,6 0 0 0,6 0 0 4294967295" \
		action mirred egress redirect dev lo; then
	netem=0
	echo "no sch_netem here: loss through cls_bpf + mirred, no duplication" >&2
else
	kill $pid; skip "neither netem nor cls_bpf with mirred available"
fi
rc=0; wait $pid || rc=$?
[ $rc = 0 ] || { cat "$TMP/err" >&2; fail "record under loss exited $rc"; }
lost=$(jq -r '.conditions["replies.lost"]' "$TMP/loss.json")
dup=$(jq -r '.conditions["replies.duplicate"]' "$TMP/loss.json")
[ "$lost" -gt 0 ] || fail "no lost replies counted under 10% loss"
[ $netem = 0 ] || [ "$dup" -gt 0 ] || fail "no duplicate replies counted under 20% duplication"
! ls /run/netns 2>/dev/null | grep -q "^perpkt-$pid-" || fail "namespaces left"
echo "ok: lost $lost, duplicate $dup"
