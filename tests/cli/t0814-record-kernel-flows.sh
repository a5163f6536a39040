#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# perpkt record --kernel IMAGE --flows N: N ping-pong pairs inside a
# guest of Debian's 6.1 cloud kernel, values per round trip of all flows
# together. Loopback with two vCPUs, each flow on its own CPUs; then
# --exact on one vCPU (the instruction clock): the last flow at the
# window's gate executes the plugin's marks, one open and one close, so
# the window's instructions are those of every flow's round trips; and
# --exact with a flow on CPU 1, which gives the guest its two vCPUs.
# Each: workload.flows, the round trips by flow adding up to the unit
# count, two UDP datagrams received per round trip (the guest's
# /proc/net/snmp read with every flow stopped). Over --net nic the
# client guest records with --peer to serve in the other guest: until
# --peer takes --flows, refused before anything boots; once it does,
# a pair is run and checked the same way. Then --busy with --net nic:
# the responder guest's CPUs kept busy by shell loops (the 2010 RPS
# thread's target), its user instructions in serve's window. Four
# boots (one a pair), about 2 minutes under TCG.
. "$(dirname "$0")/lib.sh"
need_x86_guest "guests with --flows"
command -v jq >/dev/null || skip "needs jq"
guest_kernel

# flows P N [D]: the profile's flow conditions and unit count checked,
# D UDP datagrams received by the client's guest a round trip (default
# 2: loopback, both ends there)
flows() {
	local p=$1 n=$2 d=${3:-2} rts by dg
	jq -r '.conditions["workload.flows"]' "$p" | grep -q "^$n ping-pong pairs, each on its own ports" ||
		fail "workload.flows: $(jq -r '.conditions["workload.flows"]' "$p")"
	rts=$(jq -r .workload.round_trips "$p")
	[ "$rts" -ge 50 ] || fail "only $rts round trips in the guest"
	by=$(jq -r '.conditions["workload.flows_spread"]' "$p" | sed -n 's/.*round trips by flow \([0-9,]*\).*/\1/p')
	[ "$(echo "$by" | tr , '\n' | grep -c .)" = "$n" ] || fail "round trips by flow '$by' for $n flows"
	[ "$(echo "$by" | tr , '\n' | awk '{ s += $1 } END { print s }')" = "$rts" ] ||
		fail "round trips by flow $by do not add up to $rts"
	echo "$by" | tr , '\n' | awk '$1 == 0 { exit 1 }' || fail "a flow made no round trip: $by"
	dg=$(jq -r '.conditions["workload.udp_datagrams_in"]' "$p" | cut -d' ' -f1)
	[ "$dg" = $((d * rts)) ] || fail "$dg UDP datagrams received for $rts round trips"
}

# the usage errors first: no guest boots
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic --busy 2 -d 0.3 -o "$TMP/x.json"
grep -qF -- "--busy CPU 2: the guest has CPUs 0 to 1 (2 without --guest-cpus)" "$TMP/err" ||
	fail "--busy 2: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --flows 2 -n 100 -o "$TMP/x.json"
grep -q -- "--flows and -n exclude each other" "$TMP/err" || fail "--flows -n: $(cat "$TMP/err")"
! grep -q booting "$TMP/err" || fail "--flows -n booted"

# loopback, 2 vCPUs, each flow's client and responder on its own CPUs
expect_exit 0 "$PERPKT" record --kernel "$img" --flows 2 --client-cpu 0,1 --server-cpu 1,0 \
	-d 0.5 -w 0.2 -o "$TMP/p.json"
P=$TMP/p.json
[ "$(jq -r .system.kernel_release "$P")" = "$rel" ] || fail "not the guest's profile"
jq -r '.conditions["workload.flows"]' "$P" | grep -q 'client/responder CPUs 0/1,1/0$' ||
	fail "flows' CPUs: $(jq -r '.conditions["workload.flows"]' "$P")"
flows "$P" 2
[ "$(jq '[.samples[]?] | length' "$P")" -gt 0 ] || fail "no samples"

# --exact on the one vCPU of the instruction clock: 4 flows on CPU 0
expect_exit 0 "$PERPKT" record --kernel "$img" --exact --flows 4 -d 0.3 -w 0.2 -o "$TMP/x1.json"
X=$TMP/x1.json
flows "$X" 4
jq -r '.conditions["lab.exact"]' "$X" | grep -q '^[1-9][0-9]* kernel and [0-9]* user instructions in the window on 1 vCPUs' ||
	fail "lab.exact: $(jq -r '.conditions["lab.exact"]' "$X")"
jq -r '.conditions["lab.deterministic"]' "$X" | grep -q '^yes' ||
	fail "lab.deterministic: $(jq -r '.conditions["lab.deterministic"]' "$X")"
# per round trip of all flows: a loopback UDP round trip in 6.1 is
# about 25,000 kernel instructions (docs/guide.md); four times that
# would be per round trip of one flow
ins=$(jq -r '.conditions["lab.exact"]' "$X" | cut -d' ' -f1)
per=$((ins / $(jq -r .workload.round_trips "$X")))
[ "$per" -gt 10000 ] && [ "$per" -lt 60000 ] || fail "$per kernel instructions per round trip"
grep -q "flows" "$TMP/err" || fail "the guest's flows line not relayed: $(cat "$TMP/err")"

# --exact with flow 1 on CPU 1: the guest gets its two vCPUs
expect_exit 0 "$PERPKT" record --kernel "$img" --exact --flows 2 --client-cpu 0,1 --server-cpu 0,1 \
	-d 0.3 -w 0.2 -o "$TMP/x2.json"
flows "$TMP/x2.json" 2
jq -r '.conditions["lab.exact"]' "$TMP/x2.json" | grep -q ' on 2 vCPUs' ||
	fail "lab.exact: $(jq -r '.conditions["lab.exact"]' "$TMP/x2.json")"

# --net nic: the client guest's --peer takes --flows, or it is refused
# before anything boots (the host asks the workload what a peer can do)
nic=
if [ -r "$BUILDDIR/perpkt-exact.so" ] &&
	qemu-system-x86_64 -netdev help 2>/dev/null | grep -qx dgram &&
	ls "$root"/lib/modules/"$rel"/kernel/drivers/net/virtio_net.ko* >/dev/null 2>&1; then
	nic=1
fi
if "$PERPKT" record --peer 127.0.0.1 --peer-key /nonexistent --flows 2 -d 0.1 -o "$TMP/y.json" 2>&1 |
	grep -q -- "--flows is not implemented with --peer"; then
	expect_exit 64 "$PERPKT" record --kernel "$img" --net nic --flows 2 -d 0.3 -o "$TMP/x.json"
	grep -q -- "--flows is not implemented with --peer" "$TMP/err" &&
		grep -q -- "--net nic runs the client guest's record with --peer" "$TMP/err" ||
		fail "--net nic --flows: $(cat "$TMP/err")"
	! grep -q booting "$TMP/err" || fail "--net nic --flows booted"
	echo "note: --peer does not take --flows yet: --net nic --flows refused before booting"
elif [ -n "$nic" ]; then
	# the client guest receives the replies alone
	expect_exit 0 "$PERPKT" record --kernel "$img" --net nic --exact --flows 2 -d 0.5 -w 0.3 -o "$TMP/n.json"
	flows "$TMP/n.json" 2 1
	[ "$(jq -r .workload.network "$TMP/n.json")" = peer ] || fail "network $(jq -r .workload.network "$TMP/n.json")"
	jq -r '.conditions["lab.exact"]' "$TMP/n.json" | grep -q '^[1-9][0-9]* kernel and [0-9]* user instructions in the window on 2 vCPUs' ||
		fail "--net nic lab.exact: $(jq -r '.conditions["lab.exact"]' "$TMP/n.json")"
fi

# --busy with --net nic: the responder guest's CPUs, busy while serve
# runs; its user instructions in serve's window are the loops'
[ -n "$nic" ] || { echo "ok (no NIC pair here: the plugin, a dgram netdev or virtio_net is missing)"; exit 0; }
expect_exit 0 "$PERPKT" record --kernel "$img" --net nic --exact --busy 0-1 -d 0.3 -w 0.2 \
	--transport icmp -o "$TMP/b.json"
B=$TMP/b.json
jq -r '.conditions["workload.busy"]' "$B" | grep -q '^responder guest: CPUs 0,1, a shell loop pinned on each' ||
	fail "workload.busy: $(jq -r '.conditions["workload.busy"]' "$B")"
read -r k u < <(jq -r '.remote.conditions["lab.exact"]' "$B" | awk '{ print $1, $4 }')
[ -n "$u" ] && [ "$u" -gt $((10 * k)) ] ||
	fail "responder's user instructions $u against kernel $k: no busy loops? ($(jq -r '.remote.conditions["lab.exact"]' "$B"))"
[ "$(jq -r .remote.workload.round_trips "$B")" -ge 10 ] ||
	fail "the responder answered $(jq -r .remote.workload.round_trips "$B") round trips"
echo "ok: loopback $(jq -r .workload.round_trips "$P") RT, exact $per kernel insns/RT over 4 flows; busy responder $k kernel, $u user instructions"
