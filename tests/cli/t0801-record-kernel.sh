#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest-label: lab
# perpkt record --kernel: boots a Debian cloud kernel under QEMU (TCG
# here: nested KVM cannot run a guest on these VMs, which the first KVM
# boot finds out in seconds and the cache keeps: src/lab/accel.h; t0119
# drives that fallback with a fake QEMU), records a short loopback run
# inside it and brings the profile out: the guest's kernel, build-id and
# symbols, how it was emulated, and a report that says times are
# emulated. Then the errors: a file that is not a kernel, a boot that
# times out, a vmlinux of another build, no QEMU at all.
# The kernel comes from tests/lab/fetch-kernel.sh: one 27 MB download
# (linux-image-6.1.0-57-cloud-amd64-unsigned), cached; about 40 s.
. "$(dirname "$0")/lib.sh"
need_x86_guest "the lab smoke test"
guest_kernel

expect_exit 0 "$PERPKT" record --kernel "$img" -d 0.5 -w 0.2 -o "$TMP/p.json"
P=$TMP/p.json
[ "$(jq -r .system.kernel_release "$P")" = "$rel" ] ||
	fail "guest kernel: $(jq -r .system.kernel_release "$P"), expected $rel"
[ "$(jq -r .system.kernel_release "$P")" != "$(uname -r)" ] || fail "recorded the host kernel"
gid=$(jq -r .system.build_id "$P")
[[ $gid =~ ^[0-9a-f]{40}$ ]] || fail "guest build-id '$gid'"
rts=$(jq -r .workload.round_trips "$P")
[ "$rts" -ge 100 ] || fail "only $rts round trips in the guest"
[ "$(jq '[.samples[]?] | length' "$P")" -gt 0 ] || fail "no samples"
[ "$(jq '.kallsyms | length' "$P")" -gt 10 ] || fail "no kallsyms entries from the guest"
accel=$(jq -r '.conditions["lab.accel"]' "$P")
case $accel in tcg*|kvm*) ;; *) fail "lab.accel '$accel'" ;; esac
jq -r '.conditions["lab.qemu"]' "$P" | grep -q '^QEMU emulator version' || fail "no QEMU version"
jq -r '.conditions["lab.qemu_command"]' "$P" | grep -q -- '-nic none' || fail "QEMU command not recorded"
jq -r '.conditions["kernel.cmdline"]' "$P" | grep -q 'rdinit=/init' || fail "conditions are not the guest's"
grep -q "guest booted to /init in" "$TMP/err" || fail "no boot time on stderr"
# the guest's messages are relayed, with the host's output path
grep -q "wrote '$P'" "$TMP/err" || fail "guest summary not relayed: $(cat "$TMP/err")"
expect_exit 0 "$PERPKT" report -i "$P"
if [ "${accel#tcg}" != "$accel" ]; then
	tr '\n' ' ' <"$TMP/out" | grep -q "times are emulated" || fail "report of a TCG profile does not say times are emulated"
fi
grep -q "round trips: $rts " "$TMP/out" || fail "report round trips"
if [ "${accel#tcg}" != "$accel" ]; then
	expect_exit 0 "$PERPKT" diff "$P" "$P"
	tr '\n' ' ' <"$TMP/out" | grep -q "both profiles were recorded under QEMU TCG emulation" ||
		fail "diff of TCG profiles does not say so"
fi

# not a kernel: refused before QEMU starts
expect_exit 2 "$PERPKT" record --kernel /bin/busybox -d 0.2 -o "$TMP/x.json"
grep -q "'/bin/busybox' is not a kernel QEMU can boot: an ELF file but no Linux kernel" "$TMP/err" ||
	fail "bad kernel message: $(cat "$TMP/err")"
! grep -q booting "$TMP/err" || fail "booted a file that is no kernel"
[ ! -e "$TMP/x.json" ] || fail "a profile from a kernel that did not boot"
# a boot cut short: timeout named, console tail shown
expect_exit 2 "$PERPKT" record --kernel "$img" --qemu-arg=-accel --qemu-arg=tcg \
	--qemu-timeout 1 -d 0.2 -o "$TMP/x.json"
grep -q "did not boot to /init within 1 s" "$TMP/err" || fail "timeout message: $(cat "$TMP/err")"
grep -q "guest console (ttyS0)" "$TMP/err" || fail "no console tail"
# no QEMU on PATH: named with its package
PATH=/nonexistent expect_exit 2 "$PERPKT" record --kernel "$img" -o "$TMP/x.json"
grep -q "cannot find 'qemu-system-x86_64' on PATH: apt-get install qemu-system-x86" "$TMP/err" ||
	fail "missing qemu message: $(cat "$TMP/err")"
# --vmlinux of another build: refused after the run, naming both ids
K=$BUILDDIR/tests/fixtures/ktree/vmlinux
expect_exit 2 "$PERPKT" record --kernel "$img" --vmlinux "$K" -d 0.2 -w 0.1 -o "$TMP/x.json"
grep -q "build-id mismatch: the guest kernel is [0-9a-f]* but '$K' is" "$TMP/err" ||
	fail "vmlinux mismatch message: $(cat "$TMP/err")"
[ ! -e "$TMP/x.json" ] || fail "a profile despite the mismatch"
expect_exit 64 "$PERPKT" record --vmlinux "$K" -o "$TMP/x.json"
echo "ok: $rts round trips in $rel, $accel"
