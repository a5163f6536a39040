#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# perpkt record --kernel IMAGE --net nic: two guests of Debian's 6.1
# cloud kernel joined by an emulated virtio-net NIC (QEMU's dgram netdev
# over two unix sockets in the run's folders: nothing leaves the guests),
# perpkt serve in the responder, the client's record --peer in the
# other. Exact counts on both sides (--exact: the QEMU plugin in each
# guest, serve marks its window as the client marks its own). One
# profile with both sides: the responder's driver bucket (virtio_net
# functions) in exact instructions and its NIC's input interrupts per
# round trip are not zero. Then the responder's --irq-cpu 0 and
# --rps-cpus: RPS to the other CPU (mask 2) adds the backlog path, which
# RPS off (mask 0) never runs: NET_RX softirqs on CPU 1 (/proc/softirqs)
# and the instructions per packet of enqueue_to_backlog and
# process_backlog (none with RPS off). The responder's NAPI polls
# (__napi_poll calls, exact) about one per packet. Then stat --kernel of
# the same pair: each side's device interrupts, softirqs and NAPI polls
# per round trip. Short windows: the host is loaded; about 20-45 s a
# pair, three pairs.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the NIC pair"
# eight guest boots of a sanitizer build would not fit the test's time;
# the lab's code paths t0801 and t0803 cover there
[ -z "${ASAN_OPTIONS:-}" ] || skip "eight guest boots: run on the plain build (make check-lab)"
command -v jq >/dev/null || skip "needs jq"
[ -r "$BUILDDIR/perpkt-exact.so" ] ||
	skip "the QEMU plugin was not built: no qemu-plugin.h (make deps fetches it; then build again)"
qemu-system-x86_64 -netdev help 2>/dev/null | grep -qx dgram ||
	skip "this QEMU has no dgram netdev (QEMU 7.2 or later)"
rel=${PERPKT_LAB_KERNEL:-6.1.0-57-cloud-amd64}
root=$("$SRCDIR/tests/lab/fetch-kernel.sh" "$rel" 2>"$TMP/fetch") ||
	{ cat "$TMP/fetch" >&2; skip "cannot fetch kernel $rel"; }
img=$root/boot/vmlinuz-$rel
ls "$root"/lib/modules/"$rel"/kernel/drivers/net/virtio_net.ko* >/dev/null 2>&1 ||
	skip "no virtio_net module under $root (fetch-kernel.sh extracts it)"

# the usage errors first: no guest boots
expect_exit 64 "$PERPKT" record --net nic -d 0.3 -o "$TMP/x.json"
grep -q "goes with --kernel" "$TMP/err" || fail "--net nic without --kernel: $(cat "$TMP/err")"
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic:e1000 -o "$TMP/x.json"
grep -q "unknown network 'nic:e1000'" "$TMP/err" || fail "nic:e1000: $(cat "$TMP/err")"

# an exact pair: the plugin counts every vCPU of each guest between its
# marks, serve's side every CPU of the responder (its NIC's softirq runs
# where the interrupt lands); its NIC's interrupts on CPU 0, RPS off
expect_exit 0 "$PERPKT" record --kernel "$img" --net nic --exact -d 0.5 -w 0.3 \
	--irq-cpu 0 --rps-cpus 0 -o "$TMP/p.json"
P=$TMP/p.json
jq -r '.conditions["lab.nic"]' "$P" | grep -q '^virtio-net-pci, client 10.248.27.2, responder 10.248.27.1' ||
	fail "lab.nic: $(jq -r '.conditions["lab.nic"]' "$P")"
jq -r '.conditions["lab.qemu_command"]' "$P" | grep -q -- '-netdev dgram,id=nic0,local.type=unix' ||
	fail "QEMU command: $(jq -r '.conditions["lab.qemu_command"]' "$P")"
[ "$(jq -r .workload.network "$P")" = peer ] || fail "network $(jq -r .workload.network "$P")"
rts=$(jq -r .workload.round_trips "$P")
[ "$rts" -ge 50 ] || fail "only $rts round trips"
# both sides: the remote one is the responder guest's kernel, counted
# by its own plugin
[ "$(jq -r '.remote.system.kernel_release' "$P")" = "$rel" ] ||
	fail "no remote side of kernel $rel: $(jq -r '.remote.system.kernel_release // .remote_missing' "$P")"
rrt=$(jq -r .remote.workload.round_trips "$P")
[ "$rrt" -ge 50 ] || fail "the responder answered $rrt round trips"
for side in "" .remote; do
	jq -r "$side.conditions[\"lab.exact\"] // \"none\"" "$P" |
		grep -q '^[1-9][0-9]* kernel and [0-9]* user instructions in the window on 2 vCPUs' ||
		fail "side '$side' not counted exactly: $(jq -r "$side.conditions[\"lab.exact\"]" "$P")"
done
# its NIC's input interrupts per round trip (about 1 here)
irq=$(jq -r '[.remote.counters.irqs[] | select(.kind == "irq" and (.desc // "" | test("virtio[0-9]+-input"))) | .count] | add // 0' "$P")
awk -v i="$irq" -v r="$rrt" 'BEGIN { exit !(i / r > 0.1) }' ||
	fail "responder's virtio input interrupts: $irq for $rrt round trips"
# its NAPI polls, the calls of __napi_poll counted by the plugin: about
# one per packet (two packets a round trip, the request in, the reply
# out; virtio-net polls its tx queue too); in report's JSON per RT
napi=$(jq -r '[.remote.counters.irqs[] | select(.kind == "napi" and .name == "__napi_poll") | .count] | add // 0' "$P")
awk -v n="$napi" -v r="$rrt" 'BEGIN { exit !(n / r / 2 > 0.4 && n / r / 2 < 2) }' ||
	fail "responder's NAPI polls: $napi for $rrt round trips"
[ "$(jq '[.remote.counters.irqs[] | select(.kind == "napi")] | length' "$P")" = 2 ] ||
	fail "NAPI polls not on each of the responder's 2 vCPUs: $(jq -c '[.remote.counters.irqs[] | select(.kind == "napi")]' "$P")"
# its driver bucket in exact instructions, the virtio_net functions in it
"$PERPKT" report -i "$P" --side remote --format json --all-tasks >"$TMP/r.json" 2>"$TMP/rerr" ||
	fail "report --side remote: $(cat "$TMP/rerr")"
drv=$(jq -r '[.buckets[] | select(.name == "driver") | .per_rt.instructions] | add // 0' "$TMP/r.json")
jq -e --argjson n "$napi" --argjson r "$rrt" '.decomposition.napi_function == "__napi_poll" and
	(.decomposition.napi_polls_per_rt - $n / $r | fabs) < 0.01' "$TMP/r.json" >/dev/null ||
	fail "report JSON's NAPI polls: $(jq -c .decomposition "$TMP/r.json")"
awk -v d="$drv" 'BEGIN { exit !(d > 100) }' || fail "responder's driver bucket: $drv instructions per round trip"
jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | grep -q -E '^(virtnet|virtqueue|vring|vp_|skb_recv_done|skb_xmit_done|start_xmit|receive_buf|try_fill_recv)' ||
	fail "no virtio functions in the responder's driver bucket: $(jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | head -5 | tr '\n' ' ')"
# the steering is the responder guest's, read back from it
jq -r '.conditions["net.rps_cpus"]' "$P" | grep -qx 'responder guest eth0: rx-0 0 (set for the run)' ||
	fail "net.rps_cpus: $(jq -r '.conditions["net.rps_cpus"]' "$P")"
jq -r '.conditions["net.irq_cpus"]' "$P" | grep -q 'virtio0-input.0 CPU 0 .*(set for the run)' ||
	fail "net.irq_cpus: $(jq -r '.conditions["net.irq_cpus"]' "$P")"

# NET_RX softirqs per round trip on the responder's CPU 1, and the
# instructions per packet of the backlog path there
net_rx1() {
	jq -r '([.remote.counters.irqs[] | select(.kind == "softirq" and .name == "NET_RX" and .cpu == 1) | .count] | add // 0) / .remote.workload.round_trips' "$1"
}
per_packet() {
	jq -r --arg f "$2" '[.functions[] | select(.name == $f) | .per_rt.instructions] | add // 0' "$1"
}
off_rx=$(net_rx1 "$P")
off_enq=$(per_packet "$TMP/r.json" enqueue_to_backlog)
off_bl=$(per_packet "$TMP/r.json" process_backlog)
awk -v v="$off_rx" 'BEGIN { exit !(v < 0.1) }' || fail "RPS off: $off_rx NET_RX softirqs per round trip on CPU 1"
[ "$off_enq" = 0 ] && [ "$off_bl" = 0 ] ||
	fail "RPS off: enqueue_to_backlog $off_enq, process_backlog $off_bl instructions per packet"
expect_exit 0 "$PERPKT" record --kernel "$img" --net nic --exact -d 0.5 -w 0.3 \
	--irq-cpu 0 --rps-cpus 2 -o "$TMP/rps.json"
jq -r '.conditions["net.rps_cpus"]' "$TMP/rps.json" | grep -qx 'responder guest eth0: rx-0 2 (set for the run)' ||
	fail "net.rps_cpus: $(jq -r '.conditions["net.rps_cpus"]' "$TMP/rps.json")"
# every task's rows: the backlog runs in NET_RX on CPU 1, in whichever
# task it interrupts there (the responder's rows alone miss it)
"$PERPKT" report -i "$TMP/rps.json" --side remote --format json --all-tasks >"$TMP/rr.json" 2>"$TMP/rerr" ||
	fail "report --side remote: $(cat "$TMP/rerr")"
on_rx=$(net_rx1 "$TMP/rps.json")
on_enq=$(per_packet "$TMP/rr.json" enqueue_to_backlog)
on_bl=$(per_packet "$TMP/rr.json" process_backlog)
echo "NET_RX/RT on CPU 1: RPS off $off_rx, to CPU 1 $on_rx; instructions per packet: enqueue_to_backlog $off_enq, $on_enq; process_backlog $off_bl, $on_bl"
awk -v v="$on_rx" 'BEGIN { exit !(v > 0.5) }' || fail "RPS to CPU 1: $on_rx NET_RX softirqs per round trip there"
# about 60-90 each per packet on 6.1; more than 20 is the path taken
awk -v e="$on_enq" -v b="$on_bl" 'BEGIN { exit !(e > 20 && b > 20) }' ||
	fail "RPS to CPU 1: enqueue_to_backlog $on_enq, process_backlog $on_bl instructions per packet"

# merge joins the two pairs side by side, as record -r N does its pairs:
# each side's windows become its repeats
expect_exit 0 "$PERPKT" merge -o "$TMP/m.json" "$P" "$TMP/rps.json"
[ "$(jq -r '.remote.workload.repeats | length' "$TMP/m.json")" = 2 ] &&
	[ "$(jq -r .remote.workload.round_trips "$TMP/m.json")" = $((rrt + $(jq -r .remote.workload.round_trips "$TMP/rps.json"))) ] ||
	fail "merged responder side: $(jq -c '[(.remote.workload.repeats | length), .remote.workload.round_trips]' "$TMP/m.json")"

# a CPU the responder guest does not have (2 without --guest-cpus):
# said before booting, no profile
expect_exit 64 "$PERPKT" record --kernel "$img" --net nic -d 0.3 -w 0.2 --irq-cpu 7 -o "$TMP/bad.json"
grep -qF -- "--irq-cpu 7: the guest has CPUs 0 to 1 (2 without --guest-cpus)" "$TMP/err" || fail "--irq-cpu 7: $(cat "$TMP/err")"
! grep -q booting "$TMP/err" || fail "--irq-cpu 7 booted"
[ ! -e "$TMP/bad.json" ] || fail "a profile for --irq-cpu 7"

# stat --kernel --net nic --exact: the same pair counted, no profile
# written; device interrupts, softirqs and NAPI polls per round trip on
# each side (about 1 NAPI poll per packet, 2 packets a round trip)
mkdir -p "$TMP/stmp"
TMPDIR=$TMP/stmp expect_exit 0 "$PERPKT" stat --kernel "$img" --net nic --exact -d 0.5 -w 0.3 \
	--irq-cpu 0 --rps-cpus 0 --format json
cp "$TMP/out" "$TMP/stat.json"
for side in local remote; do
	jq -e --arg s "$side" '.sides[$s] | .napi_function == "__napi_poll" and
		.napi_polls_per_rt > 0.8 and .napi_polls_per_rt < 4 and
		.device_irqs_per_rt > 0.2 and .softirqs_per_rt > 0.2' "$TMP/stat.json" >/dev/null ||
		fail "stat's $s side: $(jq -c --arg s "$side" '.sides[$s]' "$TMP/stat.json")"
done
[ "$(jq -r .mode "$TMP/stat.json")" = exact ] || fail "stat mode $(jq -r .mode "$TMP/stat.json")"
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 "$SRCDIR/tests/schema-validate.py" "$SRCDIR/docs/schema" stat "$TMP/stat.json" ||
		fail "stat --kernel's JSON does not validate"
fi
[ -z "$(ls -A "$TMP/stmp")" ] || fail "stat left behind: $(ls -A "$TMP/stmp")"
echo ok
