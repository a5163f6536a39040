#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What is attached to the path is a condition, read where the workload
# ran: perpkt record run inside a namespace this test makes (ip netns
# exec) sees that namespace's tc filters and actions on lo and a packet
# socket opened there, and another process's perf_event descriptor;
# with --net veth, the workload's own namespaces are read;
# diff names each change on its first lines.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
for c in ip tc python3 jq; do
	command -v $c >/dev/null || skip "needs $c"
done
NS=t0130-$$
HELD=
cleanup() {
	[ -z "$HELD" ] || kill $HELD 2>/dev/null
	ip netns del $NS 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add $NS || fail "cannot make namespace $NS"
ip -n $NS link set lo up || fail "lo up in $NS"

rec() {
	expect_exit 0 ip netns exec $NS "$PERPKT" record -q -n 2000 -w 0.1 -o "$TMP/$1.json"
}
cond() { jq -r --arg k "$2" '.conditions[$k]' "$TMP/$1.json"; }
# hold HOW: a python3 holding something open in $NS until killed, once
# it has said "held"
hold() {
	# emptied before the holder starts: its own redirection empties
	# the file only once it runs, and until then wait_line would match
	# the previous holder's "held" (seen under load)
	: >"$TMP/held"
	ip netns exec $NS python3 -c "$1" >>"$TMP/held" 2>&1 &
	HELD=$!
	wait_line "$TMP/held" '^(held|error)' $HELD
	grep -q '^held' "$TMP/held" || fail "cannot hold it open: $(cat "$TMP/held")"
}
release() { kill $HELD; wait $HELD 2>/dev/null; HELD=; }

rec a
[ "$(cond a net.tc)" = "lo: noqueue" ] || fail "fresh namespace: net.tc '$(cond a net.tc)'"
[ "$(cond a net.taps)" = none ] || fail "fresh namespace: net.taps '$(cond a net.taps)'"

# three u32 filters that never match, each with an action
tc -n $NS qdisc add dev lo clsact || fail "clsact on lo"
for i in 1 2 3; do
	tc -n $NS filter add dev lo egress protocol ip pref $i u32 \
		match ip dst 10.255.255.$i/32 action mirred egress redirect dev lo ||
		fail "tc filter $i"
done
rec b
[ "$(cond b net.tc)" = "lo: noqueue, clsact, 3 filters, 3 actions" ] ||
	fail "tc filters: net.tc '$(cond b net.tc)'"
expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/b.json"
sed -n 2,6p "$TMP/out" | grep -qx "differs: tc: lo: noqueue -> lo: noqueue, clsact, 3 filters, 3 actions" ||
	fail "diff does not open with tc: $(head -6 "$TMP/out")"
tc -n $NS qdisc del dev lo clsact || fail "clsact off"

# --net veth: read in the workload's two namespaces, not in this one
expect_exit 0 ip netns exec $NS "$PERPKT" record -q -n 2000 -w 0.1 --net veth -o "$TMP/v.json"
[ "$(cond v net.tc)" = "client: lo: noqueue; veth0: noqueue | responder: lo: noqueue; veth0: noqueue" ] ||
	fail "--net veth: net.tc '$(cond v net.tc)'"
cond v net.netfilter | grep -qE '^client: .* \| responder: ' ||
	fail "--net veth: net.netfilter '$(cond v net.netfilter)'"

# a packet tap on lo, held by this test's python3
hold 'import socket, signal
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("lo", 0))
print("held", flush=True)
signal.pause()'
rec c
release
cond c net.taps | grep -qxE "1 open: python[0-9.]* on lo" ||
	fail "packet socket: net.taps '$(cond c net.taps)'"
expect_exit 0 "$PERPKT" diff --width 200 "$TMP/a.json" "$TMP/c.json"
sed -n 2,6p "$TMP/out" | grep -qxE "differs: packet taps: none -> 1 open: python[0-9.]* on lo" ||
	fail "diff does not open with the tap: $(head -6 "$TMP/out")"

# another process with a perf_event descriptor (a software cpu-clock
# event on itself: perf_event_open(2) by its x86-64 number)
[ "$(uname -m)" = x86_64 ] || exit 0
hold 'import ctypes, os, signal
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(15, b"t0130-perf", 0, 0, 0)
attr = ctypes.create_string_buffer(128)
ctypes.memmove(attr, (1).to_bytes(4, "little") + (128).to_bytes(4, "little"), 8)
fd = libc.syscall(298, attr, 0, -1, -1, 0)
print("held" if fd >= 0 else "error: " + os.strerror(ctypes.get_errno()), flush=True)
signal.pause()'
rec d
release
cond d host.perf_users | tr , '\n' | grep -qx " *t0130-perf" ||
	fail "perf_event user: host.perf_users '$(cond d host.perf_users)'"
exit 0
