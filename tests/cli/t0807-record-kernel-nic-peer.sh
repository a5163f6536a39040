#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# record --kernel --net nic, the responder guest's choices: one pair of
# an emulated vmxnet3 NIC, the responder booted on another kernel
# (--peer-kernel: Debian's 6.12 against the client's 6.1), three vCPUs
# in each guest (--guest-cpus 3), its NIC's interrupts on CPU 2, pinged
# (--transport icmp: the responder's kernel answers, serve counts its
# echo replies). Then a sweep over the responder's RPS mask with the NIC
# pair's options after -- (two pairs): NET_RX on the RPS CPU only when
# RPS sends it there. Three pairs, each about 15-45 s on a loaded host.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the NIC pair"
[ -z "${ASAN_OPTIONS:-}" ] || skip "six guest boots: run on the plain build (make check-lab)"
command -v jq >/dev/null || skip "needs jq"
qemu-system-x86_64 -netdev help 2>/dev/null | grep -qx dgram ||
	skip "this QEMU has no dgram netdev (QEMU 7.2 or later)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
prel=${PERPKT_LAB_PEER_KERNEL:-6.12.117+deb12-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
proot=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$prel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $prel"; }
img=$root/boot/vmlinuz-$rel
pimg=$proot/boot/vmlinuz-$prel
for r in "$root/lib/modules/$rel" "$proot/lib/modules/$prel"; do
	ls "$r"/kernel/drivers/net/vmxnet3/vmxnet3.ko* "$r"/kernel/drivers/net/virtio_net.ko* >/dev/null 2>&1 ||
		skip "no vmxnet3 or virtio_net module under $r (fetch-kernel.sh extracts them)"
done

# the usage errors first: no guest boots
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic --guest-cpus 9 -o "$TMP/x.json"
grep -q "invalid --guest-cpus '9': must be between 1 and 8" "$TMP/err" || fail "--guest-cpus 9: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic --guest-cpus 3 --irq-cpu 3 -o "$TMP/x.json"
grep -q "\-\-irq-cpu 3: the guest has CPUs 0 to 2 (--guest-cpus 3)" "$TMP/err" || fail "--irq-cpu 3: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic --guest-cpus 3 --rps-cpus 8 -o "$TMP/x.json"
grep -q "invalid RPS mask '8': it names CPU 3, but the guest (--guest-cpus 3) has CPUs 0-2" "$TMP/err" ||
	fail "--rps-cpus 8: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --peer-kernel "$pimg" -o "$TMP/x.json"
grep -q "\-\-peer-kernel boots the responder guest of --net nic" "$TMP/err" || fail "--peer-kernel alone: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a profile for a refused run"

# the pair: vmxnet3, 6.12 answering 6.1's pings on 3 vCPUs each
expect_exit 0 "$PERPKT" record --kernel "$img" --peer-kernel "$pimg" --net nic:vmxnet3 \
	--guest-cpus 3 --transport icmp --irq-cpu 2 -d 0.5 -w 0.3 -c 100000 \
	--no-call-graph --remote-cpus all -o "$TMP/p.json"
P=$TMP/p.json
jq -c '{rt: .workload.round_trips, remote_rt: .remote.workload.round_trips,
	kernels: [.system.kernel_release, .remote.system.kernel_release],
	cpus: [.system.ncpus, .remote.system.ncpus], responder: .conditions["peer.responder"],
	irq: .conditions["net.irq_cpus"]}' "$P"
# which kernel each side ran, in both sides' conditions
jq -e --arg rel "$rel" --arg prel "$prel" --arg img "$img" --arg pimg "$pimg" '
	.system.kernel_release == $rel and .remote.system.kernel_release == $prel and
	.conditions["lab.kernel"] == $img and .conditions["lab.peer_kernel"] == $pimg and
	.remote.conditions["lab.kernel"] == $pimg and
	(.remote.conditions["lab.config"] | endswith("config-" + $prel))' "$P" >/dev/null ||
	fail "kernels: $(jq -c '[.system.kernel_release, .remote.system.kernel_release, .conditions["lab.kernel"], .conditions["lab.peer_kernel"], .remote.conditions["lab.kernel"]]' "$P")"
# three vCPUs in each, said
jq -e '.system.ncpus == 3 and .remote.system.ncpus == 3 and .conditions["lab.guest_cpus"] == "3" and
	(.conditions["lab.qemu_command"] | test(" -smp 3 "))' "$P" >/dev/null ||
	fail "vCPUs: $(jq -c '[.system.ncpus, .remote.system.ncpus, .conditions["lab.guest_cpus"]]' "$P")"
# vmxnet3: its interrupts on the responder's CPU 2, its driver's functions
jq -r '.conditions["lab.nic"]' "$P" | grep -q '^vmxnet3, client 10.248.27.2, responder 10.248.27.1' ||
	fail "lab.nic: $(jq -r '.conditions["lab.nic"]' "$P")"
jq -r '.conditions["net.irq_cpus"]' "$P" | grep -q 'eth0-rxtx-0 CPU 2 .*(set for the run)' ||
	fail "net.irq_cpus: $(jq -r '.conditions["net.irq_cpus"]' "$P")"
rrt=$(jq -r .remote.workload.round_trips "$P")
rts=$(jq -r .workload.round_trips "$P")
[ "$rts" -ge 30 ] || fail "only $rts round trips"
on2=$(jq -r '[.remote.counters.irqs[] | select(.kind == "irq" and (.desc // "" | test("eth0-rxtx")) and .cpu == 2) | .count] | add // 0' "$P")
all=$(jq -r '[.remote.counters.irqs[] | select(.kind == "irq" and (.desc // "" | test("eth0-rxtx"))) | .count] | add // 0' "$P")
echo "responder's vmxnet3 rxtx interrupts: $all for $rrt round trips, $on2 on CPU 2"
awk -v i="$all" -v c="$on2" -v r="$rrt" 'BEGIN { exit !(i / r > 0.5 && c == i) }' ||
	fail "responder's vmxnet3 interrupts: $all ($on2 on CPU 2) for $rrt round trips"
"$PERPKT" report -i "$P" --side remote --format json >"$TMP/r.json" 2>"$TMP/rerr" ||
	fail "report --side remote: $(cat "$TMP/rerr")"
jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | grep -q '^vmxnet3_' ||
	fail "no vmxnet3 functions in the responder's driver bucket: $(jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | head -5 | tr '\n' ' ')"
# icmp: no responder process; serve's count is its kernel's echo replies
# in its window, which opens and closes a control message after the
# client's: the client's round trips, give or take the pings in those
# messages' time (77 against 64 at host load 8). Each message waits for
# the other guest's vCPU when the host interleaves the two QEMUs, so
# serve's window can be longer (or shorter) than the client's by a
# scheduling delay: the pings in it are the client's rate over serve's
# own window (83 answered in serve's window against 48 round trips in
# the client's failed once under load), the old bounds widened only by
# what the two windows' lengths say
jq -e '.workload.transport == "icmp" and .remote.workload.transport == "icmp" and
	(.conditions["peer.responder"] | test("^the kernel: [0-9]+ echo replies")) and
	([.remote.workload.tasks[]? | select(.role == "responder")] | length) == 0' "$P" >/dev/null ||
	fail "icmp: $(jq -c '[.workload.transport, .remote.workload.transport, .conditions["peer.responder"]]' "$P")"
wc=$(jq -r .workload.window_ns "$P") wr=$(jq -r .remote.workload.window_ns "$P")
awk -v a="$rrt" -v b="$rts" -v wc="$wc" -v wr="$wr" 'BEGIN {
	if (!(wc > 0 && wr > 0)) exit 1
	e = b * wr / wc; lo = e < b ? e : b; hi = e > b ? e : b
	exit !(a >= lo * 0.7 && a <= hi * 1.6 + 6) }' ||
	fail "the responder's kernel answered $rrt echo requests in its window of $wr ns, the client made $rts round trips in its window of $wc ns"

# sweep over the responder's RPS mask, the pair's options after --:
# RPS off, then to CPU 2 while the interrupts stay on CPU 0
expect_exit 0 "$PERPKT" sweep -o "$TMP/sw" -d 0.5 --rps-cpus 0,4 --irq-cpu 0 -- \
	--kernel "$img" --net nic --guest-cpus 3 -w 0.3 --no-call-graph --remote-cpus all
for c in rps0_irq0 rps4_irq0; do
	[ -s "$TMP/sw/$c.json" ] || fail "sweep: no profile of cell $c: $(ls "$TMP/sw")"
done
grep -q '^rps4_irq0 ' "$TMP/out" || fail "sweep's table: $(cat "$TMP/out")"
net_rx2() {
	jq -r '([.remote.counters.irqs[] | select(.kind == "softirq" and .name == "NET_RX" and .cpu == 2) | .count] | add // 0) / .remote.workload.round_trips' "$1"
}
off=$(net_rx2 "$TMP/sw/rps0_irq0.json")
on=$(net_rx2 "$TMP/sw/rps4_irq0.json")
echo "NET_RX/RT on the responder's CPU 2: RPS off $off, to CPU 2 $on"
for c in 0 4; do
	jq -e --arg m "$c" '.conditions["net.rps_cpus"] == "responder guest eth0: rx-0 \($m) (set for the run)" and
		(.conditions["net.irq_cpus"] | test("virtio0-input.0 CPU 0 ")) and
		.conditions["lab.guest_cpus"] == "3"' "$TMP/sw/rps${c}_irq0.json" >/dev/null ||
		fail "cell rps${c}_irq0: $(jq -c '[.conditions["net.rps_cpus"], .conditions["net.irq_cpus"], .conditions["lab.guest_cpus"]]' "$TMP/sw/rps${c}_irq0.json")"
done
awk -v v="$off" 'BEGIN { exit !(v < 0.1) }' || fail "RPS off: $off NET_RX softirqs per round trip on CPU 2"
awk -v v="$on" 'BEGIN { exit !(v > 0.5) }' || fail "RPS to CPU 2: $on NET_RX softirqs per round trip there"
echo ok
