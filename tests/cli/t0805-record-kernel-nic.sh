#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# perpkt record --kernel IMAGE --net nic: two guests of Debian's 6.1
# cloud kernel joined by an emulated virtio-net NIC (QEMU's dgram netdev
# over two unix sockets in the run's folders: nothing leaves the guests),
# perpkt serve in the responder, the client's record --peer in the
# other. One profile with both sides: the responder's driver bucket
# (virtio_net functions) and its NIC's input interrupts per round trip
# are not zero. Short windows: the host is loaded; about 20-40 s a pair.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the NIC pair boots x86_64 guests"
command -v qemu-system-x86_64 >/dev/null ||
	skip "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
[ -x /bin/busybox ] || skip "no /bin/busybox (apt-get install busybox-static)"
command -v jq >/dev/null || skip "needs jq"
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

# a sampled pair; every CPU of the responder sampled (its NIC's softirq
# runs where the interrupt lands), a 250 us period for enough samples
expect_exit 0 "$PERPKT" record --kernel "$img" --net nic -d 0.5 -w 0.3 \
	-c 250000 --remote-cpus all -o "$TMP/p.json"
P=$TMP/p.json
jq -r '.conditions["lab.nic"]' "$P" | grep -q '^virtio-net-pci, client 10.248.27.2, responder 10.248.27.1' ||
	fail "lab.nic: $(jq -r '.conditions["lab.nic"]' "$P")"
jq -r '.conditions["lab.qemu_command"]' "$P" | grep -q -- '-netdev dgram,id=nic0,local.type=unix' ||
	fail "QEMU command: $(jq -r '.conditions["lab.qemu_command"]' "$P")"
[ "$(jq -r .workload.network "$P")" = peer ] || fail "network $(jq -r .workload.network "$P")"
rts=$(jq -r .workload.round_trips "$P")
[ "$rts" -ge 50 ] || fail "only $rts round trips"
# both sides: the remote one is the responder guest's kernel
[ "$(jq -r '.remote.system.kernel_release' "$P")" = "$rel" ] ||
	fail "no remote side of kernel $rel: $(jq -r '.remote.system.kernel_release // .remote_missing' "$P")"
rrt=$(jq -r .remote.workload.round_trips "$P")
[ "$rrt" -ge 50 ] || fail "the responder answered $rrt round trips"
# its NIC's input interrupts per round trip (about 1 here)
irq=$(jq -r '[.remote.counters.irqs[] | select(.kind == "irq" and (.desc // "" | test("virtio[0-9]+-input"))) | .count] | add // 0' "$P")
awk -v i="$irq" -v r="$rrt" 'BEGIN { exit !(i / r > 0.1) }' ||
	fail "responder's virtio input interrupts: $irq for $rrt round trips"
# its driver bucket, and the virtio_net functions in it
"$PERPKT" report -i "$P" --side remote --format json >"$TMP/r.json" 2>"$TMP/rerr" ||
	fail "report --side remote: $(cat "$TMP/rerr")"
drv=$(jq -r '[.buckets[] | select(.name == "driver") | .samples.primary] | add // 0' "$TMP/r.json")
[ "$drv" -gt 0 ] || fail "responder's driver bucket is empty"
jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | grep -q -E '^(virtnet|virtqueue|vring|vp_|skb_recv_done|skb_xmit_done|start_xmit|receive_buf|try_fill_recv)' ||
	fail "no virtio functions in the responder's driver bucket: $(jq -r '.functions[] | select(.bucket == "driver") | .name' "$TMP/r.json" | head -5 | tr '\n' ' ')"
echo ok
