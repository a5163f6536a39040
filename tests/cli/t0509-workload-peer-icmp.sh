# SPDX-License-Identifier: GPL-2.0-only
# Two-host mode over icmp: perpkt serve in a namespace of this test's
# own sets up no responder (its kernel answers the echo requests) and
# records its side over the client's windows, divided by the echo
# replies its kernel sent in them (Icmp OutEchoReps). Checked against
# the namespace's own /proc/net/snmp over the whole run, and, as both
# namespaces share this kernel and both sides sample every CPU, the
# remote side's time per round trip against the local side's.
# Its namespaces and addresses are its own, and it changes no host
# setting: it runs beside the other tests.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
# addresses that exist only inside these two namespaces
peer_namespaces 10.248.0.9 10.248.0.10 30

# Icmp VALUE in namespace NS: a column of /proc/net/snmp
icmp_count() {
	ip netns exec "$1" awk -v k="$2" '/^Icmp:/ { if (!n) { for (i = 2; i <= NF; i++) if ($i == k) c = i; n = 1 } else print $c }' /proc/net/snmp
}

KEY=$TMP/serve.key
serve_bg "$TMP/serve.err" ip netns exec $A "$PERPKT" serve -b 10.248.0.9 -p 12996 --key "$KEY"
replies0=$(icmp_count $A OutEchoReps)
expect_exit 0 ip netns exec $B "$PERPKT" record -d 0.5 -w 0.1 -r 2 --transport icmp \
	--peer 10.248.0.9:12996 --peer-key "$KEY" -a --remote-cpus all -o "$TMP/icmp.json"
replies=$(( $(icmp_count $A OutEchoReps) - replies0 ))
grep -q "serve: icmp: this host's kernel answers the echo requests" "$TMP/serve.err" ||
	fail "serve did not say the kernel answers: $(tail -3 "$TMP/serve.err")"
jq -c '{rt: .workload.round_trips, remote_rt: .remote.workload.round_trips,
	transport: .remote.workload.transport, responder: .conditions["peer.responder"],
	windows: (.remote.workload.repeats | length)}' "$TMP/icmp.json"
echo "echo replies the responder's namespace sent over the whole run: $replies"
# the remote side's round trips: the echo replies in serve's windows,
# which open a control message after the client's and close one after
# (a serve the busy host keeps waiting counts more: t0507's tolerance)
jq -e --argjson all "$replies" '.workload.transport == "icmp" and
	.remote.workload.transport == "icmp" and .remote.workload.network == "peer" and
	(.remote.samples | length) > 0 and (.remote.workload.repeats | length) == 2 and
	.remote.workload.round_trips > .workload.round_trips * 0.8 and
	.remote.workload.round_trips < .workload.round_trips * 1.5 and
	.remote.workload.round_trips <= $all and
	([.remote.workload.repeats[].round_trips] | add) == .remote.workload.round_trips and
	([.remote.workload.tasks[]? | select(.role == "responder")] | length) == 0 and
	(.conditions["peer.responder"] | test("^the kernel: [0-9]+ echo replies over the window \\(Icmp OutEchoReps\\), no responder process$"))' \
	"$TMP/icmp.json" >/dev/null || fail "icmp's remote side does not add up (see above)"
# the last window's replies, as serve counted them, are that window's
last=$(jq -r '.conditions["peer.responder"] | capture("(?<n>[0-9]+) echo").n' "$TMP/icmp.json")
[ "$last" = "$(jq '.remote.workload.repeats[-1].round_trips' "$TMP/icmp.json")" ] ||
	fail "peer.responder says $last replies, the remote side's last window $(jq -c '[.remote.workload.repeats[].round_trips]' "$TMP/icmp.json")"

# one kernel, every CPU sampled on both sides over nearly one window:
# the kernel time per round trip of each side must agree
# every task on each side, as the remote side counts them
expect_exit 0 "$PERPKT" report -i "$TMP/icmp.json" --format json --all-tasks
ratio=$(jq '.remote.total.per_rt.primary / .total.per_rt.primary' "$TMP/out")
echo "remote side / local side, kernel time per round trip: $ratio"
awk -v r="$ratio" 'BEGIN { exit !(r > 0.67 && r < 1.5) }' ||
	fail "remote side per round trip is $ratio x the local side's"

# --no-remote: no profile of that side, still the kernel's count
expect_exit 0 ip netns exec $B "$PERPKT" record -q -d 0.2 -w 0.05 --transport icmp \
	--peer 10.248.0.9:12996 --peer-key "$KEY" --no-remote -o "$TMP/again.json"
jq -e '.remote == null and (.conditions["peer.responder"] | test("^the kernel"))' \
	"$TMP/again.json" >/dev/null || fail "--no-remote over icmp: $(jq -c .conditions "$TMP/again.json")"
echo ok
