#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A vmlinux of another build is refused, naming both build-ids, unless
# --force; the matching one is accepted.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
K=$BUILDDIR/tests/fixtures/ktree
[ -f "$K/vmlinux-other-build" ] || fail "fixture not built"
id=$(readelf -n "$K/vmlinux" | awk '/Build ID/ { print $3 }')
other=$(readelf -n "$K/vmlinux-other-build" | awk '/Build ID/ { print $3 }')
[ -n "$id" ] && [ "$other" = 0123456789abcdef0123456789abcdef01234567 ] ||
	fail "fixture build-ids: '$id' '$other'"
A=0x$(nm "$K/vmlinux" | awk '$3 == "schedule" { print $1 }')

expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux" --build-id "$id" "$A"
grep -q "^$A schedule+0x0 kernel/sched/core.c:" "$TMP/out" || fail "matching build-id: $(cat "$TMP/out")"

expect_exit 2 "$PERPKT" resolve --vmlinux "$K/vmlinux-other-build" --build-id "$id" "$A"
grep -q "build-id mismatch: the kernel is $id but '$K/vmlinux-other-build' is $other; give the vmlinux of that kernel, or --force" "$TMP/err" ||
	fail "mismatch message: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "output despite the mismatch"

expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux-other-build" --build-id "$id" --force "$A"
grep -q "build-id mismatch accepted (--force)" "$TMP/err" || fail "no warning under --force"
grep -q "schedule+0x0" "$TMP/out" || fail "--force gave no result"

# Upper case is the same id.
expect_exit 0 "$PERPKT" resolve --vmlinux "$K/vmlinux" --build-id "${id^^}" "$A"
expect_exit 64 "$PERPKT" resolve --vmlinux "$K/vmlinux" --build-id xyz "$A"
echo ok
