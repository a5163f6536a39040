#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt report --vmlinux/--kallsyms/--force: a vmlinux of another build
# than the recorded kernel is refused naming both build-ids, accepted
# with --force; a kallsyms file of the same boot is accepted.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
need_perf
K=$BUILDDIR/tests/fixtures/ktree
expect_exit 0 "$PERPKT" record -d 0.5 -w 0.2 -o "$TMP/p.json"
kid=$(jq -r '.system.build_id' "$TMP/p.json")
[ "$kid" != null ] || skip "no kernel build-id recorded (no /sys/kernel/notes)"
vid=$(readelf -n "$K/vmlinux" | awk '/Build ID/ { print $3 }')

expect_exit 2 "$PERPKT" report -i "$TMP/p.json" --vmlinux "$K/vmlinux"
grep -q "build-id mismatch: the kernel is $kid but '$K/vmlinux' is $vid" "$TMP/err" ||
	fail "mismatch message: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "a report despite the mismatch"

expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --vmlinux "$K/vmlinux" --force --format json
grep -q "accepted (--force)" "$TMP/err" || fail "no warning under --force"
jq -e . "$TMP/out" >/dev/null || fail "not JSON"

[ -r /proc/kallsyms ] && [ "$(awk '$3 == "_text" { print $1 }' /proc/kallsyms)" != 0000000000000000 ] ||
	skip "kernel addresses hidden in /proc/kallsyms"
expect_exit 0 "$PERPKT" report -i "$TMP/p.json" --kallsyms /proc/kallsyms
grep -q "round trips" "$TMP/out" || fail "report from kallsyms"
expect_exit 64 "$PERPKT" report -i "$TMP/p.json" --kallsyms /proc/kallsyms --vmlinux "$K/vmlinux"
echo ok
